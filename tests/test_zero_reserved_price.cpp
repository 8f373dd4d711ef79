// A reserved term priced at 0 (issue #42 item 6): a scenario's inline offer or override that
// writes reserved_1y_usd_per_hour or reserved_3y_usd_per_hour = 0 is refused by `validate` and by
// `run` alike, exit 2, naming the file and the pointer; and the implied forward
// (pricing.implied_forwards, models/price_path/implied_forward.hpp) is computed only from two
// positive prices. Before: validate passed (0 errors) and run stopped on "the computed figure at
// /pricing/implied_forwards/0/forward_change_vs_1y of the output is inf" (F / 0 - 1).
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "models/price_path/implied_forward.hpp"
#include "reports/json/implied_forward_json.hpp"
#include "venue_support.hpp"

namespace tco::test {

namespace {

// The base scenario (fixture offer test/gpu8/region-a: 1-year $12, 3-year $10) with the offer
// overridden by `override_fields`.
Json with_offer_override(const Json& override_fields) {
  Json doc = base_scenario_json();
  Json offer = {{"id", "test/gpu8/region-a"}};
  offer.update(override_fields);
  doc["cloud"]["offer"] = offer;
  return doc;
}

}  // namespace

TEST_CASE("zero reserved price: validate and run refuse it alike, naming the file and the pointer") {
  check_each_refused(
      "zero-reserved-",
      with_offer_override(Json::object()),
      {{"1y", [](Json& d) { d["cloud"]["offer"]["reserved_1y_usd_per_hour"] = 0.0; },
        "/cloud/offer/reserved_1y_usd_per_hour", "expected a positive price, found 0"},
       {"3y", [](Json& d) { d["cloud"]["offer"]["reserved_3y_usd_per_hour"] = 0; },
        "/cloud/offer/reserved_3y_usd_per_hour", "a reserved term priced at 0 is a missing figure"},
       {"plan-patch",
        [](Json& d) { d["plans"][0]["cloud"] = {{"offer", {{"id", "test/gpu8/region-a"}, {"reserved_1y_usd_per_hour", 0.0}}}}; },
        "reserved_1y_usd_per_hour", "expected a positive price, found 0"},
       {"venue",
        [](Json& d) {
          d["plans"][0]["venues"] = Json::array(
              {hyperscaler({{"offer", {{"id", "test/gpu8/region-a"}, {"reserved_3y_usd_per_hour", 0.0}}}})});
        },
        "/plans/0/venues/0/offer/reserved_3y_usd_per_hour", "expected a positive price, found 0"}});
}

TEST_CASE("zero reserved price: null over a catalog record still means none, and passes") {
  // Removing the 1-year price (null) leaves no pair: no implied forward, and the scenario runs.
  const Scenario s = load_scenario_json(with_offer_override({{"reserved_1y_usd_per_hour", nullptr}}), "null-1y.json",
                                        source_path("tests"));
  CHECK_FALSE(s.plans[0].cloud->offer.reserved_1y_usd_per_hour.has_value());
  CHECK(implied_forwards_json(s).empty());
}

TEST_CASE("zero reserved price: the implied forward is computed only from positive prices") {
  // P1 = $12, P3 = $10, r = 0: F = (3 x 10 - 12) / 2 = $9, 9 / 12 - 1 = -25%.
  Scenario s = load_scenario_json(base_scenario_json(), "forward.json", source_path("tests"));
  const Json forwards = implied_forwards_json(s);
  REQUIRE(forwards.size() == 1);
  CHECK(forwards[0].at("implied_forward_usd_per_instance_hour").get<double>() == doctest::Approx(9.0).epsilon(1e-12));
  CHECK(forwards[0].at("forward_change_vs_1y").get<double>() == doctest::Approx(-0.25).epsilon(1e-12));
  // A pair with a 0 (however it got there) implies nothing: before, 9 / 0 - 1 = inf was written.
  for (Plan& p : s.plans)
    if (p.cloud) p.cloud->offer.reserved_1y_usd_per_hour = 0.0;
  CHECK(implied_forwards_json(s).empty());
  CHECK_FALSE(has_implied_forward(12.0, 0.0));
  CHECK_FALSE(has_implied_forward(std::nullopt, 10.0));
  CHECK(has_implied_forward(12.0, 10.0));
}

}  // namespace tco::test
