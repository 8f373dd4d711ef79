// The verdict agrees with its tables (issue #41 item 4): the breakeven sentence names the price path
// and the months it priced, says "never" only when no utilization up to 100% breaks even over the
// horizon the plans run, and its figures are those of the breakevens table and of the plans table;
// the first screen says why the lowest nominal total is not recommended, and whether figures are
// before tax; payback against the recommended plan; the breakeven lists show the rows that decide.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "cli/terminal/terminal_answer.hpp"
#include "reports/html/html_escape.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/verdict/verdict_text.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// 16 GPUs of steady work for 12 months at a 0% rate, a 5-year node life, the resale on at 30% a
// year; the cloud offer test/gpu8 with its on-demand price set to `usd_per_gpu_hour` x 8 an hour,
// changing `change_per_year`. Plans: cloud (the baseline) and buy-1, one test-node-8 that runs
// all the time (the other 8 GPUs burst): its node is 100% busy.
// One node, per month: maintenance 0.06 x 200,000 / 12 = 1,000; colocation 10 kW x $100 + 1 rack
// x $500 = 1,500; idle energy 2 kW x 1.5 x $0.10 x 730 h = 219; energy per u 8 kW x 1.5 x $0.10
// x 730 = 876. Resale 200,000 x 0.7^(H/12).
//   over H = 12:  PV(fixed) = 200,000 + 12 x (1,000 + 1,500 + 219) - 140,000 = 92,628;  E(1) = 10,512
//   over L = 60:  PV(fixed) = 200,000 + 60 x 2,719 - 200,000 x 0.7^5 (33,614) = 329,526; E(1) = 52,560
Json one_node_json(double usd_per_gpu_hour, double change_per_year = 0.0) {
  Json doc = base_scenario_json();
  doc["onprem"]["depreciation"] = {{"life_years", 5}};
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["cloud"] = {{"offer",
                   {{"id", "test/gpu8/region-a"},
                    {"on_demand_usd_per_hour", 8.0 * usd_per_gpu_hour},
                    {"source", "test override"},
                    {"as_of", "2026-01-01"}}},
                  {"price_change_per_year", change_per_year}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "buy-1"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  return doc;
}

constexpr double kPvFixedHorizonUsd = 92628.0;
constexpr double kEnergyHorizonUsd = 10512.0;
constexpr double kPvFixedLifeUsd = 200000.0 + 60.0 * 2719.0 - 33614.0;  // 0.7^5 x 200,000 = 33,614 exactly
constexpr double kEnergyLifeUsd = 52560.0;

const Json& verdict_row(const Json& report) {
  const Json& v = report.at("verdict").at("breakeven");
  for (const auto& row : report.at("breakevens").at("utilization"))
    if (row.at("offer") == v.at("offer") && row.at("price_basis") == v.at("price_basis") &&
        row.at("fleet_nodes") == v.at("fleet_nodes"))
      return row;
  FAIL("the verdict's breakeven is not a row of the table");
  return report;
}

// The NPV by which buy-1 costs more than cloud: its node's gap at u = 1 (the burst is the same in both).
double owning_minus_renting(const Json& report) {
  return report_plan(report, "buy-1").at("npv_usd").get<double>() - report_plan(report, "cloud").at("npv_usd").get<double>();
}

}  // namespace

TEST_CASE("verdict breakeven: \"never\" over the horizon the plans run, agreeing with a 100%-busy plan that costs more") {
  // $1.40 per GPU-hour: renting 8 GPUs for 12 months costs 8 x 1.40 x 8,760 = 98,112 per u.
  //   over H: u* = 92,628 / (98,112 - 10,512) = 92,628 / 87,600 = 1.0574 > 1: never
  //   over L: u* = 329,526 / (8 x 1.40 x 43,800 - 52,560) = 329,526 / 438,000 = 0.752342
  const Json report = run_scenario_json(one_node_json(1.40)).report();
  const Json& row = verdict_row(report);
  CHECK(row.at("over_horizon").at("months") == 12);
  CHECK(row.at("over_horizon").at("pv_fixed_usd").get<double>() == doctest::Approx(kPvFixedHorizonUsd).epsilon(1e-12));
  CHECK(row.at("over_horizon").at("pv_cloud_per_u_usd").get<double>() == doctest::Approx(98112.0).epsilon(1e-12));
  CHECK(row.at("over_horizon").at("utilization").is_null());
  CHECK(row.at("pv_fixed_usd").get<double>() == doctest::Approx(kPvFixedLifeUsd).epsilon(1e-12));
  CHECK(row.at("utilization").get<double>() == doctest::Approx(329526.0 / 438000.0).epsilon(1e-12));
  // The plans table: buy-1's node is busy all the time, and buy-1 costs more by the node's gap at
  // u = 1: 92,628 + 10,512 - 98,112 = 5,028. That is what "never" says.
  CHECK(report_plan(report, "buy-1").at("onprem_utilization").get<double>() == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(owning_minus_renting(report) == doctest::Approx(kPvFixedHorizonUsd + kEnergyHorizonUsd - 98112.0).epsilon(1e-9));
  CHECK(owning_minus_renting(report) == doctest::Approx(5028.0).epsilon(1e-9));
  CHECK(report.at("verdict").at("plan") == "cloud");
  CHECK(verdict_breakeven_sentence(report) ==
        "Renting at the on-demand price of test/gpu8/region-a ($1.40 per GPU-hour throughout) costs less than an owned "
        "test-node-8 node (in a 1-node fleet) even when the node is busy all the time over the 12 months the plans run "
        "(sold at their end, as the plans sell theirs); over the node's 60-month life, owning beats it above 75.2%.");
}

TEST_CASE("verdict breakeven: 97% over the horizon, the figure of the table, and a 100%-busy plan that saves") {
  // $1.51: 8 x 1.51 x 8,760 = 105,820.8 per u.
  //   over H: u* = 92,628 / (105,820.8 - 10,512) = 92,628 / 95,308.8 = 0.971873 -> "97.2%",
  //           0.971873 x 8 GPUs x 730 h = 5,675.7 GPU-hours per node per month
  //   over L: u* = 329,526 / (8 x 1.51 x 43,800 - 52,560) = 329,526 / 476,544 = 0.691487 -> "69.1%"
  const Json report = run_scenario_json(one_node_json(1.51)).report();
  const Json& row = verdict_row(report);
  const double u_h = kPvFixedHorizonUsd / (105820.8 - kEnergyHorizonUsd);
  const double u_l = kPvFixedLifeUsd / (8 * 1.51 * 43800 - kEnergyLifeUsd);
  CHECK(u_h == doctest::Approx(0.971873).epsilon(1e-6));
  CHECK(row.at("over_horizon").at("utilization").get<double>() == doctest::Approx(u_h).epsilon(1e-12));
  CHECK(row.at("utilization").get<double>() == doctest::Approx(u_l).epsilon(1e-12));
  const Json& v = report.at("verdict").at("breakeven");
  CHECK(v.at("utilization_over_horizon").get<double>() == row.at("over_horizon").at("utilization").get<double>());
  CHECK(v.at("utilization").get<double>() == row.at("utilization").get<double>());
  // The plans table: at u = 1 > 0.972, buy-1 saves 105,820.8 - 92,628 - 10,512 = 2,680.8.
  CHECK(owning_minus_renting(report) == doctest::Approx(-2680.8).epsilon(1e-9));
  CHECK(report.at("verdict").at("plan") == "buy-1");
  CHECK(verdict_breakeven_sentence(report) ==
        "Owning beats the on-demand price of test/gpu8/region-a ($1.51 per GPU-hour throughout) when an owned "
        "test-node-8 node (in a 1-node fleet) is busy more than 97.2% of the time (5,676 GPU-hours per node per month) "
        "over the 12 months the plans run (sold at their end, as the plans sell theirs); over the node's 60-month "
        "life, owning beats it above 69.1%.");
  // The table's cells say the same figures.
  CHECK(horizon_breakeven_cell(row) == "97.2%");
  CHECK(life_breakeven_cell(row) == "69.1% (60 months)");
}

TEST_CASE("verdict breakeven: a falling price path is named, with the price where the horizon ends") {
  // $1.60 falling 10% a year, by the hour: the factor in hour h is 0.9^(h/8,760), so over H = 12
  // the cloud's PV per u is 8 x 1.60 x sum_{h<8,760} 0.9^(h/8,760) = 12.8 x (1 - 0.9) / (1 - 0.9^(1/8,760))
  // = 12.8 x 8,314.3601 = 106,423.81; u* = 92,628 / (106,423.81 - 10,512) = 0.965762 -> "96.6%".
  // The last hour's price: 1.60 x 0.9^(8,759/8,760) = 1.44002 -> "$1.44".
  // Over L = 60: 12.8 x (1 - 0.9^5) / (1 - 0.9^(1/8,760)) = 12.8 x 34,048.136 = 435,816.14;
  // u* = 329,526 / (435,816.14 - 52,560) = 0.859806 -> "86.0%".
  const Json report = run_scenario_json(one_node_json(1.60, -0.10)).report();
  const Json& row = verdict_row(report);
  const double sum_h = (1 - 0.9) / (1 - std::pow(0.9, 1.0 / 8760.0));
  CHECK(sum_h == doctest::Approx(8314.3601).epsilon(1e-8));
  CHECK(row.at("over_horizon").at("pv_cloud_per_u_usd").get<double>() == doctest::Approx(12.8 * sum_h).epsilon(1e-9));
  CHECK(row.at("over_horizon").at("utilization").get<double>() ==
        doctest::Approx(kPvFixedHorizonUsd / (12.8 * sum_h - kEnergyHorizonUsd)).epsilon(1e-9));
  CHECK(row.at("over_horizon").at("utilization").get<double>() == doctest::Approx(0.965762).epsilon(1e-6));
  CHECK(row.at("utilization").get<double>() == doctest::Approx(0.859806).epsilon(1e-6));
  const Json& path = row.at("price_path");
  CHECK(path.at("start_usd_per_gpu_hour").get<double>() == doctest::Approx(1.60).epsilon(1e-12));
  CHECK(path.at("change_per_year").get<double>() == -0.10);
  CHECK(path.at("horizon_end_usd_per_gpu_hour").get<double>() ==
        doctest::Approx(1.60 * std::pow(0.9, 8759.0 / 8760.0)).epsilon(1e-12));
  // The plans table: buy-1 saves the node's gap at u = 1: 106,423.81 - 92,628 - 10,512 = 3,283.81.
  CHECK(owning_minus_renting(report) ==
        doctest::Approx(kPvFixedHorizonUsd + kEnergyHorizonUsd - 12.8 * sum_h).epsilon(1e-9));
  CHECK(verdict_breakeven_sentence(report) ==
        "Owning beats the on-demand price of test/gpu8/region-a ($1.60 per GPU-hour at the start, falling 10% a year to "
        "$1.44 at the horizon's end) when an owned test-node-8 node (in a 1-node fleet) is busy more than 96.6% of the "
        "time (5,640 GPU-hours per node per month) over the 12 months the plans run (sold at their end, as the plans "
        "sell theirs); over the node's 60-month life, owning beats it above 86.0%.");
  CHECK(price_path_cell(row) == "$1.600/GPU-h, -10%/yr");
}

TEST_CASE("first screen: why the lowest nominal total is not recommended, before tax, in every format") {
  // At 8% a year the same $1.51 scenario: buy-1 still costs 2,680.8 less in nominal dollars (the
  // 0% figures above), but its $200,000 comes first and the $140,000 resale last. Cumulative
  // nominal excess of buy-1 over cloud: month 0: 200,000 + (1,000 + 1,500 + 1,095) - 8 x 1.51 x
  // 730 = 200,000 - 5,223.4 = 194,776.6, then 5,223.4 less each month: the peak is month 0.
  Json doc = one_node_json(1.51);
  doc["discount_rate_per_year"] = 0.08;
  const Json report = run_scenario_json(doc).report();
  const Json& v = report.at("verdict");
  REQUIRE(v.at("plan") == "cloud");
  const Json& low = v.at("lowest_nominal");
  CHECK(low.at("plan") == "buy-1");
  const double nominal_gap = report_plan(report, "cloud").at("total_nominal_usd").get<double>() -
                             report_plan(report, "buy-1").at("total_nominal_usd").get<double>();
  CHECK(nominal_gap == doctest::Approx(2680.8).epsilon(1e-9));
  CHECK(low.at("peak_extra_spending_usd").get<double>() == doctest::Approx(194776.6).epsilon(1e-9));
  CHECK(low.at("peak_extra_spending_month") == 0);
  const double npv_gap = report_plan(report, "buy-1").at("npv_usd").get<double>() - v.at("npv_usd").get<double>();
  CHECK(npv_gap > 0.0);
  const std::string why = "buy-1 has the lowest nominal total (" + format_usd(low.at("total_nominal_usd")) +
                          ", $2,681 less than cloud's) but a higher NPV (by " + format_usd(npv_gap) +
                          "): it spends more first, up to $194,777 more in month 0, and saves it back later, and at 8% "
                          "a year the later savings are worth less than the earlier spending.";
  const std::string tax = "All figures are before tax (the scenario sets no tax rate).";
  REQUIRE(verdict_notes(report).size() == 2);
  CHECK(verdict_notes(report)[0] == why);
  CHECK(verdict_notes(report)[1] == tax);
  // Each format puts them on its first screen: after the verdict, before the plans table.
  const std::string md = markdown_summary(report);
  CHECK(md.find(why) < md.find("| plan |"));
  CHECK(md.find(tax) < md.find("| plan |"));
  const std::string html = html_report(report);
  CHECK(html.find(html_escape(why)) < html.find("<h2 id=\"plans\">Plans</h2>"));
  const std::string terminal = cli::terminal_answer(report, {}, 1000);
  CHECK(terminal.find(why) < terminal.find("Plans over"));
  CHECK(terminal.find(tax) < terminal.find("Plans over"));
}

TEST_CASE("first screen: a tax shield on owned hardware is named with its rate") {
  Json doc = one_node_json(1.51);
  doc["onprem"]["tax"] = {{"rate", 0.21}, {"shield_enabled", true}};
  const Json report = run_scenario_json(doc).report();
  CHECK(report.at("verdict").at("tax").at("basis") == "tax_shield_on_owned_hardware");
  CHECK(report.at("verdict").at("tax").at("rate").get<double>() == 0.21);
  CHECK(verdict_notes(report).back() ==
        "Figures are before tax except for owned hardware: its depreciation tax shield at 21% (and the tax on its "
        "resale, with a tax view) is booked as a saving; cloud bills and running costs are not tax-deducted.");
}

TEST_CASE("payback against the recommended plan, in the plans table of every format") {
  // $1.51 at 0%: buy-1 is recommended. Cumulative cost, cloud 16 x 1.51 x 730 = 17,636.8 a month;
  // buy-1 200,000 + 12,413.4 a month (3,595 own + 8,818.4 burst), and -140,000 in month 11.
  // cloud against buy-1: at or below it in months 0..10 (5,223.4 (m + 1) <= 200,000), above it in
  // month 11 (211,641.6 > 208,960.8): it never pays back. buy-1 against cloud: month 11.
  const Json report = run_scenario_json(one_node_json(1.51)).report();
  REQUIRE(report.at("verdict").at("plan") == "buy-1");
  const Json& rc = report.at("recommended_comparisons");
  REQUIRE(rc.size() == 1);
  CHECK(rc[0].at("plan") == "cloud");
  CHECK(rc[0].at("baseline") == "buy-1");
  CHECK(rc[0].at("payback_month").is_null());
  CHECK(rc[0].at("npv_saving_usd").get<double>() == doctest::Approx(-2680.8).epsilon(1e-9));
  CHECK(report.at("comparisons")[0].at("payback_month") == 11);
  CHECK(recommended_reference(report) == "buy-1");
  CHECK(payback_vs_recommended_words(report, "cloud") == "never");
  CHECK(payback_vs_recommended_words(report, "buy-1") == "(recommended)");
  CHECK(markdown_summary(report).find(" payback vs buy-1 |") != std::string::npos);
  // The baseline's row: no saving, payback or IRR, no on-prem utilization (it owns nothing).
  CHECK(markdown_summary(report).find("| baseline | - | - | - | never |") != std::string::npos);
  CHECK(html_report(report).find("<th>payback vs buy-1</th>") != std::string::npos);
  CHECK(cli::terminal_answer(report, {}, 200).find("Payback against the recommended plan, buy-1: never for cloud.") !=
        std::string::npos);
}

TEST_CASE("breakeven lists show the rows that decide and count the rest, in every format") {
  // The offer has on-demand, spot ($1.00) and two reserved prices: four rows for the one fleet. buy-1
  // and the verdict pay on-demand: that row decides, the other three are folded.
  const Json report = run_scenario_json(one_node_json(1.51)).report();
  int deciding = 0;
  for (const auto& row : report.at("breakevens").at("utilization")) deciding += row.at("decides").get<bool>();
  CHECK(report.at("breakevens").at("utilization").size() == 4);
  CHECK(deciding == 1);
  const std::string md = markdown_summary(report);
  CHECK(md.find("| test-node-8 | 1 | test/gpu8/region-a | on_demand |") != std::string::npos);
  CHECK(md.find("| test-node-8 | 1 | test/gpu8/region-a | spot |") == std::string::npos);
  CHECK(md.find("3 more rows price these fleets") != std::string::npos);
  // The HTML draws the same section (reports/document/answer/breakevens_section.cpp): the same count.
  const std::string html = html_report(report);
  CHECK(html.find("<td>test-node-8</td><td class=n>1</td><td>test/gpu8/region-a</td><td>on_demand</td>") !=
        std::string::npos);
  CHECK(html.find("<td>test/gpu8/region-a</td><td>spot</td>") == std::string::npos);
  CHECK(html.find("3 more rows price these fleets") != std::string::npos);
  CHECK(cli::terminal_answer(report, {}, 200).find("3 more rows") != std::string::npos);
}

TEST_CASE("the cumulative cost chart labels the last month's drop: the resale") {
  // At 0% the resale, 200,000 x 0.7 = 140,000, is booked at the end of month 11, undiscounted.
  const std::string html = html_report(run_scenario_json(one_node_json(1.51)).report());
  CHECK(html.find("month 11: resale booked, the lines drop") != std::string::npos);
  CHECK(html.find("(buy-1 $140,000, $140,000 discounted)") != std::string::npos);
}

}  // namespace tco::test

namespace tco::test {

TEST_CASE("verdict: a plan dearer than the baseline is chosen with its extra cost, not a negative saving") {
  // The baseline leaves work unserved and is passed over (training-cluster-spares: -$426,106 read
  // "it saves -$426,106"). Here the $1.51 report with its saving made -$1,000 and drawn paths
  // whose difference (plan - baseline) lies in 900 .. 1,100: an extra cost of $900 .. $1,100.
  Json report = run_scenario_json(one_node_json(1.51)).report();
  report["verdict"]["npv_saving_usd"] = -1000.0;
  report["monte_carlo"] = {{"comparisons", Json::array({{{"plan", "buy-1"},
                                                         {"p_cheaper", 0.0},
                                                         {"npv_difference_usd",
                                                          {{"mean", 1000.0}, {"ci95_low", 900.0}, {"ci95_high", 1100.0}}}}})}};
  CHECK(verdict_sentence(report).find("Choose buy-1: it costs $1,000 more in NPV than cloud over 12 months (95% CI of "
                                      "the extra cost $900 .. $1,100, cheaper than the baseline on 0% of paths).") == 0);
}

}  // namespace tco::test

namespace tco::test {

TEST_CASE("verdict breakeven: against spot it says it prices the spot price alone") {
  // buy-1 with spot_share 1 pays spot: the verdict's breakeven is against test/gpu8's spot price,
  // $8/h = $1.00 per GPU-hour: 8 x 1.00 x 8,760 = 70,080 per u < 92,628 + 10,512: never over the horizon.
  Json doc = one_node_json(1.51);
  doc["plans"][1]["spot_share"] = 1.0;
  doc["plans"][0]["spot_share"] = 1.0;
  const Json report = run_scenario_json(doc).report();
  REQUIRE(report.at("verdict").at("breakeven").at("price_basis") == "spot");
  CHECK(verdict_breakeven_sentence(report).find(
            "Renting at the spot price of test/gpu8/region-a ($1.00 per GPU-hour throughout; the spot price alone, "
            "without the preemptions, overhead and on-demand fallback the plans pay) costs less than") == 0);
}

}  // namespace tco::test
