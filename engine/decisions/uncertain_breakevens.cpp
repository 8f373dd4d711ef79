#include "engine/decisions/uncertain_breakevens.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <boost/math/tools/roots.hpp>
#include <fmt/format.h>

#include "engine/ledger/breakeven.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

namespace {

// Quantile q of sorted months where nullopt (never) sorts last; null when it touches a never.
std::optional<double> month_quantile(const std::vector<double>& finite_sorted, long n, double q) {
  const double position = (static_cast<double>(n) - 1.0) * q;
  const auto below = static_cast<long>(std::floor(position));
  const long above = std::min(below + 1, n - 1);
  const double weight = position - static_cast<double>(below);
  const long finite = static_cast<long>(finite_sorted.size());
  if (below >= finite) return std::nullopt;
  if (weight > 0.0 && above >= finite) return std::nullopt;
  const double lo = finite_sorted[below];
  const double hi = above < finite ? finite_sorted[above] : lo;
  return lo + weight * (hi - lo);
}

double mean_of(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x;  // path order
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

}  // namespace

PaybackDistribution payback_distribution(const std::vector<std::optional<int>>& months) {
  PaybackDistribution d;
  d.paths = static_cast<long>(months.size());
  std::vector<double> finite;
  for (const auto& m : months) {
    if (m) finite.push_back(*m);
    else ++d.never_paths;
  }
  if (d.paths == 0) return d;
  std::sort(finite.begin(), finite.end());
  d.probability_within_horizon = static_cast<double>(finite.size()) / static_cast<double>(d.paths);
  d.p10_month = month_quantile(finite, d.paths, 0.10);
  d.p50_month = month_quantile(finite, d.paths, 0.50);
  d.p90_month = month_quantile(finite, d.paths, 0.90);
  return d;
}

std::optional<double> crn_price_multiplier(const std::vector<double>& plan_npv, const std::vector<double>& plan_cloud,
                                           const std::vector<double>& base_npv, const std::vector<double>& base_cloud) {
  std::vector<double> gap(plan_npv.size()), slope(plan_npv.size());
  for (std::size_t p = 0; p < plan_npv.size(); ++p) {
    gap[p] = plan_npv[p] - base_npv[p];
    slope[p] = plan_cloud[p] - base_cloud[p];
  }
  const double gap_mean = mean_of(gap), slope_mean = mean_of(slope);
  auto f = [&](double k) { return gap_mean + (k - 1.0) * slope_mean; };
  // The bracket and tolerance of engine/ledger/breakeven.cpp's price_breakeven (k = 0 excluded there too).
  const double lo = 1e-9, hi = 1000.0;
  const double f_lo = f(lo), f_hi = f(hi);
  if ((f_lo < 0.0) == (f_hi < 0.0) || f_lo == 0.0 || f_hi == 0.0) return std::nullopt;
  std::uintmax_t iterations = 100;
  const auto [a, b] =
      boost::math::tools::toms748_solve(f, lo, hi, f_lo, f_hi, boost::math::tools::eps_tolerance<double>(40), iterations);
  return 0.5 * (a + b);
}

SimulatedUtilizationBreakeven simulated_utilization_breakeven(const UncertaintyInputs& in,
                                                              const std::vector<std::vector<double>>& values, int plan,
                                                              int threads, ProgressCounter* progress) {
  const Scenario& s = in.base;
  const int baseline = s.baseline_index;
  SimulatedUtilizationBreakeven out;
  out.plan = s.plans[plan].name;
  out.baseline = s.plans[baseline].name;
  const long paths = values.empty() ? in.paths : static_cast<long>(values.front().size());
  out.paths = paths;
  const Plan& p = s.plans[plan];
  if (!p.onprem || p.onprem_nodes <= 0) {
    out.status = "no_onprem_nodes";
    return out;
  }
  out.capacity_gpus = static_cast<double>(p.onprem_nodes) * p.onprem->server.gpus * p.onprem->gpu.perf_relative;
  // An API's bill follows the tokens, which a steady GPU demand in their place does not have
  // (the search evaluated the API with no token demand at all and crashed).
  if (p.uses_api() || s.plans[baseline].uses_api()) {
    out.status = "buys_tokens";
    return out;
  }
  if (s.plans[baseline].cloud) {
    for (const auto& b : utilization_breakevens(s, p, *s.plans[baseline].cloud))
      if (b.price_basis == "on_demand") out.closed_form_utilization = b.utilization;
  }

  // The paths' scenarios, kept slim: only what evaluate_plan reads of the two plans.
  std::vector<Scenario> scenarios(static_cast<std::size_t>(paths));
  progress_begin(progress, paths, "paths loaded for the utilization breakeven");
  parallel_for_index(paths, threads, [&](long k) {
    std::vector<double> v(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) v[i] = values[i][k];
    Scenario sk = load_with_values(in, v, fmt::format("Monte Carlo path {}", k));
    sk.workload = WorkloadSpec{};
    sk.jobs.reset();
    sk.records_used.clear();
    sk.warnings.clear();
    for (auto& pl : sk.plans) pl.resolved = Json();
    scenarios[k] = std::move(sk);
  }, progress);
  const long hours = s.horizon_hours();
  std::vector<double> saving(static_cast<std::size_t>(paths));
  int step = 0;  // the search's evaluations of the mean saving, each a stage of the bar
  auto mean_saving = [&](double demand_gpus) {
    const std::vector<double> demand(static_cast<std::size_t>(hours), demand_gpus);
    progress_begin(progress, paths, fmt::format("paths (utilization breakeven, step {})", ++step));
    parallel_for_index(paths, threads, [&](long k) {
      const Scenario& sk = scenarios[k];
      saving[k] = evaluate_plan(sk, sk.plans[baseline], demand).npv_usd - evaluate_plan(sk, sk.plans[plan], demand).npv_usd;
    }, progress);
    return mean_of(saving);
  };
  const double lo = 0.0, hi = out.capacity_gpus;
  const double f_lo = mean_saving(lo), f_hi = mean_saving(hi);
  double root = 0.0;
  if (f_hi < 0.0) {
    out.status = "never";
    return out;
  }
  if (f_lo >= 0.0) {
    out.status = "always";
    root = 0.0;
  } else if (f_hi == 0.0) {
    out.status = "ok";
    root = hi;
  } else {
    out.status = "ok";
    std::uintmax_t iterations = 60;
    const auto [a, b] = boost::math::tools::toms748_solve(mean_saving, lo, hi, f_lo, f_hi,
                                                         boost::math::tools::eps_tolerance<double>(30), iterations);
    root = 0.5 * (a + b);
  }
  out.steady_demand_gpus = root;
  const std::vector<double> demand(static_cast<std::size_t>(hours), root);
  out.utilization = evaluate_plan(s, p, demand).onprem_utilization.value_or(0.0);
  return out;
}

UncertainBreakevens uncertain_breakevens(const UncertaintyInputs& in, const UncertainPaths& paths,
                                         const ScenarioOutcomes& base, int plan, int threads,
                                         ProgressCounter* progress) {
  const Scenario& s = in.base;
  const int baseline = s.baseline_index;
  UncertainBreakevens out;
  const std::size_t n = paths.outcomes.size();
  auto column = [&](int j, bool cloud) {
    std::vector<double> v(n);
    for (std::size_t p = 0; p < n; ++p) v[p] = cloud ? paths.outcomes[p].cloud_npv_usd[j] : paths.outcomes[p].npv_usd[j];
    return v;
  };
  const std::vector<double> base_npv = column(baseline, false), base_cloud = column(baseline, true);
  for (int j = 0; j < static_cast<int>(s.plans.size()); ++j) {
    if (j == baseline) continue;
    std::vector<std::optional<int>> months(n);
    for (std::size_t p = 0; p < n; ++p) months[p] = paths.outcomes[p].payback_month[j];
    PaybackDistribution d = payback_distribution(months);
    d.plan = s.plans[j].name;
    d.baseline = s.plans[baseline].name;
    d.base_payback_month = base.payback_month[j];
    out.payback.push_back(d);

    UncertainPriceBreakeven b;
    b.plan = d.plan;
    b.baseline = d.baseline;
    const std::vector<double> npv = column(j, false);
    b.crn_mean_multiplier = crn_price_multiplier(npv, column(j, true), base_npv, base_cloud);
    long cheaper = 0;
    for (std::size_t p = 0; p < n; ++p) cheaper += npv[p] < base_npv[p] ? 1 : 0;
    b.probability_cheaper_at_1 = n ? static_cast<double>(cheaper) / static_cast<double>(n) : 0.0;
    out.price.push_back(b);
  }
  out.utilization = simulated_utilization_breakeven(in, paths.values, plan, threads, progress);
  return out;
}

}  // namespace tco
