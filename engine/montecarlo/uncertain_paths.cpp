#include "engine/montecarlo/uncertain_paths.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "engine/ledger/comparison.hpp"
#include "core/error.hpp"
#include "core/parallel/byte_codec.hpp"
#include "core/parallel/split_items.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "core/random/random.hpp"
#include "core/stats/rank_correlation.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/workload/workload.hpp"

namespace tco {

UncertaintyInputs make_uncertainty_inputs(Json document, const std::string& file, const std::string& dir,
                                          const std::string& catalog_dir, std::optional<long> paths,
                                          std::optional<std::uint64_t> seed) {
  UncertaintyInputs in;
  in.document = std::move(document);
  in.file = file;
  in.dir = dir;
  in.catalog_dir = catalog_dir;
  in.base = load_scenario_json(in.document, file, dir, catalog_dir);
  if (!in.base.uncertain)
    throw InputError(file, "/uncertain",
                     "expected an \"uncertain\" section (the inputs to vary, docs/scenario.md), found none");
  in.paths = paths.value_or(in.base.monte_carlo.paths);
  if (in.paths < 1 || in.paths > 100000000)
    throw InputError("", "--paths", fmt::format("expected 1 to 100,000,000 paths, found {}", in.paths));
  in.seed = seed.value_or(in.base.monte_carlo.seed);
  return in;
}

UncertaintyInputs read_uncertainty_inputs(const std::string& scenario_path, const std::string& catalog_dir,
                                          std::optional<long> paths, std::optional<std::uint64_t> seed) {
  const std::string dir = std::filesystem::path(scenario_path).parent_path().string();
  UncertaintyInputs in =
      make_uncertainty_inputs(read_json_file(scenario_path), scenario_path, dir.empty() ? "." : dir, catalog_dir, paths, seed);
  return in;
}

std::vector<std::vector<double>> draw_uncertain_values(const UncertainSpec& spec, long paths, std::uint64_t seed) {
  const std::size_t k = spec.inputs.size();
  std::vector<std::vector<double>> values(k, std::vector<double>(static_cast<std::size_t>(paths)));
  for (std::size_t i = 0; i < k; ++i)
    for (long p = 0; p < paths; ++p)
      values[i][p] = spec.inputs[i].distribution.quantile(
          uniform(seed, static_cast<std::uint32_t>(p), RandomSource::uncertain_input, static_cast<std::uint32_t>(i), 0u));
  if (!spec.rank_correlation.empty()) values = iman_conover(values, spec.rank_correlation);
  for (std::size_t i = 0; i < k; ++i)
    for (double& v : values[i]) v = spec.inputs[i].as_written(v);
  return values;
}

Scenario load_with_values(const UncertaintyInputs& in, const std::vector<double>& values, const std::string& what) {
  const UncertainSpec& spec = *in.base.uncertain;
  try {
    return load_scenario_json(document_with_values(in.document, spec, values), in.file, in.dir, in.catalog_dir);
  } catch (const std::exception& e) {
    std::string described;
    for (std::size_t i = 0; i < spec.inputs.size() && i < values.size(); ++i)
      described += fmt::format("{}{} = {}", i ? ", " : "", spec.inputs[i].pointer, values[i]);
    throw InputError(in.file, "/uncertain",
                     fmt::format("{} ({}) is not a valid scenario: {}", what, described, e.what()));
  }
}

ScenarioOutcomes evaluate_outcomes(const Scenario& s) {
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  std::vector<PlanResult> results;
  results.reserve(s.plans.size());
  for (const auto& plan : s.plans) results.push_back(evaluate_plan(s, plan, demand));
  ScenarioOutcomes out;
  const double rate = s.discount_rate_per_year;
  const Ledger& baseline = results[s.baseline_index].ledger;
  for (const auto& r : results) {
    out.npv_usd.push_back(r.npv_usd);
    out.cloud_npv_usd.push_back(r.ledger.category_npv_usd(Category::cloud_on_demand, rate) +
                                r.ledger.category_npv_usd(Category::cloud_spot, rate) +
                                r.ledger.category_npv_usd(Category::cloud_reserved, rate));
    out.payback_month.push_back(payback_month(r.ledger, baseline, rate));
  }
  return out;
}

std::vector<double> UncertainPaths::saving_usd(int plan, int baseline) const {
  std::vector<double> out(outcomes.size());
  for (std::size_t p = 0; p < outcomes.size(); ++p) out[p] = outcomes[p].npv_usd[baseline] - outcomes[p].npv_usd[plan];
  return out;
}

namespace {

constexpr const char* kUncertainOutcomesWhat = "the uncertain inputs' path outcomes";
constexpr int kNoPayback = -1;  // payback months are >= 0

void put_outcomes(std::string& bytes, const ScenarioOutcomes& o) {
  put_vector(bytes, o.npv_usd);
  put_vector(bytes, o.cloud_npv_usd);
  std::vector<int> payback;
  for (const auto& m : o.payback_month) payback.push_back(m.value_or(kNoPayback));
  put_vector(bytes, payback);
}

ScenarioOutcomes get_outcomes(const std::string& bytes, std::size_t& at) {
  ScenarioOutcomes o;
  o.npv_usd = get_vector<double>(bytes, at, kUncertainOutcomesWhat);
  o.cloud_npv_usd = get_vector<double>(bytes, at, kUncertainOutcomesWhat);
  for (int m : get_vector<int>(bytes, at, kUncertainOutcomesWhat))
    o.payback_month.push_back(m == kNoPayback ? std::nullopt : std::optional<int>(m));
  return o;
}

}  // namespace

UncertainPaths run_uncertain_paths(const UncertaintyInputs& in, int threads, ProgressCounter* progress,
                                   bool split_over_processes) {
  UncertainPaths out;
  out.values = draw_uncertain_values(*in.base.uncertain, in.paths, in.seed);
  out.outcomes.resize(static_cast<std::size_t>(in.paths));
  const std::size_t k = out.values.size();
  progress_begin(progress, in.paths, "paths of the uncertain inputs");
  const auto run_block = [&](IndexBlock mine) {
    parallel_for_index(mine.size(), threads, [&](long i) {
      const long p = mine.begin + i;
      std::vector<double> values(k);
      for (std::size_t j = 0; j < k; ++j) values[j] = out.values[j][p];
      Scenario drawn = load_with_values(in, values, fmt::format("Monte Carlo path {}", p));
      // A drawn next-generation arrival: the core Monte Carlo's month on this path (same seed and u).
      if (drawn.next_generation && drawn.next_generation->arrival_draw.drawn)
        drawn = with_arrival_month(drawn, arrival_month_on_path(drawn.next_generation->arrival_draw, in.seed,
                                                                static_cast<std::uint32_t>(p)));
      out.outcomes[p] = evaluate_outcomes(drawn);
    }, progress);
  };
  if (!split_over_processes || !processes_split()) {
    run_block({0, in.paths});
    return out;
  }
  const std::vector<std::string> pieces = gather_item_blocks(in.paths, true, [&](IndexBlock mine) {
    run_block(mine);
    std::string bytes;
    for (long p = mine.begin; p < mine.end; ++p) put_outcomes(bytes, out.outcomes[p]);
    return bytes;
  });
  long p = 0;
  for (const std::string& piece : pieces)
    for (std::size_t at = 0; at < piece.size(); ++p) out.outcomes[p] = get_outcomes(piece, at);
  return out;
}

}  // namespace tco
