// Time shifting in the hourly model (engine/ledger/hourly_time_shift.hpp, docs/model.md §5.2):
// the moves of a small forecast by hand, the demand charge's and the backlog's guards, the
// deterministic run's bill against the moves (saved - hold, to the cent), "never costs more" and
// "the same work" over generated scenarios, every Monte Carlo path without noise equal to the
// hourly model, the report's block, and the bad inputs.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "engine/ledger/hourly_time_shift.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// `nodes` nodes of 8 GPUs, 1 kW above idle per GPU (idle 2, peak 10 kW), PUE 1.5; $0.25/kWh in
// hours 0-1 and $0.05 after; waiting $0.10 per GPU-hour; half of each hour's work may wait 4 h.
HourlyShiftInputs two_price_inputs(double nodes, long hours) {
  HourlyShiftInputs in;
  in.share = 0.5;
  in.max_delay_h = 4.0;
  in.waiting_usd_per_gpu_hour = 0.10;
  in.fleet.gpus_per_node = 8.0;
  in.fleet.idle_kw = 2.0;
  in.fleet.peak_kw = 10.0;
  in.nodes = nodes;
  for (long h = 0; h < hours; ++h) in.site.push_back({1.5, h < 2 ? 0.25 : 0.05, 1.0});
  return in;
}

const std::vector<double> kDemand = {16, 16, 4, 4, 4, 4, 4, 4};

Json tou_rates(double day, double night, int night_from, int night_to) {
  Json r = Json::array();
  for (int h = 0; h < 24; ++h) r.push_back(h >= night_from && h < night_to ? night : day);
  return r;
}

// The base scenario (16 GPUs, 12 months) on a time-of-use tariff ($0.25 by day, $0.05 from 0:00
// to 8:00), with a diurnal load peaking at 14:00 and a deferrable share; "plain" and "shift" own
// `nodes` test-node-8 each, alike but for scheduling.time_shift.
Json shifting_scenario(int nodes, double share, double max_delay_h, const char* kind = "hybrid") {
  Json doc = base_scenario_json();
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 16}, {"diurnal_amplitude", 0.5}, {"peak_hour", 14}}}},
                     {"deferrable", {{"share", share}, {"max_delay_h", max_delay_h}}}};
  doc["waiting_usd_per_gpu_hour"] = 0.02;
  doc["onprem"]["power"]["tariff"] = {{"type", "time_of_use"},
                                      {"weekday_usd_per_kwh", tou_rates(0.25, 0.05, 0, 8)},
                                      {"weekend_usd_per_kwh", tou_rates(0.25, 0.05, 0, 8)}};
  Json plain = {{"name", "plain"}, {"kind", kind}, {"onprem_nodes", nodes}};
  Json shift = plain;
  shift["name"] = "shift";
  shift["scheduling"] = {{"time_shift", true}};
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}}, plain, shift});
  return doc;
}

}  // namespace

TEST_CASE("hourly time shift: the moves of a small forecast by hand") {
  // cap = 3 nodes x 8 = 24 GPUs of work, 16 with a node kept free. e(h) = 1 kW x 1.5 x price:
  // $0.375 per GPU-hour of work in hours 0-1, $0.075 after.
  // Hour 0, 8 deferrable: net(1) = 0.375 + 0.1 = 0.475, net(2) = 0.075 + 0.2 = 0.275 (room 16 - 4 =
  // 12), net(3) = 0.075 + 0.3 = 0.375 (not below 0.375): all 8 to hour 2 (load 12).
  // Hour 1, 8 deferrable: net(2) = 0.175 with room 4: 4 there; net(3) = 0.275: the other 4 to hour 3.
  // Hour 2 on: e = 0.075 and any wait costs more. Moved 16; held 8 x 2 + 4 x 1 + 4 x 2 = 28
  // GPU-hours, hold $2.80; saved 16 x (0.375 - 0.075) = $4.80.
  const HourlyShift s = shift_deferrable_demand(kDemand, two_price_inputs(3, 8), 1);
  CHECK(s.demand_gpus == std::vector<double>{8, 8, 16, 8, 4, 4, 4, 4});
  CHECK(s.figures.moved_gpu_hours == doctest::Approx(16.0));
  CHECK(s.figures.held_gpu_hours == doctest::Approx(28.0));
  CHECK(s.figures.hold_usd == doctest::Approx(2.80));
  CHECK(s.hold_usd_by_month.at(0) == doctest::Approx(2.80));
  CHECK(s.figures.saved_usd == doctest::Approx(4.80));
  CHECK(s.figures.target_hours == 2);

  SUBCASE("a one-hour delay reaches only the next hour") {
    HourlyShiftInputs in = two_price_inputs(3, 8);
    in.max_delay_h = 1.0;
    // Hour 0 may go to hour 1 only: net(1) = 0.475, dearer. Hour 1's 8 go to hour 2 (net 0.175).
    const HourlyShift near = shift_deferrable_demand(kDemand, in, 1);
    CHECK(near.demand_gpus == std::vector<double>{16, 8, 12, 4, 4, 4, 4, 4});
    CHECK(near.figures.held_gpu_hours == doctest::Approx(8.0));
  }
  SUBCASE("a dearer wait keeps hour 0's work") {
    HourlyShiftInputs in = two_price_inputs(3, 8);
    in.waiting_usd_per_gpu_hour = 0.15;
    // Hour 0: net(2) = 0.075 + 0.30 = 0.375, not below e(0) = 0.375: it stays. Hour 1: net(2) =
    // 0.075 + 0.15 = 0.225: its 8 go to hour 2 (room 12). Hold 8 x 1 x 0.15 = $1.20.
    const HourlyShift s2 = shift_deferrable_demand(kDemand, in, 1);
    CHECK(s2.demand_gpus == std::vector<double>{16, 8, 12, 4, 4, 4, 4, 4});
    CHECK(s2.figures.hold_usd == doctest::Approx(1.20));
  }
}

TEST_CASE("hourly time shift: a demand charge keeps each month's peak") {
  // 4 nodes: room with a node free is 24 - 4 = 20 GPUs, so without a demand charge both hours'
  // 8 go to hour 2 (net 0.275 and 0.175), load 20.
  const HourlyShift free_room = shift_deferrable_demand(kDemand, two_price_inputs(4, 8), 1);
  CHECK(free_room.demand_gpus == std::vector<double>{8, 8, 20, 4, 4, 4, 4, 4});
  // With one, the month's peak before shifting is hour 0's: (4 x 2 + 16 x 1) kW x 1.5 = 36 kW, so
  // a target may hold 36 / 1.5 - 4 x 2 = 16 kW above idle, 16 GPUs of work: hour 2 takes hour 0's
  // 8 (load 12), then 4 of hour 1's (load 16); the other 4 go to hour 3 (net 0.275).
  HourlyShiftInputs in = two_price_inputs(4, 8);
  in.demand_charge_usd_per_kw_month = 10.0;
  const HourlyShift capped = shift_deferrable_demand(kDemand, in, 1);
  CHECK(capped.demand_gpus == std::vector<double>{8, 8, 16, 8, 4, 4, 4, 4});
}

TEST_CASE("hourly time shift: an hour that bursts or queues keeps its work, and no backlog grows") {
  // A plan that does not burst, 3 nodes (cap 24): hour 0 needs 30 (6 queue into hour 1, which then
  // has a backlog coming in); neither is a source, nor is hour 1 a target.
  HourlyShiftInputs in = two_price_inputs(3, 8);
  in.fleet.bursts = 0;
  const std::vector<double> demand = {30, 16, 4, 4, 4, 4, 4, 4};
  const HourlyShift s = shift_deferrable_demand(demand, in, 1);
  CHECK(s.demand_gpus == demand);
  CHECK(s.figures.moved_gpu_hours == 0.0);
  // The same fleet bursting: hour 0 still overflows (30 > 24) and keeps its work; hour 1 (16 on
  // 24) moves its 8: net(2) = 0.175 into room 12.
  in.fleet.bursts = 1;
  const HourlyShift b = shift_deferrable_demand(demand, in, 1);
  CHECK(b.demand_gpus == std::vector<double>{30, 8, 12, 4, 4, 4, 4, 4});
}

TEST_CASE("hourly time shift: the plan's bill moves by the hold less the saving, to the cent") {
  const ScenarioOutcome o = run_scenario_json(shifting_scenario(3, 0.4, 12.0));
  const PlanResult& plain = o.plan("plain");
  const PlanResult& shift = o.plan("shift");
  REQUIRE(shift.time_shift.has_value());
  CHECK_FALSE(plain.time_shift.has_value());
  const HourlyShiftFigures& f = *shift.time_shift;
  CHECK(f.moved_gpu_hours > 1000.0);
  CHECK(f.saved_usd > f.hold_usd);
  // Only energy (the hourly part: no demand charge here) and waiting move.
  const double energy_change = shift.ledger.category_total_usd(Category::energy) - plain.ledger.category_total_usd(Category::energy);
  const double waiting_change = shift.ledger.category_total_usd(Category::waiting) - plain.ledger.category_total_usd(Category::waiting);
  CHECK(energy_change == doctest::Approx(-f.saved_usd).epsilon(1e-9));
  CHECK(waiting_change == doctest::Approx(f.hold_usd).epsilon(1e-9));
  CHECK(shift.total_usd - plain.total_usd == doctest::Approx(f.hold_usd - f.saved_usd).epsilon(1e-9));
  for (Category c : {Category::cloud_on_demand, Category::capex, Category::facility, Category::staff})
    CHECK(shift.ledger.category_total_usd(c) == plain.ledger.category_total_usd(c));
  CHECK(shift.gpu_hours.useful == doctest::Approx(plain.gpu_hours.useful).epsilon(1e-12));
  CHECK(shift.gpu_hours.waited == doctest::Approx(plain.gpu_hours.waited + f.held_gpu_hours).epsilon(1e-12));
  CHECK(shift.npv_usd < plain.npv_usd);
}

TEST_CASE("hourly time shift: never costs more and does the same work, over 60 generated scenarios") {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int moved_somewhere = 0;
  for (int k = 0; k < 60; ++k) {
    const int nodes = 1 + static_cast<int>(u(rng) * 5);
    Json doc = shifting_scenario(nodes, 0.05 + 0.95 * u(rng), 1.0 + 40.0 * u(rng), u(rng) < 0.3 ? "onprem" : "hybrid");
    doc["horizon_months"] = 3;
    doc["workload"]["profiles"][0]["gpus"] = 4.0 + 40.0 * u(rng);
    doc["workload"]["profiles"][0]["diurnal_amplitude"] = u(rng);
    doc["workload"]["profiles"][0]["peak_hour"] = static_cast<int>(u(rng) * 24);
    doc["waiting_usd_per_gpu_hour"] = 0.1 * u(rng);
    const int night_from = static_cast<int>(u(rng) * 20);
    doc["onprem"]["power"]["tariff"]["weekday_usd_per_kwh"] =
        tou_rates(0.05 + 0.3 * u(rng), 0.02 + 0.1 * u(rng), night_from, night_from + 1 + static_cast<int>(u(rng) * 8));
    const bool demand_charge = u(rng) < 0.4;
    if (demand_charge) doc["onprem"]["power"]["demand_charge_usd_per_kw_month"] = 20.0 * u(rng);
    if (u(rng) < 0.3) doc["onprem"]["carbon"] = {{"usd_per_tonne", 200.0 * u(rng)}};
    INFO("scenario " << k << ": " << doc.dump());
    const ScenarioOutcome o = run_scenario_json(doc);
    const PlanResult& plain = o.plan("plain");
    const PlanResult& shift = o.plan("shift");
    CHECK(shift.total_usd <= plain.total_usd + 1e-9);
    CHECK(shift.npv_usd <= plain.npv_usd + 1e-9);
    CHECK(shift.gpu_hours.useful == doctest::Approx(plain.gpu_hours.useful).epsilon(1e-12));
    CHECK(shift.gpu_hours.unserved <= plain.gpu_hours.unserved + 1e-9);
    if (demand_charge) CHECK(shift.peak_facility_kw <= plain.peak_facility_kw + 1e-9);
    if (shift.time_shift->moved_gpu_hours > 0.0) {
      ++moved_somewhere;
      CHECK(shift.total_usd < plain.total_usd);
    }
  }
  CHECK(moved_somewhere >= 20);  // the property is not vacuous
}

TEST_CASE("hourly time shift: every Monte Carlo path without noise equals the hourly model") {
  const Scenario s = load_scenario_json(shifting_scenario(3, 0.4, 12.0), "shift.json", ".");
  const ScenarioRun det = run_deterministic(s);
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 4, 11, 2);
  for (std::size_t j = 0; j < s.plans.size(); ++j)
    for (double npv : mc.npv_by_path[j]) CHECK(npv == doctest::Approx(det.plans[j].npv_usd).epsilon(1e-11));
  // and with demand growth drawn per path, the mean stays within 4 standard errors of the
  // deterministic figure (the hold is the forecast's on every path).
  Json doc = shifting_scenario(3, 0.4, 12.0);
  doc["monte_carlo"] = {{"demand_growth_sigma_per_year", 0.05}};
  const Scenario g = load_scenario_json(doc, "shift.json", ".");
  const FluidMonteCarloRun grown = run_fluid_monte_carlo(g, 200, 5, 2);
  const McPlanStats& stats = grown.plans.at(2);
  CHECK(std::abs(stats.npv_usd.mean - run_deterministic(g).plans.at(2).npv_usd) < 4.0 * stats.npv_usd.stderr_);
}

TEST_CASE("hourly time shift: the report's block, table and summary") {
  const ScenarioOutcome o = run_scenario_json(shifting_scenario(3, 0.4, 12.0));
  const Json report = o.report();
  const Json& block = report_plan(report, "shift").at("hourly_time_shift");
  const HourlyShiftFigures& f = *o.plan("shift").time_shift;
  CHECK(block.at("deferrable_share") == 0.4);
  CHECK(block.at("max_delay_h") == 12.0);
  CHECK(block.at("moved_gpu_hours").get<double>() == f.moved_gpu_hours);
  CHECK(block.at("net_saving_usd").get<double>() == f.saved_usd - f.hold_usd);
  CHECK_FALSE(report_plan(report, "plain").contains("hourly_time_shift"));
  CHECK(report.at("inputs").at("workload").at("deferrable").at("share") == 0.4);
  const std::string md = markdown_summary(report);
  CHECK(md.find("**Time shifting in the hourly model**") != std::string::npos);
  CHECK(md.find("| shift | 40% | 12 h |") != std::string::npos);
}

TEST_CASE("hourly time shift: bad inputs name their pointer") {
  Json no_share = shifting_scenario(3, 0.4, 12.0);
  no_share["workload"].erase("deferrable");
  check_run_and_validate_refuse("hts-no-share", no_share, "/plans/2/scheduling/time_shift", "workload.deferrable");
  Json share = shifting_scenario(3, 1.5, 12.0);
  check_run_and_validate_refuse("hts-share", share, "/workload/deferrable/share");
  check_run_and_validate_refuse("hts-delay-0", shifting_scenario(3, 0.4, 0.0), "/workload/deferrable/max_delay_h");
  check_run_and_validate_refuse("hts-delay-week", shifting_scenario(3, 0.4, 200.0), "/workload/deferrable/max_delay_h");
  Json extra = shifting_scenario(3, 0.4, 12.0);
  extra["workload"]["deferrable"]["deadline_h"] = 3;
  check_run_and_validate_refuse("hts-extra", extra, "/workload/deferrable/deadline_h");
}

}  // namespace tco::test
