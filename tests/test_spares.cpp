// Hot spares, repair cost and goodput (models/site/spares.hpp, engine/des/fleet/spare_pool.hpp,
// engine/ledger/goodput.hpp): the owning costs and idle power of spares by hand in the fluid
// model; goodput with and without a spare by hand in the replay; goodput never lower with one
// more spare on the same paths, over generated scenarios; bad inputs exit 2 naming the pointer;
// the report carries the figures only for a scenario that opts in.
#include <cmath>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"

#include "core/error.hpp"
#include "core/random/random.hpp"
#include "des_support.hpp"
#include "engine/decisions/spares_sizing.hpp"
#include "engine/des/path_goodput.hpp"
#include "reports/json/decisions_json.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"

using namespace tco;
using namespace tco::des;
using namespace tco::test;

namespace {

double total(const PlanResult& r, Category c) { return r.ledger.category_total_usd(c); }

// One node of 8 GPUs failing at 0.5 a year, repaired in 48 h, running one 8-GPU job that
// checkpoints every hour and outlasts the 12-month horizon.
Json one_node_json(const Json& spares) {
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}}}});
  doc["onprem"]["failures"] = {{"afr_per_year", 0.5}, {"repair_h", 48}};
  doc["onprem"]["spares"] = spares;
  doc["plans"] = Json::parse(R"([{"name": "own-1", "kind": "onprem", "onprem_nodes": 1}])");
  doc["baseline"] = "own-1";
  return doc;
}

PathOutcome replay_long_job(const Scenario& s, std::uint32_t path) {
  const DesPlans plans = prepare_des_plans(s);
  SimJob job = job_at(0.0, 8, 1e5);
  job.checkpoint_h = 1.0;
  VectorFeed feed({job});
  return simulate_feed(s, plans.plans[0], feed, {5, path, 0.0});
}

}  // namespace

TEST_CASE("spares: the fluid model buys, racks and powers a spare like a node, and gives it no work") {
  Json doc = base_scenario_json();
  const ScenarioOutcome without = run_scenario_json(doc);
  doc["onprem"]["spares"] = {{"nodes", 1}, {"swap_h", 2}, {"repair_cost_usd_per_failure", 5000}};
  const ScenarioOutcome with = run_scenario_json(doc);
  const PlanResult &a = without.plan("buy-2"), &b = with.plan("buy-2");
  // One more test-node-8 ($200,000) over 12 months (8,760 h):
  //   capex        +200,000
  //   maintenance  +200,000 x 6% = +12,000
  //   colocation   +$100/kW-month x 10 kW x 12 = +12,000 (3 x 10 kW still fit one 40 kW rack)
  //   energy       +2 kW idle x PUE 1.5 x $0.10 x 8,760 h = +2,628
  CHECK(total(b, Category::capex) - total(a, Category::capex) == doctest::Approx(200000.0).epsilon(1e-12));
  CHECK(total(b, Category::maintenance) - total(a, Category::maintenance) == doctest::Approx(12000.0).epsilon(1e-9));
  CHECK(total(b, Category::facility) - total(a, Category::facility) == doctest::Approx(12000.0).epsilon(1e-9));
  CHECK(total(b, Category::energy) - total(a, Category::energy) == doctest::Approx(2628.0).epsilon(1e-9));
  CHECK(b.facility.racks == a.facility.racks);
  // No work moves: the same busy GPU-hours, the same cloud bill; no failures in the fluid model,
  // so no repair cost and no goodput figure from it.
  CHECK(b.gpu_hours.onprem_busy == a.gpu_hours.onprem_busy);
  CHECK(b.gpu_hours.onprem_capacity == a.gpu_hours.onprem_capacity);
  CHECK(total(b, Category::cloud_on_demand) == total(a, Category::cloud_on_demand));
  CHECK(total(b, Category::repair) == 0.0);
  CHECK_FALSE(b.goodput.has_value());
  CHECK(b.total_usd - a.total_usd == doctest::Approx(226628.0).epsilon(1e-9));
}

TEST_CASE("spares: goodput with no spares is 1 - (lost + repair wait) / total, by hand") {
  const Scenario s = load_des_scenario(one_node_json({{"nodes", 0}, {"repair_cost_usd_per_failure", 1000}}));
  const DesPlans plans = prepare_des_plans(s);
  const double write_h = plans.plans[0].checkpoint_write_h;
  // The first path whose node fails exactly once inside the horizon.
  std::uint32_t path = 0;
  PathOutcome o;
  for (; path < 200; ++path) {
    o = replay_long_job(s, path);
    if (o.jobs.node_failures == 1) break;
  }
  REQUIRE(o.jobs.node_failures == 1);
  // The failure: t1 = E / lambda, E = -ln u(failure, node 0, draw 0), lambda = 0.5 / 8,760 per hour.
  const double t1 = -std::log(uniform(5, path, RandomSource::failure, 0, 0)) / (0.5 / 8760.0);
  REQUIRE(t1 < 8760.0 - 48.0);
  // The job ran from 0 without overhead: pieces of 1 h + write_h; lost = the wall time since the
  // last completed checkpoint, t1 - k (1 + write_h), k = floor(t1 / (1 + write_h)), x 8 GPUs.
  const double piece_h = 1.0 + write_h;
  const double lost = 8.0 * (t1 - std::floor(t1 / piece_h) * piece_h);
  // The place stands empty 48 h (the job waits for it in the queue); the job runs the rest of the
  // 8,760 h, its restart included: busy 8 x (8,760 - 48), total = busy + wait = 8 x 8,760 = 70,080.
  const double wait = 8.0 * 48.0;
  const double busy = 8.0 * (8760.0 - 48.0);
  CHECK(o.jobs.failure_lost_gpu_hours == doctest::Approx(lost).epsilon(1e-9));
  CHECK(o.jobs.repair_wait_gpu_hours == doctest::Approx(wait).epsilon(1e-12));
  CHECK(o.gpu_hours.onprem_busy == doctest::Approx(busy).epsilon(1e-9));
  const GoodputFigures g = path_goodput(o);
  CHECK(g.useful_gpu_hours == doctest::Approx(busy - lost).epsilon(1e-9));
  CHECK(g.goodput == doctest::Approx(1.0 - (lost + wait) / 70080.0).epsilon(1e-9));
  CHECK(g.spare_swaps == 0.0);
  // One failure at $1,000, booked in its month.
  CHECK(category_total(o, Category::repair) == 1000.0);
  CHECK(o.cost_by_month[static_cast<int>(t1 / 730.0)][static_cast<int>(Category::repair)] == 1000.0);

  SUBCASE("a spare on the same path: the same failure, the place back after the 2 h swap") {
    const Scenario s1 = load_des_scenario(one_node_json({{"nodes", 1}, {"swap_h", 2}, {"repair_cost_usd_per_failure", 1000}}));
    const PathOutcome o1 = replay_long_job(s1, path);
    CHECK(o1.jobs.node_failures == 1);
    CHECK(o1.jobs.spare_swaps == 1);
    // Same failure instant, same progress lost; the wait is 8 x 2 = 16 GPU-hours and the job runs
    // 8,760 - 2 h: goodput = 1 - (lost + 16) / 70,080.
    CHECK(o1.jobs.failure_lost_gpu_hours == doctest::Approx(lost).epsilon(1e-9));
    CHECK(o1.jobs.repair_wait_gpu_hours == doctest::Approx(16.0).epsilon(1e-12));
    CHECK(o1.gpu_hours.onprem_busy == doctest::Approx(8.0 * (8760.0 - 2.0)).epsilon(1e-9));
    CHECK(path_goodput(o1).goodput == doctest::Approx(1.0 - (lost + 16.0) / 70080.0).epsilon(1e-9));
    CHECK(category_total(o1, Category::repair) == 1000.0);
    // IT energy: without the spare the node draws 10 kW (8 busy GPUs) except in its 48 h repair;
    // with it, the place is back after 2 h and the spare idles at 2 kW except from the failure to
    // the repair's end. Difference = 10 kW x (48 - 2) h + 2 kW x (8,760 - 48) h = 460 + 17,424 kWh.
    const double idle_kwh = 2.0 * (8760.0 - 48.0);
    const double busy_kwh_gained = 10.0 * (48.0 - 2.0);
    CHECK(o1.it_energy_kwh - o.it_energy_kwh == doctest::Approx(idle_kwh + busy_kwh_gained).epsilon(1e-9));
  }
}

TEST_CASE("spares: goodput never falls with one more spare, on the same paths, over generated scenarios") {
  // Generated scenarios (a fixed recipe, so the test is the same every run): 1 to 4 nodes, AFR
  // 2 to 9.5 a year, repairs of 12 to 96 h, swaps of 0.25 to 8 h, Poisson jobs of 1, 8 or 16 GPUs
  // with and without checkpoints, plans that burst or wait. For each, spares 0..3 on paths 0..3:
  // the failure instants are the same (common random numbers), the empty places never wait
  // longer, and goodput never falls.
  int checked = 0;
  for (int k = 0; k < 8; ++k) {
    const double u1 = uniform(77, 0, RandomSource::arrival, static_cast<std::uint32_t>(k), 0);
    const double u2 = uniform(77, 0, RandomSource::arrival, static_cast<std::uint32_t>(k), 1);
    const double u3 = uniform(77, 0, RandomSource::arrival, static_cast<std::uint32_t>(k), 2);
    const int nodes = 1 + k % 4;
    const double afr = 2.0 + 7.5 * u1;
    const double repair_h = 12.0 + 84.0 * u2;
    const double swap_h = 0.25 + 7.75 * u3;
    Json doc = des_scenario_json(
        {{"poisson", {{"jobs_per_hour", 0.3 + 0.3 * nodes * u2}, {"gpus", {{"1", 0.3}, {"8", 0.5}, {"16", 0.2}}},
                      {"duration_median_h", 2.0 + 20.0 * u3}, {"duration_sigma", 1.0},
                      {"checkpoint_h", k % 3 == 0 ? 0.0 : 0.5 + 3.0 * u1}, {"max_wait_h", 4.0}}}});
    doc["horizon_months"] = 4;
    doc["onprem"]["failures"] = {{"afr_per_year", afr}, {"afr_growth_per_year", k % 2 ? 0.5 : 0.0}, {"repair_h", repair_h}};
    const std::string kind = k % 2 ? "hybrid" : "onprem";
    Json plans = Json::array();
    for (int spares = 0; spares <= 3; ++spares) {
      plans.push_back({{"name", "spares-" + std::to_string(spares)}, {"kind", kind}, {"onprem_nodes", nodes},
                       {"onprem", {{"spares", {{"nodes", spares}, {"swap_h", swap_h}}}}}});
    }
    doc["plans"] = plans;
    doc["baseline"] = "spares-0";
    const Scenario s = load_des_scenario(doc);
    const DesPlans prepared = prepare_des_plans(s);
    const JobCatalog catalog = build_job_catalog(*s.jobs);
    for (std::uint32_t path = 0; path < 4; ++path) {
      GoodputFigures before;
      long failures = -1;
      for (int spares = 0; spares <= 3; ++spares) {
        const PathOutcome o = simulate_path(s, prepared.plans[spares], catalog, {3, path, 0.0});
        const GoodputFigures g = path_goodput(o);
        INFO("scenario " << k << " path " << path << " spares " << spares << " (nodes " << nodes << ", afr " << afr
                         << ", repair " << repair_h << " h, swap " << swap_h << " h)");
        if (spares > 0) {
          CHECK(o.jobs.node_failures == failures);
          CHECK(g.repair_wait_gpu_hours <= before.repair_wait_gpu_hours);
          CHECK(g.goodput >= before.goodput);
          ++checked;
        }
        failures = o.jobs.node_failures;
        before = g;
      }
    }
  }
  CHECK(checked == 8 * 4 * 3);
}

TEST_CASE("spares: the Monte Carlo report carries goodput and the repair category only when a plan opts in") {
  Json doc = one_node_json({{"nodes", 1}, {"swap_h", 2}, {"repair_cost_usd_per_failure", 1000}});
  doc["onprem"]["failures"]["afr_per_year"] = 4.0;
  doc["monte_carlo"] = {{"paths", 8}, {"seed", 3}};
  const auto dir = scratch_dir("spares-report");
  const std::string scenario = write_json_file(dir / "scenario.json", doc);
  const CliResult r = run_cli({"run", scenario, "--out", (dir / "report.json").string(), "--md",
                               (dir / "summary.md").string(), "--html", (dir / "report.html").string(), "--csv",
                               (dir / "csv").string(), "--xlsx", (dir / "report.xlsx").string(), "--quiet"});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = Json::parse(read_text_file(dir / "report.json"));
  const Json& plan = report_plan(report, "own-1");
  const Json& g = plan.at("goodput");
  // goodput = useful / (useful + lost + repair wait) of the mean figures shown beside it.
  const double useful = g.at("useful_gpu_hours").get<double>(), lost = g.at("lost_gpu_hours").get<double>(),
               wait = g.at("repair_wait_gpu_hours").get<double>();
  CHECK(g.at("goodput").get<double>() == doctest::Approx(useful / (useful + lost + wait)).epsilon(1e-12));
  CHECK(g.at("spare_nodes") == 1);
  CHECK(g.at("node_failures").get<double>() > 0.0);
  // $1,000 a failure: the repair category is the mean failures x 1,000.
  CHECK(plan.at("breakdown_nominal_usd").at("repair").get<double>() ==
        doctest::Approx(1000.0 * g.at("node_failures").get<double>()).epsilon(1e-12));
  const Json& stats = report.at("monte_carlo").at("plans").at(0).at("goodput");
  CHECK(stats.at("ci95_low").get<double>() <= stats.at("mean").get<double>());
  CHECK(stats.at("mean").get<double>() <= stats.at("ci95_high").get<double>());
  CHECK(std::filesystem::exists(dir / "csv" / "goodput.csv"));
  CHECK(std::filesystem::file_size(dir / "report.xlsx") > 0);
  const std::string md = read_text_file(dir / "summary.md");
  CHECK(md.find("**Goodput**") != std::string::npos);
  CHECK(read_text_file(dir / "report.html").find("<h2 id=\"goodput\">Goodput</h2>") != std::string::npos);
  // Without spares: no goodput, no repair key, no goodput table.
  Json plain = doc;
  plain["onprem"].erase("spares");
  const std::string plain_scenario = write_json_file(dir / "plain.json", plain);
  REQUIRE(run_cli({"run", plain_scenario, "--out", (dir / "plain-report.json").string(), "--quiet"}).exit_code == 0);
  const Json plain_report = Json::parse(read_text_file(dir / "plain-report.json"));
  CHECK_FALSE(report_plan(plain_report, "own-1").contains("goodput"));
  CHECK_FALSE(report_plan(plain_report, "own-1").at("breakdown_nominal_usd").contains("repair"));
  CHECK(markdown_summary(plain_report).find("Goodput") == std::string::npos);
}

TEST_CASE("spares: each bad spares input exits 2 naming its JSON pointer, in run and validate alike") {
  struct Case {
    const char* name;
    Json spares;
    const char* pointer;
  };
  const Case cases[] = {
      {"nodes-missing", {{"swap_h", 1.0}}, "/onprem/spares/nodes"},
      {"nodes-negative", {{"nodes", -1}}, "/onprem/spares/nodes"},
      {"nodes-fraction", {{"nodes", 1.5}}, "/onprem/spares/nodes"},
      {"nodes-huge", {{"nodes", 1000000}}, "/onprem/spares/nodes"},
      {"swap-negative", {{"nodes", 1}, {"swap_h", -1.0}}, "/onprem/spares/swap_h"},
      {"swap-text", {{"nodes", 1}, {"swap_h", "1h"}}, "/onprem/spares/swap_h"},
      {"cost-negative", {{"nodes", 1}, {"repair_cost_usd_per_failure", -5.0}}, "/onprem/spares/repair_cost_usd_per_failure"},
      {"cost-huge", {{"nodes", 1}, {"repair_cost_usd_per_failure", 1e12}}, "/onprem/spares/repair_cost_usd_per_failure"},
      {"typo", {{"nodes", 1}, {"swap_hours", 1.0}}, "/onprem/spares/swap_hours"},
      {"not-object", 3, "/onprem/spares"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    Json doc = base_scenario_json();
    doc["onprem"]["spares"] = c.spares;
    check_run_and_validate_refuse(std::string("spares-bad-") + c.name, doc, c.pointer);
  }
  // A plan's own patch is checked with its plan's pointer.
  Json doc = base_scenario_json();
  doc["plans"][1]["onprem"] = {{"spares", {{"nodes", -2}}}};
  const auto dir = scratch_dir("spares-bad-plan");
  const CliResult r = run_cli({"validate", write_json_file(dir / "scenario.json", doc)});
  CHECK(r.exit_code == 2);
  CHECK((r.out + r.err).find("/plans/1/onprem/spares/nodes") != std::string::npos);
  // And a valid one is accepted by both.
  Json good = base_scenario_json();
  good["onprem"]["spares"] = {{"nodes", 2}, {"swap_h", 0.5}, {"repair_cost_usd_per_failure", 2500}};
  const std::string ok = write_json_file(scratch_dir("spares-good") / "scenario.json", good);
  CHECK(run_cli({"validate", ok}).exit_code == 0);
}

TEST_CASE("optimize --spares: every count replayed on the same paths, the plan's own count matches it exactly") {
  Json doc = one_node_json({{"nodes", 0}, {"swap_h", 2}, {"repair_cost_usd_per_failure", 1000}});
  doc["onprem"]["failures"]["afr_per_year"] = 4.0;
  doc["monte_carlo"] = {{"paths", 8}, {"seed", 3}};
  SparesSizingOptions o;
  o.spares = {0, 2, 1};
  o.threads = 1;
  const SparesSizingResult r = optimize_spares(doc, "test-scenario.json", source_path("tests"), "", o);
  REQUIRE(r.points.size() == 3);
  CHECK(r.plan == "own-1");
  CHECK(r.nodes == 1);
  // 0 spares is the baseline itself: the same NPV on every path, a saving of exactly 0.
  CHECK(r.points[0].saving_usd.max == 0.0);
  CHECK(r.points[0].saving_usd.min == 0.0);
  CHECK(r.points[0].probability_saving == 0.0);
  // A spare covers failures on the same paths: goodput never falls, and it costs its capex.
  REQUIRE(r.points[1].goodput.has_value());
  CHECK(r.points[1].goodput->mean >= r.points[0].goodput->mean);
  CHECK(r.points[2].goodput->mean >= r.points[1].goodput->mean);
  // The best by each measure is the lowest of the curve.
  for (const SizingBest& b : r.best)
    for (const auto& p : r.points) CHECK(risk_value(p.npv_usd, b.measure) >= b.value_usd);
  const Json j = spares_sizing_json(r);
  CHECK(j.at("model") == "monte_carlo_discrete_event");
  CHECK(j.at("curve").size() == 3);
  CHECK(j.at("waiting_priced") == false);
  // Bad input: no spares block to vary, no jobs, both --spares and --nodes.
  Json no_spares = doc;
  no_spares["onprem"].erase("spares");
  CHECK_THROWS_WITH_AS(optimize_spares(no_spares, "test-scenario.json", source_path("tests"), "", o),
                       doctest::Contains("/plans/0/onprem/spares"), InputError);
  const auto dir = scratch_dir("spares-optimize");
  const std::string scenario = write_json_file(dir / "scenario.json", doc);
  const CliResult both = run_cli({"optimize", scenario, "--spares", "0:1", "--nodes", "1:2", "--quiet"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--spares") != std::string::npos);
  const CliResult ok = run_cli({"optimize", scenario, "--spares", "0:1", "--out", (dir / "r.json").string(), "--quiet"});
  REQUIRE(ok.exit_code == 0);
  CHECK(Json::parse(read_text_file(dir / "r.json")).at("spares_sizing").at("curve").size() == 2);
}
