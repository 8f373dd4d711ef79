// The savings plan's cover over uncertain venues, taken depth by depth over a tree of the hour's
// availability combinations (engine/ledger/hourly/cover_tree.hpp): the tree by hand, and with three
// uncertain venues of four, covered in another order than the one work is routed in, each fluid
// Monte Carlo path against the stepper with its draws and the paths' mean against the
// deterministic run (within 4 standard errors).
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/hourly/cover_tree.hpp"
#include "venue_paths_support.hpp"
#include "venue_support.hpp"

namespace tco::test {

TEST_CASE("cover tree: combinations sharing the covered venues' instances share a path, probabilities summed") {
  // Two covered venues, in the plan's order venue 2 then venue 0 (venue 1 is not covered):
  // combinations (venue 0, venue 1, venue 2) = (3, 7, 5) p 0.3, (0, 7, 5) p 0.2, (0, 1, 13) p 0.1,
  // (3, 1, 5) p 0.4.
  CoverTree tree;
  const std::vector<int> order = {2, 0};
  tree.add(order, {3.0, 7.0, 5.0}, 0.3);
  tree.add(order, {0.0, 7.0, 5.0}, 0.2);
  tree.add(order, {0.0, 1.0, 13.0}, 0.1);
  tree.add(order, {3.0, 1.0, 5.0}, 0.4);
  // Root 1.0; venue 2: 5 (0.3 + 0.2 + 0.4 = 0.9), then 13 (0.1); under 5, venue 0: 3 (0.3 + 0.4 =
  // 0.7), then 0 (0.2); under 13: 0 (0.1).
  // Each node: its instances and probability, and the index of its next sibling (-1: the last).
  const auto node = [&](int index, double instances, double probability) -> const CoverTree::Node& {
    REQUIRE(index >= 0);
    const CoverTree::Node& n = tree.node(index);
    CHECK(n.instances == instances);
    CHECK(n.probability == doctest::Approx(probability).epsilon(1e-15));
    return n;
  };
  const CoverTree::Node& root = node(CoverTree::kRoot, 0.0, 1.0);
  const CoverTree::Node& five = node(root.first_child, 5.0, 0.9);
  const CoverTree::Node& thirteen = node(five.next_sibling, 13.0, 0.1);
  CHECK(thirteen.next_sibling == -1);
  const CoverTree::Node& five_three = node(five.first_child, 3.0, 0.7);
  CHECK(five_three.first_child == -1);  // the last covered venue: a leaf
  CHECK(node(five_three.next_sibling, 0.0, 0.2).next_sibling == -1);
  CHECK(node(thirteen.first_child, 0.0, 0.1).next_sibling == -1);

  tree.clear();
  CHECK(tree.node(CoverTree::kRoot).first_child == -1);
  CHECK(tree.node(CoverTree::kRoot).probability == 0.0);
}

TEST_CASE("savings plan over three uncertain venues: each path is the stepper with its draws, the mean the deterministic run") {
  // Routed a, b, c, then d (uncapped and always there, so nothing waits and the deterministic
  // hour is the paths' mean hour); every venue starts instances in a quarter or half hour. At $12
  // on all four the discounts are a 25% ($16), b 40% ($20), c 33% ($18), d 45% ($22): the
  // commitment reaches d, b, c, a in that order, not the routing order.
  const auto priced = [](const char* name, double usd_per_hour, Json extra) {
    Json v = hyperscaler({{"name", name}, {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", usd_per_hour}}}});
    v.update(extra);
    return v;
  };
  const Json venues = Json::array(
      {priced("a", 16.0, {{"quota_gpus", 24}, {"availability", 0.7}, {"provisioning_delay_h", 0.5}}),
       priced("b", 20.0, {{"quota_gpus", 32}, {"availability", 0.8}, {"provisioning_delay_h", 0.25}}),
       priced("c", 18.0, {{"quota_gpus", 16}, {"availability", 0.6}, {"provisioning_delay_h", 0.25}}),
       priced("d", 22.0, {{"provisioning_delay_h", 0.25}})});
  Json covered = Json::array();
  for (const char* name : {"a", "b", "c", "d"}) covered.push_back({{"venue", name}, {"usd_per_instance_hour", 12.0}});
  const Json savings_plan = {
      {"kind", "savings_plan"}, {"name", "sp"}, {"usd_per_hour", 150.0}, {"term_months", 2}, {"venues", covered}};
  const Scenario s = savings_plan_paths_scenario(venues, savings_plan, "savings-plan-three-uncertain-venues.json");
  check_venue_paths(s, 1, /*seed=*/47, /*paths=*/64);
}

}  // namespace tco::test
