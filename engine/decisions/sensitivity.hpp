// Sensitivity of a plan's NPV saving vs the baseline, S = NPV(baseline) - NPV(plan), to the
// scenario's uncertain inputs (SPEC §8; docs/decisions.md).
// Tornado: S_i(low) and S_i(high) with input i at its low and high value and every other input at
//   the value the scenario writes (its base); bars sorted by swing |S_i(high) - S_i(low)|, the
//   largest first (input order on a tie). An input with low = high has a zero bar.
// Standardised regression coefficients (SRC), on the Monte Carlo paths:
//   z_y = (S - mean S) / sd S,  z_i = (x_i - mean x_i) / sd x_i,  z_y = sum_i b_i z_i + e
//   b = the least-squares solution (Eigen, column-pivoting Householder QR); R^2 = 1 - SSE / SST is
//   the share of the saving's variance the linear model explains. For independent inputs b_i^2
//   is about input i's share of the variance; an input that does not enter the model has
//   b_i ~ N(0, 1/n): |b_i| < 2 / sqrt(n) in 95 % of samples. An input that did not vary (sd 0)
//   has no coefficient (null), and neither does anything when S did not vary.
// Example: S = 2 x_1 - 3 x_2 with sd x_1 = sd x_2 = 1, independent: sd S = sqrt(13), so
//   b = (2, -3) / sqrt(13) = (0.555, -0.832), R^2 = 1.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/montecarlo/uncertain_paths.hpp"
#include "models/uncertain.hpp"

namespace tco {

struct TornadoBar {
  std::string input;
  std::string pointer;
  double base = 0.0;
  double low = 0.0;
  double high = 0.0;
  double saving_at_low_usd = 0.0;
  double saving_at_high_usd = 0.0;
  double swing_usd = 0.0;  // |saving at high - saving at low|
};

struct Tornado {
  std::string plan;
  std::string baseline;
  double base_saving_usd = 0.0;
  std::vector<TornadoBar> bars;  // sorted by swing, largest first
};

// The plan the analyses look at by default: the non-baseline plan with the largest NPV saving at
// the base values (the first on a tie). Throws InputError when the scenario has one plan only.
int default_sensitivity_plan(const Scenario& scenario, const ScenarioOutcomes& base);
// The plan named `name` ("" = the default). Throws InputError naming the option when unknown.
int sensitivity_plan_index(const Scenario& scenario, const ScenarioOutcomes& base, const std::string& name);

// The tornado for `inputs` (normally the scenario's own; a test may swap a low and a high).
// split_over_processes: under mpirun, the 2 x inputs evaluations split in contiguous blocks over
// the ranks, their savings gathered to rank 0 (the others return no bars). Every rank must call.
Tornado tornado(const UncertaintyInputs& in, const std::vector<UncertainInput>& inputs, int plan,
                const ScenarioOutcomes& base, int threads, ProgressCounter* progress = nullptr,
                bool split_over_processes = false);

struct SrcResult {
  long n = 0;
  std::vector<std::optional<double>> src;  // per input; null: the input did not vary
  std::optional<double> r_squared;         // null: the response did not vary
};

// x: [input][path]; y: [path].
SrcResult standardized_regression(const std::vector<std::vector<double>>& x, const std::vector<double>& y);

}  // namespace tco
