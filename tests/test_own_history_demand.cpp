// `tcosim demand import --format prometheus|opencost`: the hand-written fixtures of
// tests/fixtures/own-history, gaps and their --fill, and malformed answers.
#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "models/importers/demand/demand_json_import.hpp"
#include "import_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco {

namespace {

// A one-series query_range answer with the given [seconds, "value"] pairs.
std::string matrix(const std::string& values) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[)" + values + "]}]}}";
}

}  // namespace

TEST_CASE("prometheus import: series summed per timestamp, each UTC hour the mean of its sums") {
  const auto dir = test::scratch_dir("prometheus-fixture");
  const std::string out = (dir / "demand.csv").string();
  const test::CliResult cli = test::run_cli({"demand", "import", "--format", "prometheus",
                                             test::source_path("tests/fixtures/own-history/prometheus.json"), "-o",
                                             out});
  REQUIRE(cli.exit_code == 0);
  // t0 = 1710039600 = 2024-03-10T03:00:00Z, step 1800 s. vision + nlp per timestamp:
  //   t0 4 + (none) = 4, t0+1800 4 + 2 = 6   -> hour 0 = (4 + 6) / 2 = 5
  //   t0+3600 8 + 2 = 10, t0+5400 8 + 6 = 14 -> hour 1 = 12
  //   t0+7200 8, t0+9000 4                   -> hour 2 = 6
  CHECK(test::read_text_file(out) == "# start: 2024-03-10T03:00:00+00:00 UTC\ntime_h,gpus\n0,5\n1,12\n2,6\n");
  CHECK(cli.out.find("read 6 samples") != std::string::npos);
  CHECK(cli.out.find("hour 0 is 2024-03-10T03:00:00+00:00 (UTC; written as the series' # start: line)") !=
        std::string::npos);
  // demand stats reads it back, start line included.
  const test::CliResult stats = test::run_cli({"demand", "stats", out});
  REQUIRE(stats.exit_code == 0);
  CHECK(stats.out.find("start      2024-03-10T03:00:00+00:00 UTC") != std::string::npos);
  CHECK(stats.out.find("hours      3") != std::string::npos);

  // --scale: a summed utilization of 150 % at 0.01 GPUs per percent is 1.5 GPUs.
  const std::string util = test::write_file(dir, "util.json", matrix(R"([1710039600,"150"])"));
  DemandImportOptions o;
  o.scale = 0.01;
  const HourlyDemand scaled = import_prometheus(util, o);
  REQUIRE(scaled.gpus_by_hour.size() == 1);
  CHECK(scaled.gpus_by_hour[0] == doctest::Approx(1.5).epsilon(1e-12));
}

TEST_CASE("prometheus import: an hour gap is an error naming it unless --fill zero|hold") {
  const auto dir = test::scratch_dir("prometheus-gap");
  const std::string out = (dir / "demand.csv").string();
  // 03:00Z 2 GPUs, 03:30Z 4, then nothing until 05:10Z 6: hour 1 (04:00Z) has no sample.
  const std::string gap = test::write_file(dir, "gap.json", matrix(R"([1710039600,"2"],[1710041400,"4"],[1710047400,"6"])"));
  const test::CliResult error = test::run_cli({"demand", "import", "--format", "prometheus", gap, "-o", out});
  CHECK(error.exit_code == 2);
  CHECK(error.err.find("gap.json: /data/result") != std::string::npos);
  CHECK(error.err.find("hour 1 (2024-03-10T04:00:00+00:00") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  const test::CliResult zero =
      test::run_cli({"demand", "import", "--format", "prometheus", gap, "-o", out, "--fill", "zero"});
  REQUIRE(zero.exit_code == 0);
  CHECK(test::read_text_file(out) == "# start: 2024-03-10T03:00:00+00:00 UTC\ntime_h,gpus\n0,3\n1,0\n2,6\n");  // hour 0 = (2 + 4) / 2
  CHECK(zero.out.find("filled 1 hours") != std::string::npos);
  const test::CliResult hold =
      test::run_cli({"demand", "import", "--format", "prometheus", gap, "-o", out, "--fill", "hold"});
  REQUIRE(hold.exit_code == 0);
  CHECK(test::read_text_file(out) == "# start: 2024-03-10T03:00:00+00:00 UTC\ntime_h,gpus\n0,3\n1,3\n2,6\n");
}

TEST_CASE("prometheus import: malformed answers exit 2 with the pointer or line, and write nothing") {
  const auto dir = test::scratch_dir("prometheus-bad");
  test::check_rejected("demand", "prometheus", "p.json", {
      {"truncated", R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[[1710039600,"2")",
       "line 1, column"},
      {"instant vector", R"({"status":"success","data":{"resultType":"vector","result":[]}})", "/data/resultType"},
      {"error status", R"({"status":"error","errorType":"bad_data"})", "/status"},
      {"step of two hours", matrix(R"([1710039600,"2"],[1710046800,"2"])"), "/data/result"},
      {"bad value", matrix(R"([1710039600,"2"],[1710041400,"NaN"])"), "/data/result/0/values/1/1"},
      {"milliseconds", matrix(R"([1710039600000,"2"])"), "/data/result/0/values/0/0"},
  }, dir);
}

TEST_CASE("opencost import: each window's gpuHours summed over one hour, __idle__ left out") {
  const auto dir = test::scratch_dir("opencost-fixture");
  const std::string out = (dir / "demand.csv").string();
  const test::CliResult cli = test::run_cli({"demand", "import", "--format", "opencost",
                                             test::source_path("tests/fixtures/own-history/opencost.json"), "-o",
                                             out});
  REQUIRE(cli.exit_code == 0);
  // 03:00Z 4 + 2 = 6; 04:00Z 4 + 1.5 = 5.5; 05:00Z 3 (the 5 idle GPU-hours are not demand).
  CHECK(test::read_text_file(out) == "# start: 2024-03-10T03:00:00+00:00 UTC\ntime_h,gpus\n0,6\n1,5.5\n2,3\n");
  CHECK(cli.out.find("hour 0 is 2024-03-10T03:00:00+00:00 (UTC;") != std::string::npos);

  const std::string window = R"({"a":{"window":{"start":"2024-03-10T03:00:00Z","end":"2024-03-10T04:00:00Z"},"gpuHours":1}})";
  const std::string day = R"({"a":{"window":{"start":"2024-03-10T00:00:00Z","end":"2024-03-11T00:00:00Z"},"gpuHours":24}})";
  const std::string late = R"({"a":{"window":{"start":"2024-03-10T05:00:00Z","end":"2024-03-10T06:00:00Z"},"gpuHours":1}})";
  test::check_rejected("demand", "opencost", "oc.json", {
      {"truncated", R"({"code":200,"data":[)" + window, "line 1, column"},
      {"step=1d", R"({"code":200,"data":[)" + day + "]}", "/data/0/a/window"},
      {"gpuHours a string", R"({"code":200,"data":[{"a":{"window":{"start":"2024-03-10T03:00:00Z","end":"2024-03-10T04:00:00Z"},"gpuHours":"1"}}]})",
       "/data/0/a/gpuHours"},
      {"bad time", R"({"code":200,"data":[{"a":{"window":{"start":"10/03/2024","end":"2024-03-10T04:00:00Z"},"gpuHours":1}}]})",
       "/data/0/a/window/start"},
      {"an hour gap", R"({"code":200,"data":[)" + window + ",{}," + late + "]}", "hour 1"},
  }, dir);
  // --scale belongs to prometheus.
  const std::string scaled = (dir / "scaled.csv").string();
  const test::CliResult scale = test::run_cli({"demand", "import", "--format", "opencost",
                                               test::source_path("tests/fixtures/own-history/opencost.json"), "-o",
                                               scaled, "--scale", "2"});
  CHECK(scale.exit_code == 2);
  CHECK(!std::filesystem::exists(scaled));
}

}  // namespace tco
