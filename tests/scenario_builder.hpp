// Helpers for the tests that run whole scenarios: the round-number fixture catalog, a small
// valid base scenario built in code (each test changes one thing), and runners that return
// either the engine's results (ledgers) or the JSON report. The fixture catalog's numbers:
//   test/gpu8/region-a: 8 GPUs, $16/h on-demand, $8/h spot, $12/h 1-y reserved, $10/h 3-y
//   test/gpu1/region-a: 1 GPU, $2/h on-demand, $1/h spot
//   test-node-8: 8 GPUs, $200,000, idle 2 kW, peak 10 kW
//   test-air: constant PUE 1.5, 40 kW racks, 10,000 CFM per rack, delta T 20 °F
//   test-region: $0.10/kWh, 400 g CO2/kWh;  test-colo: $100/kW-month, $500/rack-month
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "engine/scenario_run.hpp"
#include "models/scenario.hpp"
#include "reports/json/json_report.hpp"
#include "test_support.hpp"

namespace tco::test {

inline std::string fixture_catalog_dir() { return source_path("tests/fixtures/catalog"); }

inline std::string fixture_scenario(const std::string& name) {
  return source_path("tests/fixtures/scenarios/" + name);
}

// The scenario of tests/fixtures/scenarios/simple.json, in code, with the catalog folder as an
// absolute path so that the scenario may be written anywhere: 16 GPUs steady for 12 months,
// a cloud plan (the baseline) and a hybrid plan owning 2 nodes.
inline Json base_scenario_json() {
  Json doc = Json::parse(R"({
    "name": "base",
    "start": "2026-01-05",
    "horizon_months": 12,
    "discount_rate_per_year": 0.0,
    "workload": {"profiles": [{"type": "steady", "gpus": 16}]},
    "cloud": {"offer": "test/gpu8/region-a"},
    "onprem": {
      "server": "test-node-8",
      "maintenance_per_year": 0.06,
      "power": {"region": "test-region"},
      "cooling": "test-air",
      "colocation": "test-colo",
      "residual": {"enabled": false}
    },
    "plans": [
      {"name": "cloud", "kind": "cloud"},
      {"name": "buy-2", "kind": "hybrid", "onprem_nodes": 2}
    ],
    "baseline": "cloud"
  })");
  doc["catalog_dir"] = fixture_catalog_dir();
  return doc;
}

// A scenario together with its deterministic run (the run refers to nothing in the scenario,
// but the tests read both).
struct ScenarioOutcome {
  Scenario scenario;
  ScenarioRun run;

  const PlanResult& plan(const std::string& name) const {
    for (const auto& p : run.plans)
      if (p.name == name) return p;
    FAIL("no plan named \"" << name << "\" in scenario \"" << scenario.name << "\"");
    return run.plans.front();
  }
  const Comparison& comparison(const std::string& plan_name) const {
    for (const auto& c : run.comparisons)
      if (c.plan == plan_name) return c;
    FAIL("no comparison for plan \"" << plan_name << "\"");
    return run.comparisons.front();
  }
  const PriceBreakeven& price_breakeven(const std::string& plan_name) const {
    for (const auto& b : run.price_breakevens)
      if (b.plan == plan_name) return b;
    FAIL("no price breakeven for plan \"" << plan_name << "\"");
    return run.price_breakevens.front();
  }
  bool has_warning(const std::string& code, const std::string& where) const {
    for (const auto& w : run.warnings)
      if (w.code == code && w.where == where) return true;
    return false;
  }
  Json report() const { return report_json(scenario, run, RunMetadata{"run", 1}); }
};

// A fixture file under tests/fixtures/scenarios, loaded the way `tcosim run` loads it.
inline ScenarioOutcome run_fixture(const std::string& name) {
  ScenarioOutcome o{load_scenario(fixture_scenario(name)), {}};
  o.run = run_deterministic(o.scenario);
  return o;
}

// A scenario given as JSON (its catalog_dir must be absolute, as base_scenario_json's is).
inline ScenarioOutcome run_scenario_json(const Json& scenario) {
  ScenarioOutcome o{load_scenario_json(scenario, "test-scenario.json", source_path("tests")), {}};
  o.run = run_deterministic(o.scenario);
  return o;
}

// A fixture file as JSON, with its catalog_dir made absolute so that a test may change it and
// run it from memory.
inline Json fixture_json(const std::string& name) {
  std::ifstream in(fixture_scenario(name), std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read fixture " << name);
  Json doc = Json::parse(in);
  doc["catalog_dir"] = fixture_catalog_dir();
  return doc;
}

inline std::string write_json_file(const std::filesystem::path& path, const Json& doc) {
  std::ofstream(path, std::ios::binary) << doc.dump(2) << "\n";
  return path.string();
}

inline std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A plan's entry in a report's "plans" array.
inline const Json& report_plan(const Json& report, const std::string& name) {
  for (const auto& p : report.at("plans"))
    if (p.at("name") == name) return p;
  FAIL("no plan named \"" << name << "\" in the report");
  return report;
}

}  // namespace tco::test
