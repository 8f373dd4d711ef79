// A saved report read back by `report`, `diff` and `regress` is an input: a money figure edited
// into null, "NaN" or a string, or a plan without its NPV, exits 2 naming the file and the
// pointer, and writes nothing (hardening issue: never a quiet "n/a" or "none" on a page).
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "reports/reader/report_reader.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

const std::string kBaseline = "tests/baselines/base-load-and-burst.json";

Json baseline_report() { return read_json_file(source_path(kBaseline)); }

std::string write_report(const std::filesystem::path& dir, const std::string& name, const Json& report) {
  const auto file = dir / name;
  std::ofstream(file, std::ios::binary) << report.dump(1);
  return file.string();
}

// The pointer check_report_figures blames, or "" when it accepts the report.
std::string blamed_pointer(const Json& report) {
  try {
    check_report_figures(report, "r.json");
  } catch (const InputError& e) {
    CHECK(e.file() == "r.json");
    return e.where();
  }
  return "";
}

}  // namespace

TEST_CASE("report reader: every shipped baseline is accepted") {
  for (const auto& entry : std::filesystem::directory_iterator(source_path("tests/baselines"))) {
    INFO(entry.path().string());
    CHECK_NOTHROW(read_report_file(entry.path().string()));
  }
  CHECK_NOTHROW(read_report_file(source_path("tests/fixtures/des/mc_small.report.json")));
}

TEST_CASE("report reader: null, NaN strings and missing headline figures are named by pointer") {
  Json r = baseline_report();
  r["plans"][1]["npv_usd"] = nullptr;
  CHECK(blamed_pointer(r) == "/plans/1/npv_usd");

  r = baseline_report();
  r["plans"][0].erase("npv_usd");
  CHECK(blamed_pointer(r) == "/plans/0/npv_usd");

  r = baseline_report();
  r["plans"][2]["total_nominal_usd"] = nullptr;
  CHECK(blamed_pointer(r) == "/plans/2/total_nominal_usd");

  r = baseline_report();
  r["comparisons"][2]["npv_saving_usd"] = "NaN";
  CHECK(blamed_pointer(r) == "/comparisons/2/npv_saving_usd");

  r = baseline_report();
  r["plans"][0]["breakdown_npv_usd"]["energy"] = "Infinity";
  CHECK(blamed_pointer(r) == "/plans/0/breakdown_npv_usd/energy");

  r = baseline_report();
  r["plans"][3]["usd_per_useful_gpu_hour"] = true;
  CHECK(blamed_pointer(r) == "/plans/3/usd_per_useful_gpu_hour");

  r = baseline_report();
  r["plans"] = Json::array();
  CHECK(blamed_pointer(r) == "/plans");

  // A null where the report means "none" (an IRR that does not exist) stays legal.
  r = baseline_report();
  r["comparisons"][0]["irr_per_year"] = nullptr;
  CHECK(blamed_pointer(r) == "");
}

TEST_CASE("report reader: report and diff exit 2 on a null NPV and write nothing") {
  const auto dir = scratch_dir("report-reader-cli");
  Json bad = baseline_report();
  bad["plans"][0]["npv_usd"] = nullptr;
  const std::string bad_file = write_report(dir, "bad.json", bad);
  const std::string good_file = write_report(dir, "good.json", baseline_report());
  const auto md = dir / "summary.md";

  const CliResult report = run_cli({"report", bad_file, "--md", md.string()});
  INFO("report stderr: " << report.err);
  CHECK(report.exit_code == 2);
  CHECK(report.err.find("bad.json: /plans/0/npv_usd") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(md));

  const CliResult diff = run_cli({"diff", good_file, bad_file});
  INFO("diff stderr: " << diff.err);
  CHECK(diff.exit_code == 2);
  CHECK(diff.err.find("bad.json: /plans/0/npv_usd") != std::string::npos);
}
