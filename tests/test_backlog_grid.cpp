// The venues' backlog states past the cap (engine/ledger/hourly/backlog_grid.hpp): each group's
// probability is shared between the two grid points around its backlog, keeping every
// probability and the mean backlog; below the cap every group is its own state.
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/hourly/backlog_grid.hpp"

namespace tco::test {

namespace {

// Groups of one leaf each (the leaves' ranges do not matter to the grid).
std::vector<BacklogGroup> groups_at(const std::vector<std::pair<double, double>>& backlog_and_probability) {
  std::vector<BacklogGroup> out;
  for (const auto& [backlog, probability] : backlog_and_probability)
    out.push_back({out.size(), out.size() + 1, probability, probability * backlog});
  return out;
}

double state_probability(const GridState& s, const std::vector<BacklogGroup>& groups) {
  double p = 0.0;
  for (const GridState::Part& part : s.parts) p += part.fraction * groups[part.group].probability;
  return p;
}

}  // namespace

TEST_CASE("backlog grid: below the cap each group is a state, as it is") {
  const std::vector<BacklogGroup> groups = groups_at({{0.0, 0.5}, {1.0, 0.2}, {2.5, 0.2}, {4.0, 0.1}});
  const std::vector<GridState> states = backlog_grid(groups, 4);
  REQUIRE(states.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(states[k].backlog_gpu_hours == groups[k].backlog_gpu_hours());
    REQUIRE(states[k].parts.size() == 1);
    CHECK(states[k].parts[0].group == k);
    CHECK(states[k].parts[0].fraction == 1.0);
  }
}

TEST_CASE("backlog grid: past the cap, shares between grid points keep the probability and the mean") {
  // The header's example, at most 3 states: 0 stays; grid 1 and 4 (step 3); 2.5 is halfway, so
  // 0.2 / 2 = 0.1 goes to each. States 0 (p 0.5), 1 (0.2 + 0.1 = 0.3), 4 (0.1 + 0.1 = 0.2); mean
  // 0.3 x 1 + 0.2 x 4 = 1.1 = 0.2 x 1 + 0.2 x 2.5 + 0.1 x 4.
  const std::vector<BacklogGroup> groups = groups_at({{0.0, 0.5}, {1.0, 0.2}, {2.5, 0.2}, {4.0, 0.1}});
  const std::vector<GridState> states = backlog_grid(groups, 3);
  REQUIRE(states.size() == 3);
  CHECK(states[0].backlog_gpu_hours == 0.0);
  CHECK(states[1].backlog_gpu_hours == 1.0);
  CHECK(states[2].backlog_gpu_hours == 4.0);
  CHECK(state_probability(states[0], groups) == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(state_probability(states[1], groups) == doctest::Approx(0.3).epsilon(1e-15));
  CHECK(state_probability(states[2], groups) == doctest::Approx(0.2).epsilon(1e-15));
  double mean = 0.0;
  for (const GridState& s : states) mean += state_probability(s, groups) * s.backlog_gpu_hours;
  CHECK(mean == doctest::Approx(1.1).epsilon(1e-15));
}

TEST_CASE("backlog grid: without a state of no backlog every grid point is a backlog") {
  // Groups at 2 (p 0.4), 3 (p 0.3), 5 (p 0.2), 8 (p 0.1), at most 3 states: grid 2, 5, 8 (step 3).
  // 3 is a third of the way: 0.3 x 2/3 = 0.2 to 2 and 0.1 to 5. States 2 (p 0.6), 5 (p 0.3), 8
  // (p 0.1); mean 1.2 + 1.5 + 0.8 = 3.5 = 0.8 + 0.9 + 1.0 + 0.8.
  const std::vector<BacklogGroup> groups = groups_at({{2.0, 0.4}, {3.0, 0.3}, {5.0, 0.2}, {8.0, 0.1}});
  const std::vector<GridState> states = backlog_grid(groups, 3);
  REQUIRE(states.size() == 3);
  CHECK(states[0].backlog_gpu_hours == 2.0);
  CHECK(states[1].backlog_gpu_hours == 5.0);
  CHECK(states[2].backlog_gpu_hours == 8.0);
  CHECK(state_probability(states[0], groups) == doctest::Approx(0.6).epsilon(1e-15));
  CHECK(state_probability(states[1], groups) == doctest::Approx(0.3).epsilon(1e-15));
  CHECK(state_probability(states[2], groups) == doctest::Approx(0.1).epsilon(1e-15));
  double mean = 0.0;
  for (const GridState& s : states) mean += state_probability(s, groups) * s.backlog_gpu_hours;
  CHECK(mean == doctest::Approx(3.5).epsilon(1e-15));
}

}  // namespace tco::test
