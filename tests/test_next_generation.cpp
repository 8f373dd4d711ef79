// The next-generation event (models/next_generation/, docs/model.md "Next generation"): on a
// steady load, the predecessor's rental bill and resale value against their closed forms, a
// reserved term fixed at its start, an arrival past the horizon changing nothing bit for bit,
// the fluid Monte Carlo and the replay seeing the same step, and a bad-input test per new input.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"

#include "des_support.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// The base scenario (16 GPUs steady for 12 months on the round-number catalog, discount 0): a
// cloud plan on two $16/h test/gpu8 instances and a plan owning two $200,000 test-node-8 nodes
// that serve all 16 GPUs; the residual on at 30% decline a year. Both carry the GPU "ref-gpu".
Json generation_scenario(const Json& next_generation) {
  Json doc = base_scenario_json();
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  if (!next_generation.is_null()) doc["next_generation"] = next_generation;
  return doc;
}

Json event(int arrival_month, double rent_factor, double resale_factor) {
  return {{"predecessor_gpu", "ref-gpu"},
          {"arrival_month", arrival_month},
          {"rental_price_step_factor", rent_factor},
          {"resale_step_factor", resale_factor}};
}

}  // namespace

TEST_CASE("next generation: a steady load's rental bill and resale value against the closed form") {
  const ScenarioOutcome plain = run_scenario_json(generation_scenario(Json()));
  const ScenarioOutcome o = run_scenario_json(generation_scenario(event(6, 0.7, 0.55)));
  // Cloud: 2 instances x $16/h x 730 h = $23,360 a month; months 0-5 at 1, months 6-11 at 0.7:
  // 23,360 x (6 + 6 x 0.7) = 23,360 x 10.2 = $238,272 (without the event 23,360 x 12 = $280,320).
  CHECK(plain.plan("cloud").total_usd == doctest::Approx(280320.0).epsilon(1e-12));
  CHECK(o.plan("cloud").total_usd == doctest::Approx(238272.0).epsilon(1e-12));
  CHECK(o.plan("cloud").ledger.month_category_usd(5, Category::cloud_on_demand) ==
        doctest::Approx(23360.0).epsilon(1e-12));
  CHECK(o.plan("cloud").ledger.month_category_usd(6, Category::cloud_on_demand) ==
        doctest::Approx(16352.0).epsilon(1e-12));
  // Owned: residual = 2 x $200,000 x (1 - 0.3)^1 = $280,000, stepped by 0.55 = $154,000 (a credit).
  const Ledger& own_plain = plain.plan("buy-2").ledger;
  const Ledger& own = o.plan("buy-2").ledger;
  CHECK(own_plain.category_total_usd(Category::residual) == doctest::Approx(-280000.0).epsilon(1e-12));
  CHECK(own.category_total_usd(Category::residual) == doctest::Approx(-154000.0).epsilon(1e-12));
  // Nothing else of the owned plan moves: it rents nothing, so the whole difference is the
  // resale loss, 280,000 - 154,000 = $126,000.
  CHECK(o.plan("buy-2").total_usd - plain.plan("buy-2").total_usd == doctest::Approx(126000.0).epsilon(1e-12));
  // The renter gains 23,360 x 6 x 0.3 = $42,048 on the same event.
  CHECK(plain.plan("cloud").total_usd - o.plan("cloud").total_usd == doctest::Approx(42048.0).epsilon(1e-12));
}

TEST_CASE("next generation: a reserved term keeps the price fixed at its start") {
  // 18 months, 2 reserved 1-year instances at $12/h cover the 16 GPUs. Term 1 (months 0-11)
  // started before the arrival (month 6): 2 x 12 x 730 x 12 = $210,240; term 2 (months 12-17)
  // starts after it: 2 x 12 x 0.7 x 730 x 6 = $73,584; total $283,824.
  Json doc = generation_scenario(event(6, 0.7, 1.0));
  doc["horizon_months"] = 18;
  doc["plans"] = {{{"name", "reserved"}, {"kind", "cloud"}, {"reserved_instances", 2}, {"reserved_term_years", 1}}};
  doc["baseline"] = "reserved";
  const ScenarioOutcome o = run_scenario_json(doc);
  const Ledger& l = o.plan("reserved").ledger;
  CHECK(l.category_total_usd(Category::cloud_reserved) == doctest::Approx(283824.0).epsilon(1e-12));
  CHECK(l.month_category_usd(11, Category::cloud_reserved) == doctest::Approx(17520.0).epsilon(1e-12));
  CHECK(l.month_category_usd(12, Category::cloud_reserved) == doctest::Approx(12264.0).epsilon(1e-12));
  CHECK(l.category_total_usd(Category::cloud_on_demand) == 0.0);
}

TEST_CASE("next generation: an arrival at or past the horizon's end changes nothing, bit for bit") {
  const ScenarioOutcome plain = run_scenario_json(generation_scenario(Json()));
  const ScenarioOutcome late = run_scenario_json(generation_scenario(event(12, 0.7, 0.55)));
  for (const char* name : {"cloud", "buy-2"}) {
    INFO(name);
    CHECK(late.plan(name).npv_usd == plain.plan(name).npv_usd);
    CHECK(late.plan(name).total_usd == plain.plan(name).total_usd);
  }
  // Factors of 1 change nothing either, and the report echoes the event.
  const ScenarioOutcome ones = run_scenario_json(generation_scenario(event(3, 1.0, 1.0)));
  CHECK(ones.plan("cloud").npv_usd == plain.plan("cloud").npv_usd);
  CHECK(ones.plan("buy-2").npv_usd == plain.plan("buy-2").npv_usd);
  const Json report = late.report();
  CHECK(report.at("inputs").at("next_generation").at("arrival_month") == 12);
  CHECK_FALSE(plain.report().at("inputs").contains("next_generation"));
}

TEST_CASE("next generation: the fluid Monte Carlo and the replay bill the same step") {
  const ScenarioOutcome o = run_scenario_json(generation_scenario(event(6, 0.7, 0.55)));
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(o.scenario, 4, 3, 2);
  // No random input touches these plans: every path is the deterministic bill.
  for (std::size_t i = 0; i < o.scenario.plans.size(); ++i)
    for (const double npv : mc.npv_by_path[i])
      CHECK(npv == doctest::Approx(o.run.plans[i].npv_usd).epsilon(1e-9));  // the sweep sums in its own order

  // The replay: one 8-GPU job from t = 0 for 3 months on one $16/h instance, arrival month 1 at
  // 0.5: months 1 and 2 bill 730 h x $16 x 0.5 = $5,840.
  Json doc = des_scenario_json({{"poisson", {{"jobs_per_hour", 1}, {"duration_median_h", 1}, {"gpus", {{"8", 1.0}}}}}});
  doc["horizon_months"] = 3;
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  doc["baseline"] = "cloud";
  doc["next_generation"] = {{"predecessor_gpu", "ref-gpu"}, {"arrival_month", 1}, {"rental_price_step_factor", 0.5}};
  const Scenario s = load_des_scenario(doc);
  const des::DesPlans plans = des::prepare_des_plans(s);
  VectorFeed feed({job_at(0.0, 8, 2190.0)});
  const des::PathOutcome out = des::simulate_feed(s, plans.plans[0], feed, des::PathInputs{9, 0});
  const int od = static_cast<int>(Category::cloud_on_demand);
  CHECK(out.cost_by_month[1][od] == doctest::Approx(5840.0).epsilon(1e-12));
  CHECK(out.cost_by_month[2][od] == doctest::Approx(5840.0).epsilon(1e-12));
}

TEST_CASE("next generation: each plan's effect in the JSON, Markdown, HTML, CSV and workbook reports") {
  const ScenarioOutcome o = run_scenario_json(generation_scenario(event(6, 0.7, 0.55)));
  const Json report = o.report();
  REQUIRE(report.contains("next_generation"));
  const Json& g = report.at("next_generation");
  CHECK(g.at("predecessor_gpu") == "ref-gpu");
  const Json& cloud = g.at("plans")[0];
  const Json& owned = g.at("plans")[1];
  // The closed forms of the first test: the renter saves $42,048, the owner loses $126,000, all
  // of it the resale step (discount 0, so NPV = nominal).
  CHECK(cloud.at("plan") == "cloud");
  CHECK(cloud.at("npv_usd").get<double>() == doctest::Approx(238272.0).epsilon(1e-12));
  CHECK(cloud.at("npv_without_event_usd").get<double>() == doctest::Approx(280320.0).epsilon(1e-12));
  CHECK(cloud.at("npv_effect_usd").get<double>() == doctest::Approx(-42048.0).epsilon(1e-12));
  CHECK(cloud.at("residual_npv_effect_usd").get<double>() == 0.0);
  CHECK(owned.at("npv_effect_usd").get<double>() == doctest::Approx(126000.0).epsilon(1e-12));
  CHECK(owned.at("residual_npv_effect_usd").get<double>() == doctest::Approx(126000.0).epsilon(1e-12));
  CHECK(owned.at("npv_usd").get<double>() == o.plan("buy-2").npv_usd);

  const std::string md = markdown_summary(report);
  CHECK(md.find("The ref-gpu successor arrives in month 6: rental prices x0.70, resale x0.55") != std::string::npos);
  CHECK(md.find("| cloud | $238,272 | $280,320 | -$42,048 | none |") != std::string::npos);
  CHECK(md.find("| $126,000 | $126,000 |") != std::string::npos);
  const std::string html = html_report(report);
  CHECK(html.find("<h2 id=\"next_generation\">Next generation</h2>") != std::string::npos);
  CHECK(html.find("<td class=n>-$42,048</td><td class=\"n w\">none</td>") != std::string::npos);
  bool csv_found = false;
  for (const auto& [name, text] : csv_tables(report))
    if (name == "next_generation.csv") {
      csv_found = true;
      CHECK(text.find("npv_effect_usd") != std::string::npos);
      CHECK(text.find("-42048.0") != std::string::npos);
      CHECK(text.find("126000.0") != std::string::npos);
    }
  CHECK(csv_found);

  // The workbook: its Inputs sheet's strings name each plan's effect (read from the xlsx zip with
  // Python's zipfile, which the ctest schema checks already need).
  const auto dir = scratch_dir("next-generation-xlsx");
  const std::string scenario = write_json_file(dir / "scenario.json", generation_scenario(event(6, 0.7, 0.55)));
  const auto xlsx = dir / "r.xlsx";
  const CliResult r = run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--xlsx", xlsx.string(), "--quiet"});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string strings = (dir / "strings.txt").string();
  const std::string cmd = "python3 -c \"import zipfile,sys; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("
                          "'xl/sharedStrings.xml').decode())\" " + xlsx.string() + " > " + strings;
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(strings);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(xml.find("next generation: NPV with and without the event") != std::string::npos);
  CHECK(xml.find("buy-2 npv_effect_usd") != std::string::npos);
  CHECK(xml.find("cloud residual_npv_effect_usd") != std::string::npos);

  // Without an event, no block, so every other report keeps its bytes.
  CHECK_FALSE(run_scenario_json(generation_scenario(Json())).report().contains("next_generation"));
}

TEST_CASE("bad input: each next-generation input is rejected with exit 2, naming its JSON pointer") {
  struct Case {
    const char* name;
    Json next_generation;
    const char* pointer;
    const char* says;
  };
  Json no_gpu = event(6, 0.7, 0.55);
  no_gpu.erase("predecessor_gpu");
  Json stray = event(6, 0.7, 0.55);
  stray["successor"] = {{"perf_relative", 2.0}};
  const Case cases[] = {
      {"gpu", {{"predecessor_gpu", "h100-typo"}, {"arrival_month", 6}}, "/next_generation/predecessor_gpu",
       "h100-typo"},
      {"no-gpu", no_gpu, "/next_generation/predecessor_gpu", "required"},
      {"arrival", event(-1, 0.7, 0.55), "/next_generation/arrival_month", "found number -1"},
      {"arrival-high", event(601, 0.7, 0.55), "/next_generation/arrival_month", "found number 601"},
      {"rent", event(6, 0.0, 0.55), "/next_generation/rental_price_step_factor", "found number 0"},
      {"resale", event(6, 0.7, 11.0), "/next_generation/resale_step_factor", "found number 11"},
      {"stray-key", stray, "/next_generation/successor", "unknown key"},
      {"not-object", Json(3), "/next_generation", "object"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    check_run_and_validate_refuse(std::string("next-generation-bad-") + c.name, generation_scenario(c.next_generation),
                                  c.pointer, c.says);
  }
}

}  // namespace tco::test
