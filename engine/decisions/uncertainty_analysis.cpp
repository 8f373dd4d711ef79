#include "engine/decisions/uncertainty_analysis.hpp"

#include <chrono>

#include "core/parallel/process_group.hpp"
#include "core/stats/rank_correlation.hpp"

namespace tco {

namespace {

std::vector<UncertainPlanStats> plan_statistics(const Scenario& s, const UncertainPaths& paths) {
  std::vector<UncertainPlanStats> out;
  const int baseline = s.baseline_index;
  for (std::size_t k = 0; k < s.plans.size(); ++k) {
    UncertainPlanStats st;
    st.name = s.plans[k].name;
    std::vector<double> npv(paths.outcomes.size()), difference(paths.outcomes.size());
    for (std::size_t p = 0; p < paths.outcomes.size(); ++p) {
      npv[p] = paths.outcomes[p].npv_usd[k];
      difference[p] = npv[p] - paths.outcomes[p].npv_usd[baseline];
    }
    st.npv_usd = summarize(npv);
    if (static_cast<int>(k) != baseline) {
      st.npv_difference_usd = summarize(difference);
      st.p_cheaper = fraction_negative(difference);
    }
    out.push_back(std::move(st));
  }
  return out;
}

}  // namespace

UncertaintyAnalysis analyse_uncertainty(const UncertaintyInputs& in, const std::string& plan, int threads,
                                        ProgressCounter* progress, bool split_over_processes) {
  const auto started = std::chrono::steady_clock::now();
  UncertaintyAnalysis a;
  const Scenario& s = in.base;
  a.paths = in.paths;
  a.seed = in.seed;
  a.spec = *s.uncertain;
  a.base = evaluate_outcomes(s);
  a.plan = sensitivity_plan_index(s, a.base, plan);
  a.plan_name = s.plans[a.plan].name;
  a.baseline = s.plans[s.baseline_index].name;

  // The collectives first (under mpirun, each rank runs its block of the paths and of the
  // tornado's evaluations); then rank 0 alone computes every statistic from the gathered values.
  const UncertainPaths paths = run_uncertain_paths(in, threads, progress, split_over_processes);
  a.tornado = tornado(in, a.spec.inputs, a.plan, a.base, threads, progress, split_over_processes);
  if (split_over_processes && !is_root_process()) return a;
  const std::size_t k = a.spec.inputs.size();
  for (std::size_t i = 0; i < k; ++i) a.inputs.push_back({a.spec.inputs[i].name, summarize(paths.values[i])});
  a.achieved_rank_correlation.assign(k, std::vector<double>(k, 1.0));
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < i; ++j)
      a.achieved_rank_correlation[i][j] = a.achieved_rank_correlation[j][i] = spearman(paths.values[i], paths.values[j]);

  a.plans = plan_statistics(s, paths);
  const std::vector<double> saving = paths.saving_usd(a.plan, s.baseline_index);
  a.saving_usd = summarize(saving, WorstTail::low);
  long positive = 0;
  for (double x : saving) positive += x > 0.0 ? 1 : 0;
  a.probability_saving = saving.empty() ? 0.0 : static_cast<double>(positive) / static_cast<double>(saving.size());
  a.src = standardized_regression(paths.values, saving);
  a.breakevens = uncertain_breakevens(in, paths, a.base, a.plan, threads, progress);
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return a;
}

}  // namespace tco
