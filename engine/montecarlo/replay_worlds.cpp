#include "engine/montecarlo/replay_worlds.hpp"

#include "models/next_generation/arrival_draw.hpp"
#include "models/next_generation/next_generation.hpp"

namespace tco {

ReplayPlans::ReplayPlans(const Scenario& s) : prepared(des::prepare_des_plans(s)) {
  for (const auto& group : prepared.pool_groups) {
    group_plans.emplace_back();
    for (int k : group) group_plans.back().push_back(&prepared.plans[k]);
  }
}

ReplayWorlds::ReplayWorlds(const Scenario& s, std::uint64_t seed)
    : base_(s),
      seed_(seed),
      drawn_(s.next_generation && s.next_generation->arrival_draw.drawn),
      base_plans_(s) {}

int ReplayWorlds::arrival_month(std::uint32_t path) const {
  return drawn_ ? arrival_month_on_path(base_.next_generation->arrival_draw, seed_, path) : -1;
}

void ReplayWorlds::prepare(long first_path, long end_path) {
  if (!drawn_) return;
  for (long p = first_path; p < end_path; ++p) {
    const int month = arrival_month(static_cast<std::uint32_t>(p));
    if (by_month_.count(month)) continue;
    World w;
    w.scenario = std::make_unique<Scenario>(with_arrival_month(base_, month));
    w.plans = std::make_unique<ReplayPlans>(*w.scenario);
    by_month_.emplace(month, std::move(w));
  }
}

const Scenario& ReplayWorlds::scenario(int arrival_month) const {
  return arrival_month < 0 ? base_ : *by_month_.at(arrival_month).scenario;
}

const ReplayPlans& ReplayWorlds::plans(int arrival_month) const {
  return arrival_month < 0 ? base_plans_ : *by_month_.at(arrival_month).plans;
}

}  // namespace tco
