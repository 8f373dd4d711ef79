// The CUDA parity probe's decision (engine/sweep/sweep_parity_probe.hpp, docs/sweep.md "Parity
// probe"), tested without a device: the device is a pair of functions, replaced here by the CPU
// backend with one figure moved. auto falls back to the CPU naming the first differing input;
// cuda stops with DeviceError (exit 3); a device within 1e-9 relative passes.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "core/error.hpp"

#include "engine/decisions/sizing.hpp"
#include "engine/sweep/sweep_parity_probe.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "cli_test_support.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// The probe's input index of `input` (the grid's order).
int probe_index(const std::string& input) {
  const auto cases = parity_probe_cases();
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (cases[i].input == input) return static_cast<int>(i);
  FAIL("no probe input " << input);
  return -1;
}

// A device that is the CPU backend with the NPV of (point, plan 1, path 3) scaled by 1 + each
// factor's relative change.
SweepDevice moved_device(std::vector<std::pair<int, double>> moves, int* evaluations = nullptr) {
  return {[](std::string*) { return 1; },
          [moves, evaluations](const SweepChunk& chunk, long paths) {
            if (evaluations) ++*evaluations;
            SweepPathValues v = run_sweep_cpu(chunk, paths, 1);
            for (const auto& [point, change] : moves) v.npv_usd[v.index(chunk.points[point], 3, 1)] *= 1.0 + change;
            return v;
          }};
}

SweepDevice no_device() {
  return {[](std::string* why) {
            if (why) *why = "no CUDA device is visible (test)";
            return 0;
          },
          [](const SweepChunk&, long) -> SweepPathValues { throw std::logic_error("no device to evaluate on"); }};
}

}  // namespace

TEST_CASE("parity probe: its grid has one point per kernel input, 416 figures on 8 paths") {
  const auto cases = parity_probe_cases();
  REQUIRE(cases.size() == 13);
  CHECK(cases[0].input == "spot (capacity, preemptions, price shocks)");
  CHECK(cases[5].input == "venues with a savings plan");
  CHECK(cases[12].input == "time shifting");
  // The CPU as its own device: every figure equal. 13 points x 2 plans x 8 paths x (NPV, total) = 416.
  const ParityProbeResult r = run_parity_probe(fixture_catalog_dir(), moved_device({}), 2);
  CHECK(r.passed);
  CHECK(r.inputs == 13);
  CHECK(r.figures == 416);
  CHECK(r.largest_relative_difference == 0.0);
  CHECK(r.first_differing_input.empty());
  CHECK(r.seconds > 0.0);
}

TEST_CASE("parity probe: the first figure past 1e-9 relative names its input, within it passes") {
  const std::string catalog = fixture_catalog_dir();
  const int carbon = probe_index("carbon price");
  const int shifting = probe_index("time shifting");
  // 2e-9 at the carbon point and at time shifting after it: carbon is the first.
  const ParityProbeResult r = run_parity_probe(catalog, moved_device({{shifting, 2e-9}, {carbon, 2e-9}}), 1);
  CHECK_FALSE(r.passed);
  CHECK(r.first_differing_input == "carbon price");
  CHECK(r.detail.find(fmt::format("point {}, plan 1, path 3: NPV", carbon)) == 0);
  CHECK(r.largest_relative_difference == doctest::Approx(2e-9).epsilon(1e-3));
  CHECK(parity_probe_words(r).find("failed at \"carbon price\": point ") == 0);
  const Json j = parity_probe_json(r);
  CHECK(j.at("result") == "failed");
  CHECK(j.at("first_differing_input") == "carbon price");
  CHECK(j.at("tolerance_relative") == 1e-9);
  // 5e-10 is within the tolerance (the device's exp/log may differ in the last bits).
  const ParityProbeResult close = run_parity_probe(catalog, moved_device({{carbon, 5e-10}}), 1);
  CHECK(close.passed);
  CHECK(close.largest_relative_difference == doctest::Approx(5e-10).epsilon(1e-3));
  CHECK_FALSE(parity_probe_json(close).contains("first_differing_input"));
  // A NaN differs, though NaN > 1e-9 is false.
  const ParityProbeResult nan =
      run_parity_probe(catalog, moved_device({{0, std::numeric_limits<double>::quiet_NaN()}}), 1);
  CHECK_FALSE(nan.passed);
  CHECK(nan.first_differing_input == "spot (capacity, preemptions, price shocks)");
  CHECK_FALSE(parity_probe_json(nan).contains("largest_relative_difference"));
}

TEST_CASE("parity probe: auto falls back to the CPU, cuda stops with DeviceError, cpu never probes") {
  const std::string catalog = fixture_catalog_dir();
  const int regimes = probe_index("price process (two regimes)");
  int evaluations = 0;
  const SweepDevice differs = moved_device({{regimes, 1e-6}}, &evaluations);

  const SweepBackendChoice cpu = choose_sweep_backend(SweepBackend::cpu, differs, catalog, 1);
  CHECK(cpu.backend == SweepBackend::cpu);
  CHECK_FALSE(cpu.probe.has_value());
  CHECK(evaluations == 0);

  const SweepBackendChoice fallback = choose_sweep_backend(SweepBackend::automatic, differs, catalog, 1);
  CHECK(fallback.backend == SweepBackend::cpu);
  REQUIRE(fallback.probe.has_value());
  CHECK(fallback.probe->first_differing_input == "price process (two regimes)");
  CHECK(evaluations == 1);
  CHECK(parity_probe_console(*fallback.probe, "sweep")
            .find("sweep: warning: the CUDA device failed its parity probe (docs/sweep.md), failed at \"price "
                  "process (two regimes)\"") == 0);

  try {
    choose_sweep_backend(SweepBackend::cuda, differs, catalog, 1);
    FAIL("expected DeviceError");
  } catch (const DeviceError& e) {
    CHECK(std::string(e.what()).find("--backend cuda: the device differs from the CPU on the parity probe") == 0);
    CHECK(std::string(e.what()).find("\"price process (two regimes)\"") != std::string::npos);
  }

  const SweepBackendChoice agrees = choose_sweep_backend(SweepBackend::automatic, moved_device({}), catalog, 1);
  CHECK(agrees.backend == SweepBackend::cuda);
  REQUIRE(agrees.probe.has_value());
  CHECK(agrees.probe->passed);

  // No device: auto is the CPU without a probe; cuda is bad input (exit 2), as before.
  const SweepBackendChoice none = choose_sweep_backend(SweepBackend::automatic, no_device(), catalog, 1);
  CHECK(none.backend == SweepBackend::cpu);
  CHECK_FALSE(none.probe.has_value());
  CHECK_THROWS_AS(choose_sweep_backend(SweepBackend::cuda, no_device(), catalog, 1), InputError);

  // A device that throws fails the probe: auto runs on the CPU and says why.
  const SweepDevice broken = {[](std::string*) { return 1; },
                              [](const SweepChunk&, long) -> SweepPathValues { throw ModelError("launch failed"); }};
  const SweepBackendChoice after_error = choose_sweep_backend(SweepBackend::automatic, broken, catalog, 1);
  CHECK(after_error.backend == SweepBackend::cpu);
  CHECK(after_error.probe->detail == "the device failed: launch failed");
}

TEST_CASE("parity probe: a sweep and an optimize on a differing device run on the CPU, the same bytes") {
  const auto dir = std::filesystem::temp_directory_path() / "tcosim-parity-probe";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  SweepOptions o;
  o.scenario_file = source_path("tests/fixtures/sweep/rich.json");
  o.grid_file = source_path("tests/fixtures/sweep/grid.json");
  o.catalog_dir = fixture_catalog_dir();
  o.paths = 4;
  o.threads = 1;
  o.backend = SweepBackend::cpu;
  o.out = (dir / "cpu.json").string();
  const SweepRunSummary on_cpu = run_sweep(o);
  CHECK_FALSE(on_cpu.probe.has_value());
  o.backend = SweepBackend::automatic;
  o.device = moved_device({{probe_index("savings plan"), 1e-7}});
  o.out = (dir / "auto.json").string();
  const SweepRunSummary fallback = run_sweep(o);
  CHECK(fallback.backend == SweepBackend::cpu);
  REQUIRE(fallback.probe.has_value());
  CHECK(fallback.probe->first_differing_input == "savings plan");
  CHECK(sweep_text(fallback.document) == sweep_text(on_cpu.document));
  o.backend = SweepBackend::cuda;
  o.out = (dir / "cuda.json").string();
  CHECK_THROWS_AS(run_sweep(o), DeviceError);
  CHECK_FALSE(std::filesystem::exists(dir / "cuda.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "cuda.json.parts"));

  SizingOptions s;
  s.nodes = {1, 2, 1};
  s.paths = 4;
  s.threads = 1;
  s.backend = SweepBackend::automatic;
  s.device = moved_device({{probe_index("take-or-pay"), 1e-7}});
  const Json doc = Json::parse(std::ifstream(o.scenario_file));
  const SizingResult r =
      optimize_sizing(doc, o.scenario_file, source_path("tests/fixtures/sweep"), fixture_catalog_dir(), s);
  CHECK(r.backend == SweepBackend::cpu);
  REQUIRE(r.backend_probe.has_value());
  CHECK(r.backend_probe->first_differing_input == "take-or-pay");
  std::filesystem::remove_all(dir);
}

TEST_CASE("parity probe: on the command line, auto says why on stderr and in optimize's run block, cuda exits 3") {
  // engine/sweep/sweep_parity_probe.cpp's test hook: a device that differs at the carbon price.
  struct DifferingDevice {
    DifferingDevice() { setenv("TCO_TEST_DEVICE_DIFFERS_AT", "carbon price", 1); }
    ~DifferingDevice() { unsetenv("TCO_TEST_DEVICE_DIFFERS_AT"); }
  } differing;
  const auto dir = std::filesystem::temp_directory_path() / "tcosim-parity-probe-cli";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string scenario = source_path("tests/fixtures/sweep/rich.json");
  const std::string grid = source_path("tests/fixtures/sweep/grid.json");
  const auto sweep = [&](const char* backend, const std::string& out) {
    return run_cli({"sweep", scenario, "--grid", grid, "--paths", "3", "--threads", "1", "--backend", backend, "--out",
                    (dir / out).string(), "--quiet"});
  };
  const CliResult on_cpu = sweep("cpu", "cpu.json");
  REQUIRE(on_cpu.exit_code == 0);
  CHECK(on_cpu.err.empty());
  const CliResult fallback = sweep("auto", "auto.json");
  REQUIRE(fallback.exit_code == 0);
  // Said even with --quiet: point 8 is the carbon price, plan 1, path 0.
  CHECK(fallback.err.find("sweep: warning: the CUDA device failed its parity probe (docs/sweep.md), failed at \"carbon "
                          "price\": point 8, plan 1, path 0: NPV on the CPU ") == 0);
  CHECK(fallback.err.find("(relative difference 1e-06, limit 1e-09)") != std::string::npos);
  CHECK(fallback.err.find("; running on the CPU\n") != std::string::npos);
  CHECK(read_text_file(dir / "auto.json") == read_text_file(dir / "cpu.json"));
  const CliResult stopped = sweep("cuda", "cuda.json");
  CHECK(stopped.exit_code == 3);
  CHECK(stopped.err.find("tcosim: error: --backend cuda: the device differs from the CPU on the parity probe "
                         "(docs/sweep.md), failed at \"carbon price\"") == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "cuda.json"));

  const std::string report = (dir / "optimize.json").string();
  const CliResult optimized = run_cli({"optimize", scenario, "--nodes", "1:2", "--paths", "3", "--threads", "1",
                                       "--out", report, "--quiet"});
  REQUIRE(optimized.exit_code == 0);
  CHECK(optimized.err.find("optimize: warning: the CUDA device failed its parity probe") == 0);
  const Json run = Json::parse(read_text_file(report)).at("run");
  CHECK(run.at("backend") == "cpu");
  const Json& probe = run.at("parity_probe");
  CHECK(probe.at("result") == "failed");
  CHECK(probe.at("first_differing_input") == "carbon price");
  CHECK(probe.at("inputs") == 13);
  CHECK(probe.at("figures") == 416);
  CHECK(probe.at("largest_relative_difference").get<double>() == doctest::Approx(1e-6).epsilon(1e-6));
  CHECK(probe.at("seconds").get<double>() > 0.0);
  CHECK(run_cli({"optimize", scenario, "--nodes", "1:2", "--paths", "3", "--backend", "cuda", "--out",
                 (dir / "cuda-optimize.json").string(), "--quiet"})
            .exit_code == 3);
  std::filesystem::remove_all(dir);
}

}  // namespace tco::test
