#include "engine/decisions/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <Eigen/Core>
#include <Eigen/QR>
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parallel/split_items.hpp"

namespace tco {

int default_sensitivity_plan(const Scenario& s, const ScenarioOutcomes& base) {
  int best = -1;
  for (int j = 0; j < static_cast<int>(s.plans.size()); ++j) {
    if (j == s.baseline_index) continue;
    if (best < 0 || base.npv_usd[j] < base.npv_usd[best]) best = j;
  }
  if (best < 0)
    throw InputError(s.file, "/plans",
                     "expected at least two plans: the analysis compares a plan with the baseline, found the baseline "
                     "alone");
  return best;
}

int sensitivity_plan_index(const Scenario& s, const ScenarioOutcomes& base, const std::string& name) {
  if (name.empty()) return default_sensitivity_plan(s, base);
  for (int j = 0; j < static_cast<int>(s.plans.size()); ++j)
    if (s.plans[j].name == name) {
      if (j == s.baseline_index)
        throw InputError("", "--plan",
                         fmt::format("\"{}\" is the baseline: choose a plan to compare with it", name));
      return j;
    }
  std::string known;
  for (const auto& p : s.plans) known += (known.empty() ? "" : ", ") + p.name;
  throw InputError("", "--plan", fmt::format("expected the name of a plan ({}), found \"{}\"", known, name));
}

Tornado tornado(const UncertaintyInputs& in, const std::vector<UncertainInput>& inputs, int plan,
                const ScenarioOutcomes& base, int threads, ProgressCounter* progress, bool split_over_processes) {
  const Scenario& s = in.base;
  const int baseline = s.baseline_index;
  Tornado t;
  t.plan = s.plans[plan].name;
  t.baseline = s.plans[baseline].name;
  t.base_saving_usd = base.npv_usd[baseline] - base.npv_usd[plan];
  const std::size_t k = inputs.size();
  std::vector<double> base_values(k);
  for (std::size_t i = 0; i < k; ++i) base_values[i] = inputs[i].base;
  // Task 2i: input i at its low value; 2i + 1: at its high value.
  std::vector<double> saving(2 * k);
  UncertaintyInputs varied = in;
  varied.base.uncertain->inputs = inputs;
  progress_begin(progress, static_cast<std::int64_t>(2 * k), "tornado bars (input low/high)");
  const auto run_block = [&](IndexBlock mine) {
    parallel_for_index(mine.size(), threads, [&](long i) {
      const long task = mine.begin + i;
      const std::size_t input = static_cast<std::size_t>(task / 2);
      std::vector<double> values = base_values;
      values[input] = task % 2 == 0 ? inputs[input].low : inputs[input].high;
      const ScenarioOutcomes o = evaluate_outcomes(load_with_values(
          varied, values,
          fmt::format("the tornado's {} value of \"{}\"", task % 2 == 0 ? "low" : "high", inputs[input].name)));
      saving[task] = o.npv_usd[baseline] - o.npv_usd[plan];
    }, progress);
    return std::string(reinterpret_cast<const char*>(saving.data() + mine.begin),
                       static_cast<std::size_t>(mine.size()) * sizeof(double));
  };
  if (!split_over_processes || !processes_split()) {
    run_block({0, static_cast<long>(2 * k)});
  } else {
    const std::vector<std::string> pieces = gather_item_blocks(static_cast<long>(2 * k), true, run_block);
    if (!is_root_process()) return t;
    std::string all;
    for (const std::string& piece : pieces) all += piece;
    std::memcpy(saving.data(), all.data(), std::min(all.size(), saving.size() * sizeof(double)));
  }
  for (std::size_t i = 0; i < k; ++i) {
    TornadoBar b;
    b.input = inputs[i].name;
    b.pointer = inputs[i].pointer;
    b.base = inputs[i].base;
    b.low = inputs[i].low;
    b.high = inputs[i].high;
    b.saving_at_low_usd = saving[2 * i];
    b.saving_at_high_usd = saving[2 * i + 1];
    b.swing_usd = std::fabs(b.saving_at_high_usd - b.saving_at_low_usd);
    t.bars.push_back(b);
  }
  std::stable_sort(t.bars.begin(), t.bars.end(),
                   [](const TornadoBar& a, const TornadoBar& b) { return a.swing_usd > b.swing_usd; });
  return t;
}

SrcResult standardized_regression(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
  SrcResult out;
  const long n = static_cast<long>(y.size());
  out.n = n;
  out.src.assign(x.size(), std::nullopt);
  if (n < 3) return out;
  auto mean_sd = [n](const std::vector<double>& v) {
    double mean = 0.0;
    for (double a : v) mean += a;
    mean /= static_cast<double>(n);
    double ss = 0.0;
    for (double a : v) ss += (a - mean) * (a - mean);
    return std::pair<double, double>(mean, std::sqrt(ss / static_cast<double>(n - 1)));
  };
  const auto [y_mean, y_sd] = mean_sd(y);
  // A response that does not move (to rounding) explains nothing and is explained by nothing.
  if (!(y_sd > 1e-12 * std::max(1.0, std::fabs(y_mean)))) return out;
  std::vector<std::size_t> used;
  std::vector<std::pair<double, double>> moments;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto ms = mean_sd(x[i]);
    if (ms.second > 1e-12 * std::max(1.0, std::fabs(ms.first))) {
      used.push_back(i);
      moments.push_back(ms);
    }
  }
  Eigen::VectorXd zy(n);
  for (long p = 0; p < n; ++p) zy(p) = (y[p] - y_mean) / y_sd;
  const double sst = zy.squaredNorm();
  if (used.empty()) {
    out.r_squared = 0.0;
    return out;
  }
  Eigen::MatrixXd zx(n, static_cast<long>(used.size()));
  for (std::size_t c = 0; c < used.size(); ++c)
    for (long p = 0; p < n; ++p) zx(p, static_cast<long>(c)) = (x[used[c]][p] - moments[c].first) / moments[c].second;
  const Eigen::VectorXd b = zx.colPivHouseholderQr().solve(zy);
  for (std::size_t c = 0; c < used.size(); ++c) out.src[used[c]] = b(static_cast<long>(c));
  const double sse = (zy - zx * b).squaredNorm();
  out.r_squared = 1.0 - sse / sst;
  return out;
}

}  // namespace tco
