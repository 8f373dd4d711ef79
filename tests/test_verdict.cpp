// The answer a finance review acts on (issue #22 items 1-3): utilization breakevens against every
// cloud offer a plan uses, keyed by offer id; the verdict (never a plan that leaves work unserved
// while waiting is free, with the breakeven against the recommended plan's offer); the payback,
// IRR and interval wording of engine/ledger/recommendation.hpp and reports/verdict/verdict_text.hpp.
#include <string>

#include <doctest/doctest.h>

#include "cli/terminal/terminal_answer.hpp"

#include "cli/report_pipeline.hpp"
#include "reports/html/html_escape.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/verdict/verdict_text.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// 16 GPUs of steady work for 12 months at a 0% discount rate, and a 5-year node life:
//   cloud (baseline): test/gpu8, $16/h for 8 GPUs = $2.00 per GPU-hour on-demand, $1.00 spot,
//                     $1.50 1-year reserved, $1.25 3-year reserved
//   neo:              test/gpu1 with its prices overridden: $1.80 on-demand, $1.50 1-year reserved
//   own-1:            one test-node-8 ($200,000, idle 2 kW, peak 10 kW), no cloud: it serves 8 of the
//                     16 GPUs and leaves the rest unserved
Json two_offers_json() {
  Json doc = base_scenario_json();
  doc["onprem"]["depreciation"] = {{"life_years", 5}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}},
                  {{"name", "neo"},
                   {"kind", "cloud"},
                   {"cloud",
                    {{"offer",
                      {{"id", "test/gpu1/region-a"},
                       {"on_demand_usd_per_hour", 1.8},
                       {"reserved_1y_usd_per_hour", 1.5},
                       {"source", "test override"},
                       {"as_of", "2026-01-01"}}}}}},
                  {{"name", "own-1"}, {"kind", "onprem"}, {"onprem_nodes", 1}}};
  return doc;
}

const UtilizationBreakeven& breakeven(const ScenarioOutcome& o, const std::string& offer, const std::string& basis) {
  for (const auto& b : o.run.utilization_breakevens)
    if (b.offer_id == offer && b.price_basis == basis) return b;
  FAIL("no utilization breakeven against " << offer << " " << basis);
  return o.run.utilization_breakevens.front();
}

// One node over its 60-month life at 0%, 43,800 hours:
//   PV(fixed) = capex 200,000 + maintenance 0.06 x 200,000 x 5 = 60,000
//             + colocation (10 kW x $100 + 1 rack x $500) x 60 months = 90,000
//             + idle energy 2 kW x PUE 1.5 x $0.10 x 43,800 h = 13,140            = 363,140
//   PV(dynamic energy per u) = 8 kW x 1.5 x $0.10 x 43,800 h                        = 52,560
//   PV(cloud per u) = 8 GPUs x price x 43,800 h;  u* = 363,140 / (PV(cloud per u) - 52,560)
constexpr double kPvFixedUsd = 363140.0;
constexpr double kPvDynamicPerUUsd = 52560.0;
double expected_u(double usd_per_gpu_hour) { return kPvFixedUsd / (8.0 * usd_per_gpu_hour * 43800.0 - kPvDynamicPerUUsd); }

}  // namespace

TEST_CASE("utilization breakevens: one per offer and price basis, hand-computed against a second offer and a reserved term") {
  const ScenarioOutcome o = run_scenario_json(two_offers_json());
  // gpu8: on-demand, spot, 1-y and 3-y reserved; gpu1 with the override: on-demand, 1-y reserved,
  // spot $1.00 from the catalog record.
  CHECK(o.run.utilization_breakevens.size() == 7);
  const UtilizationBreakeven& od8 = breakeven(o, "test/gpu8/region-a", "on_demand");
  CHECK(od8.pv_fixed_usd == doctest::Approx(kPvFixedUsd).epsilon(1e-12));
  CHECK(od8.pv_dynamic_energy_per_u_usd == doctest::Approx(kPvDynamicPerUUsd).epsilon(1e-12));
  // 363,140 / (700,800 - 52,560) = 363,140 / 648,240 = 0.560194...
  REQUIRE(od8.utilization.has_value());
  CHECK(*od8.utilization == doctest::Approx(expected_u(2.0)).epsilon(1e-12));
  CHECK(*od8.utilization == doctest::Approx(0.5601937).epsilon(1e-6));
  // The second offer, on-demand: 363,140 / (630,720 - 52,560) = 363,140 / 578,160 = 0.628096...
  const UtilizationBreakeven& od1 = breakeven(o, "test/gpu1/region-a", "on_demand");
  CHECK(od1.cloud_usd_per_gpu_hour == doctest::Approx(1.8).epsilon(1e-12));
  REQUIRE(od1.utilization.has_value());
  CHECK(*od1.utilization == doctest::Approx(0.6280960).epsilon(1e-6));
  // ... and per node per month: u* x 8 GPUs x 730 h = 3,668.08
  CHECK(*od1.gpu_hours_per_month == doctest::Approx(0.6280960 * 8 * 730).epsilon(1e-6));
  // Its 1-year reserved term: 363,140 / (525,600 - 52,560) = 363,140 / 473,040 = 0.767673...
  const UtilizationBreakeven& r1 = breakeven(o, "test/gpu1/region-a", "reserved_1y");
  REQUIRE(r1.utilization.has_value());
  CHECK(*r1.utilization == doctest::Approx(0.7676729).epsilon(1e-6));
  // gpu8's 3-year term at $1.25: 363,140 / (438,000 - 52,560) = 0.942144...
  CHECK(breakeven(o, "test/gpu8/region-a", "reserved_3y").utilization.value_or(-1.0) ==
        doctest::Approx(0.9421440).epsilon(1e-6));
  // Spot at $1.00: renting 8 GPUs all the time, 350,400, is less than owning's fixed 363,140: never.
  CHECK_FALSE(breakeven(o, "test/gpu1/region-a", "spot").utilization.has_value());
  // The report keys each by offer id.
  const Json report = o.report();
  int gpu1_rows = 0;
  for (const auto& b : report.at("breakevens").at("utilization")) gpu1_rows += b.at("offer") == "test/gpu1/region-a";
  CHECK(gpu1_rows == 3);
}

TEST_CASE("verdict: the cheapest plan leaves work unserved and waiting is free, so it is passed over by name") {
  const ScenarioOutcome o = run_scenario_json(two_offers_json());
  // own-1 costs about $243,000 over the year, less than neo's 16 x $1.80 x 8,760 h = $252,288, but
  // serves only 8 of the 16 GPUs: 8 x 8,760 h = 70,080 GPU-hours are still waiting at the end.
  CHECK(o.plan("own-1").npv_usd < o.plan("neo").npv_usd);
  CHECK(o.plan("neo").npv_usd == doctest::Approx(252288.0).epsilon(1e-9));
  CHECK(o.plan("own-1").gpu_hours.unserved == doctest::Approx(70080.0).epsilon(1e-9));
  const Json report = o.report();
  const Json& v = report.at("verdict");
  CHECK(v.at("plan") == "neo");
  CHECK(v.at("unserved_gpu_hours").get<double>() == 0.0);
  CHECK(v.at("passed_over").at("plan") == "own-1");
  CHECK(v.at("passed_over").at("unserved_gpu_hours").get<double>() == doctest::Approx(70080.0).epsilon(1e-9));
  // Saving against the baseline: 16 x (2.00 - 1.80) x 8,760 = 28,032.
  CHECK(v.at("npv_saving_usd").get<double>() == doctest::Approx(28032.0).epsilon(1e-9));
  // The breakeven refers to the recommended plan's offer (gpu1 on-demand), for the one owned fleet.
  const Json& b = v.at("breakeven");
  CHECK(b.at("offer") == "test/gpu1/region-a");
  CHECK(b.at("price_basis") == "on_demand");
  CHECK(b.at("utilization").get<double>() == doctest::Approx(0.6280960).epsilon(1e-6));
  const std::string sentence = verdict_sentence(report);
  CHECK(sentence ==
        "Choose neo: it saves $28,032 in NPV against cloud over 12 months. own-1 costs less (NPV " +
            format_usd(o.plan("own-1").npv_usd) +
            ") but leaves 70,080 GPU-hours of work unserved, which this scenario does not price "
            "(waiting_usd_per_gpu_hour is 0), so it is not recommended. Renting at the on-demand price of "
            "test/gpu1/region-a ($1.80 per GPU-hour throughout) costs less than an owned test-node-8 node (in a 1-node "
            "fleet) even when the node is busy all the time over the 12 months the plans run (with no resale at their "
            "end, as in the plans); over the node's 60-month life, owning beats it above 62.8%.");
  // Over the 12 months without a resale: PV(fixed) = 200,000 + 12 x (1,000 + 1,500 + 219) = 232,628 against
  // 8 x 1.80 x 8,760 - 10,512 = 115,632 per u: u* = 2.01, never; over the life 62.8% (above).
  CHECK(b.at("utilization_over_horizon").is_null());
  CHECK_FALSE(b.at("resale_at_end").get<bool>());
  // The same sentence leads the HTML page and the Markdown.
  CHECK(html_report(report).find(html_escape(sentence.substr(0, 40))) != std::string::npos);
  CHECK(markdown_summary(report).find("**Verdict**:\n\n" + sentence + "\n") != std::string::npos);
}

TEST_CASE("price breakevens: each plan against the recommended plan as well as the baseline") {
  const ScenarioOutcome o = run_scenario_json(two_offers_json());
  int against_neo = 0;
  for (const auto& b : o.run.price_breakevens) against_neo += b.baseline == "neo";
  CHECK(against_neo == 2);  // cloud and own-1
  // cloud vs neo: both rent 16 GPUs all year, 16 x 8,760 x (2.00 k) = 16 x 8,760 x (1.80 k) has no
  // root k > 0: cloud is dearer at every multiple.
  for (const auto& b : o.run.price_breakevens)
    if (b.plan == "cloud" && b.baseline == "neo") CHECK_FALSE(b.cloud_price_multiplier.has_value());
  const Json report = o.report();
  int recommended_rows = 0;
  for (const auto& b : report.at("breakevens").at("cloud_price_multiplier"))
    recommended_rows += b.at("reference") == "recommended";
  CHECK(recommended_rows == 2);
}

TEST_CASE("wording: payback and IRR for no investment, never paying back, paying back in month k") {
  // neo is cheaper than the baseline from its first month: nothing to pay back, no IRR.
  const ScenarioOutcome o = run_scenario_json(two_offers_json());
  const Json report = o.report();
  const Json* neo = nullptr;
  const Json* own = nullptr;
  for (const auto& c : report.at("comparisons")) {
    if (c.at("plan") == "neo") neo = &c;
    if (c.at("plan") == "own-1") own = &c;
  }
  REQUIRE(neo != nullptr);
  REQUIRE(own != nullptr);
  CHECK(payback_words(*neo) == "none needed (no investment)");
  CHECK(irr_words(*neo) == "-");
  CHECK_FALSE(neo->at("starts_with_investment").get<bool>());
  // own-1 pays $200,000 at the start of month 0, then $3,595 a month (maintenance 1,000, colocation
  // 1,500, energy 10 kW x 1.5 x $0.10 x 730 h = 1,095) against the cloud's 16 x $2 x 730 = $23,360:
  // 200,000 + 3,595 (m + 1) <= 23,360 (m + 1) from m + 1 = 11 (19,765 x 11 = 217,415): month 10.
  CHECK(own->at("payback_month").get<int>() == 10);
  CHECK(payback_words(*own) == "month 10");
  CHECK(own->at("starts_with_investment").get<bool>());
  CHECK(irr_words(*own) != "-");
  // Never: a comparison whose plan never catches up.
  CHECK(payback_words(Json{{"payback_month", nullptr}}) == "never");
  CHECK(irr_words(Json{{"irr_per_year", 0.123}, {"starts_with_investment", true}}) == "12.3%");
  CHECK(irr_words(Json{{"irr_per_year", 5.89}, {"starts_with_investment", false}}) == "-");
}

TEST_CASE("wording: a horizon of one month is \"1 month\" in the verdict, the Markdown and the HTML") {
  CHECK(format_months(1) == "1 month");
  CHECK(format_months(36) == "36 months");
  Json doc = two_offers_json();
  doc["horizon_months"] = 1;
  const Json report = run_scenario_json(doc).report();
  CHECK(verdict_sentence(report).find("over 1 month.") != std::string::npos);
  CHECK(markdown_summary(report).find("1 month from ") != std::string::npos);
  CHECK(html_report(report).find("<p>1 month from ") != std::string::npos);
}

TEST_CASE("verdict: a run whose random inputs are all off shows no interval") {
  const ScenarioOutcome o = run_scenario_json(two_offers_json());
  MonteCarloOptions options;
  options.paths = 8;
  options.seed = 1;
  const Json report = cli::make_report(o.scenario, options, RunMetadata{"run", 1});
  REQUIRE(report.at("monte_carlo").at("mode") == "fluid");
  const std::string md = markdown_summary(report);
  CHECK(md.find("no interval to show") != std::string::npos);
  CHECK(md.find("95% CI") == std::string::npos);
  CHECK(verdict_sentence(report).find("95% CI") == std::string::npos);
  CHECK(cli::terminal_answer(report, {}).find("95% CI") == std::string::npos);
  CHECK_FALSE(sections_present(report).distribution);
  // The Monte Carlo section says so once, in the HTML as in the Markdown, with no table or chart.
  const std::string html = html_report(report);
  CHECK(html.find("no interval to show") != std::string::npos);
  CHECK(html.find("<th>95% CI</th>") == std::string::npos);
  CHECK(html.find("NPV (USD) over Monte Carlo paths") == std::string::npos);
}

TEST_CASE("verdict: the interval of `uncertain` comes with its own mean, the core Monte Carlo's alone") {
  Json report = run_scenario_json(two_offers_json()).report();
  // Saving at the inputs as written: $28,032 (the test above). The paths' difference neo - cloud:
  // mean -26,000, CI -27,500 .. -24,500, so the saving's CI is 24,500 .. 27,500.
  const Json drawn = {{"plan", "neo"},
                      {"p_cheaper", 0.975},
                      {"npv_difference_usd", {{"mean", -26000.0}, {"ci95_low", -27500.0}, {"ci95_high", -24500.0}}}};
  report["monte_carlo"] = {{"comparisons", Json::array({drawn})}};
  const std::string core = verdict_sentence(report);
  CHECK(core.find("Choose neo: it saves $28,032 in NPV against cloud over 12 months (95% CI of the saving $24,500 .. "
                  "$27,500, cheaper than the baseline on 98% of paths).") == 0);
  report["uncertainty"] = {{"comparisons", Json::array({drawn})}};
  CHECK(verdict_sentence(report).find(
            "Choose neo: it saves $28,032 in NPV against cloud over 12 months at the inputs as written (over the "
            "drawn inputs of `uncertain`: a mean saving of $26,000, 95% CI of the saving $24,500 .. $27,500, cheaper "
            "than the baseline on 98% of paths).") == 0);
}

TEST_CASE("sections with nothing to show are named in one line") {
  CHECK(missing_sections_line({true, true, true}).empty());
  CHECK(missing_sections_line({true, false, true}) ==
        "Not in this report: cost against the number of on-prem nodes (tcosim optimize).");
}

}  // namespace tco::test
