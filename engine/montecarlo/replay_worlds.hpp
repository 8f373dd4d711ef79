// The discrete-event Monte Carlo's plans, per next-generation arrival month. Without a drawn
// arrival there is one world, the scenario's. With `next_generation.arrival_month` drawn per path
// (models/next_generation/arrival_draw.hpp) path p replays in the world of its month A_p: the
// scenario with the event's steps moved to A_p (with_arrival_month) and its plans prepared for the
// replay, built once for each month some path draws (prepare() runs serially before a batch; the
// paths then only read). So path p of the replay is the replay of the scenario written with
// `arrival_month` A_p, bit for bit.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "engine/des/des_plan.hpp"
#include "models/scenario.hpp"

namespace tco {

// A scenario's plans prepared for the replay and grouped for des::simulate_group_*.
struct ReplayPlans {
  explicit ReplayPlans(const Scenario& s);
  ReplayPlans(const ReplayPlans&) = delete;  // group_plans point into prepared
  ReplayPlans& operator=(const ReplayPlans&) = delete;

  des::DesPlans prepared;
  std::vector<std::vector<const des::DesPlan*>> group_plans;  // by pool group
};

class ReplayWorlds {
 public:
  ReplayWorlds(const Scenario& s, std::uint64_t seed);

  bool arrival_drawn() const { return drawn_; }
  // The path's arrival month; -1 without a drawn arrival.
  int arrival_month(std::uint32_t path) const;
  // Builds the worlds of paths [first, end) that are not built yet.
  void prepare(long first_path, long end_path);
  const Scenario& scenario(int arrival_month) const;
  const ReplayPlans& plans(int arrival_month) const;

 private:
  struct World {
    std::unique_ptr<Scenario> scenario;
    std::unique_ptr<ReplayPlans> plans;
  };

  const Scenario& base_;
  std::uint64_t seed_;
  bool drawn_;
  ReplayPlans base_plans_;
  std::map<int, World> by_month_;
};

}  // namespace tco
