// `validate FILE` checks that file, and accepts exactly what `run` accepts (issue #42 item 8):
// a catalog file alone (or, with --catalog DIR, as one more file of that catalog), a scenario
// with --catalog in place of its catalog_dir as `run --catalog` reads it. Before: `validate
// one.json` loaded its whole folder, so two importer outputs in one folder gave a duplicate-id
// error per shared id, and validate had no --catalog.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

namespace fs = std::filesystem;

// An importer's output: the AWS p5 offer in three regions (3 ids).
Json imported_offers() {
  Json records = Json::array();
  for (const char* region : {"us-east-1", "us-east-2", "us-west-2"})
    records.push_back({{"id", std::string("aws/p5.48xlarge/") + region},
                       {"provider", "aws"},
                       {"instance_type", "p5.48xlarge"},
                       {"region", region},
                       {"gpu_model", "h100"},
                       {"gpus_per_instance", 8},
                       {"on_demand_usd_per_hour", 98.32},
                       {"source", "an importer's output"},
                       {"as_of", "2026-01-01"}});
  return {{"kind", "cloud_offer"}, {"records", records}};
}

int count_of(const std::string& text, const std::string& code) {
  int n = 0;
  for (std::size_t at = text.find(code); at != std::string::npos; at = text.find(code, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("validate one file: two importer outputs in one folder, each file checked on its own") {
  const fs::path dir = scratch_dir("validate-two-imports");
  const std::string a = write_json_file(dir / "a.json", imported_offers());
  write_json_file(dir / "b.json", imported_offers());
  // a.json alone: 3 records, no finding. Before: 3 duplicate-id errors against b.json.
  const CliResult one = run_cli({"validate", a});
  INFO(one.out);
  CHECK(one.exit_code == 0);
  CHECK(one.out == "0 errors, 0 warnings\n");
  // The folder is one catalog, as `run --catalog DIR` would load it: b.json's 3 ids repeat a.json's.
  const CliResult folder = run_cli({"validate", dir.string()});
  CHECK(folder.exit_code == 2);
  CHECK(count_of(folder.out, "[duplicate-id]") == 3);
  // a.json as one more file of a catalog that holds b.json: the 3 duplicates are a.json's own.
  const fs::path other = scratch_dir("validate-two-imports-catalog");
  write_json_file(other / "b.json", imported_offers());
  const CliResult added = run_cli({"validate", a, "--catalog", other.string()});
  CHECK(added.exit_code == 2);
  CHECK(count_of(added.out, "[duplicate-id]") == 3);
  CHECK(count_of(added.out, "error: " + a + ": /records/") == 3);
  // A file inside the --catalog folder is not a duplicate of itself.
  const fs::path self = scratch_dir("validate-two-imports-self");
  const std::string c = write_json_file(self / "c.json", imported_offers());
  CHECK(run_cli({"validate", c, "--catalog", self.string()}).exit_code == 0);
}

TEST_CASE("validate one file: --catalog as run has it, and validate's verdict is run's") {
  const fs::path dir = scratch_dir("validate-catalog-option");
  fs::create_directories(dir / "scenarios");
  Json doc = base_scenario_json();
  doc["catalog_dir"] = (dir / "no-catalog-here").string();
  const std::string scenario = write_json_file(dir / "scenarios" / "scenario.json", doc);
  const std::string report = (dir / "r.json").string();
  // Without --catalog the scenario's own catalog_dir is missing: both refuse it.
  const CliResult v1 = run_cli({"validate", scenario});
  const CliResult r1 = run_cli({"run", scenario, "--out", report, "-q"});
  CHECK(v1.exit_code == 2);
  CHECK(r1.exit_code == 2);
  // With --catalog the fixture catalog: both accept it.
  const CliResult v2 = run_cli({"validate", scenario, "--catalog", fixture_catalog_dir()});
  const CliResult r2 = run_cli({"run", scenario, "--out", report, "--catalog", fixture_catalog_dir(), "-q"});
  INFO(v2.out << r2.err);
  CHECK(v2.exit_code == 0);
  CHECK(r2.exit_code == 0);
  // A folder of scenarios takes --catalog too; a --catalog that is not a folder is refused.
  CHECK(run_cli({"validate", (dir / "scenarios").string()}).exit_code == 2);
  CHECK(run_cli({"validate", (dir / "scenarios").string(), "--catalog", fixture_catalog_dir()}).exit_code == 0);
  const CliResult bad = run_cli({"validate", scenario, "--catalog", (dir / "nowhere").string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--catalog expects a catalog folder") != std::string::npos);
}

}  // namespace tco::test
