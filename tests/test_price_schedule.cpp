// Dated price schedules (models/price_path/price_schedule.hpp, docs/model.md "Dated price
// schedules"): hand-computed bills for a step cut in the middle of a month and a log-linear
// segment, per price kind (on-demand, spot, reserved), in the hourly model, the sweep's fluid
// Monte Carlo and the replay's price table; a bad-input test per new input.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"

#include "engine/des/cloud/price_growth.hpp"
#include "engine/ledger/ledger.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "models/price_path/implied_forward.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"
#include "ledger_test_support.hpp"

namespace tco::test {

namespace {

using tco::test::in_month;
using tco::test::kEps;

// 8 GPUs steady (one test/gpu8 instance: $16/h on-demand = $2 per GPU-hour, $8/h spot, $12/h
// 1-y reserved) for `months`, from 2026-01-01, one cloud plan.
Json schedule_scenario(int months, const Json& price_schedule) {
  Json doc = base_scenario_json();
  doc["start"] = "2026-01-01";
  doc["horizon_months"] = months;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 8}}}}};
  doc["cloud"]["price_schedule"] = price_schedule;
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  doc["baseline"] = "cloud";
  return doc;
}


}  // namespace

TEST_CASE("price schedule: a step cut in the middle of a month, in USD per GPU-hour, replaces the rate") {
  // $2.00 per GPU-hour from the start, $1.50 from 2026-01-16 (day 15: t = 15 x 24 = 360 h).
  Json doc = schedule_scenario(2, {{"on_demand", {{"interpolation", "step"},
                                                  {"points", {{{"date", "2026-01-01"}, {"usd_per_gpu_hour", 2.0}},
                                                              {{"date", "2026-01-16"}, {"usd_per_gpu_hour", 1.5}}}}}}});
  // A constant rate beside USD points does not apply: the points are the price.
  doc["cloud"]["price_change_per_year"] = -0.1;
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& cloud = o.plan("cloud");
  // Month 0: 360 h x 8 x $2.00 + 370 h x 8 x $1.50 = 5,760 + 4,440 = $10,200.
  CHECK(in_month(cloud, 0, Category::cloud_on_demand) == doctest::Approx(10200.0).epsilon(kEps));
  // Month 1: 730 h x 8 x $1.50 = $8,760.
  CHECK(in_month(cloud, 1, Category::cloud_on_demand) == doctest::Approx(8760.0).epsilon(kEps));
  // The schedule is echoed in the report's inputs.
  const Json report = o.report();
  CHECK(report.dump().find("\"usd_per_gpu_hour\":1.5") != std::string::npos);
}

TEST_CASE("price schedule: a log-linear segment of factors multiplies the constant rate") {
  // Factor 1 on 2026-01-01 (t = 0) falling log-linearly to 0.5 on 2026-01-31 (t = 720 h):
  // v(h) = 0.5^(h / 720), then 0.5. On $16/h:
  //   month 0 = 16 x [sum_{h=0..719} 0.5^(h/720) + 10 x 0.5]
  //           = 16 x [(1 - 0.5) / (1 - 0.5^(1/720)) + 5] = 16 x 524.62025483 = $8,393.924077
  const Json schedule = {{"on_demand", {{"interpolation", "log_linear"},
                                        {"points", {{{"date", "2026-01-01"}, {"factor", 1.0}},
                                                    {{"date", "2026-01-31"}, {"factor", 0.5}}}}}}};
  const ScenarioOutcome flat = run_scenario_json(schedule_scenario(2, schedule));
  const double month0 = 16.0 * ((1.0 - 0.5) / (1.0 - std::pow(0.5, 1.0 / 720.0)) + 5.0);
  CHECK(month0 == doctest::Approx(8393.924077323).epsilon(1e-12));
  CHECK(in_month(flat.plan("cloud"), 0, Category::cloud_on_demand) == doctest::Approx(month0).epsilon(1e-12));
  // Month 1 at factor 0.5: 730 x 16 x 0.5 = $5,840.
  CHECK(in_month(flat.plan("cloud"), 1, Category::cloud_on_demand) == doctest::Approx(5840.0).epsilon(kEps));

  // With a -20%/yr rate the factor multiplies it: month 1 = 16 x 0.5 x sum_{h=730..1459} 0.8^(h/8760)
  //   = 8 x 0.8^(730/8760) (1 - 0.8^(730/8760)) / (1 - 0.8^(1/8760)) = $5,679.510203
  Json falling = schedule_scenario(2, schedule);
  falling["cloud"]["price_change_per_year"] = -0.2;
  const ScenarioOutcome f = run_scenario_json(falling);
  const double q = std::pow(0.8, 1.0 / 8760.0);
  const double month1 = 8.0 * std::pow(q, 730.0) * (1.0 - std::pow(q, 730.0)) / (1.0 - q);
  CHECK(month1 == doctest::Approx(5679.510202559).epsilon(1e-12));
  CHECK(in_month(f.plan("cloud"), 1, Category::cloud_on_demand) == doctest::Approx(month1).epsilon(1e-10));
}

TEST_CASE("price schedule: spot and reserved have schedules of their own") {
  Json doc = schedule_scenario(24, {{"spot", {{"points", {{{"date", "2026-01-01"}, {"usd_per_gpu_hour", 1.0}},
                                                          {{"date", "2026-01-16"}, {"usd_per_gpu_hour", 0.5}}}}}},
                                    {"reserved", {{"points", {{{"date", "2026-01-01"}, {"factor", 1.0}},
                                                              {{"date", "2027-01-01"}, {"factor", 0.5}}}}}}});
  doc["plans"] = {{{"name", "spot"}, {"kind", "cloud"}, {"spot_share", 1}},
                  {{"name", "reserved"}, {"kind", "cloud"}, {"reserved_instances", 1}}};
  doc["baseline"] = "spot";
  const ScenarioOutcome o = run_scenario_json(doc);
  // Spot, one instance ($8/h = $1 per GPU-hour), stepping to $0.50 at t = 360 h:
  // 360 x 8 x 1.0 + 370 x 8 x 0.5 = 2,880 + 1,480 = $4,360; on-demand is untouched.
  CHECK(in_month(o.plan("spot"), 0, Category::cloud_spot) == doctest::Approx(4360.0).epsilon(kEps));
  CHECK(in_month(o.plan("spot"), 0, Category::cloud_on_demand) == 0.0);
  // A 1-year reserved term ($12/h) is priced at its first hour: year 1 at factor 1,
  // 12 x 730 = $8,760 a month; year 2 starts at t = 8,760 h, after 2027-01-01 (t = 365 x 24 =
  // 8,760 h): factor 0.5, 6 x 730 = $4,380 a month.
  CHECK(in_month(o.plan("reserved"), 11, Category::cloud_reserved) == doctest::Approx(8760.0).epsilon(kEps));
  CHECK(in_month(o.plan("reserved"), 12, Category::cloud_reserved) == doctest::Approx(4380.0).epsilon(kEps));
}

TEST_CASE("price schedule: the fluid Monte Carlo with nothing random equals the deterministic run on every path") {
  Json doc = schedule_scenario(3, {{"on_demand", {{"interpolation", "log_linear"},
                                                  {"points", {{{"date", "2026-01-01"}, {"factor", 1.0}},
                                                              {{"date", "2026-02-20"}, {"factor", 0.6}}}}}},
                                   {"spot", {{"points", {{{"date", "2026-01-10"}, {"factor", 0.9}}}}}}});
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}, {"spot_share", 0.5}}};
  const ScenarioOutcome o = run_scenario_json(doc);
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(o.scenario, 4, 11, 1);
  REQUIRE(mc.npv_by_path.size() == 1);
  for (const double npv : mc.npv_by_path[0]) CHECK(npv == doctest::Approx(o.plan("cloud").npv_usd).epsilon(1e-12));
}

TEST_CASE("price schedule: the replay prices a run as the hourly model does, f(floor t) integrated") {
  std::vector<double> f(730, 1.0);
  for (std::size_t h = 360; h < f.size(); ++h) f[h] = 0.75;
  const des::PriceGrowth g = des::PriceGrowth::hourly(f);
  // [350, 370]: 10 h at 1.0 + 10 h at 0.75 = 17.5 h at the catalog price.
  CHECK(g.integral(350.0, 370.0, g.at(350.0)) == doctest::Approx(17.5).epsilon(kEps));
  // Inside one hour: 0.5 h x 0.75 = 0.375.
  CHECK(g.integral(400.25, 400.75, g.at(400.25)) == 0.375);
  CHECK(g.at(359.99) == 1.0);
  CHECK(g.at_hour_of(360.0) == 0.75);
  // Beyond the table the last factor goes on: [729, 731] = 2 x 0.75.
  CHECK(g.integral(729.0, 731.0, g.at(729.0)) == doctest::Approx(1.5).epsilon(kEps));
}

TEST_CASE("price schedule: interpolation outside the points holds the end values") {
  PriceSchedule s;
  s.interpolation = PriceSchedule::Interpolation::log_linear;
  s.hours = {-100.0, 100.0};
  s.factors = {2.0, 0.5};
  CHECK(s.at(-1000.0) == 2.0);
  CHECK(s.at(5000.0) == 0.5);
  // Midway, the geometric mean: sqrt(2 x 0.5) = 1.
  CHECK(s.at(0.0) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(price_factor(std::nullopt, 0.1, 8760) == doctest::Approx(1.1).epsilon(1e-15));
}

TEST_CASE("implied forward: the 1-year price that a 3-year price implies for years two and three") {
  // r = 0: 36 x 10 = 12 x 12 + 24 F -> F = (360 - 144) / 24 = $9/h.
  CHECK(implied_forward_usd_per_hour(12.0, 10.0, 0.0) == doctest::Approx(9.0).epsilon(1e-14));
  // r = 8%: with q^12 = 1 / 1.08, A(0, 12) / A(12, 36) = 1 / (q^12 (1 + q^12)) = 1.08^2 / 2.08
  // = 0.5607692; F = P3 - (P1 - P3) x 0.5607692 = 10 - 2 x 0.5607692 = $8.8784615/h.
  CHECK(implied_forward_usd_per_hour(12.0, 10.0, 0.08) == doctest::Approx(10.0 - 2.0 * 1.1664 / 2.08).epsilon(1e-13));
  // Equal prices imply the same price forward.
  CHECK(implied_forward_usd_per_hour(10.0, 10.0, 0.08) == doctest::Approx(10.0).epsilon(1e-14));
}

TEST_CASE("implied forward: a pair that implies a forward of zero or less is warned about, naming the plan") {
  auto warnings_for = [](double reserved_3y_usd_per_hour) {
    Json doc = schedule_scenario(12, nullptr);
    doc["cloud"].erase("price_schedule");
    doc["cloud"]["offer"] = {{"id", "test/gpu8/region-a"}, {"reserved_3y_usd_per_hour", reserved_3y_usd_per_hour}};
    doc["discount_rate_per_year"] = 0.08;
    int found = 0;
    for (const auto& w : run_scenario_json(doc).scenario.warnings)
      if (w.code == "implied-forward-not-positive") {
        CHECK(w.where == "/plans/0/cloud");
        ++found;
      }
    return found;
  };
  // r = 8%: F = P3 x (1 + 0.5607692) - 12 x 0.5607692. P3 = 4: 6.2430769 - 6.7292308 = -$0.486/h.
  CHECK(implied_forward_usd_per_hour(12.0, 4.0, 0.08) == doctest::Approx(4.0 * (1.0 + 1.1664 / 2.08) - 12.0 * 1.1664 / 2.08).epsilon(1e-12));
  CHECK(warnings_for(4.0) == 1);
  // P3 = 5: 7.8038462 - 6.7292308 = +$1.075/h: a steep but possible bet, no warning.
  CHECK(warnings_for(5.0) == 0);
}

TEST_CASE("bad input: each price schedule input is rejected with exit 2, naming its JSON pointer") {
  const Json two_points = {{{"date", "2026-01-01"}, {"factor", 1.0}}, {{"date", "2026-03-01"}, {"factor", 0.8}}};
  struct Case {
    const char* name;
    Json schedule;
    const char* pointer;
    const char* says;
  };
  const Case cases[] = {
      {"kind", {{"capacity_blocks", {{"points", two_points}}}}, "/cloud/price_schedule/capacity_blocks", "unknown key"},
      {"interpolation", {{"on_demand", {{"interpolation", "cubic"}, {"points", two_points}}}},
       "/cloud/price_schedule/on_demand/interpolation", "cubic"},
      {"empty", {{"on_demand", {{"points", Json::array()}}}}, "/cloud/price_schedule/on_demand/points", "non-empty"},
      {"date", {{"on_demand", {{"points", {{{"date", "2026-02-30"}, {"factor", 1.0}}}}}}},
       "/cloud/price_schedule/on_demand/points/0/date", "YYYY-MM-DD"},
      {"order", {{"on_demand", {{"points", {{{"date", "2026-03-01"}, {"factor", 1.0}}, {{"date", "2026-02-01"}, {"factor", 0.8}}}}}}},
       "/cloud/price_schedule/on_demand/points/1/date", "increasing"},
      {"factor", {{"spot", {{"points", {{{"date", "2026-03-01"}, {"factor", 0.0}}}}}}},
       "/cloud/price_schedule/spot/points/0/factor", "found number 0"},
      {"usd", {{"on_demand", {{"points", {{{"date", "2026-03-01"}, {"usd_per_gpu_hour", -2.0}}}}}}},
       "/cloud/price_schedule/on_demand/points/0/usd_per_gpu_hour", "found number -2"},
      {"mixed", {{"on_demand", {{"points", {{{"date", "2026-01-01"}, {"factor", 1.0}}, {{"date", "2026-02-01"}, {"usd_per_gpu_hour", 1.5}}}}}}},
       "/cloud/price_schedule/on_demand/points/1", "the same key in every point"},
      {"reserved-usd", {{"reserved", {{"points", {{{"date", "2026-01-01"}, {"usd_per_gpu_hour", 1.5}}}}}}},
       "/cloud/price_schedule/reserved/points/0/usd_per_gpu_hour", "\"factor\" points"},
      {"point-key", {{"on_demand", {{"points", {{{"date", "2026-01-01"}, {"factor", 1.0}, {"fator", 2.0}}}}}}},
       "/cloud/price_schedule/on_demand/points/0/fator", "unknown key"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    check_run_and_validate_refuse(std::string("price-schedule-bad-") + c.name, schedule_scenario(3, c.schedule),
                                  c.pointer, c.says);
  }
}

}  // namespace tco::test
