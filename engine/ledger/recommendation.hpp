// The plan a reader should pick (docs/report.md, "The verdict"): the lowest NPV among the plans
// that serve their work. A plan that leaves work unserved at the horizon's end looks cheap
// because the work it never did costs nothing; it competes only when the scenario prices waiting
// (waiting_usd_per_gpu_hour > 0), and is then recommended with its unserved GPU-hours named.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/ledger/breakeven.hpp"
#include "engine/ledger/comparison.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/scenario.hpp"

namespace tco {

// A plan "leaves work unserved" when it leaves more than the plan that leaves least (every plan of
// a replay has jobs still running at the horizon's end) by more than this share of the demand.
inline constexpr double kUnservedToleranceShare = 0.01;

struct Recommendation {
  std::size_t plan = 0;                       // index into the scenario's plans
  std::optional<std::size_t> passed_over;     // a cheaper plan left out because it leaves work unserved
  bool waiting_priced = false;
  // The utilization breakeven that tells when owning beats the recommended plan: the plan's own
  // fleet (else the cheapest owning plan's) against the plan's cloud offer (else the baseline's) on
  // the price the plan mostly pays: reserved when it commits, spot when spot_share >= 0.5, else
  // on-demand. Index into the run's utilization breakevens; none when the scenario owns nothing.
  std::optional<std::size_t> breakeven;
  // The breakevens that decide (docs/report.md "The verdict"): each owning plan's fleet against the
  // offer and price basis that plan pays, and every fleet against the price of the verdict's
  // breakeven. Indices into the run's utilization breakevens, ascending.
  std::vector<std::size_t> deciding_breakevens;
  // The plan with the lowest nominal total when it is not the recommended one (its NPV is higher:
  // it spends earlier, or it leaves work unserved).
  std::optional<std::size_t> lowest_nominal;
};

// The price a plan mostly pays its cloud offer: "reserved_1y"/"reserved_3y" when it commits,
// "spot" when spot_share >= 0.5, else "on_demand".
std::string price_basis_paid(const Plan& plan);

Recommendation recommend(const Scenario& scenario, const std::vector<PlanResult>& results, double demand_gpu_hours,
                         const std::vector<UtilizationBreakeven>& breakevens);

// Every other plan compared with the recommended one (payback against the plan a reader will pick);
// empty when the recommended plan is the baseline (the run's comparisons already are these).
std::vector<Comparison> compare_with_recommended(const Scenario& scenario, const std::vector<PlanResult>& results,
                                                 const Recommendation& recommendation);

}  // namespace tco
