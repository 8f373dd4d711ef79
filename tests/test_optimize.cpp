// Base-load sizing (engine/decisions/sizing.hpp, tcosim optimize): the best node count of a steady workload
// against the closed-form utilization breakeven, convexity of the curve there, thread-count
// independence, and that sizing one plan alone gives the very path NPVs of the full sweep.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/io/integer_fields.hpp"
#include "engine/ledger/breakeven.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "reports/json/decisions_json.hpp"
#include "closed_form_sizing.hpp"
#include "scenario_builder.hpp"
#include "test_sweep_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

// The premises of the closed-form utilization breakeven (SPEC §12.7), so that a node's value is
// exactly linear in its utilization: 8-GPU nodes over their 3-year life = the 36-month horizon,
// bought at month 0, 1-GPU cloud instances (no instance rounding), rack limit 10 kW (one node per
// rack, so the rack fee is per node), no fixed FTEs, rate 8 %. Per node (test_properties.cpp
// derives the same figures): fixed monthly costs 3,719 USD (maintenance 1,000, colocation 1,500,
// staff 0.1 FTE 1,000, idle energy 219), residual 68,600 after 3 years;
//   A = sum_{m<36} 1.08^(-(m+1)/12) = 32.04333
//   PV(fixed)         = 200,000 + 3,719 A - 68,600 x 1.08^-3       = 264,712.26
//   PV(dynamic per u) = 8 kW x 1.5 x 0.10 x 730 A = 876 A
//   PV(cloud per u)   = 8 x p x 730 A = 5,840 p A
// At p = (2 PV(fixed) / A + 876) / 5,840 = 2.97913 USD/GPU-hour, u* = 1/2 exactly
// (half_breakeven_price_usd, tests/closed_form_sizing.hpp).
Json steady_sizing_scenario(double demand_gpus) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 36;
  doc["discount_rate_per_year"] = 0.08;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", demand_gpus}}}}};
  doc["cloud"] = {{"offer", {{"id", "test/gpu1/region-a"}, {"on_demand_usd_per_hour", half_breakeven_price_usd()}}}};
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 10}};
  doc["onprem"]["depreciation"] = {{"life_years", 3}};
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["onprem"]["staff"] = {{"fixed_fte", 0}, {"fte_per_node", 0.1}, {"usd_per_fte_year", 120000}};
  doc["monte_carlo"] = {{"paths", 4}, {"seed", 11}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "buy"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  doc["baseline"] = "cloud";
  return doc;
}

SizingResult size(const Json& doc, SizingOptions o) {
  return optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
}

}  // namespace

TEST_CASE("optimize: on a steady workload the best N is the closed-form breakeven's, and the curve is convex") {
  // The closed form says u* = 1/2 at this price (checked against the engine first).
  const Scenario s = load_scenario_json(steady_sizing_scenario(22.0), "test-scenario.json", source_path("tests"));
  const auto closed = utilization_breakevens(s, s.plans[1], *s.plans[0].cloud);
  REQUIRE(closed.front().price_basis == "on_demand");
  REQUIRE(closed.front().utilization.has_value());
  CHECK(*closed.front().utilization == doctest::Approx(0.5).epsilon(1e-12));

  // By hand: with D = 8 m + f GPUs of steady demand, nodes 1..m are busy all the time (u = 1 >
  // u*), node m + 1 is busy f / 8 of the time and any further node never. Each node lowers the NPV
  // by u (PV(cloud per u) - PV(dynamic per u)) - PV(fixed), which is > 0 exactly when u > u*:
  //   D = 22 = 8 x 2 + 6: the third node runs at u = 0.75 > 1/2: buy it; best N = 3
  //   D = 18 = 8 x 2 + 2: the third node would run at u = 0.25 < 1/2: best N = 2
  // (each a quarter of utilization away from u*, so no rounding can tip the answer).
  struct Case {
    double demand_gpus;
    long best_nodes;
  };
  for (const Case c : {Case{22.0, 3}, Case{18.0, 2}}) {
    CAPTURE(c.demand_gpus);
    SizingOptions o;
    o.nodes = {0, 6, 1};
    o.threads = 1;
    const SizingResult r = size(steady_sizing_scenario(c.demand_gpus), o);
    REQUIRE(r.points.size() == 7);
    for (const char* measure : kRiskMeasures) {
      CAPTURE(measure);
      // No uncertainty: every path is the deterministic NPV, so all three measures agree.
      CHECK(r.points[r.best_for(measure).point].nodes == c.best_nodes);
    }
    // Marginal cost of node n: NPV(n) - NPV(n - 1); convex = marginals never decrease. The
    // tolerance is the rounding of 26,280 hourly additions (1e-9 of a 3-million-dollar NPV).
    std::vector<double> marginal;
    for (std::size_t n = 1; n < r.points.size(); ++n) {
      CHECK(r.points[n].npv_usd.mean == doctest::Approx(r.points[n].deterministic_npv_usd).epsilon(1e-12));
      marginal.push_back(r.points[n].npv_usd.mean - r.points[n - 1].npv_usd.mean);
    }
    for (std::size_t n = 1; n < marginal.size(); ++n) {
      CAPTURE(n);
      CHECK(marginal[n] >= marginal[n - 1] - 1e-3);
    }
    // Beyond the demand a node only adds its fixed cost: PV(fixed) = 264,712.26 USD each.
    CHECK(marginal.back() == doctest::Approx(264712.26).epsilon(1e-8));
    // Within 1 % of the best (under 20,000 USD here) lies the best alone: buying or not the
    // part-used node moves the NPV by |u - u*| (PV(cloud per u) - PV(dynamic per u)) = 0.25 x
    // 2 PV(fixed) = 132,356 USD, an idle node by PV(fixed), a busy one by PV(fixed) too.
    const SizingBest& best = r.best_for("mean");
    CHECK(best.within_1pct == std::vector<std::size_t>{best.point});
  }
}

TEST_CASE("optimize: the best N and every number of the curve do not depend on the thread count") {
  Json doc = random_sweep_json();
  doc["monte_carlo"]["paths"] = 64;
  SizingOptions o;
  o.plan = "buy-2";
  o.nodes = {0, 5, 1};
  o.threads = 1;
  const SizingResult one = optimize_sizing(doc, "sweep-test.json", source_path("tests/fixtures/sweep"), "", o);
  o.threads = 2;
  const SizingResult two = optimize_sizing(doc, "sweep-test.json", source_path("tests/fixtures/sweep"), "", o);
  REQUIRE(one.points.size() == two.points.size());
  for (std::size_t i = 0; i < one.points.size(); ++i) {
    CAPTURE(i);
    CHECK(one.points[i].npv_usd.mean == two.points[i].npv_usd.mean);
    CHECK(one.points[i].npv_usd.p90 == two.points[i].npv_usd.p90);
    CHECK(one.points[i].npv_usd.cvar95 == two.points[i].npv_usd.cvar95);
    CHECK(one.points[i].saving_usd.mean == two.points[i].saving_usd.mean);
  }
  for (const char* measure : kRiskMeasures) {
    CAPTURE(measure);
    CHECK(one.best_for(measure).point == two.best_for(measure).point);
    CHECK(one.best_for(measure).within_1pct == two.best_for(measure).within_1pct);
  }
}

TEST_CASE("optimize: sizing a plan alone gives exactly the path NPVs of the full scenario's sweep") {
  // No draw depends on the plan, so the sized plan's NPVs (and the baseline's) are those a sweep
  // of the whole scenario over the same node counts computes: common random numbers throughout.
  Json doc = random_sweep_json();
  doc["monte_carlo"]["paths"] = 32;
  SizingOptions o;
  o.plan = "buy-2";
  o.nodes = {1, 3, 1};
  o.threads = 2;
  const SizingResult r = optimize_sizing(doc, "sweep-test.json", source_path("tests/fixtures/sweep"), "", o);

  SweepInputs in;
  in.scenario_file = "sweep-test.json";
  in.scenario_dir = source_path("tests/fixtures/sweep");
  in.scenario_doc = doc;
  {
    IntegerFieldRecorder integer_fields("sweep-test.json");
    in.base = load_sweep_scenario(doc);
    in.integer_pointers = integer_fields.pointers();
  }
  in.paths = 32;
  in.seed = 7;
  in.grid = parse_sweep_grid(Json::parse(R"({"fields": [{"pointer": "/plans/1/onprem_nodes", "values": [1, 2, 3]}]})"),
                             "grid.json", doc, "sweep-test.json", in.integer_pointers);
  const auto full = evaluate_grid_points(in, {0, 3}, SweepBackend::cpu, 2);
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Summary npv = summarize(full[i].npv_usd[1]);
    CHECK(r.points[i].npv_usd.mean == npv.mean);
    CHECK(r.points[i].npv_usd.p90 == npv.p90);
    std::vector<double> saving(32);
    for (int p = 0; p < 32; ++p) saving[p] = full[i].npv_usd[0][p] - full[i].npv_usd[1][p];
    CHECK(r.points[i].saving_usd.mean == summarize(saving).mean);
  }
  CHECK(r.baseline_npv_usd.mean == summarize(full[0].npv_usd[0]).mean);
}

TEST_CASE("optimize: the risk measures rank by mean, P90 and CVaR95, each with its within-1% range") {
  Json doc = random_sweep_json();
  doc["monte_carlo"]["paths"] = 100;
  SizingOptions o;
  o.plan = "buy-2";
  o.nodes = {0, 4, 2};
  o.reserved = IntRange{0, 1, 1};
  o.risk = "cvar95";
  o.threads = 2;
  const SizingResult r = optimize_sizing(doc, "sweep-test.json", source_path("tests/fixtures/sweep"), "", o);
  // 3 node counts x 2 reserved sizes, node count slowest.
  REQUIRE(r.points.size() == 6);
  CHECK(r.points[1].nodes == 0);
  CHECK(r.points[1].reserved_instances == 1);
  CHECK(r.points[2].nodes == 2);
  for (const char* measure : kRiskMeasures) {
    CAPTURE(measure);
    const SizingBest& b = r.best_for(measure);
    for (const auto& p : r.points) CHECK(risk_value(p.npv_usd, measure) >= b.value_usd);
    for (std::size_t i : b.within_1pct)
      CHECK(risk_value(r.points[i].npv_usd, measure) <= b.value_usd + 0.01 * std::fabs(b.value_usd));
  }
  // P90 <= CVaR95: the worst ceil(5 %) paths all lie at or above the 90th percentile.
  for (const auto& p : r.points) CHECK(p.npv_usd.p90 <= p.npv_usd.cvar95);
}

TEST_CASE("optimize: the site's power cap bounds the node range, spares included") {
  // test-node-8 draws 10 kW at peak: a 0.035 MW site feeds floor(35 / 10) = 3 nodes.
  Json doc = steady_sizing_scenario(22.0);
  doc["onprem"]["site"] = {{"power_cap_mw", 0.035}};
  SizingOptions o;
  o.nodes = {0, 6, 1};
  o.threads = 1;
  const SizingResult capped = size(doc, o);
  REQUIRE(capped.site_cap_max_nodes.has_value());
  CHECK(*capped.site_cap_max_nodes == 3);
  CHECK(capped.node_values == std::vector<long>{0, 1, 2, 3});
  REQUIRE(capped.points.size() == 4);
  CHECK(sizing_json(capped).at("grid").at("site_cap_max_nodes") == 3);
  // One hot spare takes one of the 3 places: 2 nodes at most.
  doc["onprem"]["spares"] = {{"nodes", 1}, {"swap_h", 2}};
  CHECK(*size(doc, o).site_cap_max_nodes == 2);
  // A range that starts above the cap has nothing to evaluate: an input error naming --nodes.
  o.nodes = {4, 6, 1};
  try {
    size(doc, o);
    FAIL("expected an input error");
  } catch (const InputError& e) {
    CHECK(e.where() == "--nodes");
    CHECK(std::string(e.what()).find("at most 2") != std::string::npos);
  }
  // Without a cap: null in the report, the whole range evaluated.
  doc["onprem"].erase("site");
  doc["onprem"].erase("spares");
  o.nodes = {0, 4, 2};
  const SizingResult free = size(doc, o);
  CHECK_FALSE(free.site_cap_max_nodes.has_value());
  CHECK(free.node_values == std::vector<long>{0, 2, 4});
  CHECK(sizing_json(free).at("grid").at("site_cap_max_nodes").is_null());
}

TEST_CASE("optimize: the CLI writes run's report with a sizing section, bad ranges and plans are input errors") {
  const auto dir = scratch_dir("optimize-cli");
  const std::string scenario = write_json_file(dir / "steady.json", steady_sizing_scenario(22.0));
  const std::string out = (dir / "report.json").string();
  const CliResult r = run_cli({"optimize", scenario, "--nodes", "0:5", "--paths", "3", "--threads", "2", "--out", out});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = Json::parse(read_text_file(out));
  for (const char* key : {"plans", "comparisons", "breakevens", "sizing"}) CHECK(report.contains(key));
  CHECK(report.at("run").at("command") == "optimize");
  const Json& sizing = report.at("sizing");
  CHECK(sizing.at("plan") == "buy");
  CHECK(sizing.at("curve").size() == 6);
  for (const char* key : {"nodes", "npv_mean_usd", "npv_p10_usd", "npv_p90_usd", "npv_cvar95_usd", "saving_mean_usd"})
    CHECK(sizing.at("curve").at(0).contains(key));
  CHECK(sizing.at("best").at("mean").at("nodes") == 3);
  CHECK(sizing.at("best").at("p90").at("nodes") == 3);
  CHECK(sizing.at("best").at("cvar95").at("nodes") == 3);
  CHECK(sizing.at("recommended").at("nodes") == 3);
  CHECK(r.out.find("best N by mean  : 3") != std::string::npos);
  CHECK(r.err.find("\"uncertain\"") == std::string::npos);  // no uncertain section, no note
  // tcosim report renders it.
  const CliResult html = run_cli({"report", out, "--html", (dir / "r.html").string(), "--csv", (dir / "csv").string()});
  CHECK(html.exit_code == 0);
  CHECK(std::filesystem::exists(dir / "csv" / "sizing.csv"));

  const CliResult bad_range = run_cli({"optimize", scenario, "--nodes", "5:2"});
  CHECK(bad_range.exit_code == 2);
  CHECK(bad_range.err.find("--nodes") != std::string::npos);
  const CliResult cloud_plan = run_cli({"optimize", scenario, "--plan", "cloud"});
  CHECK(cloud_plan.exit_code == 2);
  CHECK(cloud_plan.err.find("cloud plan") != std::string::npos);
  const CliResult unknown = run_cli({"optimize", scenario, "--plan", "nope"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("buy") != std::string::npos);
  Json jobs_only = steady_sizing_scenario(22.0);
  jobs_only.erase("workload");
  jobs_only["jobs"] = {{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}};
  // A scenario of jobs is sized in the discrete-event replay (tests/test_replay_sizing.cpp).
  const std::string jobs_out = (dir / "jobs-report.json").string();
  const CliResult jobs_sized = run_cli({"optimize", write_json_file(dir / "jobs.json", jobs_only), "--nodes", "0:2",
                                        "--paths", "2", "--out", jobs_out});
  INFO(jobs_sized.err);
  CHECK(jobs_sized.exit_code == 0);
  CHECK(Json::parse(read_text_file(jobs_out)).at("sizing").at("model") == "monte_carlo_discrete_event");
  const CliResult help = run_cli({"optimize", "--help"});
  CHECK(help.exit_code == 0);
  for (const char* option : {"--nodes", "--plan", "--risk", "--reserved", "--paths", "--seed", "--threads", "--out"})
    CHECK(help.out.find(option) != std::string::npos);
}

TEST_CASE("optimize: a scenario with an uncertain section draws it in the curve, and the report says so") {
  const std::string out = (scratch_dir("optimize-uncertain") / "report.json").string();
  const CliResult r = run_cli({"optimize", source_path("scenarios/base-load-and-burst-uncertain.json"), "--nodes",
                               "0:2", "--paths", "12", "--quiet", "--out", out});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("\"uncertain\"") == std::string::npos);  // the former note is gone
  const Json sizing = Json::parse(read_text_file(out)).at("sizing");
  REQUIRE(sizing.at("randomness").size() == 2);
  CHECK(sizing.at("randomness").at(1).get<std::string>().find("uncertain section (9 inputs, with its rank "
                                                              "correlation)") != std::string::npos);
  for (const auto& p : sizing.at("curve")) CHECK(p.at("npv_p90_usd").get<double>() > p.at("npv_mean_usd").get<double>());
}

TEST_CASE("optimize --reserved: every shipped scenario with an hourly workload and a hybrid plan sizes its commitment") {
  // The shipped catalog carries reserved prices for the offers the shipped scenarios rent, so
  // the joint sizing of nodes and reserved instances runs on each (2 x 2 grid, 12 paths, the
  // fewest the uncertain scenario's rank correlation allows: a smoke test of the whole path, not
  // of the answer). Not here: the job-trace scenarios
  // (startup-monte-carlo, openb-h100-hybrid, deadline-campaign-spot-policies: optimize sizes the
  // hourly fluid model, which needs a `workload`) and electricity-100-nodes (no hybrid plan).
  // Under the sanitizers, two of them (24 s of the sanitizer pass for all five): the uncertain
  // scenario's draws and a plain one; the Release pass runs all five.
  const std::vector<const char*> all = {"base-load-and-burst", "base-load-and-burst-uncertain", "air-vs-liquid-40kw",
                                        "helios-vc-replay", "h100-2023-2026-hindsight"};
  const std::vector<const char*> names = kUnderSanitizers ? std::vector<const char*>{all[1], all[2]} : all;
  for (const char* name : names) {
    INFO("scenario " << name);
    const std::string path = source_path(std::string("scenarios/") + name + ".json");
    if (!shared_data_available() && read_text_file(path).find("shared/data") != std::string::npos) {
      MESSAGE("skipped " << name << ": it reads ../shared/data, which is absent (a user's clone does not have it)");
      continue;
    }
    const auto dir = scratch_dir(std::string("optimize-reserved-") + name);
    const std::string out = (dir / "report.json").string();
    const CliResult r = run_cli({"optimize", path, "--nodes", "1:2", "--reserved", "0:1", "--paths", "12", "--quiet", "--out", out});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const Json sizing = Json::parse(read_text_file(out)).at("sizing");
    const Json& recommended = sizing.at("recommended");
    CHECK(recommended.at("reserved_instances").is_number_integer());
    CHECK(recommended.at("reserved_instances").get<long>() >= 0);
    CHECK(recommended.at("reserved_instances").get<long>() <= 1);
    CHECK(sizing.at("grid").at("reserved_instances") == Json::array({0, 1}));
  }
}

TEST_CASE("optimize --commitment: a capacity block sized jointly with the nodes, the plan's own sizes give run's NPV") {
  // scenarios/quarterly-burst-capacity-block.json: its fluid model draws nothing, so every path's NPV
  // is the deterministic one, and the point (6 nodes, 32 instances) is the shipped plan itself.
  const std::string file = source_path("scenarios/quarterly-burst-capacity-block.json");
  const Json doc = read_json_file(file);
  SizingOptions o;
  o.plan = "buy-6-burst-on-capacity-blocks";
  o.nodes = {4, 6, 2};
  o.commitment = parse_commitment_range("quarterly-256-gpu-block=16:32:16", "--commitment");
  o.paths = 2;
  o.threads = 1;
  const SizingResult r = optimize_sizing(doc, file, source_path("scenarios"), "", o);
  REQUIRE(r.points.size() == 4);  // N slowest: (4, 16), (4, 32), (6, 16), (6, 32)
  CHECK(r.commitment_field == "instances");
  CHECK(r.commitment_pointer == "/plans/3/commitments/0/instances");
  CHECK(r.points[1].nodes == 4);
  CHECK(r.points[1].commitment_size == 32);
  const Scenario s = load_scenario_json(doc, file, source_path("scenarios"));
  const ScenarioRun run = run_deterministic(s);
  CHECK(r.points[3].npv_usd.mean == doctest::Approx(run.plans[3].npv_usd).epsilon(1e-12));
  const Json j = sizing_json(r);
  CHECK(j.at("grid").at("commitment_sizes") == Json::array({16, 32}));
  CHECK(j.at("recommended").at("commitment_size") == r.points[r.best_for("mean").point].commitment_size);
  CHECK(j.at("points").size() == 4);
  // Bad input: an unknown name, a size from 0, no '='.
  o.commitment = CommitmentRange{"no-such-block", {1, 2, 1}};
  CHECK_THROWS_WITH_AS(optimize_sizing(doc, file, source_path("scenarios"), "", o),
                       doctest::Contains("quarterly-256-gpu-block"), InputError);
  CHECK_THROWS_WITH_AS(parse_commitment_range("quarterly-256-gpu-block=0:32", "--commitment"),
                       doctest::Contains("from 1"), InputError);
  CHECK_THROWS_AS(parse_commitment_range("0:32", "--commitment"), InputError);
}

