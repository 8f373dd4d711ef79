// A plan's ordered cloud venues (issue #24, docs/model.md §3b, engine/ledger/hourly/venue_hour.hpp).
// Fixture catalog (tests/scenario_builder.hpp): test/gpu8/region-a is the "hyperscaler", 8 GPUs
// at $16/h on-demand and $8/h spot; the "neocloud" is the same record with on-demand at $10/h.
// Demand is a steady 100 GPUs over one month of 730 hours unless a test says otherwise.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "des_support.hpp"
#include "engine/ledger/ledger.hpp"
#include "engine/ledger/hourly/venue_hour.hpp"
#include "models/workload/workload.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "load_error.hpp"
#include "scenario_builder.hpp"
#include "venue_support.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::kEps;

// One month of a steady 100 GPUs; `plans` replace the base scenario's.
Json month_of_100(const Json& plans) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 1;
  doc["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 100}}})}};
  doc["plans"] = plans;
  doc["baseline"] = plans[0]["name"];
  return doc;
}

Json cloud_plan(const std::string& name, const Json& venues) {
  return {{"name", name}, {"kind", "cloud"}, {"venues", venues}};
}

void check_same_bits(const PlanResult& a, const PlanResult& b, int months) {
  CHECK(a.total_usd == b.total_usd);
  CHECK(a.npv_usd == b.npv_usd);
  CHECK(a.gpu_hours == b.gpu_hours);
  CHECK(a.it_energy_kwh == b.it_energy_kwh);
  CHECK(a.co2_cloud_kg == b.co2_cloud_kg);
  for (int m = 0; m < months; ++m)
    for (int c = 0; c < kCategoryCount; ++c)
      CHECK(a.ledger.month_category_usd(m, static_cast<Category>(c)) ==
            b.ledger.month_category_usd(m, static_cast<Category>(c)));
}

}  // namespace

TEST_CASE("venues: one venue with availability 1 and no cap is today's plan, bit for bit") {
  // A demand with fractions in every hour (diurnal, growing), falling prices, on-prem nodes and
  // reserved capacity before the cloud: the venue path must reproduce every bit of today's.
  Json doc = base_scenario_json();
  doc["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 100}, {"diurnal_amplitude", 0.3},
                                                 {"peak_hour", 15}, {"weekend_factor", 0.6}}})},
                     {"growth_per_year", 0.2}};
  doc["cloud"]["price_change_per_year"] = -0.1;
  doc["cloud"]["spot_overhead_factor"] = 1.15;
  doc["cloud"]["egress_gb_per_gpu_hour"] = 2.0;
  doc["cloud"]["egress_usd_per_gb"] = 0.05;
  const Json one = Json::array({hyperscaler()});
  const Json spot = Json::array({hyperscaler({{"price", "spot"}})});
  doc["plans"] = Json::array({
      {{"name", "today"}, {"kind", "cloud"}},
      {{"name", "venue"}, {"kind", "cloud"}, {"venues", one}},
      {{"name", "today-hybrid"}, {"kind", "hybrid"}, {"onprem_nodes", 3}, {"reserved_instances", 2}},
      {{"name", "venue-hybrid"}, {"kind", "hybrid"}, {"onprem_nodes", 3}, {"reserved_instances", 2}, {"venues", one}},
      {{"name", "today-spot"}, {"kind", "cloud"}, {"spot_share", 1.0}},
      {{"name", "venue-spot"}, {"kind", "cloud"}, {"venues", spot}},
  });
  doc["baseline"] = "today";
  const ScenarioOutcome o = run_scenario_json(doc);
  check_same_bits(o.plan("today"), o.plan("venue"), 12);
  check_same_bits(o.plan("today-hybrid"), o.plan("venue-hybrid"), 12);
  check_same_bits(o.plan("today-spot"), o.plan("venue-spot"), 12);
  // The venue carries all the cloud work; the plans without venues report none.
  CHECK(venue(o.plan("venue"), "hyperscaler").work_gpu_hours == doctest::Approx(o.plan("today").gpu_hours.cloud_work).epsilon(kEps));
  CHECK(o.plan("today").venues.empty());
  CHECK_FALSE(report_plan(o.report(), "today").contains("venues"));
  CHECK(o.plan("today").gpu_hours.cloud_work > 0.0);
}

TEST_CASE("venues: a quota cap Q on the first venue moves the GPU-hours above Q to the next, exactly") {
  const ScenarioOutcome o = run_scenario_json(month_of_100(Json::array({
      cloud_plan("capped", Json::array({neocloud({{"quota_gpus", 64}}), hyperscaler()})),
      cloud_plan("uncapped", Json::array({neocloud(), hyperscaler()})),
  })));
  const PlanResult& capped = o.plan("capped");
  const PlanResult& uncapped = o.plan("uncapped");
  // Uncapped: the neocloud takes all 100 GPUs, c(100 / 8) = 13 instances x $10 x 730 h = $94,900.
  CHECK(venue(uncapped, "neocloud").work_gpu_hours == 73000.0);  // 100 x 730
  CHECK(venue(uncapped, "neocloud").cost_usd == doctest::Approx(94900.0).epsilon(kEps));
  CHECK(venue(uncapped, "hyperscaler").work_gpu_hours == 0.0);
  // Capped at 64 GPUs (8 instances): 64 x 730 = 46,720 GPU-hours at 8 x $10 x 730 = $58,400; the
  // other 36 GPUs an hour go to the hyperscaler: 26,280 GPU-hours on c(36 / 8) = 5 instances,
  // 5 x 8 x 730 = 29,200 billed, 5 x $16 x 730 = $58,400.
  CHECK(venue(capped, "neocloud").work_gpu_hours == 46720.0);
  CHECK(venue(capped, "neocloud").cost_usd == doctest::Approx(58400.0).epsilon(kEps));
  CHECK(venue(capped, "hyperscaler").work_gpu_hours == 26280.0);
  CHECK(venue(capped, "hyperscaler").billed_gpu_hours == 29200.0);
  CHECK(venue(capped, "hyperscaler").cost_usd == doctest::Approx(58400.0).epsilon(kEps));
  // What moved is exactly the GPU-hours above Q: 73,000 - 46,720.
  CHECK(venue(capped, "hyperscaler").work_gpu_hours ==
        venue(uncapped, "neocloud").work_gpu_hours - 64.0 * kHoursPerMonth);
  CHECK(capped.total_usd == doctest::Approx(116800.0).epsilon(kEps));
  CHECK(capped.gpu_hours.unserved == 0.0);
}

TEST_CASE("venues: under a varying demand, a capped venue takes min(D, Q) each hour and the rest moves on") {
  Json doc = month_of_100(Json::array({cloud_plan("capped", Json::array({neocloud({{"quota_gpus", 64}}), hyperscaler()}))}));
  doc["workload"]["profiles"][0]["diurnal_amplitude"] = 0.5;  // 50 .. 150 GPUs
  doc["workload"]["profiles"][0]["peak_hour"] = 15;
  const ScenarioOutcome o = run_scenario_json(doc);
  const std::vector<double> demand =
      demand_gpus_by_hour(o.scenario.workload, o.scenario.horizon_hours(), o.scenario.calendar);
  double expected_neo = 0.0, total = 0.0;
  for (double d : demand) {
    expected_neo += std::min(d, 64.0);
    total += d;
  }
  const PlanResult& r = o.plan("capped");
  CHECK(venue(r, "neocloud").work_gpu_hours == doctest::Approx(expected_neo).epsilon(kEps));
  CHECK(venue(r, "hyperscaler").work_gpu_hours == doctest::Approx(total - expected_neo).epsilon(kEps));
  CHECK(total - expected_neo > 1000.0);  // the cap binds in the peak hours
  CHECK(r.gpu_hours.cloud_work == doctest::Approx(total).epsilon(kEps));
}

TEST_CASE("venues: availability a is the expectation of the Monte Carlo draws (within 4 standard errors)") {
  const Json plans = Json::array(
      {cloud_plan("fallback", Json::array({neocloud({{"quota_gpus", 64}, {"availability", 0.6}}), hyperscaler()}))});
  const ScenarioOutcome o = run_scenario_json(month_of_100(plans));
  const PlanResult& det = o.plan("fallback");
  // Per hour: the neocloud has capacity with p 0.6 and then holds 8 instances (64 GPUs), else 0:
  // E = 4.8 instances = $48. The hyperscaler holds c(36 / 8) = 5 instances when the neocloud is
  // there and c(100 / 8) = 13 when not: E = 0.6 x 5 + 0.4 x 13 = 8.2 instances = $131.2.
  // ($48 + $131.2) x 730 = $130,816.
  CHECK(det.total_usd == doctest::Approx(130816.0).epsilon(kEps));
  CHECK(venue(det, "neocloud").work_gpu_hours == doctest::Approx(0.6 * 64 * 730).epsilon(kEps));  // 28,032
  CHECK(venue(det, "hyperscaler").work_gpu_hours == doctest::Approx(73000.0 - 28032.0).epsilon(kEps));

  const Plan& plan = o.scenario.plans[0];
  const std::vector<double> demand =
      demand_gpus_by_hour(o.scenario.workload, o.scenario.horizon_hours(), o.scenario.calendar);
  constexpr int kPaths = 300;
  double sum = 0.0, sum_sq = 0.0, neo_work = 0.0;
  for (int p = 0; p < kPaths; ++p) {
    EvaluationOptions options;
    options.venue_draws = VenueDrawKey{11, static_cast<std::uint32_t>(p)};
    const PlanResult r = evaluate_plan(o.scenario, plan, demand, options);
    // A path's hour is all or nothing: the neocloud work is 64 GPUs in the hours it is there.
    CHECK(std::fmod(venue(r, "neocloud").work_gpu_hours, 64.0) == 0.0);
    CHECK(r.gpu_hours.cloud_work == 73000.0);  // the hyperscaler takes the rest, nothing waits
    sum += r.total_usd;
    sum_sq += r.total_usd * r.total_usd;
    neo_work += venue(r, "neocloud").work_gpu_hours;
  }
  const double mean = sum / kPaths;
  const double stderr_usd = std::sqrt((sum_sq / kPaths - mean * mean) / (kPaths - 1));
  INFO("mean " << mean << " deterministic " << det.total_usd << " stderr " << stderr_usd);
  CHECK(stderr_usd > 0.0);  // the paths do differ
  CHECK(std::fabs(mean - det.total_usd) < 4.0 * stderr_usd);
  CHECK(neo_work / kPaths == doctest::Approx(28032.0).epsilon(0.02));
}

TEST_CASE("venues: work no venue takes waits, is costed per GPU-hour waited, and is unserved at the end") {
  Json doc = month_of_100(Json::array({cloud_plan("short", Json::array({hyperscaler({{"quota_gpus", 64}})}))}));
  doc["waiting_usd_per_gpu_hour"] = 2.0;
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& r = o.plan("short");
  // 64 GPUs an hour are served; after hour h (1-based) 36 h GPU-hours wait: sum over 730 hours of
  // 36 h = 36 x 730 x 731 / 2 = 9,605,340 GPU-hours waited, 36 x 730 = 26,280 unserved at the end.
  CHECK(r.gpu_hours.waited == doctest::Approx(9605340.0).epsilon(kEps));
  CHECK(r.gpu_hours.unserved == doctest::Approx(26280.0).epsilon(kEps));
  CHECK(r.ledger.category_total_usd(Category::waiting) == doctest::Approx(2.0 * 9605340.0).epsilon(kEps));
  // The venue: 8 instances x $16 x 730 h = $93,440.
  CHECK(venue(r, "hyperscaler").cost_usd == doctest::Approx(93440.0).epsilon(kEps));
  const Json report = o.report();
  const Json& v = report_plan(report, "short").at("venues");
  CHECK(v.at("unserved_gpu_hours").get<double>() == doctest::Approx(26280.0).epsilon(kEps));
  CHECK(v.at("waited_gpu_hours").get<double>() == doctest::Approx(9605340.0).epsilon(kEps));
}

TEST_CASE("venues: each instance launched pays the provisioning delay once") {
  const ScenarioOutcome o = run_scenario_json(
      month_of_100(Json::array({cloud_plan("slow", Json::array({hyperscaler({{"provisioning_delay_h", 0.5}})}))})));
  const VenueTotals& t = venue(o.plan("slow"), "hyperscaler");
  // 13 instances launched in hour 0 and held: 13 x 730 + 13 x 0.5 = 9,496.5 instance-hours x $16.
  CHECK(t.launched_instances == 13.0);
  CHECK(t.instance_hours == 9490.0);
  CHECK(t.billed_gpu_hours == doctest::Approx(9496.5 * 8).epsilon(kEps));
  CHECK(t.cost_usd == doctest::Approx(9496.5 * 16).epsilon(kEps));  // $151,944
}

TEST_CASE("venues: the launches the deterministic run bills are their expectation over both hours' draws") {
  // The neocloud (quota 64, availability 0.6, 0.5 h to start, $10) then the hyperscaler (0.25 h
  // to start, $16), 100 GPUs steady. Availability is drawn hour by hour, so a venue that is back
  // after an hour without capacity launches again what it holds. Neocloud: 8 instances with p 0.6;
  // launched in hour 0 E = 0.6 x 8 = 4.8, then P(now) P(not before) x 8 = 0.6 x 0.4 x 8 = 1.92 an
  // hour: delays 4.8 x 0.5 x $10 = $24, then 1.92 x 0.5 x $10 = $9.60 an hour. Hyperscaler: 5
  // instances (p 0.6) or 13 (p 0.4); hour 0 E = 8.2, then P(13 now, 5 before) x 8 = 0.24 x 8 =
  // 1.92 an hour: 8.2 x 0.25 x $16 = $32.80, then 1.92 x 0.25 x $16 = $7.68 an hour. Held
  // instances as without delays: ($48 + $131.20) x 730 = $130,816. Total: 130,816 + 24 + 729 x 9.6
  // + 32.8 + 729 x 7.68 = $143,469.92. (The expected instances alone, 4.8 and 8.2 every hour,
  // would launch nothing after hour 0: $130,816 + $56.80, short of the Monte Carlo mean.)
  const Json plans = Json::array({cloud_plan(
      "fallback", Json::array({neocloud({{"quota_gpus", 64}, {"availability", 0.6}, {"provisioning_delay_h", 0.5}}),
                               hyperscaler({{"provisioning_delay_h", 0.25}})}))});
  const ScenarioOutcome o = run_scenario_json(month_of_100(plans));
  const PlanResult& det = o.plan("fallback");
  CHECK(venue(det, "neocloud").launched_instances == doctest::Approx(4.8 + 729 * 1.92).epsilon(kEps));
  CHECK(venue(det, "hyperscaler").launched_instances == doctest::Approx(8.2 + 729 * 1.92).epsilon(kEps));
  CHECK(det.total_usd == doctest::Approx(143469.92).epsilon(kEps));

  const std::vector<double> demand =
      demand_gpus_by_hour(o.scenario.workload, o.scenario.horizon_hours(), o.scenario.calendar);
  constexpr int kPaths = 300;
  double sum = 0.0, sum_sq = 0.0;
  for (int p = 0; p < kPaths; ++p) {
    EvaluationOptions options;
    options.venue_draws = VenueDrawKey{13, static_cast<std::uint32_t>(p)};
    const double total = evaluate_plan(o.scenario, o.scenario.plans[0], demand, options).total_usd;
    sum += total;
    sum_sq += total * total;
  }
  const double mean = sum / kPaths;
  const double stderr_usd = std::sqrt((sum_sq / kPaths - mean * mean) / (kPaths - 1));
  INFO("mean " << mean << " deterministic " << det.total_usd << " stderr " << stderr_usd);
  CHECK(std::fabs(mean - det.total_usd) < 4.0 * stderr_usd);
}

TEST_CASE("venues: every report format shows each venue and the unserved GPU-hours") {
  const ScenarioOutcome o = run_scenario_json(month_of_100(Json::array({
      cloud_plan("capped", Json::array({neocloud({{"quota_gpus", 64}}), hyperscaler()})),
      {{"name", "plain"}, {"kind", "cloud"}},
  })));
  const Json report = o.report();
  const Json& list = report_plan(report, "capped").at("venues").at("list");
  REQUIRE(list.size() == 2);
  CHECK(list[0].at("name") == "neocloud");
  CHECK(list[0].at("cost_nominal_usd").get<double>() == doctest::Approx(58400.0).epsilon(kEps));
  CHECK(list[1].at("work_gpu_hours").get<double>() == 26280.0);
  const std::string md = markdown_summary(report);
  // GPU-hours grouped in thousands, the unit in the header (reports/document/cell_text.hpp).
  CHECK(md.find("| plan | venue | price | work served (GPU-h) | billed (GPU-h) | cost (nominal) |") != std::string::npos);
  CHECK(md.find("| capped | 1. neocloud | on_demand | 46,720 | 46,720 | $58,400 |") != std::string::npos);
  CHECK(md.find("| capped | 2. hyperscaler | on_demand | 26,280 | 29,200 | $58,400 |") != std::string::npos);
  CHECK(md.find("| capped | no venue: waited | - | 0 | - | - |") != std::string::npos);
  CHECK(md.find("| capped | no venue: unserved at the end | - | 0 | - | - |") != std::string::npos);
  const std::string html = html_report(report);
  CHECK(html.find("<h2 id=\"venues\">Cloud venues</h2>") != std::string::npos);
  CHECK(html.find("<td>capped</td><td>2. hyperscaler</td>") != std::string::npos);
  bool csv_found = false;
  for (const auto& [name, text] : csv_tables(report)) {
    if (name != "venues.csv") continue;
    csv_found = true;
    CHECK(text.find("capped,1,neocloud,on_demand,46720") == text.find('\n') + 1);
  }
  CHECK(csv_found);
  // A report with no venue plan keeps its bytes: no section, no table.
  const ScenarioOutcome plain = run_scenario_json(month_of_100(Json::array({{{"name", "plain"}, {"kind", "cloud"}}})));
  CHECK(markdown_summary(plain.report()).find("Cloud venues") == std::string::npos);
  for (const auto& t : csv_tables(plain.report())) CHECK(t.first != "venues.csv");
}

TEST_CASE("venues: bad input names the file and the JSON pointer") {
  auto with = [](const Json& venues, const Json& plan_extra = Json::object()) {
    Json plan = cloud_plan("p", venues);
    plan.update(plan_extra);
    return load_error(month_of_100(Json::array({plan})));
  };
  CHECK(with(Json::array()).find("/plans/0/venues: expected a non-empty array") == 0);
  CHECK(with(Json::object()).find("/plans/0/venues: expected a non-empty array") == 0);
  CHECK(with(Json::array({1})).find("/plans/0/venues/0: expected a venue object") == 0);
  CHECK(with(Json::array({hyperscaler({{"availability", 0.0}})})).find("/plans/0/venues/0/availability") == 0);
  CHECK(with(Json::array({hyperscaler({{"availability", 1.5}})})).find("/plans/0/venues/0/availability") == 0);
  CHECK(with(Json::array({hyperscaler({{"quota_gpus", -8}})})).find("/plans/0/venues/0/quota_gpus") == 0);
  CHECK(with(Json::array({hyperscaler({{"quota_gpus", 4}})})).find("/plans/0/venues/0/quota_gpus: expected 0 or at least one instance") == 0);
  CHECK(with(Json::array({hyperscaler({{"provisioning_delay_h", -1}})})).find("/plans/0/venues/0/provisioning_delay_h") == 0);
  CHECK(with(Json::array({hyperscaler({{"price", "reserved"}})})).find("/plans/0/venues/0/price") == 0);
  CHECK(with(Json::array({hyperscaler({{"name", ""}})})).find("/plans/0/venues/0/name") == 0);
  CHECK(with(Json::array({hyperscaler({{"quota", 8}})})).find("/plans/0/venues/0") == 0);  // unknown key
  CHECK(with(Json::array({hyperscaler(), hyperscaler()})).find("/plans/0/venues/1/name: expected a unique venue name") == 0);
  CHECK(with(Json::array({{{"name", "x"}, {"offer", "no/such/offer"}}})).find("/plans/0/venues/0/offer") == 0);
  CHECK(with(Json::array({{{"name", "x"}}})).find("/plans/0/venues/0") == 0);  // no offer
  CHECK(with(Json::array({hyperscaler()}), {{"spot_share", 0.5}}).find("/plans/0/spot_share: expected 0 in a plan with \"venues\"") == 0);
  // An offer without a spot price cannot be a spot venue.
  const Json no_spot_offer = {{"provider", "test"},       {"instance_type", "gpu8-od"}, {"region", "region-a"},
                               {"gpu_model", "ref-gpu"},    {"gpus_per_instance", 8},    {"on_demand_usd_per_hour", 10.0},
                               {"source", "test fixture"}, {"as_of", "2026-01-01"}};
  CHECK(with(Json::array({{{"name", "x"}, {"price", "spot"}, {"offer", no_spot_offer}}}))
            .find("/plans/0/venues/0/price: expected \"on_demand\"") == 0);
  CHECK(with(Json::array({{{"name", "x"}, {"offer", no_spot_offer}}})) == "(accepted)");
  // Onprem plans have no cloud.
  Json onprem = month_of_100(Json::array({{{"name", "own"}, {"kind", "onprem"}, {"onprem_nodes", 2}, {"venues", Json::array({hyperscaler()})}}}));
  CHECK(load_error(onprem).find("/plans/0/venues: expected no cloud venues in an onprem plan") == 0);
  // The replay takes spot venues too (tests/test_venue_replay.cpp), as do the hourly model's
  // paths and sweeps (tests/test_venue_paths.cpp).
  Json jobs = des_scenario_json({{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}});
  jobs["plans"] = Json::array({cloud_plan("p", Json::array({hyperscaler({{"price", "spot"}})}))});
  jobs["baseline"] = "p";
  CHECK(load_error(jobs) == "(accepted)");
  CHECK(with(Json::array({hyperscaler()})) == "(accepted)");
}

