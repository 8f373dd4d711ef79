// Reserved prices by term in months (issue 48 item 3): a cloud offer's
// reserved_usd_per_hour_by_term_months, a plan's reserved_term_months, and the offer override that
// `pricing import --format term-structure --offer ID --gpus-per-instance N` writes. The calendar
// rule: a term of m months is m x 730 hours, paid every hour at the price fixed at the term's first
// hour (models/scenario.hpp Plan::reserved_term_hours; docs/model.md §4).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "engine/ledger/breakeven.hpp"
#include "models/catalog/field_provenance.hpp"

namespace tco::test {

namespace {

// The base scenario (16 GPUs steady for 12 months; fixture offer test/gpu8/region-a: 8 GPUs,
// 1-year $12/h, 3-year $10/h) with a 6-month term at $11 per instance-hour and one more plan that
// reserves 2 instances (all 16 GPUs) for 6-month terms.
Json six_month_scenario() {
  Json doc = base_scenario_json();
  doc["cloud"]["offer"] = {{"id", "test/gpu8/region-a"}, {"reserved_usd_per_hour_by_term_months", {{"6", 11.0}}}};
  doc["plans"].push_back({{"name", "reserved-6m"}, {"kind", "cloud"}, {"reserved_instances", 2},
                          {"reserved_term_months", 6}});
  return doc;
}

}  // namespace

TEST_CASE("reserved term in months: a 6-month plan costs 6 x 730 h x price x GPUs per term, by hand") {
  // Price per GPU-hour: $11 / 8 GPUs = $1.375. One term: 6 x 730 h = 4,380 h x $1.375 x 16 GPUs =
  // $96,360. Twelve months hold two terms (hours 0 and 4,380): $192,720, and no on-demand hour.
  const ScenarioOutcome flat = run_scenario_json(six_month_scenario());
  const PlanResult& six = flat.plan("reserved-6m");
  CHECK(six.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(192720.0).epsilon(1e-12));
  CHECK(six.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(six.gpu_hours.reserved_paid == doctest::Approx(16.0 * 8760.0).epsilon(1e-12));
  const Plan& plan = flat.scenario.plans[2];
  CHECK(plan.reserved_term_months == 6);
  CHECK(plan.reserved_term_hours() == 4380);
  CHECK(plan.reserved_usd_per_instance_hour() == 11.0);
  CHECK(plan.resolved.at("reserved_term_months") == 6);
  CHECK(plan.resolved.at("reserved_term_years").is_null());

  // The price is fixed at each term's first hour: at -10% a year the second term (from hour 4,380)
  // pays 0.9^(4,380 / 8,760) = 0.948683 of it: 96,360 x (1 + 0.948683) = $187,775.12. A 12-month
  // term would have paid one price all year ($192,720 at $11).
  Json falling = six_month_scenario();
  falling["cloud"]["price_change_per_year"] = -0.10;
  const ScenarioOutcome moved = run_scenario_json(falling);
  CHECK(moved.plan("reserved-6m").ledger.category_total_usd(Category::cloud_reserved) ==
        doctest::Approx(96360.0 * (1.0 + std::sqrt(0.9))).epsilon(1e-9));
  CHECK(96360.0 * (1.0 + std::sqrt(0.9)) == doctest::Approx(187775.12).epsilon(1e-7));

  // reserved_term_months 12 is reserved_term_years 1: the same bill to the bit, and the same echo.
  Json twelve = six_month_scenario();
  twelve["plans"][2]["reserved_term_months"] = 12;
  Json one_year = six_month_scenario();
  one_year["plans"][2].erase("reserved_term_months");
  one_year["plans"][2]["reserved_term_years"] = 1;
  const ScenarioOutcome by_months = run_scenario_json(twelve), by_years = run_scenario_json(one_year);
  // 2 x $12 x 8,760 h = $210,240.
  CHECK(by_months.plan("reserved-6m").total_usd == doctest::Approx(210240.0).epsilon(1e-12));
  CHECK(by_months.plan("reserved-6m").total_usd == by_years.plan("reserved-6m").total_usd);
  CHECK(by_months.scenario.plans[2].resolved == by_years.scenario.plans[2].resolved);

  // The hybrid plan's breakevens price the 6-month term too, at its own term's hours.
  bool six_month_basis = false;
  for (const UtilizationBreakeven& b : flat.run.utilization_breakevens)
    six_month_basis = six_month_basis || b.price_basis == "reserved_6m";
  CHECK(six_month_basis);
}

TEST_CASE("reserved term in months: a renewal that ends past the horizon is counted to it, with a warning") {
  // A 9-month horizon holds one 6-month term (hours 0 to 4,380) and the renewal's first 3 months
  // (4,380 to 6,570): 6,570 h x $1.375 x 16 GPUs = $144,540, not the whole second term ($192,720).
  // The renewal at month 6 ends at month 12, 3 months past the horizon: a warning says so.
  Json nine = six_month_scenario();
  nine["horizon_months"] = 9;
  const ScenarioOutcome o = run_scenario_json(nine);
  CHECK(o.plan("reserved-6m").ledger.category_total_usd(Category::cloud_reserved) ==
        doctest::Approx(144540.0).epsilon(1e-12));
  CHECK(6570.0 * 1.375 * 16.0 == 144540.0);
  REQUIRE(o.has_warning("reserved-renewal-beyond-horizon", "/plans/2/reserved_term_months"));
  for (const Finding& f : o.scenario.warnings)
    if (f.code == "reserved-renewal-beyond-horizon")
      CHECK(f.message ==
            "plan \"reserved-6m\": the 6-month commitment renews at month 6 for a whole term, which ends 3 months "
            "after the 9-month horizon; only the months inside the horizon are counted, not the renewal's last 3 "
            "months of reserved payments");
  // Whole terms (12 months = two 6-month terms): no warning. A term longer than the horizon has its
  // own warning, not this one.
  CHECK_FALSE(run_scenario_json(six_month_scenario()).has_warning("reserved-renewal-beyond-horizon",
                                                                  "/plans/2/reserved_term_months"));
  Json four = six_month_scenario();
  four["horizon_months"] = 4;
  const ScenarioOutcome short_horizon = run_scenario_json(four);
  CHECK(short_horizon.has_warning("reserved-term-beyond-horizon", "/plans/2/reserved_term_months"));
  CHECK_FALSE(short_horizon.has_warning("reserved-renewal-beyond-horizon", "/plans/2/reserved_term_months"));
}

TEST_CASE("reserved term in months: bad input exits 2 naming the file and the pointer") {
  check_each_refused(
      "reserved-terms-",
      six_month_scenario(),
      {{"term-not-priced", [](Json& d) { d["plans"][2]["reserved_term_months"] = 7; },
        "/plans/2/reserved_term_months", "it prices 6, 12, 36 months"},
       {"both-keys", [](Json& d) { d["plans"][2]["reserved_term_years"] = 1; }, "/plans/2/reserved_term_months",
        "beside reserved_term_years"},
       {"term-too-long", [](Json& d) { d["plans"][2]["reserved_term_months"] = 61; },
        "/plans/2/reserved_term_months", ""},
       {"key-12",
        [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"]["12"] = 12.5; },
        "/cloud/offer/reserved_usd_per_hour_by_term_months/12", "it is reserved_1y_usd_per_hour"},
       {"key-leading-zero",
        [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"]["06"] = 11.0; },
        "/cloud/offer/reserved_usd_per_hour_by_term_months/06", "a term in whole months"},
       {"key-word",
        [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"]["six"] = 11.0; },
        "/cloud/offer/reserved_usd_per_hour_by_term_months/six", "a term in whole months"},
       {"key-61",
        [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"]["61"] = 11.0; },
        "/cloud/offer/reserved_usd_per_hour_by_term_months/61", "1 to 60"},
       {"zero-price", [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"]["6"] = 0.0; },
        "/cloud/offer/reserved_usd_per_hour_by_term_months/6", ""},
       {"not-a-number",
        [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"]["6"] = "11"; },
        "/cloud/offer/reserved_usd_per_hour_by_term_months/6", ""},
       {"empty", [](Json& d) { d["cloud"]["offer"]["reserved_usd_per_hour_by_term_months"] = Json::object(); },
        "/cloud/offer/reserved_usd_per_hour_by_term_months", "an object of reserved prices"},
       {"provenance-without-field",
        [](Json& d) {
          d["cloud"]["offer"].erase("reserved_usd_per_hour_by_term_months");
          d["cloud"]["offer"]["field_provenance"] = {{"reserved_usd_per_hour_by_term_months", {{"as_of", "2026-11-27"}}}};
          d["plans"].erase(2);
        },
        "/cloud/offer/field_provenance/reserved_usd_per_hour_by_term_months", "which this record does not have"}});
}

TEST_CASE("term-structure import with an offer: the override a scenario loads, each term a reserved price") {
  const auto dir = scratch_dir("term-structure-offer");
  const auto csv = dir / "curve.csv";
  // Per GPU-hour: 6 months $1.375, 12 months $1.50, 24 months $1.30; x 8 GPUs per instance:
  // $11.00, $12.00 (reserved_1y_usd_per_hour), $10.40.
  std::ofstream(csv, std::ios::binary) << "as_of,term_months,usd_per_gpu_hour,source\n"
                                          "2026-11-27,6,1.375,index a\n"
                                          "2026-11-27,12,1.50,index a\n"
                                          "2026-11-27,24,1.30,index b\n";
  const auto out = dir / "curve.json";
  const CliResult r = run_cli({"pricing", "import", "--format", "term-structure", csv.string(), "-o", out.string(),
                               "--discount-rate", "0", "--offer", "test/gpu8/region-a", "--gpus-per-instance", "8"});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const Json offer = Json::parse(read_text_file(out)).at("offer");
  CHECK(offer.at("id") == "test/gpu8/region-a");
  CHECK(offer.at("reserved_1y_usd_per_hour").get<double>() == doctest::Approx(12.0).epsilon(1e-12));
  CHECK_FALSE(offer.contains("reserved_3y_usd_per_hour"));  // no 36-month point: the catalog's stays
  CHECK(offer.at("reserved_usd_per_hour_by_term_months").at("6").get<double>() == doctest::Approx(11.0).epsilon(1e-12));
  CHECK(offer.at("reserved_usd_per_hour_by_term_months").at("24").get<double>() ==
        doctest::Approx(10.4).epsilon(1e-12));
  CHECK(offer.at("field_provenance").at("reserved_1y_usd_per_hour") ==
        Json({{"as_of", "2026-11-27"}, {"source", "index a"}}));
  CHECK(offer.at("field_provenance").at("reserved_usd_per_hour_by_term_months") ==
        Json({{"as_of", "2026-11-27"}, {"source", "index a; index b"}}));

  // The override loads as the scenario's offer: the 6-month plan pays $192,720 as above, and the
  // report dates the terms by the curve.
  Json doc = six_month_scenario();
  doc["cloud"]["offer"] = offer;
  const ScenarioOutcome o = run_scenario_json(doc);
  CHECK(o.plan("reserved-6m").ledger.category_total_usd(Category::cloud_reserved) ==
        doctest::Approx(192720.0).epsilon(1e-12));
  const FigureProvenance* terms =
      find_figure(o.scenario.plans[2].cloud->offer.provenance, "reserved_usd_per_hour_by_term_months");
  REQUIRE(terms != nullptr);
  CHECK(terms->as_of == "2026-11-27");
  CHECK(terms->source == "index a; index b");

  // A term above 60 months has no place in an offer: exit 2 at its line, nothing written; and
  // --offer goes with --gpus-per-instance.
  const auto long_csv = dir / "long.csv";
  std::ofstream(long_csv, std::ios::binary) << "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,72,1.2,s\n";
  const CliResult too_long = run_cli({"pricing", "import", "--format", "term-structure", long_csv.string(), "-o",
                                      (dir / "long.json").string(), "--discount-rate", "0", "--offer",
                                      "test/gpu8/region-a", "--gpus-per-instance", "8"});
  CHECK(too_long.exit_code == 2);
  CHECK(too_long.err.find(long_csv.string()) != std::string::npos);
  CHECK(too_long.err.find("line 2, column 12") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "long.json"));
  const CliResult alone = run_cli({"pricing", "import", "--format", "term-structure", csv.string(), "-o",
                                   (dir / "alone.json").string(), "--discount-rate", "0", "--offer", "x"});
  CHECK(alone.exit_code == 2);
  CHECK(alone.err.find("--gpus-per-instance") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "alone.json"));
}

}  // namespace tco::test
