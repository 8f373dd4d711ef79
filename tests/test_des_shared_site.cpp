// One site set-up for the plans of one site (engine/des/des_plan.cpp, set_site): plans whose
// on-prem specs give the same hours share one curve, and a plan whose tariff, escalation or
// cooling differs gets its own. Every plan's curve, shared or not, is bit for bit the curve of
// its own site_hours.
#include <cmath>

#include <doctest/doctest.h>

#include "des_support.hpp"

namespace tco {

using namespace des;

namespace {

// test-region: $0.10 a kWh; test-air: PUE 1.5; test-liquid: PUE 1.1.
Json site_plans_json() {
  Json doc = test::des_scenario_json({{"poisson", {{"jobs_per_hour", 0.5}, {"gpus", {{"8", 1.0}}}, {"duration_median_h", 3}}}});
  doc["plans"] = Json::parse(R"([
    {"name": "cloud", "kind": "cloud"},
    {"name": "buy-2", "kind": "hybrid", "onprem_nodes": 2},
    {"name": "buy-3", "kind": "hybrid", "onprem_nodes": 3, "onprem": {"maintenance_per_year": 0.08}},
    {"name": "buy-2-dear", "kind": "hybrid", "onprem_nodes": 2,
     "onprem": {"power": {"tariff": {"type": "flat", "usd_per_kwh": 0.20}}}},
    {"name": "buy-2-escalating", "kind": "hybrid", "onprem_nodes": 2,
     "onprem": {"power": {"escalation_per_year": 0.10}}},
    {"name": "buy-2-liquid", "kind": "hybrid", "onprem_nodes": 2, "onprem": {"cooling": "test-liquid"}}
  ])");
  return doc;
}

void check_same_curve(const SiteCurve& a, const SiteCurve& b) {
  REQUIRE(a.hours() == b.hours());
  long differing = 0;
  for (long h = 0; h < a.hours(); ++h) {
    const SiteCurve::Hour &x = a.at(h), &y = b.at(h);
    if (x.pue != y.pue || x.usd_per_kwh != y.usd_per_kwh || x.work_rate != y.work_rate ||
        x.pue_usd_per_kwh != y.pue_usd_per_kwh || x.pue_before != y.pue_before ||
        x.pue_usd_per_kwh_before != y.pue_usd_per_kwh_before || x.work_before != y.work_before ||
        x.throttled_through != y.throttled_through)
      ++differing;
  }
  CHECK(differing == 0);
}

}  // namespace

TEST_CASE("shared site: plans of one site share a curve, another tariff, escalation or cooling gets its own") {
  const Scenario s = test::load_des_scenario(site_plans_json());
  const DesPlans plans = prepare_des_plans(s);
  REQUIRE(plans.plans.size() == 6);
  const DesPlan &buy2 = plans.plans[1], &buy3 = plans.plans[2], &dear = plans.plans[3], &escalating = plans.plans[4],
                &liquid = plans.plans[5];
  CHECK(plans.plans[0].fixed_site == nullptr);  // a cloud plan has no site
  REQUIRE(buy2.fixed_site != nullptr);
  // Another node count and maintenance rate: the same site, one curve.
  CHECK(buy3.fixed_site == buy2.fixed_site);
  CHECK(dear.fixed_site != buy2.fixed_site);
  CHECK(escalating.fixed_site != buy2.fixed_site);
  CHECK(liquid.fixed_site != buy2.fixed_site);
  CHECK(escalating.fixed_site != dear.fixed_site);

  // Hour 0: PUE x price = 1.5 x 0.10 = 0.15 ($ per IT kWh); 1.5 x 0.20 = 0.30; 1.1 x 0.10 = 0.11.
  CHECK(buy2.fixed_site->at(0).pue_usd_per_kwh == doctest::Approx(0.15).epsilon(1e-12));
  CHECK(dear.fixed_site->at(0).pue_usd_per_kwh == doctest::Approx(0.30).epsilon(1e-12));
  CHECK(liquid.fixed_site->at(0).pue_usd_per_kwh == doctest::Approx(0.11).epsilon(1e-12));
  // Half a year in (hour 4380): 0.10 x 1.1^(4380 / 8760) = 0.10 x 1.0488088482 = 0.10488088482
  // escalating, 0.10 flat.
  CHECK(escalating.fixed_site->at(4380).usd_per_kwh == doctest::Approx(0.10488088482).epsilon(1e-10));
  CHECK(buy2.fixed_site->at(4380).usd_per_kwh == 0.10);
  // The month's PUE sum before hour 730 + 5 (month 1 starts at 730): 5 x 1.5 = 7.5, 5 x 1.1 = 5.5.
  CHECK(buy2.fixed_site->at(735).pue_before == doctest::Approx(7.5).epsilon(1e-12));
  CHECK(liquid.fixed_site->at(735).pue_before == doctest::Approx(5.5).epsilon(1e-12));

  // Each plan's curve is the one its own spec gives, computed afresh.
  for (std::size_t k = 1; k < plans.plans.size(); ++k) {
    const DesPlan& d = plans.plans[k];
    INFO("plan " << d.plan->name);
    const SiteCurve own(site_hours(*d.onprem, s.calendar, s.horizon_hours()));
    check_same_curve(*d.fixed_site, own);
    CHECK(d.site.size() == static_cast<std::size_t>(s.horizon_hours()));
  }
  // Shared sites keep one site group; the others have their own.
  CHECK(buy3.site_group == buy2.site_group);
  CHECK(dear.site_group != buy2.site_group);
  CHECK(escalating.site_group != buy2.site_group);
}

TEST_CASE("shared site: an edited escalation gives the next preparation another curve") {
  Json doc = site_plans_json();
  const DesPlans before = prepare_des_plans(test::load_des_scenario(doc));
  doc["onprem"]["power"]["escalation_per_year"] = 0.21;
  const Scenario edited = test::load_des_scenario(doc);
  const DesPlans after = prepare_des_plans(edited);
  // buy-2 now escalates at 21% (the top-level power): at hour 4380, 0.10 x 1.21^(1/2) = 0.11.
  CHECK(before.plans[1].fixed_site->at(4380).usd_per_kwh == 0.10);
  CHECK(after.plans[1].fixed_site->at(4380).usd_per_kwh == doctest::Approx(0.11).epsilon(1e-12));
  // buy-2-escalating patches its own 10% over the 21%: 0.10 x 1.0488088482, as before.
  CHECK(after.plans[4].fixed_site->at(4380).usd_per_kwh == doctest::Approx(0.10488088482).epsilon(1e-10));
  CHECK(after.plans[4].fixed_site != after.plans[1].fixed_site);
  check_same_curve(*after.plans[2].fixed_site, SiteCurve(site_hours(*after.plans[2].onprem, edited.calendar,
                                                                    edited.horizon_hours())));
}

}  // namespace tco
