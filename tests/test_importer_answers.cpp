// Importers and readers (issue 43, item 5): a Prometheus sample given twice, an OpenCost error
// answer, an empty catalog file, a report without its inputs, and the `# start:` line checked
// strictly, each exit 2 naming its pointer or line.
#include <filesystem>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "import_test_support.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/workload/trace_start.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco {

namespace {

using tco::test::contains;

// What require_trace_start_line says is wrong with `line` (its message up to the reminder of the
// layout), or "" when it reads.
std::string start_problem(const std::string& line, TraceStart& start) {
  try {
    start = require_trace_start_line("t.csv", line);
    return "";
  } catch (const InputError& e) {
    CHECK(e.where() == "line 1, column 1");
    return e.message().substr(0, e.message().find(" (the start line is"));
  }
}

std::string matrix(const std::string& series) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[)" + series + "]}}";
}

}  // namespace

TEST_CASE("prometheus import: a sample given twice is refused at its position, not added to itself") {
  const auto dir = test::scratch_dir("prometheus-repeat");
  test::check_rejected("demand", "prometheus", "p.json", {
      // The second [1710039600, "4"] of one series: /data/result/0/values/1.
      {"same series, same timestamp", matrix(R"({"metric":{"namespace":"vision"},"values":[[1710039600,"4"],[1710039600,"4"]]})"),
       "/data/result/0/values/1"},
      // The same labels in two entries of result are one series.
      {"one series in two entries",
       matrix(R"({"metric":{"namespace":"vision"},"values":[[1710039600,"4"]]},)"
              R"({"metric":{"namespace":"vision"},"values":[[1710041400,"4"],[1710039600,"4"]]})"),
       "/data/result/1/values/1"},
  }, dir);
  const test::CliResult r = test::run_cli(
      {"demand", "import", "--format", "prometheus",
       test::write_file(dir, "p.json", matrix(R"({"metric":{"namespace":"vision"},"values":[[1710039600,"4"],[1710039600,"4"]]})")),
       "-o", (dir / "o.csv").string()});
  CHECK(contains(r.err, "/data/result/0/values/1: the sample at 1710039600 s of the series {\"namespace\":\"vision\"} is "
                        "given twice (first at /data/result/0/values/0)"));
  // Two series at the same timestamp are summed, as before: 4 + 2 = 6 GPUs in that hour.
  const std::string two = test::write_file(
      dir, "two.json",
      matrix(R"({"metric":{"namespace":"vision"},"values":[[1710039600,"4"]]},{"metric":{"namespace":"nlp"},"values":[[1710039600,"2"]]})"));
  const std::string out = (dir / "two.csv").string();
  REQUIRE(test::run_cli({"demand", "import", "--format", "prometheus", two, "-o", out}).exit_code == 0);
  CHECK(contains(test::read_text_file(out), "\n0,6\n"));
}

TEST_CASE("opencost import: an error answer (code 500, or a status other than success) is refused, saying so") {
  const auto dir = test::scratch_dir("opencost-error");
  const std::string window =
      R"({"a":{"window":{"start":"2024-03-10T03:00:00Z","end":"2024-03-10T04:00:00Z"},"gpuHours":4}})";
  test::check_rejected("demand", "opencost", "o.json", {
      {"code 500", R"({"code":500,"message":"internal error","data":[)" + window + "]}", "/code"},
      {"code 500 without data", R"({"code":500,"message":"boom"})", "/code"},
      {"status error", R"({"code":200,"status":"error","data":[)" + window + "]}", "/status"},
  }, dir);
  const test::CliResult r = test::run_cli({"demand", "import", "--format", "opencost",
                                           test::write_file(dir, "o.json", R"({"code":500,"message":"boom","data":[]})"),
                                           "-o", (dir / "o.csv").string()});
  CHECK(contains(r.err, "o.json: /code: expected 200 (a successful answer), found number 500: OpenCost answered with an "
                        "error, string \"boom\""));
  // A successful answer still imports: 4 GPU-hours in one hour.
  const std::string good = test::write_file(dir, "good.json", R"({"code":200,"status":"success","data":[)" + window + "]}");
  const std::string out = (dir / "good.csv").string();
  const test::CliResult ok = test::run_cli({"demand", "import", "--format", "opencost", good, "-o", out});
  REQUIRE_MESSAGE(ok.exit_code == 0, ok.err);
  CHECK(contains(test::read_text_file(out), "\n0,4\n"));
}

TEST_CASE("report: a report without its inputs is exit 2 naming /inputs, not an internal error") {
  const auto dir = test::scratch_dir("report-no-inputs");
  const std::string full = (dir / "full.json").string();
  REQUIRE(test::run_cli({"run", test::source_path("tests/fixtures/scenarios/simple.json"), "--out", full, "--quiet"})
              .exit_code == 0);
  Json report = Json::parse(test::read_text_file(full));
  const std::size_t plans = report.at("plans").size();
  report.erase("inputs");
  const std::string no_inputs = test::write_json_file(dir / "no-inputs.json", report);
  for (const char* format : {"--md", "--html"}) {
    const test::CliResult r = test::run_cli({"report", no_inputs, format, (dir / "out").string()});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, no_inputs + ": /inputs: expected the inputs the report was computed from"));
  }
  report["inputs"] = Json{{"plans", Json::array()}};
  const std::string no_plans = test::write_json_file(dir / "no-plans.json", report);
  const test::CliResult r = test::run_cli({"report", no_plans, "--md", (dir / "out.md").string()});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, fmt::format("/inputs/plans: expected the inputs of the report's {} plans (an array of {}), "
                                    "found an array of 0",
                                    plans, plans)));
}

TEST_CASE("report: a monthly row longer or shorter than its columns is exit 2 at its pointer, not an internal error") {
  // The fuzzers' finding (session 32): a row of 29 cells under 28 columns read past the column
  // names (std::out_of_range, exit 3).
  const auto dir = test::scratch_dir("report-monthly-row");
  const std::string full = (dir / "full.json").string();
  REQUIRE(test::run_cli({"run", test::source_path("tests/fixtures/scenarios/simple.json"), "--out", full, "--quiet"})
              .exit_code == 0);
  Json report = Json::parse(test::read_text_file(full));
  Json& rows = report.at("plans").at(0).at("monthly").at("rows");
  const std::size_t columns = report.at("plans").at(0).at("monthly").at("columns").size();
  rows[0].push_back(1.0);
  const std::string long_row = test::write_json_file(dir / "long-row.json", report);
  test::CliResult r = test::run_cli({"report", long_row, "--md", (dir / "long.md").string()});
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(contains(r.err, long_row + ": /plans/0/monthly/columns: not a complete tcosim report"), r.err);
  CHECK_MESSAGE(contains(r.err, fmt::format("array index {} is out of range", columns)), r.err);
  CHECK_FALSE(std::filesystem::exists(dir / "long.md"));
  rows[0].erase(rows[0].size() - 1);
  rows[1].erase(rows[1].size() - 1);
  const std::string short_row = test::write_json_file(dir / "short-row.json", report);
  r = test::run_cli({"report", short_row, "--md", (dir / "short.md").string()});
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(contains(r.err, short_row + ": /plans/0/monthly/rows/1: not a complete tcosim report"), r.err);
  CHECK_FALSE(std::filesystem::exists(dir / "short.md"));
}

TEST_CASE("trace start line: the date, time, offset and zone are checked strictly, with the line") {
  TraceStart start;
  // 2024-03-09 22:00 in New York is EST, -05:00: 2024-03-10 03:00 UTC.
  CHECK(start_problem("# start: 2024-03-09T22:00:00-05:00 America/New_York", start) == "");
  CHECK(start.utc_s == 1710039600);
  CHECK(start_problem("# start: 2024-01-01T00:00:00Z UTC", start) == "");
  CHECK(start_problem("# start: 2024-01-01T00:00:00+00:00 UTC", start) == "");

  // 03:00 -05:00 is 08:00 UTC, after the spring-forward change (07:00 UTC): New York says 04:00 -04:00.
  CHECK(start_problem("# start: 2024-03-10T03:00:00-05:00 America/New_York", start) ==
        "the time 2024-03-10T03:00:00-05:00 is not a wall time of America/New_York (there it is "
        "2024-03-10T04:00:00-04:00)");
  CHECK(contains(start_problem("# start: 2024-03-09T22:00:00+-5:00 America/New_York", start),
                 "expected the time as YYYY-MM-DDTHH:MM:SS+HH:MM"));
  CHECK(contains(start_problem("# start: 2024-02-30T00:00:00Z UTC", start), "expected the time as"));
  CHECK(contains(start_problem("# start: 2024-03-09T22:00:00-0500 America/New_York", start),
                 "expected the time as"));
  CHECK(contains(start_problem("# start: 2024-03-09T22:00:00.5-05:00 America/New_York", start),
                 "expected the time as"));
  CHECK(start_problem("# start: 1999-12-31T23:00:00Z UTC", start) ==
        "expected a time between 2000 and 2099, found \"1999-12-31T23:00:00Z\"");
  CHECK(start_problem("# start: 2024-03-09T22:00:00-05:00 Mars/Olympus_Mons", start) ==
        "expected an IANA time zone (such as America/New_York or UTC), found \"Mars/Olympus_Mons\"");
  CHECK(start_problem("# start: 2024-03-09T22:00:00-05:00", start) ==
        "expected a time and a zone separated by one space");
  CHECK(start_problem("# start: 2024-03-09T22:00:00-05:00  America/New_York", start) ==
        "expected a time and a zone separated by one space");

  // The trace reader and `trace stats`: exit 2 at line 1, the line quoted.
  const auto dir = test::scratch_dir("trace-start-strict");
  const std::string trace = test::write_file(
      dir, "t.csv", "# start: 2024-03-10T03:00:00-05:00 America/New_York\nsubmit_h,gpus,duration_h\n0,1,1\n");
  CHECK_THROWS_WITH_AS(read_trace(trace), doctest::Contains("line 1, column 1: the time 2024-03-10T03:00:00-05:00"),
                       InputError);
  const test::CliResult r = test::run_cli({"trace", "stats", trace});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "in \"# start: 2024-03-10T03:00:00-05:00 America/New_York\""));
}

}  // namespace tco

namespace tco {

TEST_CASE("catalog: an empty records array or an empty record is exit 2 naming the file and pointer") {
  const auto dir = test::scratch_dir("catalog-empty-records");
  const std::filesystem::path catalog = dir / "catalog";
  std::filesystem::copy(test::fixture_catalog_dir(), catalog);
  const std::string scenario = test::write_json_file(dir / "s.json", [&] {
    Json doc = Json::parse(test::read_text_file(test::source_path("tests/fixtures/scenarios/simple.json")));
    doc["catalog_dir"] = catalog.string();
    return doc;
  }());
  const std::string extra = (catalog / "zz_extra.json").string();
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case c : {Case{R"({"kind": "server", "records": []})",
                            ": /records: expected at least one server record, found an empty array"},
                       Case{R"({"kind": "gpu", "records": [{}]})",
                            ": /records/0: expected a record object with its id and fields, found an empty object"}}) {
    CAPTURE(c.text);
    test::write_file(catalog, "zz_extra.json", c.text);
    const test::CliResult run = test::run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--quiet"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, extra + c.message));
    const test::CliResult validate = test::run_cli({"validate", catalog.string()});
    CHECK(validate.exit_code == 2);
    CHECK(contains(validate.out, extra + c.message));
  }
}

}  // namespace tco
