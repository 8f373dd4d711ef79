// Bad scenarios through the real command line (SPEC §2): each error class exits 2 from
// `tcosim run FILE --out OUT`, names where the error is (a JSON pointer, or a line and column
// for broken JSON), and leaves no report behind. Each test starts from the valid base scenario
// of tests/scenario_builder.hpp and changes one thing.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "scenario_builder.hpp"

using namespace tco;
using namespace tco::test;

namespace {

struct BadRun {
  CliResult cli;
  bool report_written = false;
};

BadRun run_scenario_text(const std::string& name, const std::string& text) {
  const auto dir = scratch_dir("bad-input-" + name);
  const auto scenario = dir / "scenario.json";
  const auto report = dir / "report.json";
  std::ofstream(scenario, std::ios::binary) << text;
  BadRun r;
  r.cli = run_cli({"run", scenario.string(), "--out", report.string(), "--quiet"});
  r.report_written = std::filesystem::exists(report);
  return r;
}

BadRun run_scenario(const std::string& name, const Json& doc) { return run_scenario_text(name, doc.dump(2)); }

// The checks every bad input shares: exit 2, no report, and the message names `where`.
void check_rejected(const BadRun& r, const std::string& where) {
  INFO("stderr: " << r.cli.err);
  CHECK(r.cli.exit_code == 2);
  CHECK_FALSE(r.report_written);
  CHECK(r.cli.err.find(where) != std::string::npos);
}

bool mentions(const BadRun& r, const std::string& text) { return r.cli.err.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("bad input: the valid base scenario runs and writes its report") {
  const auto dir = scratch_dir("bad-input-base");
  const std::string scenario = write_json_file(dir / "scenario.json", base_scenario_json());
  const CliResult r = run_cli({"run", scenario, "--out", (dir / "report.json").string(), "--quiet"});
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK(std::filesystem::exists(dir / "report.json"));
}

TEST_CASE("bad input: an unknown key (a typo) is an error naming its pointer") {
  Json doc = base_scenario_json();
  doc["onprem"].erase("maintenance_per_year");
  doc["onprem"]["maintenence_per_year"] = 0.06;
  const BadRun r = run_scenario("typo", doc);
  // The on-prem section reaches the plan through its merge patch, so the pointer may carry the
  // plan's prefix (/plans/1); the misspelt key must be named either way.
  check_rejected(r, "/onprem/maintenence_per_year");
  CHECK(mentions(r, "unknown key"));

  Json top = base_scenario_json();
  top["horizon_month"] = 12;
  check_rejected(run_scenario("typo-top", top), "/horizon_month");
}

TEST_CASE("bad input: a typo in a section no plan uses is still an error") {
  // SPEC §2: "A scenario key that the schema does not know is an error, not a silent default".
  Json doc = base_scenario_json();
  doc["onprem"]["maintenence_per_year"] = 0.06;
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  const BadRun r = run_scenario("typo-unused-section", doc);
  CHECK_MESSAGE(r.cli.exit_code == 2,
                "a misspelt key in the top-level \"onprem\" section is accepted silently when every plan is a "
                "cloud plan (the section is only parsed through a plan)");
  CHECK_FALSE(r.report_written);
  CHECK(mentions(r, "/onprem/maintenence_per_year"));
}

TEST_CASE("bad input: a value of the wrong type") {
  Json doc = base_scenario_json();
  doc["horizon_months"] = "12";
  const BadRun r = run_scenario("wrong-type", doc);
  check_rejected(r, "/horizon_months");
  CHECK(mentions(r, "found string \"12\""));
}

TEST_CASE("bad input: a missing required field") {
  Json doc = base_scenario_json();
  doc.erase("start");
  const BadRun r = run_scenario("missing", doc);
  check_rejected(r, "/start");
  CHECK(mentions(r, "required"));
}

TEST_CASE("bad input: an empty plan name is refused by run and by validate alike") {
  Json doc = base_scenario_json();
  doc["plans"][1]["name"] = "";
  const BadRun r = run_scenario("empty-plan-name", doc);
  check_rejected(r, "/plans/1/name");
  CHECK(mentions(r, "a plan name that is not empty"));
  const auto scenario = scratch_dir("bad-input-empty-plan-name-validate") / "scenario.json";
  std::ofstream(scenario, std::ios::binary) << doc.dump(2);
  const CliResult validated = run_cli({"validate", scenario.string()});
  CHECK(validated.exit_code == 2);
  CHECK((validated.out + validated.err).find("/plans/1/name") != std::string::npos);
}

TEST_CASE("bad input: a negative price in an override") {
  Json doc = base_scenario_json();
  doc["plans"][1]["onprem"] = {{"server", {{"id", "test-node-8"}, {"price_usd", -1}}}};
  const BadRun r = run_scenario("negative-price", doc);
  check_rejected(r, "/plans/1/onprem/server/price_usd");
  CHECK(mentions(r, "found number -1"));
}

// The plan's server object, without an id, replaces the scenario's catalog id whole in the merge:
// what it lacks is the plan's to add, not the scenario's ("/onprem/server/gpu_model" named a
// field of a section that is a valid id).
TEST_CASE("bad input: a plan's record that stands alone in the merge is blamed at the plan's pointer") {
  Json doc = base_scenario_json();
  REQUIRE(doc["onprem"]["server"].is_string());
  doc["plans"][1]["onprem"] = {{"server", {{"price_usd", 300000}}}};
  const BadRun r = run_scenario("standalone-record", doc);
  check_rejected(r, "/plans/1/onprem/server/gpu_model");
  // A field the plan's patch leaves to an object of the scenario's stays the scenario's.
  Json inline_base = base_scenario_json();
  inline_base["onprem"]["cooling"] = {{"id", "test-air"}, {"pue", 0.9}};
  inline_base["plans"][1]["onprem"] = {{"cooling", {{"rack_limit_kw", 40}}}};
  const BadRun base_blamed = run_scenario("merged-record", inline_base);
  check_rejected(base_blamed, "/onprem/cooling/pue");
}

TEST_CASE("bad input: a PUE below 1") {
  Json doc = base_scenario_json();
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"pue", 0.9}};
  const BadRun r = run_scenario("pue", doc);
  check_rejected(r, "/onprem/cooling/pue");
  CHECK(mentions(r, "0.9"));
}

TEST_CASE("bad input: idle power above peak power") {
  Json doc = base_scenario_json();
  doc["onprem"]["server"] = {{"id", "test-node-8"}, {"idle_kw", 12}};
  const BadRun r = run_scenario("idle-peak", doc);
  check_rejected(r, "/onprem/server/idle_kw");
  CHECK(mentions(r, "idle_kw <= peak_kw"));
}

TEST_CASE("bad input: a date that does not parse") {
  Json doc = base_scenario_json();
  doc["start"] = "2026-02-30";
  const BadRun r = run_scenario("date", doc);
  check_rejected(r, "/start");
  CHECK(mentions(r, "2026-02-30"));
}

TEST_CASE("bad input: a number too large for a double (1e999) is bad input, not an internal error") {
  // JSON has no NaN or Infinity; 1e999 overflows a double (nlohmann reports it as out_of_range 406).
  std::string text = base_scenario_json().dump(2);
  const std::string key = "\"discount_rate_per_year\": 0.0";
  REQUIRE(text.find(key) != std::string::npos);
  text.replace(text.find(key), key.size(), "\"discount_rate_per_year\": 1e999");
  const BadRun r = run_scenario_text("overflow", text);
  INFO("stderr: " << r.cli.err);
  CHECK(r.cli.exit_code == 2);
  CHECK_FALSE(r.report_written);
  CHECK(mentions(r, "1e999"));
  CHECK(mentions(r, "line "));
  CHECK(mentions(r, "column "));
}

TEST_CASE("bad input: invalid JSON syntax names the line and column") {
  // Line 1 "{", line 2 "  \"name\": \"x\",", line 3 "  }": the trailing comma is a syntax error
  // found at the "}" of line 3, column 3.
  const BadRun r = run_scenario_text("syntax", "{\n  \"name\": \"x\",\n  }\n");
  check_rejected(r, "line 3, column 3");
  CHECK(mentions(r, "invalid JSON"));
}

TEST_CASE("bad input: an unknown catalog id") {
  Json doc = base_scenario_json();
  doc["cloud"]["offer"] = "test/gpu8/nowhere";
  const BadRun r = run_scenario("catalog-id", doc);
  check_rejected(r, "/cloud/offer");
  CHECK(mentions(r, "test/gpu8/nowhere"));
}

// "" resolved to the scenario's own folder, and the scenario itself was read as a catalog file:
// "m0.json: /kind: expected a value", a message about a key the scenario never has.
TEST_CASE("bad input: an empty catalog_dir is refused at its pointer") {
  Json doc = base_scenario_json();
  doc["catalog_dir"] = "";
  const BadRun r = run_scenario("catalog-dir-empty", doc);
  check_rejected(r, "/catalog_dir");
  CHECK(mentions(r, "a folder of catalog files"));
}

TEST_CASE("bad input: a node that fits no rack names the cooling pointer") {
  Json doc = base_scenario_json();
  // The 10 kW test node in an 8 kW rack: floor(8 / 10) = 0 nodes a rack.
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 8}};
  const BadRun r = run_scenario("rack", doc);
  check_rejected(r, "/plans/1/onprem/cooling");
  CHECK(mentions(r, "10 kW node"));
}

TEST_CASE("bad input: a baseline that names no plan") {
  Json doc = base_scenario_json();
  doc["baseline"] = "nope";
  const BadRun r = run_scenario("baseline", doc);
  check_rejected(r, "/baseline");
  CHECK(mentions(r, "nope"));
}

TEST_CASE("bad input: two plans with the same name") {
  Json doc = base_scenario_json();
  doc["plans"][1]["name"] = "cloud";
  const BadRun r = run_scenario("duplicate", doc);
  check_rejected(r, "/plans/1/name");
  CHECK(mentions(r, "twice"));
}

TEST_CASE("bad input: spot_share on an offer without a spot price") {
  Json doc = base_scenario_json();
  // null removes the catalog's spot price in an override.
  doc["cloud"]["offer"] = {{"id", "test/gpu8/region-a"}, {"spot_usd_per_hour", nullptr}};
  doc["plans"][0]["spot_share"] = 0.5;
  const BadRun r = run_scenario("spot", doc);
  check_rejected(r, "/plans/0/spot_share");
  CHECK(mentions(r, "no spot price"));
}

TEST_CASE("bad input: a fraction that excludes 0 says so in its message (packing_efficiency 0)") {
  Json doc = base_scenario_json();
  doc["onprem"]["packing_efficiency"] = 0;
  const BadRun r = run_scenario("packing-zero", doc);
  check_rejected(r, "/onprem/packing_efficiency");
  CHECK(mentions(r, "a number in (0, 1]"));
}

TEST_CASE("bad input: a spot preemption rate above 10 per instance-hour (a job could never checkpoint)") {
  Json doc = base_scenario_json();
  doc["cloud"]["spot"] = {{"preemptions_per_instance_hour", 1e15}};
  const BadRun r = run_scenario("preemption-rate", doc);
  check_rejected(r, "/cloud/spot/preemptions_per_instance_hour");
  CHECK(mentions(r, "a number in [0, 10]"));
}
