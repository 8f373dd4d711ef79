// Commitment instruments (docs/model.md "Commitments"): capacity blocks, a savings plan, take-or-pay
// contracts. Hand-computed bills on the fixture catalog (tests/scenario_builder.hpp): 16 GPUs of
// steady demand over 12 months (8,760 h), no discounting, test/gpu8/region-a at $16 per 8-GPU
// instance-hour on-demand, so the all-on-demand bill is 2 instances x $16 x 8,760 h = $280,320.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "engine/ledger/ledger.hpp"
#include "engine/ledger/hourly/venue_step.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "models/commitment/savings_plan.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "load_error.hpp"
#include "scenario_builder.hpp"
#include "ledger_test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

constexpr double kRelativeTolerance = 1e-9;

// The base scenario with only its cloud plan, holding `commitments`.
Json cloud_with(const Json& commitments) {
  Json doc = base_scenario_json();
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}},
                              {{"name", "committed"}, {"kind", "cloud"}, {"commitments", commitments}}});
  return doc;
}

const CommitmentFigures& only_figures(const PlanResult& r) {
  REQUIRE(r.commitments.size() == 1);
  return r.commitments.front();
}


// A 14-day block of 4 instances (32 GPUs) at $10 per instance-hour from day 30, booked 14 days ahead.
Json half_used_block() {
  return Json::array({{{"kind", "capacity_block"},
                       {"name", "q1-burst"},
                       {"start_day", 30},
                       {"days", 14},
                       {"instances", 4},
                       {"lead_days", 14},
                       {"usd_per_instance_hour", 10.0}}});
}

}  // namespace

TEST_CASE("commitments: a 14-day capacity block half used, prepaid at booking, the rest of the year on-demand") {
  const ScenarioOutcome o = run_scenario_json(cloud_with(half_used_block()));
  const PlanResult& r = o.plan("committed");
  const CommitmentFigures& f = only_figures(r);
  // Window: hours 24 x 30 = 720 to 24 x 44 = 1,056 (336 h). Committed 32 GPUs x 336 h = 10,752
  // GPU-hours; the 16 GPUs of demand use 16 x 336 = 5,376 of them (half); 5,376 unused.
  CHECK(f.committed_gpu_hours == doctest::Approx(10752.0).epsilon(kRelativeTolerance));
  CHECK(f.used_gpu_hours == doctest::Approx(5376.0).epsilon(kRelativeTolerance));
  CHECK(f.unused_gpu_hours == doctest::Approx(5376.0).epsilon(kRelativeTolerance));
  // Prepaid 4 x 336 h x $10 = $13,440, booked at the start of the booking month:
  // month_of_hour(24 x (30 - 14)) = month_of_hour(384) = 0. Half of it bought nothing: $6,720.
  CHECK(f.cost_nominal_usd == doctest::Approx(13440.0).epsilon(kRelativeTolerance));
  CHECK(f.unused_usd == doctest::Approx(6720.0).epsilon(kRelativeTolerance));
  CHECK(in_month(r, 0, Category::cloud_reserved) == doctest::Approx(13440.0).epsilon(kRelativeTolerance));
  CHECK(r.ledger.month_start_usd(0) == doctest::Approx(13440.0).epsilon(kRelativeTolerance));
  CHECK(r.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(13440.0).epsilon(kRelativeTolerance));
  // On-demand outside the window, 2 instances x $16 = $32 an hour: month 0 (hours 0-729) has 10
  // hours in the window (720-729): 720 x 32 = $23,040; month 1 (730-1,459) has 326 (730-1,055):
  // (730 - 326) x 32 = $12,928; the year (8,760 - 336) x 32 = $269,568.
  CHECK(in_month(r, 0, Category::cloud_on_demand) == doctest::Approx(23040.0).epsilon(kRelativeTolerance));
  CHECK(in_month(r, 1, Category::cloud_on_demand) == doctest::Approx(12928.0).epsilon(kRelativeTolerance));
  CHECK(r.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(269568.0).epsilon(kRelativeTolerance));
  // Total 269,568 + 13,440 = $283,008 against $280,320 all on-demand: half a block costs more.
  CHECK(r.total_usd == doctest::Approx(283008.0).epsilon(kRelativeTolerance));
  CHECK(o.plan("cloud").total_usd == doctest::Approx(280320.0).epsilon(kRelativeTolerance));
  // All the work is still served: 16 x 8,760 = 140,160 GPU-hours.
  CHECK(r.gpu_hours.useful == doctest::Approx(140160.0).epsilon(kRelativeTolerance));
}

TEST_CASE("commitments: a repeated block books each occurrence that ends inside the horizon") {
  Json block = half_used_block();
  block[0]["repeat_every_days"] = 100;  // days 30, 130, 230, 330 (330 + 14 = 344 <= 365 days of 8,760 h)
  const PlanResult r = run_scenario_json(cloud_with(block)).plan("committed");
  const CommitmentFigures& f = only_figures(r);
  // Four occurrences x $13,440 = $53,760; booked at the months of hours 24 x (30, 130, 230, 330 - 14)
  // = 384, 2,784, 5,184, 7,584: months 0, 3, 7, 10.
  CHECK(f.cost_nominal_usd == doctest::Approx(4 * 13440.0).epsilon(kRelativeTolerance));
  for (int m : {0, 3, 7, 10}) CHECK(in_month(r, m, Category::cloud_reserved) == doctest::Approx(13440.0).epsilon(kRelativeTolerance));
  CHECK(f.committed_gpu_hours == doctest::Approx(4 * 10752.0).epsilon(kRelativeTolerance));
  CHECK(f.used_gpu_hours == doctest::Approx(4 * 5376.0).epsilon(kRelativeTolerance));
  // Every 90 days instead: days 30, 120, 210, 300 fit; 390 starts past the horizon.
  block[0]["repeat_every_days"] = 90;
  CHECK(only_figures(run_scenario_json(cloud_with(block)).plan("committed")).cost_nominal_usd ==
        doctest::Approx(4 * 13440.0).epsilon(kRelativeTolerance));
  // Every 110 days: 30, 140, 250 fit; 360 + 14 = 374 days would end past 365: not booked.
  block[0]["repeat_every_days"] = 110;
  const CommitmentFigures g = only_figures(run_scenario_json(cloud_with(block)).plan("committed"));
  CHECK(g.cost_nominal_usd == doctest::Approx(3 * 13440.0).epsilon(kRelativeTolerance));
  CHECK(g.committed_gpu_hours == doctest::Approx(3 * 10752.0).epsilon(kRelativeTolerance));
}

TEST_CASE("commitments: a savings plan covers two instance types in the documented order, highest discount first") {
  // C = $50/h. A: 5 instance-hours at $10 on-demand, $6 plan rate (40% off); B: 3 at $20, $15 (25%).
  // A first: 5 x 6 = $30 covers all of A, $20 left; B: 20 / 15 = 1.3333 instance-hours covered.
  // Bill: 50 + (3 - 1.3333) x 20 = $83.333 against 5 x 10 + 3 x 20 = $110 on-demand.
  // The order (A: 0, B: 1) is the scenario reader's; where the venues sit in the plan does not matter.
  for (const bool b_first : {false, true}) {
    CAPTURE(b_first);
    VenueParams a, b;
    a.savings_plan_usd_per_instance_hour = 6.0;
    a.savings_plan_order = 0;
    b.savings_plan_usd_per_instance_hour = 15.0;
    b.savings_plan_order = 1;
    const VenueParams venues[2] = {b_first ? b : a, b_first ? a : b};
    const double billed[2] = {b_first ? 3.0 : 5.0, b_first ? 5.0 : 3.0};
    double covered[2] = {-1.0, -1.0};
    venues_savings_plan_cover(venues, 2, billed, 50.0, covered);
    const double covered_a = covered[b_first ? 1 : 0], covered_b = covered[b_first ? 0 : 1];
    CHECK(covered_a == doctest::Approx(5.0).epsilon(kRelativeTolerance));
    CHECK(covered_b == doctest::Approx(20.0 / 15.0).epsilon(kRelativeTolerance));
    const double bill = 50.0 + (5.0 - covered_a) * 10.0 + (3.0 - covered_b) * 20.0;
    CHECK(bill == doctest::Approx(50.0 + (3.0 - 20.0 / 15.0) * 20.0).epsilon(kRelativeTolerance));
    CHECK(bill == doctest::Approx(83.3333333333).epsilon(kRelativeTolerance));
  }
  // A commitment larger than the usage: all covered, and of C = $100 only 5 x 6 + 3 x 15 = $75 is
  // used: the unused $25 is still paid.
  double left_usd = 100.0;
  CHECK(savings_plan_cover_step(left_usd, 6.0, 5.0) == 5.0);
  CHECK(savings_plan_cover_step(left_usd, 15.0, 3.0) == 3.0);
  CHECK(left_usd == 25.0);
  CHECK(savings_plan_cover_step(left_usd, 15.0, 0.0) == 0.0);  // nothing billed: nothing covered
  CHECK(left_usd == 25.0);
}

TEST_CASE("commitments: a savings plan on the plan's offer, sized under and over the usage") {
  // 2 on-demand instances an hour at $16. Plan rate $10: C = $15/h covers 1.5 instances, so each
  // hour bills 15 + (2 - 1.5) x 16 = $23: 8,760 x 23 = $201,480 (15 x 8,760 = $131,400 committed,
  // 0.5 x 16 x 8,760 = $70,080 on-demand). Committed GPU-hours 15 / 10 x 8 x 8,760 = 105,120, all used.
  const Json under = Json::array(
      {{{"kind", "savings_plan"}, {"usd_per_hour", 15.0}, {"usd_per_instance_hour", 10.0}, {"term_months", 12}}});
  const PlanResult r = run_scenario_json(cloud_with(under)).plan("committed");
  CHECK(r.total_usd == doctest::Approx(201480.0).epsilon(kRelativeTolerance));
  CHECK(r.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(131400.0).epsilon(kRelativeTolerance));
  CHECK(r.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(70080.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(r).committed_gpu_hours == doctest::Approx(105120.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(r).used_gpu_hours == doctest::Approx(105120.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(r).unused_gpu_hours == doctest::Approx(0.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(r).name == "savings_plan 1");
  // C = $30/h could cover 3 instances; only 2 run: bill 30 x 8,760 = $262,800 and nothing on-demand.
  // Committed 3 x 8 x 8,760 = 210,240 GPU-hours, used 2 x 8 x 8,760 = 140,160, unused 70,080: a
  // third of the $262,800, $87,600, bought nothing.
  Json over = under;
  over[0]["usd_per_hour"] = 30.0;
  const PlanResult s = run_scenario_json(cloud_with(over)).plan("committed");
  CHECK(s.total_usd == doctest::Approx(262800.0).epsilon(kRelativeTolerance));
  CHECK(s.ledger.category_total_usd(Category::cloud_on_demand) == 0.0);
  CHECK(only_figures(s).unused_gpu_hours == doctest::Approx(70080.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(s).unused_usd == doctest::Approx(87600.0).epsilon(kRelativeTolerance));
  // A 6-month term from month 3: months 3-8 (4,380 h) at $23, the other 4,380 h at $32:
  // 4,380 x 23 + 4,380 x 32 = 100,740 + 140,160 = $240,900.
  Json term = under;
  term[0]["start_month"] = 3;
  term[0]["term_months"] = 6;
  CHECK(run_scenario_json(cloud_with(term)).plan("committed").total_usd == doctest::Approx(240900.0).epsilon(kRelativeTolerance));
}

TEST_CASE("commitments: a take-or-pay contract with a ramp, billed whether used or not") {
  // 16 GPUs at $1.50 per GPU-hour for 12 months, ramping 8 then 12 GPUs in its first two months.
  const Json contract = Json::array({{{"kind", "take_or_pay"},
                                      {"name", "neocloud"},
                                      {"gpus", 16},
                                      {"usd_per_gpu_hour", 1.5},
                                      {"term_months", 12},
                                      {"ramp_gpus_by_month", {8, 12}}}});
  const PlanResult r = run_scenario_json(cloud_with(contract)).plan("committed");
  // Bills at each month's end: month 0 8 x 730 x 1.5 = $8,760; month 1 12 x 730 x 1.5 = $13,140;
  // months 2-11 16 x 730 x 1.5 = $17,520 each (x 10 = $175,200); in all $197,100.
  CHECK(in_month(r, 0, Category::cloud_reserved) == doctest::Approx(8760.0).epsilon(kRelativeTolerance));
  CHECK(in_month(r, 1, Category::cloud_reserved) == doctest::Approx(13140.0).epsilon(kRelativeTolerance));
  CHECK(in_month(r, 2, Category::cloud_reserved) == doctest::Approx(17520.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(r).cost_nominal_usd == doctest::Approx(197100.0).epsilon(kRelativeTolerance));
  // The rest of the 16 GPUs goes on-demand in whole 8-GPU instances: month 0 8 GPUs -> 1 instance,
  // month 1 4 GPUs -> 1 instance: 2 x 730 x $16 = $23,360; none after. Total $220,460.
  CHECK(in_month(r, 0, Category::cloud_on_demand) == doctest::Approx(11680.0).epsilon(kRelativeTolerance));
  CHECK(in_month(r, 1, Category::cloud_on_demand) == doctest::Approx(11680.0).epsilon(kRelativeTolerance));
  CHECK(in_month(r, 2, Category::cloud_on_demand) == 0.0);
  CHECK(r.total_usd == doctest::Approx(220460.0).epsilon(kRelativeTolerance));
  // Committed (8 + 12) x 730 + 16 x 7,300 = 131,400 GPU-hours, all used by the 16 GPUs of demand.
  CHECK(only_figures(r).committed_gpu_hours == doctest::Approx(131400.0).epsilon(kRelativeTolerance));
  CHECK(only_figures(r).used_gpu_hours == doctest::Approx(131400.0).epsilon(kRelativeTolerance));
  // 24 GPUs for the same demand: 8 idle every hour, 8 x 8,760 = 70,080 GPU-hours unused; bill
  // 24 x 8,760 x 1.5 = $315,360 (no ramp), of which a third, $105,120, is unused.
  Json big = contract;
  big[0]["gpus"] = 24;
  big[0].erase("ramp_gpus_by_month");
  const CommitmentFigures f = only_figures(run_scenario_json(cloud_with(big)).plan("committed"));
  CHECK(f.cost_nominal_usd == doctest::Approx(315360.0).epsilon(kRelativeTolerance));
  CHECK(f.unused_gpu_hours == doctest::Approx(70080.0).epsilon(kRelativeTolerance));
  CHECK(f.unused_usd == doctest::Approx(105120.0).epsilon(kRelativeTolerance));
}

TEST_CASE("commitments: the pool's order is take-or-pay, then blocks, both after owned nodes and reserved") {
  // A hybrid plan owning 1 node (8 GPUs) with 1 reserved instance (8 GPUs): no overflow is left
  // for the commitments, so a take-or-pay of 8 GPUs and the block are wholly unused.
  Json doc = base_scenario_json();
  Json block = half_used_block();
  block.push_back({{"kind", "take_or_pay"}, {"name", "tp"}, {"gpus", 8}, {"usd_per_gpu_hour", 1.0}, {"term_months", 12}});
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}},
                              {{"name", "h"}, {"kind", "hybrid"}, {"onprem_nodes", 1}, {"reserved_instances", 1},
                               {"commitments", block}}});
  const PlanResult r = run_scenario_json(doc).plan("h");
  REQUIRE(r.commitments.size() == 2);
  CHECK(r.commitments[0].used_gpu_hours == 0.0);
  CHECK(r.commitments[1].used_gpu_hours == 0.0);
  // Without the reserved instance, the 8 GPUs of overflow go to the take-or-pay first: the block
  // (listed first) stays unused even inside its window.
  doc["plans"][1].erase("reserved_instances");
  const PlanResult s = run_scenario_json(doc).plan("h");
  CHECK(s.commitments[0].used_gpu_hours == 0.0);
  CHECK(s.commitments[1].used_gpu_hours == doctest::Approx(8.0 * 8760.0).epsilon(kRelativeTolerance));
  CHECK(s.ledger.category_total_usd(Category::cloud_on_demand) == 0.0);
}

TEST_CASE("commitments: the fluid Monte Carlo's paths match the hourly model when nothing is uncertain") {
  Json doc = cloud_with(half_used_block());
  doc["plans"][1]["commitments"].push_back(
      {{"kind", "savings_plan"}, {"usd_per_hour", 15.0}, {"usd_per_instance_hour", 10.0}, {"term_months", 6}});
  const Scenario s = load_scenario_json(doc, "test-scenario.json", source_path("tests"));
  const PlanResult det = run_deterministic(s).plans[1];
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 4, 7, 2);
  // Block $13,440 + savings plan 4,380 h x $15 = $65,700 + on-demand: window hours (336, inside the
  // term) none; the other 4,380 - 336 = 4,044 term hours 0.5 x 16 = $8 each; 4,380 hours after at $32:
  // 13,440 + 65,700 + 4,044 x 8 + 4,380 x 32 = 13,440 + 65,700 + 32,352 + 140,160 = $251,652.
  CHECK(det.total_usd == doctest::Approx(251652.0).epsilon(kRelativeTolerance));
  CHECK(mc.plans[1].npv_usd.mean == doctest::Approx(det.npv_usd).epsilon(1e-12));
}

TEST_CASE("commitments: each figure is in the JSON, Markdown, HTML and CSV reports") {
  const Json report = run_scenario_json(cloud_with(half_used_block())).report();
  const Json& c = report.at("plans").at(1).at("commitments").at(0);
  CHECK(c.at("name") == "q1-burst");
  CHECK(c.at("kind") == "capacity_block");
  CHECK(c.at("committed_gpu_hours").get<double>() == doctest::Approx(10752.0).epsilon(kRelativeTolerance));
  CHECK(c.at("unused_usd").get<double>() == doctest::Approx(6720.0).epsilon(kRelativeTolerance));
  CHECK(c.at("committed_usd").get<double>() == doctest::Approx(13440.0).epsilon(kRelativeTolerance));
  CHECK(c.at("used_usd").get<double>() == doctest::Approx(6720.0).epsilon(kRelativeTolerance));
  CHECK_FALSE(report.at("plans").at(0).contains("commitments"));  // a plan without: no key
  const std::string md = markdown_summary(report);
  // Committed $13,440 (the prepaid block), used 13,440 x 5,376 / 10,752 = $6,720, unused $6,720.
  CHECK(md.find("| committed | q1-burst | capacity_block | $13,440 | $6,720 | $6,720 | 10,752 | 5,376 | 5,376 |") !=
        std::string::npos);
  const std::string html = html_report(report);
  CHECK(html.find("<h2 id=\"commitments\">Commitments</h2>") != std::string::npos);
  CHECK(html.find("<td>q1-burst</td><td>capacity_block</td><td class=n>$13,440</td><td class=n>$6,720</td>"
                  "<td class=n>$6,720</td><td class=n>10,752</td>") != std::string::npos);
  bool found = false;
  for (const auto& [name, text] : csv_tables(report)) {
    if (name != "commitments.csv") continue;
    found = true;
    CHECK(text.rfind("plan,name,kind,committed_usd,used_usd,unused_usd,committed_gpu_hours,used_gpu_hours,"
                     "unused_gpu_hours,cost_nominal_usd,cost_npv_usd\n",
                     0) == 0);
    CHECK(text.find("committed,q1-burst,capacity_block,13440.0,6720.0,6720.0,10752.0,5376.0,5376.0,13440.0,13440.0") !=
          std::string::npos);
  }
  CHECK(found);
}

TEST_CASE("commitments: the workbook has a Commitments sheet with the instrument's figures") {
  if (std::system("python3 -c 'import zipfile' > /dev/null 2>&1") != 0) {
    MESSAGE("skipped: python3 (to read the xlsx) is not installed");
    return;
  }
  const auto dir = scratch_dir("commitments-xlsx");
  const std::string file = write_json_file(dir / "s.json", cloud_with(half_used_block()));
  const auto xlsx = dir / "r.xlsx";
  const CliResult r = run_cli({"run", file, "--out", (dir / "r.json").string(), "--xlsx", xlsx.string(), "-q"});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  // The sheet's name in the workbook, the instrument's name among the shared strings, and its
  // committed GPU-hours (10,752) and prepaid cost (13,440) as cells of the sheet.
  const auto script = dir / "check.py";
  std::ofstream(script) << "import re, sys, zipfile\n"
                           "z = zipfile.ZipFile(sys.argv[1])\n"
                           "w = z.read('xl/workbook.xml').decode()\n"
                           "s = z.read('xl/sharedStrings.xml').decode()\n"
                           "names = re.findall(r'<sheet name=\"([^\"]*)\"', w)\n"
                           "x = z.read('xl/worksheets/sheet%d.xml' % (names.index('Commitments') + 1)).decode()\n"
                           "ok = 'name=\"Commitments\"' in w and 'q1-burst' in s and '<v>10752</v>' in x and '<v>13440</v>' in x\n"
                           "sys.exit(0 if ok else 1)\n";
  const std::string check = "python3 " + script.string() + " " + xlsx.string();
  CHECK(std::system(check.c_str()) == 0);
}

TEST_CASE("commitments: bad input names the JSON pointer") {
  auto with = [](const char* key, const Json& value) {
    Json block = half_used_block();
    block[0][key] = value;
    return cloud_with(block);
  };
  const std::string p = "/plans/1/commitments/0/";
  CHECK(load_error(with("days", 0)).rfind(p + "days", 0) == 0);
  CHECK(load_error(with("days", 183)).rfind(p + "days", 0) == 0);
  CHECK(load_error(with("days", 400)).rfind(p + "days", 0) == 0);
  CHECK(load_error(with("start_day", 360)).rfind(p + "days", 0) == 0);  // ends past the horizon
  CHECK(load_error(with("start_day", -1)).rfind(p + "start_day", 0) == 0);
  CHECK(load_error(with("instances", 0)).rfind(p + "instances", 0) == 0);
  CHECK(load_error(with("lead_days", 57)).rfind(p + "lead_days", 0) == 0);
  CHECK(load_error(with("lead_days", 31)).rfind(p + "lead_days", 0) == 0);  // before the start
  CHECK(load_error(with("repeat_every_days", 7)).rfind(p + "repeat_every_days", 0) == 0);  // overlaps
  CHECK(load_error(with("usd_per_instance_hour", -1.0)).rfind(p + "usd_per_instance_hour", 0) == 0);
  CHECK(load_error(with("usd_per_instance_hour", 1e9)).rfind(p + "usd_per_instance_hour", 0) == 0);
  CHECK(load_error(with("kind", "forward")).rfind(p + "kind", 0) == 0);
  CHECK(load_error(with("colour", "red")).find(p + "colour") != std::string::npos);
  {
    Json block = half_used_block();
    block[0].erase("usd_per_instance_hour");  // the fixture offer has no capacity-block rate
    const std::string e = load_error(cloud_with(block));
    CHECK(e.rfind(p + "usd_per_instance_hour", 0) == 0);
    CHECK(e.find("test/gpu8/region-a") != std::string::npos);
  }
  {
    Json two = half_used_block();
    two.push_back(two[0]);
    CHECK(load_error(cloud_with(two)).rfind("/plans/1/commitments/1/name", 0) == 0);
  }
  const Json sp = {{"kind", "savings_plan"}, {"usd_per_hour", 15.0}, {"usd_per_instance_hour", 10.0}, {"term_months", 12}};
  auto sp_with = [&](const char* key, const Json& value) {
    Json c = sp;
    c[key] = value;
    return cloud_with(Json::array({c}));
  };
  CHECK(load_error(sp_with("usd_per_instance_hour", 17.0)).rfind(p + "usd_per_instance_hour", 0) == 0);  // > $16
  CHECK(load_error(sp_with("usd_per_instance_hour", 0.0)).rfind(p + "usd_per_instance_hour", 0) == 0);
  CHECK(load_error(sp_with("usd_per_hour", 0.0)).rfind(p + "usd_per_hour", 0) == 0);
  CHECK(load_error(sp_with("term_months", 0)).rfind(p + "term_months", 0) == 0);
  CHECK(load_error(sp_with("term_months", 61)).rfind(p + "term_months", 0) == 0);
  CHECK(load_error(sp_with("start_month", 12)).rfind(p + "start_month", 0) == 0);
  CHECK(load_error(cloud_with(Json::array({sp, sp}))).rfind("/plans/1/commitments/1/", 0) == 0);
  const Json tp = {{"kind", "take_or_pay"}, {"gpus", 16}, {"usd_per_gpu_hour", 1.5}, {"term_months", 12}};
  auto tp_with = [&](const char* key, const Json& value) {
    Json c = tp;
    c[key] = value;
    return cloud_with(Json::array({c}));
  };
  CHECK(load_error(tp_with("gpus", 0)).rfind(p + "gpus", 0) == 0);
  CHECK(load_error(tp_with("usd_per_gpu_hour", -2.0)).rfind(p + "usd_per_gpu_hour", 0) == 0);
  CHECK(load_error(tp_with("ramp_gpus_by_month", Json::array({8, 17}))).rfind(p + "ramp_gpus_by_month/1", 0) == 0);
  CHECK(load_error(tp_with("ramp_gpus_by_month", Json::array({8, 2.5}))).rfind(p + "ramp_gpus_by_month/1", 0) == 0);
  CHECK(load_error(tp_with("ramp_gpus_by_month", Json::array())).rfind(p + "ramp_gpus_by_month", 0) == 0);
  CHECK(load_error(tp_with("ramp_gpus_by_month", Json(std::vector<int>(12, 8)))).rfind(p + "ramp_gpus_by_month", 0) ==
        0);  // a ramp as long as the term
  {
    Json doc = cloud_with(half_used_block());
    doc["plans"][1]["commitments"] = {{"kind", "capacity_block"}};  // an object, not a list
    CHECK(load_error(doc).rfind("/plans/1/commitments", 0) == 0);
  }
  {
    Json doc = base_scenario_json();
    doc["plans"][1] = {{"name", "own"}, {"kind", "onprem"}, {"onprem_nodes", 2}, {"commitments", half_used_block()}};
    CHECK(load_error(doc).rfind("/plans/1/commitments", 0) == 0);
  }
}

TEST_CASE("commitments: validate and run refuse a bad commitment with exit 2, naming the pointer") {
  const auto dir = scratch_dir("commitments-cli");
  Json block = half_used_block();
  block[0]["days"] = 183;
  const std::string file = write_json_file(dir / "bad.json", cloud_with(block));
  const CliResult v = run_cli({"validate", file});
  CHECK(v.exit_code == 2);
  CHECK((v.out + v.err).find("/plans/1/commitments/0/days") != std::string::npos);
  const CliResult r = run_cli({"run", file, "--out", (dir / "r.json").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/plans/1/commitments/0/days") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "r.json"));
}

TEST_CASE("commitments: the shipped quarterly-burst scenario: the block saves up to 32 on-demand instances an hour") {
  ScenarioOutcome o{load_scenario(source_path("scenarios/quarterly-burst-capacity-block.json")), {}};
  o.run = run_deterministic(o.scenario);
  // The campaigns (256 GPUs, days 30 + 91 k for 14 days, k = 0..11 inside 1,095 days) and the
  // blocks (32 p5.48xlarge = 256 GPUs, the same windows) coincide. In a window a plan without a
  // block bills 32 more on-demand instances than one with it (ceil((x + 256) / 8) = ceil(x / 8) +
  // 32 for the rest x of the overflow): 32 x $55.04 x 336 h x 12 = $7,101,480.96 on-demand,
  // against 12 blocks prepaid 32 x 336 x $34.608 = $372,105.216 each, $4,465,262.592 in all
  // (the catalog's p5.48xlarge us-east-1 on-demand and capacity-block rates, pricing-data/README.md).
  // For the cloud plans (the overflow x is the whole base load, > 0 every hour) the saving is
  // 7,101,480.96 - 4,465,262.592 = $2,636,218.368 nominal, and the blocks' 256 GPUs x 336 h x 12 =
  // 1,032,192 GPU-hours are all used.
  // The offer's hidden costs (pricing-data: support 5% of the bill, goodput 0.979893) put
  // 1/0.979893 + 0.05 on every dollar of either GPU bill, so the plans' totals differ by that times it.
  const double saving_usd = 7101480.96 - 4465262.592;
  const double uplift = 1.0 / 0.979893 + 0.05;
  CHECK(o.plan("cloud-on-demand").total_usd - o.plan("cloud-burst-on-capacity-blocks").total_usd ==
        doctest::Approx(saving_usd * uplift).epsilon(1e-9));
  const CommitmentFigures& cloud = only_figures(o.plan("cloud-burst-on-capacity-blocks"));
  CHECK(cloud.committed_gpu_hours == doctest::Approx(1032192.0).epsilon(1e-12));
  CHECK(cloud.used_gpu_hours == doctest::Approx(1032192.0).epsilon(1e-12));
  CHECK(cloud.cost_nominal_usd == doctest::Approx(4465262.592).epsilon(1e-12));
  // The owned plan's 48 GPUs take part of the campaign when the base load is low (nights,
  // weekends): an hour's overflow o < 256 leaves 256 - o of the block unused and saves ceil(o / 8)
  // = 32 - floor((256 - o) / 8) instances instead of 32. So its saving lies between $2,636,218.368
  // less unused / 8 instance-hours at $55.04, and $2,636,218.368.
  const CommitmentFigures& owned = only_figures(o.plan("buy-6-burst-on-capacity-blocks"));
  CHECK(owned.committed_gpu_hours == doctest::Approx(1032192.0).epsilon(1e-12));
  CHECK(owned.unused_gpu_hours > 0.0);
  CHECK(owned.unused_gpu_hours == doctest::Approx(owned.committed_gpu_hours - owned.used_gpu_hours).epsilon(1e-12));
  CHECK(owned.unused_usd == doctest::Approx(4465262.592 * owned.unused_gpu_hours / 1032192.0).epsilon(1e-12));
  const double owned_saving_usd =
      o.plan("buy-6-burst-on-demand").total_usd - o.plan("buy-6-burst-on-capacity-blocks").total_usd;
  CHECK(owned_saving_usd <= saving_usd * uplift + 1e-6);
  CHECK(owned_saving_usd >= (saving_usd - owned.unused_gpu_hours / 8.0 * 55.04) * uplift - 1e-6);
}
