// Capacity-block lengths the provider sells (issue #42 item 7; pricing-data/README.md
// "Capacity-block durations"): AWS sells 1 to 14 days in 1-day steps, then 7-day steps up to 182
// days. A block of another length on an AWS offer is refused by `validate` and `run` alike,
// exit 2, naming the file and /plans/N/commitments/K/days. Before: a 20-day block validated.
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "models/commitment/capacity_block_durations.hpp"

namespace tco::test {

namespace {

// A cloud plan on the shipped catalog's AWS p5 (us-east-1, $39.33 capacity-block rate) with one
// block of `days` days from day 30.
Json aws_block_doc(int days) {
  Json doc = base_scenario_json();
  doc["catalog_dir"] = source_path("pricing-data");
  doc["cloud"] = {{"offer", "aws/p5.48xlarge/us-east-1"}};
  doc.erase("onprem");
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}},
                              {{"name", "block"},
                               {"kind", "cloud"},
                               {"commitments", Json::array({{{"kind", "capacity_block"},
                                                             {"name", "b"},
                                                             {"start_day", 30},
                                                             {"days", days},
                                                             {"instances", 2}}})}}});
  return doc;
}

}  // namespace

TEST_CASE("capacity block durations: the AWS rule, day by day") {
  // Sold: 1..14 (14 lengths), then 21, 28, ..., 182 (24 lengths): 38 in all.
  int sold = 0;
  for (int days = 0; days <= 200; ++days) sold += capacity_block_days_sold("aws", days) ? 1 : 0;
  CHECK(sold == 14 + 24);
  CHECK(capacity_block_days_sold("aws", 14));
  CHECK_FALSE(capacity_block_days_sold("aws", 15));
  CHECK_FALSE(capacity_block_days_sold("aws", 20));
  CHECK(capacity_block_days_sold("aws", 21));
  CHECK(capacity_block_days_sold("aws", 182));
  CHECK_FALSE(capacity_block_days_sold("aws", 189));
  // A provider without a published rule: any whole number of days in [1, 182].
  CHECK(capacity_block_days_sold("test", 20));
  CHECK_FALSE(capacity_block_days_sold("test", 183));
}

TEST_CASE("capacity block durations: a 20-day AWS block is refused by validate and run, naming the pointer") {
  // 14 and 21 days load; 20 and 15 do not.
  CHECK(load_scenario_json(aws_block_doc(14), "aws-14.json", source_path("tests")).plans[1].commitments[0].days == 14);
  CHECK(load_scenario_json(aws_block_doc(21), "aws-21.json", source_path("tests")).plans[1].commitments[0].days == 21);
  check_each_refused("aws-block-days-", aws_block_doc(14),
                     {{"20", [](Json& d) { d["plans"][1]["commitments"][0]["days"] = 20; },
                       "/plans/1/commitments/0/days", "1 to 14 days in 1-day steps, then 21, 28, ..., 182"},
                      {"15", [](Json& d) { d["plans"][1]["commitments"][0]["days"] = 15; },
                       "/plans/1/commitments/0/days", "a block length that aws sells"}});
}

TEST_CASE("capacity block durations: the fixture provider has no rule, so a 20-day block loads") {
  Json doc = base_scenario_json();
  doc["plans"][0]["commitments"] = Json::array(
      {{{"kind", "capacity_block"}, {"start_day", 30}, {"days", 20}, {"instances", 1}, {"usd_per_instance_hour", 10.0}}});
  CHECK(load_scenario_json(doc, "test-20.json", source_path("tests")).plans[0].commitments[0].days == 20);
}

}  // namespace tco::test
