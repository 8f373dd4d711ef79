// Demand series importers on the real HeliosArtifact series (../shared/data, README §4),
// checked against the figures published with them, and the `tcosim demand` commands run
// in-process.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "cli/app.hpp"
#include "cli_test_support.hpp"
#include "models/workload/workload.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

std::vector<double> read_series(const std::string& path, const std::string& format) {
  SeriesProfile s;
  s.file = path;
  s.format = format;
  return read_hourly_series(s);
}

using tco::test::contains;
using tco::test::run_cli;

const std::string kVchbv = "helios-artifact-derived/Earth_vchbv_cluster_sequence_vc.csv";
const std::string kVc6ye = "helios-artifact-derived/Earth_vc6YE_cluster_sequence_vc.csv";
const std::string kPhilly = "helios-artifact-derived/philly_node_sequence.csv";

}  // namespace

TEST_CASE("demand import: Helios Earth VC series match the published means") {
  TCO_REQUIRE_SHARED_DATA();
  // 44,640 minutes = 31 days x 24 = 744 full hours of 60 minutes each, so the mean of the
  // hours equals the mean of the minutes. Published (README §4): vchbv mean running 26.3 and
  // pending 0.57, peak demand 138; the tolerance is their rounding, 0.05 + 0.005 GPUs.
  const std::vector<double> vchbv = read_series(tco::test::shared_data_path(kVchbv), "helios_vc");
  REQUIRE(vchbv.size() == 744);
  const double vchbv_mean = mean_of(vchbv);
  MESSAGE("vchbv mean demand (running + pending) = " << vchbv_mean << " GPUs");
  CHECK(vchbv_mean == doctest::Approx(26.3 + 0.57).epsilon(0.055 / 26.87));
  // An hourly mean cannot exceed the per-minute peak.
  CHECK(*std::max_element(vchbv.begin(), vchbv.end()) <= 138.0);

  // vc6YE: mean running 187.7 + pending 19.9 = 207.6, rounding 0.05 + 0.05 GPUs.
  const std::vector<double> vc6ye = read_series(tco::test::shared_data_path(kVc6ye), "helios_vc");
  REQUIRE(vc6ye.size() == 744);
  const double vc6ye_mean = mean_of(vc6ye);
  MESSAGE("vc6YE mean demand (running + pending) = " << vc6ye_mean << " GPUs");
  CHECK(vc6ye_mean == doctest::Approx(207.6).epsilon(0.1 / 207.6));
  CHECK(*std::max_element(vc6ye.begin(), vc6ye.end()) <= 365.0);
}

TEST_CASE("demand import: Philly node sequence matches the published mean") {
  TCO_REQUIRE_SHARED_DATA();
  const auto started = std::chrono::steady_clock::now();
  SeriesProfile s;
  s.file = tco::test::shared_data_path(kPhilly);
  s.format = "philly_nodes";
  s.gpus_per_node = 8;
  const std::vector<double> philly = read_hourly_series(s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE("read 105,644 Philly rows in " << seconds << " s");
  // 2017-10-03 00:00 to 2017-12-15 18:42: 73 days x 24 + 19 clock hours = 1771 hours.
  REQUIRE(philly.size() == 1771);
  // Published: mean active 313.0 nodes over the minutes -> 8 x 313.0 = 2504 GPUs. Tolerance:
  // the rounding (8 x 0.05 = 0.4 GPUs) plus hour weighting: the last hour has 43 minutes and
  // one 10-hour gap (2017-10-25 14:01 to 23:59) carries its last sample (317 nodes) through
  // 9 empty hours, which moves the mean of hours by about 0.1 GPUs. 1 GPU covers both.
  const double mean = mean_of(philly);
  MESSAGE("Philly mean demand = " << mean << " GPUs");
  CHECK(mean == doctest::Approx(2504.0).epsilon(1.0 / 2504.0));
  // The gap: day 22 (2017-10-25) at 15:00 is hour 22 x 24 + 15 = 543; it carries 317 x 8.
  CHECK(philly[543] == doctest::Approx(317.0 * 8).epsilon(1e-12));
  CHECK(philly[551] == doctest::Approx(317.0 * 8).epsilon(1e-12));
}

TEST_CASE("demand import: the CLI writes an hourly CSV that reads back identically") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = tco::test::scratch_dir("demand-import");
  const std::string in = tco::test::shared_data_path(kVchbv);
  const std::string out_csv = (dir / "vchbv_hourly.csv").string();

  const CliResult r = run_cli({"demand", "import", "--format", "helios_vc", in, "-o", out_csv});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "read 44640 rows"));
  CHECK(contains(r.out, "wrote 744 hours"));
  CHECK(contains(r.out, "mean 26.8"));
  // Shortest round-trip printing: reading the hourly CSV gives the very same doubles.
  CHECK(read_series(out_csv, "csv") == read_series(in, "helios_vc"));
  // --out is every command's spelling; -o and --output, the older ones, write the same file.
  for (const char* spelling : {"--out", "--output"}) {
    const std::string again = (dir / (std::string("again") + spelling + ".csv")).string();
    CHECK(run_cli({"demand", "import", "--format", "helios_vc", in, spelling, again}).exit_code == 0);
    CHECK(tco::test::read_text_file(again) == tco::test::read_text_file(out_csv));
  }
  CHECK(!std::filesystem::exists(out_csv + ".tmp"));

  const CliResult stats = run_cli({"demand", "stats", out_csv});
  INFO(stats.err);
  REQUIRE(stats.exit_code == 0);
  CHECK(contains(stats.out, "hours      744\n"));

  const std::string philly_csv = (dir / "philly_hourly.csv").string();
  const CliResult p = run_cli({"demand", "import", "--format", "philly_nodes", "--gpus-per-node", "8",
                               tco::test::shared_data_path(kPhilly), "-o", philly_csv});
  INFO(p.err);
  REQUIRE(p.exit_code == 0);
  CHECK(contains(p.out, "read 105644 rows"));
  CHECK(contains(p.out, "wrote 1771 hours"));
}

TEST_CASE("demand import: CLI statistics and usage errors on small files") {
  const auto dir = tco::test::scratch_dir("demand-cli");
  const std::string series = (dir / "s.csv").string();
  std::ofstream(series) << "time_h,gpus\n0,1\n1,2\n2,3\n3,4\n";
  // Hours 1, 2, 3, 4: mean 2.5; P50 at position 0.5 x 3 = 1.5 -> 2.5; P95 at 0.95 x 3 = 2.85
  // -> 3 + 0.85 x (4 - 3) = 3.85; peak 4; GPU-hours 1 + 2 + 3 + 4 = 10.
  const CliResult stats = run_cli({"demand", "stats", series, "--format", "csv"});
  INFO(stats.err);
  REQUIRE(stats.exit_code == 0);
  CHECK(contains(stats.out, "hours      4\n"));
  CHECK(contains(stats.out, "mean_gpus  2.500\n"));
  CHECK(contains(stats.out, "p50_gpus   2.500\n"));
  CHECK(contains(stats.out, "p95_gpus   3.850\n"));
  CHECK(contains(stats.out, "peak_gpus  4.000\n"));
  CHECK(contains(stats.out, "gpu_hours  10.000\n"));

  // A malformed row: exit 2, the file, line and column named, and no output file left behind.
  const std::string bad = (dir / "bad.csv").string();
  std::ofstream(bad) << "time,running_gpu_num,pending_gpu_num\n2020-05-01 00:00:00,3,0\n"
                        "2020-05-01 00:01:00,three,0\n";
  const std::string out_csv = (dir / "out.csv").string();
  const CliResult r = run_cli({"demand", "import", "--format", "helios_vc", bad, "-o", out_csv});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, bad + ": line 3, column 2: expected a number (running_gpu_num), found \"three\""));
  CHECK(!std::filesystem::exists(out_csv));

  // --gpus-per-node means nothing for helios_vc; a missing -o or a wrong format is a usage error.
  CHECK(run_cli({"demand", "import", "--format", "helios_vc", "--gpus-per-node", "8", bad, "-o", out_csv})
            .exit_code == 2);
  CHECK(run_cli({"demand", "import", "--format", "helios_vc", bad}).exit_code == 2);
  CHECK(run_cli({"demand", "import", "--format", "csv", series, "-o", out_csv}).exit_code == 2);
  CHECK(run_cli({"demand", "stats", (dir / "none.csv").string()}).exit_code == 2);
  CHECK(run_cli({"demand"}).exit_code == 2);

  const CliResult help = run_cli({"demand", "import", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(contains(help.out, "--gpus-per-node"));
}
