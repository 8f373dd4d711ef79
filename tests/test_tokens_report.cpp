// The token figures in every format of the report (docs/report.md `plans[].tokens`, "Tokens per
// plan"; docs/tokens.md §6): the JSON, the verdict naming unserved tokens, the Markdown, HTML and
// terminal section, tokens.csv, and the workbook's Tokens sheet whose $/M cells are formulas; a
// scenario without tokens has none of it.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// tests/fixtures/scenarios/tokens.json (864e6 tokens an hour, 1,312 GPUs) with a plan of 60
// owned nodes (480 GPUs) that does not burst: cheaper than renting, passed over for its unserved work.
std::string token_scenario(const std::filesystem::path& dir) {
  Json s = read_json_file(source_path("tests/fixtures/scenarios/tokens.json"));
  s["catalog_dir"] = source_path("tests/fixtures/catalog");
  s["plans"].push_back({{"name", "own-60"}, {"kind", "onprem"}, {"onprem_nodes", 60}});
  const auto path = dir / "tokens.json";
  std::ofstream(path) << s.dump(2);
  return path.string();
}

}  // namespace

TEST_CASE("tokens report: JSON, verdict, Markdown, HTML, terminal, CSV and the workbook's formulas") {
  const auto dir = scratch_dir("tokens_report");
  const CliResult r = run_cli({"run", token_scenario(dir), "--out", (dir / "r.json").string(), "--md",
                               (dir / "s.md").string(), "--html", (dir / "r.html").string(), "--csv",
                               (dir / "csv").string(), "--xlsx", (dir / "r.xlsx").string(), "--today",
                               "2026-01-05"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file((dir / "r.json").string());
  // cloud: 2,624 / 864 = $3.037 a million tokens (tests/test_plan_tokens.cpp).
  const Json& cloud = report.at("plans").at(0).at("tokens");
  CHECK(cloud.at("usd_per_million_tokens").at("reservation_basis").at("blended").get<double>() ==
        doctest::Approx(2624.0 / 864.0).epsilon(1e-12));
  CHECK(cloud.at("per_facility_mwh").is_null());
  // own-60 leaves 832 x 8,760 = 7,288,320 GPU-hours waiting: 864e6 x 8,760 x 832 / 1,312 =
  // 4,799,625,365,854 tokens unserved, which the passed-over plan's words name.
  const Json& own = report.at("plans").at(2).at("tokens");
  CHECK(own.at("unserved").get<double>() == doctest::Approx(864e6 * 8760.0 * 832.0 / 1312.0).epsilon(1e-9));
  REQUIRE(report.at("verdict").at("passed_over").is_object());
  CHECK(report.at("verdict").at("passed_over").at("unserved_tokens").get<double>() ==
        doctest::Approx(864e6 * 8760.0 * 832.0 / 1312.0).epsilon(1e-9));
  const std::string md = slurp(dir / "s.md");
  CHECK(md.find("**Tokens per plan**") != std::string::npos);
  CHECK(md.find("$3.037") != std::string::npos);
  CHECK(md.find("7,288,320 GPU-hours (4,799,625,365,854 tokens) of work unserved") != std::string::npos);
  CHECK(slurp(dir / "r.html").find("id=\"tokens\"") != std::string::npos);
  CHECK(r.out.find("Tokens per plan") != std::string::npos);
  const std::string csv = slurp(dir / "csv" / "tokens.csv");
  CHECK(csv.rfind("plan,tokens_demanded,tokens_served,tokens_unserved,input_tokens_served,", 0) == 0);
  CHECK(csv.find("\ncloud,7568640000000.0,7568640000000.0,0.0,") != std::string::npos);

  if (std::system("python3 -c 'import zipfile' > /dev/null 2>&1") != 0) {
    MESSAGE("skipped the schema and workbook checks: python3 is not installed");
    return;
  }
  // The report with its tokens validates against reports/report.schema.json.
  CHECK(std::system(("python3 " + source_path("tests/check_json_schema.py") + " " +
                     source_path("reports/report.schema.json") + " " + (dir / "r.json").string() + " > /dev/null")
                        .c_str()) == 0);
  // The Tokens sheet: row 2 is the cloud plan; $/M reservation (J2) = G2/C2*1000000 with the
  // cached 3.037..., the cost G2 a formula over the plan sheet's total, input K2 over the weight.
  const auto script = dir / "check.py";
  std::ofstream(script) << "import re, sys, zipfile\n"
                           "z = zipfile.ZipFile(sys.argv[1])\n"
                           "w = z.read('xl/workbook.xml').decode()\n"
                           "names = re.findall(r'<sheet name=\"([^\"]*)\"', w)\n"
                           "x = z.read('xl/worksheets/sheet%d.xml' % (names.index('Tokens') + 1)).decode()\n"
                           "ok = '<f>G2/C2*1000000</f><v>3.037037' in x and '<f>G2/(E2+I2*F2)*1000000</f>' in x\n"
                           "ok = ok and \"<f>'cloud'!$B$4</f>\" in x and '<f>I2*K2</f>' in x\n"
                           "sys.exit(0 if ok else 1)\n";
  CHECK(std::system(("python3 " + script.string() + " " + (dir / "r.xlsx").string()).c_str()) == 0);
}

TEST_CASE("tokens report: a scenario without tokens has no token figures, section or sheet") {
  const auto dir = scratch_dir("tokens_report_none");
  Json s = read_json_file(source_path("tests/fixtures/scenarios/tokens.json"));
  s["catalog_dir"] = source_path("tests/fixtures/catalog");
  s["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 1312}}}}};
  const auto path = dir / "gpus.json";
  std::ofstream(path) << s.dump(2);
  const CliResult r = run_cli({"run", path.string(), "--out", (dir / "r.json").string(), "--md",
                               (dir / "s.md").string(), "--csv", (dir / "csv").string(), "--today", "2026-01-05"});
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file((dir / "r.json").string());
  CHECK(!report.at("plans").at(0).contains("tokens"));
  CHECK(!report.at("verdict").contains("unserved_tokens"));
  CHECK(slurp(dir / "s.md").find("Tokens per plan") == std::string::npos);
  CHECK(!std::filesystem::exists(dir / "csv" / "tokens.csv"));
}

}  // namespace tco::test
