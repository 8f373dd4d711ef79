// The shipped Azure H100 reserved-price curve and the scenario that uses it (issue 48 item 3,
// scenarios/azure-h100-term-curve.json, docs/decisions.md §26):
// - the catalog's azure/ND96isr_H100_v5/eastus carries the 1-, 3- and 5-year prices quoted from
//   the Azure Retail Prices API ($7.866, $5.395, $4.916 per GPU-hour x 8 GPUs);
// - the forwards that curve implies at 8% equal the figures worked out by hand;
// - the scenario validates and runs, each plan's reserved cost as by hand.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "models/price_path/implied_forward.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

const Json* azure_h100_record() {
  static const Json catalog = read_json_file(source_path("pricing-data/cloud_offers.json"));
  for (const Json& r : catalog.at("records"))
    if (r.at("id") == "azure/ND96isr_H100_v5/eastus") return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("azure term curve: the shipped 1-, 3- and 5-year prices and their implied forwards, by hand") {
  const Json* rec = azure_h100_record();
  REQUIRE(rec != nullptr);
  // Per instance-hour = 8 GPUs x the quoted $/GPU-hour: 8 x 7.866 = 62.928, 8 x 5.395 = 43.16,
  // 8 x 4.916 = 39.328.
  CHECK(rec->at("reserved_1y_usd_per_hour").get<double>() == doctest::Approx(62.928).epsilon(1e-12));
  CHECK(rec->at("reserved_3y_usd_per_hour").get<double>() == doctest::Approx(43.16).epsilon(1e-12));
  CHECK(rec->at("reserved_usd_per_hour_by_term_months").at("60").get<double>() ==
        doctest::Approx(39.328).epsilon(1e-12));
  CHECK(rec->at("field_provenance").at("reserved_usd_per_hour_by_term_months").at("as_of") == "2026-09-19");
  const double gpus = rec->at("gpus_per_instance").get<double>();
  const std::vector<TermPoint> curve = {{12, rec->at("reserved_1y_usd_per_hour").get<double>() / gpus},
                                        {36, rec->at("reserved_3y_usd_per_hour").get<double>() / gpus},
                                        {60, rec->at("reserved_usd_per_hour_by_term_months").at("60").get<double>() / gpus}};

  // At r = 0, A(a, b) = b - a:
  //   [12, 36): (5.395 x 36 - 7.866 x 12) / 24 = (194.22 - 94.392) / 24 = 99.828 / 24 = $4.1595
  //   [36, 60): (4.916 x 60 - 5.395 x 36) / 24 = (294.96 - 194.22) / 24 = 100.74 / 24 = $4.1975
  const auto flat = implied_forwards_from_curve(curve, 0.0);
  REQUIRE(flat.size() == 3);
  CHECK(flat[0].usd_per_gpu_hour == doctest::Approx(7.866).epsilon(1e-12));
  CHECK(flat[1].start_month == 12);
  CHECK(flat[1].end_month == 36);
  CHECK(flat[1].usd_per_gpu_hour == doctest::Approx(4.1595).epsilon(1e-9));
  CHECK(flat[2].start_month == 36);
  CHECK(flat[2].end_month == 60);
  CHECK(flat[2].usd_per_gpu_hour == doctest::Approx(4.1975).epsilon(1e-9));

  // At r = 8%, d_m = 1.08^(-(m+1)/12): A(0, 12) = 11.512858, A(0, 36) = 32.043331, A(0, 60) =
  // 49.644903, A(12, 36) = 20.530474, A(36, 60) = 17.601572:
  //   [12, 36): (5.395 x 32.043331 - 7.866 x 11.512858) / 20.530474
  //             = (172.873772 - 90.560139) / 20.530474 = 82.313633 / 20.530474 = $4.009339
  //   [36, 60): (4.916 x 49.644903 - 5.395 x 32.043331) / 17.601572
  //             = (244.054343 - 172.873772) / 17.601572 = 71.180572 / 17.601572 = $4.043989
  // both 49% below the 1-year $7.866.
  double a12 = 0.0, a36 = 0.0, a60 = 0.0;
  for (int m = 0; m < 60; ++m) {
    const double d = std::pow(1.08, -(m + 1) / 12.0);
    a60 += d;
    if (m < 36) a36 += d;
    if (m < 12) a12 += d;
  }
  CHECK(a12 == doctest::Approx(11.512858).epsilon(1e-7));
  CHECK(a36 == doctest::Approx(32.043331).epsilon(1e-7));
  CHECK(a60 == doctest::Approx(49.644903).epsilon(1e-7));
  const auto fwd = implied_forwards_from_curve(curve, 0.08);
  REQUIRE(fwd.size() == 3);
  CHECK(fwd[1].usd_per_gpu_hour == doctest::Approx(4.009339).epsilon(1e-6));
  CHECK(fwd[2].usd_per_gpu_hour == doctest::Approx(4.043989).epsilon(1e-6));
  // The 1y/3y pair's forward per instance-hour (the report's pricing.implied_forwards): 8 x 4.009339.
  CHECK(implied_forward_usd_per_hour(62.928, 43.16, 0.08) == doctest::Approx(32.074714).epsilon(1e-6));
}

TEST_CASE("azure term curve: azure-h100-term-curve validates and runs") {
  const std::string scenario = source_path("scenarios/azure-h100-term-curve.json");
  const CliResult v = run_cli({"validate", scenario});
  INFO(v.out, v.err);
  CHECK(v.exit_code == 0);
  const auto dir = scratch_dir("azure_term_curve_run");
  const std::string report = (dir / "report.json").string();
  const CliResult r = run_cli({"run", scenario, "--out", report, "--quiet"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json j = read_json_file(report);
  REQUIRE(j.at("plans").size() == 4);
  // 8 instances reserved for 60 months: 8 x 39.328 x 730 h = $229,675.52 a month, NPV x A(0, 60)
  // = 229,675.52 x 49.644903 = $11,402,219 of reserved cost; nominal 229,675.52 x 60 = $13,780,531,
  // and with Azure's 5% support and goodput 0.979893 (lost work 1 / 0.979893 - 1 = 0.020520) the
  // plan totals 13,780,531 x 1.070520 = $14,752,329.
  const Json& five = j.at("plans")[3];
  CHECK(five.at("name") == "reserve-5y");
  CHECK(five.at("total_nominal_usd").get<double>() == doctest::Approx(13780531.2 * (1.05 + 1.0 / 0.979893 - 1.0)).epsilon(1e-9));
  // The 1-year term rolled five times at today's price: 8 x 62.928 x 730 x 60 = $22,049,971 nominal.
  const Json& one = j.at("plans")[1];
  CHECK(one.at("name") == "reserve-1y-rolling");
  CHECK(one.at("total_nominal_usd").get<double>() == doctest::Approx(22049971.2 * (1.05 + 1.0 / 0.979893 - 1.0)).epsilon(1e-9));
  CHECK(j.at("verdict").dump().find("reserve-5y") != std::string::npos);
  const Json& forwards = j.at("pricing").at("implied_forwards");
  REQUIRE(forwards.size() == 1);
  CHECK(forwards[0].at("implied_forward_usd_per_gpu_hour").get<double>() == doctest::Approx(4.009339).epsilon(1e-6));
}

}  // namespace tco::test
