// The Monte Carlo over a scenario's `uncertain` inputs (docs/decisions.md). Path p:
//   u_ip = uniform(seed, path p, source uncertain_input, entity i, draw 0)     (Philox)
//   x_ip = quantile_i(u_ip)                                   (models/uncertain.hpp)
//   with a rank correlation C: the columns x_i are reordered by Iman-Conover
//   (core/stats/rank_correlation.hpp) so that their Spearman correlation is C
//   the scenario document with x_.p written at the inputs' pointers is loaded (strictly, as a
//   scenario file) and every plan is evaluated over the horizon with the deterministic hourly
//   fluid model: the ledgers of run_deterministic (engine/scenario_run.hpp), without its price
//   breakeven root-finding, which the analyses below do once on the common-random-number mean.
// Per path and plan: NPV, the cloud part of the NPV (on-demand + spot + reserved, the part a
// cloud price multiplier k scales: NPV(k) = NPV + (k - 1) cloud NPV exactly, since the hourly
// routing does not depend on prices) and the payback month vs the baseline.
// Paths run in parallel (OpenMP); each result is stored at its path's index, so the numbers do
// not depend on the thread count. Without a rank correlation a path's inputs depend only on
// (seed, path); with one, on (seed, number of paths), since Iman-Conover reorders the sample.
// Example: 2 inputs, 1,000 paths: 1,000 scenario loads and 1,000 x plans evaluate_plan calls.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "core/parallel_for_index.hpp"  // the paths run on it; its users include this header
#include "models/scenario.hpp"

namespace tco {

// A scenario document and what is needed to load variations of it.
struct UncertaintyInputs {
  Json document;
  std::string file;         // in messages
  std::string dir;          // relative paths resolve here
  std::string catalog_dir;  // replaces the scenario's catalog_dir when not empty
  Scenario base;            // the document as written; base.uncertain is set
  long paths = 1;
  std::uint64_t seed = 0;
};

// Loads the document (InputError when it is invalid or has no `uncertain` section); paths and
// seed default to the scenario's monte_carlo block.
UncertaintyInputs make_uncertainty_inputs(Json document, const std::string& file, const std::string& dir,
                                          const std::string& catalog_dir, std::optional<long> paths,
                                          std::optional<std::uint64_t> seed);
UncertaintyInputs read_uncertainty_inputs(const std::string& scenario_path, const std::string& catalog_dir,
                                          std::optional<long> paths, std::optional<std::uint64_t> seed);

// The inputs' values on every path, [input][path], rank-correlated and as written (integer fields
// rounded).
std::vector<std::vector<double>> draw_uncertain_values(const UncertainSpec& spec, long paths, std::uint64_t seed);

// The scenario with the inputs at `values` (one per input). InputError naming `what` (e.g. "path
// 17") and the values when that scenario is invalid.
Scenario load_with_values(const UncertaintyInputs& in, const std::vector<double>& values, const std::string& what);

// Every plan of a scenario over its horizon.
struct ScenarioOutcomes {
  std::vector<double> npv_usd;                     // per plan
  std::vector<double> cloud_npv_usd;               // per plan: on-demand + spot + reserved
  std::vector<std::optional<int>> payback_month;   // per plan vs the baseline (the baseline: 0)
};
ScenarioOutcomes evaluate_outcomes(const Scenario& scenario);

struct UncertainPaths {
  std::vector<std::vector<double>> values;  // [input][path]
  std::vector<ScenarioOutcomes> outcomes;   // [path]

  // [path] of NPV(baseline) - NPV(plan).
  std::vector<double> saving_usd(int plan, int baseline) const;
};
// split_over_processes: under mpirun, the paths split in contiguous blocks over the ranks and
// their outcomes gathered to rank 0 in path order (core/parallel/split_items.hpp); rank 0 holds
// every path's outcome, the other ranks only their own. Every rank must call.
UncertainPaths run_uncertain_paths(const UncertaintyInputs& in, int threads, ProgressCounter* progress = nullptr,
                                   bool split_over_processes = false);

}  // namespace tco
