// The replay's site curve (engine/des/fleet/site_curve.hpp): integrals of the hourly PUE and price
// over spans, the work clock and the throttled hours, hand-computed; and plans with alike sites
// sharing one curve per path without a bit of difference.
#include <doctest/doctest.h>

#include "des_support.hpp"

namespace tco {

using namespace des;
using test::source_path;

namespace {

// Two months (1,460 h): PUE 1.2 in even hours and 1.5 in odd ones, $0.10/kWh, hours 3 and 4
// throttled to a work rate of 0.8.
SiteCurve two_month_site() {
  std::vector<SiteHour> site(2 * kHoursPerMonth);
  for (std::size_t h = 0; h < site.size(); ++h) site[h] = {h % 2 == 0 ? 1.2 : 1.5, 0.10, h == 3 || h == 4 ? 0.8 : 1.0};
  return SiteCurve(site);
}

}  // namespace

TEST_CASE("site curve: integrals of PUE and PUE x price over spans, by hand") {
  const SiteCurve c = two_month_site();
  // [0.5, 1.25]: half of hour 0 and a quarter of hour 1: 0.5 x 1.2 + 0.25 x 1.5 = 0.975
  CHECK(c.pue_integral(0.5, 1.25) == doctest::Approx(0.975).epsilon(1e-14));
  CHECK(c.pue_usd_integral(0.5, 1.25) == doctest::Approx(0.0975).epsilon(1e-14));
  // Inside one hour: 0.5 x 1.2
  CHECK(c.pue_integral(2.25, 2.75) == doctest::Approx(0.6).epsilon(1e-14));
  // The whole first month: 365 x 1.2 + 365 x 1.5 = 985.5
  CHECK(c.pue_integral(0.0, 730.0) == doctest::Approx(985.5).epsilon(1e-14));
  // Up to the month's end: the last half of hour 729 (odd): 0.5 x 1.5
  CHECK(c.pue_integral(729.5, 730.0) == doctest::Approx(0.75).epsilon(1e-14));
  // The second month's sums restart: hour 730 (even) and half of 731: 1.2 + 0.5 x 1.5 = 1.95
  CHECK(c.pue_integral(730.0, 731.5) == doctest::Approx(1.95).epsilon(1e-14));
  // ... up to the horizon's end: hours 1,458 and 1,459: 1.2 + 1.5 (a difference of two sums
  // near 985: good to about 1e-13)
  CHECK(c.pue_integral(1458.0, 1460.0) == doctest::Approx(2.7).epsilon(1e-12));
}

TEST_CASE("site curve: the work clock and the throttled hours, by hand") {
  const SiteCurve c = two_month_site();
  // Hours 0-2 at rate 1, hours 3-4 at 0.8, half of hour 5 at 1: 3 + 1.6 + 0.5 = 5.1
  CHECK(c.work_clock(5.5) == doctest::Approx(5.1).epsilon(1e-15));
  CHECK(c.work_clock(3.5) == doctest::Approx(3.4).epsilon(1e-15));
  CHECK(c.work_clock(0.0) == 0.0);
  // The horizon's end: 1,460 hours less 2 x 0.2
  CHECK(c.work_clock(1460.0) == doctest::Approx(1459.6).epsilon(1e-15));
  CHECK(c.throttled_between(0, 10) == 2);
  CHECK(c.throttled_between(4, 4) == 1);
  CHECK(c.throttled_between(5, 1459) == 0);
  CHECK(c.throttled_between(3, 2) == 0);
  // The rate changes at hour 3 (1 -> 0.8) and hour 5 (0.8 -> 1), and nowhere after.
  std::size_t cursor = 0;
  CHECK(c.next_rate_change(0, cursor) == 3);
  CHECK(c.next_rate_change(2, cursor) == 3);
  CHECK(c.next_rate_change(3, cursor) == 5);
  CHECK(c.next_rate_change(5, cursor) == c.hours());
  CHECK(c.next_rate_change(100, cursor) == 1460);
}

TEST_CASE("site curve: an integral's two cases (inside one hour, across hours) meet at the hour's end") {
  // Hour 6 has PUE 1.2 and hour 7 1.5: [6.5, 7) lies inside hour 6, [6.5, 7.0 + 2^-40] just
  // crosses into hour 7. The branch-free pick must take the right case on each side.
  const SiteCurve c = two_month_site();
  CHECK(c.pue_integral(6.5, 7.0 - 0x1p-40) == doctest::Approx(0.5 * 1.2).epsilon(1e-11));
  CHECK(c.pue_integral(6.5, 7.0) == doctest::Approx(0.5 * 1.2).epsilon(1e-14));
  CHECK(c.pue_integral(6.5, 7.0 + 0x1p-40) == doctest::Approx(0.5 * 1.2).epsilon(1e-11));
  CHECK(c.pue_integral(6.5, 8.0) == doctest::Approx(0.5 * 1.2 + 1.5).epsilon(1e-14));
  // Inside one hour the answer is the product itself, bit for bit.
  CHECK(c.pue_integral(6.25, 6.75) == 1.2 * (6.75 - 6.25));
}

TEST_CASE("site curve: the largest PUE over a span of hours, by hand and against every hour") {
  // Two months at PUE 1.1, but 1.7 in hour 100 and 1.4 in hour 1,000 (blocks of 32 hours: hour
  // 100 is in block 3, hour 1,000 in block 31).
  std::vector<SiteHour> site(2 * kHoursPerMonth, SiteHour{1.1, 0.10, 1.0});
  site[100].pue = 1.7;
  site[1000].pue = 1.4;
  const SiteCurve c(site);
  CHECK(c.pue_max(0, 99) == 1.1);
  CHECK(c.pue_max(0, 100) == 1.7);
  CHECK(c.pue_max(100, 100) == 1.7);
  CHECK(c.pue_max(101, 1459) == 1.4);
  CHECK(c.pue_max(101, 999) == 1.1);
  CHECK(c.pue_max(1001, 1459) == 1.1);
  CHECK(c.pue_max(0, 1459) == 1.7);
  CHECK(c.pue_max(5, 4) == 0.0);  // no hour
  // Every span whose ends step by 7 hours: the block maxima give the hour-by-hour maximum.
  long differing = 0;
  for (long first = 0; first < c.hours(); first += 7)
    for (long last = first - 1; last < c.hours(); last += 7) {
      double by_hour = 0.0;
      for (long h = first; h <= last; ++h) by_hour = std::max(by_hour, c.at(h).pue);
      if (c.pue_max(first, last) != by_hour) ++differing;
    }
  CHECK(differing == 0);
  // A site whose PUE never changes: that PUE for any hour, 0 for none.
  const SiteCurve flat(std::vector<SiteHour>(kHoursPerMonth, SiteHour{1.3, 0.10, 1.0}));
  CHECK(flat.pue_max(0, 729) == 1.3);
  CHECK(flat.pue_max(7, 6) == 0.0);
}

TEST_CASE("site curve: plans with alike sites share one curve per path, with the numbers of their own") {
  Json doc = Json::parse(test::read_text_file(source_path("tests/fixtures/des/mc_small.json")));
  // A fourth plan whose site differs (more ambient noise): a group of its own.
  doc["plans"].push_back(Json::parse(R"({"name": "buy-2-noisier", "kind": "hybrid", "onprem_nodes": 2,
                                         "onprem": {"ambient": {"noise_sigma_c": 3}}})"));
  const Scenario s = load_scenario_json(doc, "mc_small.json", source_path("tests/fixtures/des"));
  const DesPlans plans = prepare_des_plans(s);
  CHECK(plans.plans[0].site_group == -1);  // the cloud plan has no site
  CHECK(plans.plans[1].site_group == 0);
  CHECK(plans.plans[2].site_group == 0);
  CHECK(plans.plans[3].site_group == 1);

  const JobCatalog catalog = build_job_catalog(*s.jobs);
  PathSites sites;
  for (std::uint32_t path = 0; path < 3; ++path) {
    sites.start_path(42, path);
    for (std::size_t k = 1; k < plans.plans.size(); ++k) {
      PathInputs shared{42, path, 0.1};
      shared.sites = &sites;
      const PathOutcome a = simulate_path(s, plans.plans[k], catalog, shared);
      const PathOutcome b = simulate_path(s, plans.plans[k], catalog, {42, path, 0.1});
      CHECK(a.cost_by_month == b.cost_by_month);
      CHECK(a.facility_energy_kwh == b.facility_energy_kwh);
      CHECK(a.peak_facility_kw_by_month == b.peak_facility_kw_by_month);
      CHECK(a.throttled_hours == b.throttled_hours);
      CHECK(a.events == b.events);
    }
  }
  // The noisier plan's curve is its own: it throttles in other hours than the fixture plans'.
  const SiteCurve& base = sites.curve(plans.plans[1]);
  const SiteCurve& noisier = sites.curve(plans.plans[3]);
  CHECK(&base != &noisier);
  CHECK(base.work_clock(4380.0) != noisier.work_clock(4380.0));
}

}  // namespace tco
