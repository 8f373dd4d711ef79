// CUDA parity of the sweep (SPEC §9): the same grid gives the same per-path NPVs on the CUDA
// backend as on the CPU backend, to 1e-9 relative, and the same best plans; the device-side
// means and standard errors agree with the host's. Three grids: the rich fixture with every
// random input on (3 node counts x 3 power prices), the shipped sweep
// (scenarios/sweeps/hybrid-uncertain, 20 points), and spot at availability 0.5 with overhead
// 1.12 and no other random input, whose mean must be the deterministic (expected-value) NPV
// within 4 standard errors on both backends. Exits 77 (CTest: skipped) when no CUDA device is
// visible. A plain program, not a doctest case, so that the skip code is its exit code.
// Then the parity grids, one per kernel input (tests/sweep_parity_grids.hpp: price schedules and
// processes, carbon, each commitment kind, venues with a savings plan, time shifting, failures,
// spot), each on both backends to 1e-9 relative, and the built-in parity probe that
// `--backend auto` runs before it trusts the device (engine/sweep/sweep_parity_probe.hpp).
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/io/integer_fields.hpp"
#include "core/stats/statistics.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_grid.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "models/scenario.hpp"
#include "tests/sweep_parity_grids.hpp"
#include "tests/sweep_random_inputs.hpp"

namespace {

using tco::Json;

// tests/fixtures/sweep/rich.json with every random input on.
Json random_scenario() {
  const std::string dir = std::string(TCO_SOURCE_DIR) + "/tests/fixtures";
  std::ifstream in(dir + "/sweep/rich.json", std::ios::binary);
  Json doc = Json::parse(in);
  doc["catalog_dir"] = dir + "/catalog";
  tco::test::switch_on_random_inputs(doc);
  return doc;
}

double relative(double a, double b) { return std::fabs(a - b) / std::max(1.0, std::max(std::fabs(a), std::fabs(b))); }

// Runs the chunk on both backends and compares; returns the number of failed checks.
int check_parity(const char* name, const tco::SweepChunk& chunk, const std::vector<tco::SweepPoint>& points,
                 long paths, bool expect_deterministic_means) {
  const tco::SweepPathValues cpu = tco::run_sweep_cpu(chunk, paths, 0);
  tco::SweepDeviceMoments moments;
  const tco::SweepPathValues gpu = tco::run_sweep_cuda(chunk, paths, &moments);
  int failures = 0;
  double worst = 0.0;
  double worst_moment = 0.0;
  double worst_z = 0.0;
  for (std::size_t p = 0; p < chunk.points.size(); ++p) {
    const tco::SweepPointHeader& pt = chunk.points[p];
    int best_cpu = 0, best_gpu = 0;
    std::vector<double> mean_cpu(pt.plan_count);
    for (int j = 0; j < pt.plan_count; ++j) {
      std::vector<double> values(paths);
      for (long k = 0; k < paths; ++k) {
        const double c = cpu.npv_usd[cpu.index(pt, k, j)];
        const double g = gpu.npv_usd[gpu.index(pt, k, j)];
        worst = std::max(worst, relative(c, g));
        worst = std::max(worst, relative(cpu.total_usd[cpu.index(pt, k, j)], gpu.total_usd[gpu.index(pt, k, j)]));
        values[k] = c;
      }
      const tco::Summary s = tco::summarize(values);
      mean_cpu[j] = s.mean;
      const int slot = pt.first_plan + j;
      // A constant figure on the device is its value with a standard error of exactly 0 (issue 42).
      bool gpu_constant = true;
      for (long k = 1; k < paths; ++k)
        gpu_constant = gpu_constant && gpu.npv_usd[gpu.index(pt, k, j)] == gpu.npv_usd[gpu.index(pt, 0, j)];
      if (gpu_constant && (moments.npv_mean_usd[slot] != gpu.npv_usd[gpu.index(pt, 0, j)] ||
                           moments.npv_stderr_usd[slot] != 0.0)) {
        std::printf("FAIL: %s: a constant NPV at point %zu plan %d: device mean %.17g, stderr %.3e\n", name, p, j,
                    moments.npv_mean_usd[slot], moments.npv_stderr_usd[slot]);
        ++failures;
      }
      worst_moment = std::max(worst_moment, relative(s.mean, moments.npv_mean_usd[slot]));
      worst_moment = std::max(worst_moment, std::fabs(s.stderr_ - moments.npv_stderr_usd[slot]) /
                                                std::max(1.0, s.stderr_));
      if (expect_deterministic_means) {
        const double deterministic = points[p].deterministic_npv_usd[j];
        const double se = std::max(moments.npv_stderr_usd[slot], 1e-9 * std::fabs(deterministic));
        worst_z = std::max(worst_z, std::fabs(moments.npv_mean_usd[slot] - deterministic) / se);
      }
      if (mean_cpu[j] < mean_cpu[best_cpu]) best_cpu = j;
      if (moments.npv_mean_usd[slot] < moments.npv_mean_usd[pt.first_plan + best_gpu]) best_gpu = j;
    }
    if (best_cpu != best_gpu) {
      std::printf("FAIL: %s: best plan differs at point %zu: cpu %d, cuda %d\n", name, p, best_cpu, best_gpu);
      ++failures;
    }
  }
  std::printf("%s: %zu points x %ld paths\n", name, chunk.points.size(), paths);
  std::printf("  per-path NPV and total, CPU vs CUDA: largest relative difference %.3e (limit 1e-9)\n", worst);
  std::printf("  device means and stderrs vs host: largest relative difference %.3e (limit 1e-9)\n", worst_moment);
  if (worst > 1e-9) ++failures;
  if (worst_moment > 1e-9) ++failures;
  if (expect_deterministic_means) {
    std::printf("  device means vs the deterministic NPVs: largest |difference| / stderr %.2f (limit 4)\n", worst_z);
    if (worst_z > 4.0) ++failures;
  }
  return failures;
}

std::vector<tco::SweepPoint> shipped_sweep_points() {
  const std::string scenario_file = std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps/hybrid-uncertain.json";
  std::ifstream in(scenario_file, std::ios::binary);
  const Json scenario = Json::parse(in);
  std::set<std::string> integer_pointers;
  {
    tco::IntegerFieldRecorder integer_fields(scenario_file);
    tco::load_scenario_json(scenario, scenario_file, std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps");
    integer_pointers = integer_fields.pointers();
  }
  const tco::SweepGrid grid = tco::read_sweep_grid(
      std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps/hybrid-uncertain.grid.json", scenario, scenario_file,
      integer_pointers);
  std::vector<tco::SweepPoint> points;
  for (long i = 0; i < grid.points(); ++i) {
    const Json doc = tco::grid_point_document(grid, scenario, i);
    const tco::Scenario s =
        tco::load_scenario_json(doc, scenario_file, std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps");
    points.push_back(tco::prepare_sweep_point(s, scenario.at("monte_carlo").value("seed", 1)));
  }
  return points;
}

// The whole `tcosim sweep` of the shipped grid in blocks of 3 points (7 blocks: the host
// prepares block b + 1 while the device runs block b) against the CPU backend: every number of
// the two sweep documents (point values, deterministic NPVs, means, stderrs, quantiles) within
// 1e-9 relative. Returns the number of failed checks.
int check_pipelined_sweep() {
  const auto dir = std::filesystem::temp_directory_path() / "tcosim-cuda-pipelined";
  std::filesystem::create_directories(dir);
  tco::SweepOptions o;
  o.scenario_file = std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps/hybrid-uncertain.json";
  o.grid_file = std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps/hybrid-uncertain.grid.json";
  o.paths = 200;
  o.block_points = 3;
  o.backend = tco::SweepBackend::cpu;
  o.out = (dir / "cpu.json").string();
  const Json cpu = tco::run_sweep(o).document;
  o.backend = tco::SweepBackend::cuda;
  o.out = (dir / "cuda.json").string();
  const Json gpu = tco::run_sweep(o).document;
  double worst = 0.0;
  int failures = 0;
  const Json flat_cpu = cpu.at("points").flatten(), flat_gpu = gpu.at("points").flatten();
  for (const auto& item : flat_cpu.items()) {
    if (!flat_gpu.contains(item.key())) {
      std::printf("FAIL: pipelined sweep: %s missing from the CUDA document\n", item.key().c_str());
      ++failures;
      continue;
    }
    const Json& g = flat_gpu.at(item.key());
    if (item.value().is_number() && g.is_number())
      worst = std::max(worst, relative(item.value().get<double>(), g.get<double>()));
    else if (item.value() != g) {
      std::printf("FAIL: pipelined sweep: %s differs: cpu %s, cuda %s\n", item.key().c_str(),
                  item.value().dump().c_str(), g.dump().c_str());
      ++failures;
    }
  }
  std::printf("whole sweep in blocks of 3 points (host preparing the next block during the kernel): %zu figures\n",
              flat_cpu.size());
  std::printf("  CPU vs CUDA documents: largest relative difference %.3e (limit 1e-9)\n", worst);
  if (worst > 1e-9) ++failures;
  std::filesystem::remove_all(dir);
  return failures;
}

}  // namespace

int main() {
  std::string why;
  if (tco::sweep_cuda_devices(&why) == 0) {
    std::printf("skipped: %s\n", why.c_str());
    return 77;
  }
  int failures = 0;
  {
    // A grid of 3 node counts x 3 power prices, as tests/fixtures/sweep/grid.json.
    std::vector<tco::SweepPoint> points;
    for (int nodes : {1, 2, 3}) {
      for (double price : {0.08, 0.10, 0.12}) {
        Json doc = random_scenario();
        doc["plans"][1]["onprem_nodes"] = nodes;
        doc["onprem"]["power"]["tariff"]["usd_per_kwh"] = price;
        const tco::Scenario s = tco::load_scenario_json(doc, "cuda-parity.json", TCO_SOURCE_DIR);
        points.push_back(tco::prepare_sweep_point(s, 7));
      }
    }
    failures += check_parity("every random input on", tco::make_sweep_chunk(points), points, 300, false);
  }
  {
    const std::vector<tco::SweepPoint> points = shipped_sweep_points();
    failures += check_parity("scenarios/sweeps/hybrid-uncertain", tco::make_sweep_chunk(points), points, 200, false);
  }
  {
    // Spot availability 0.5 and overhead 1.12 alone: linear in both, so each plan's mean is its
    // deterministic NPV (docs/model.md §3).
    std::vector<tco::SweepPoint> points;
    for (double share : {0.3, 0.6, 1.0}) {
      Json doc = random_scenario();
      doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.0;
      doc["cloud"]["spot"]["availability"] = 0.5;
      doc["cloud"]["spot"]["preemptions_per_instance_hour"] = 0.0;
      doc["cloud"]["spot"]["price_sigma"] = 0.0;
      doc["cloud"]["spot_overhead_factor"] = 1.12;
      doc["onprem"]["power"]["monthly_price_sigma"] = 0.0;
      doc["onprem"]["ambient"]["noise_sigma_c"] = 0.0;
      doc["onprem"]["failures"]["afr_per_year"] = 0.0;
      doc["plans"][0]["spot_share"] = share;
      doc["plans"][1]["spot_share"] = share;
      const tco::Scenario s = tco::load_scenario_json(doc, "cuda-spot.json", TCO_SOURCE_DIR);
      points.push_back(tco::prepare_sweep_point(s, 11));
    }
    failures += check_parity("spot at availability 0.5, overhead 1.12", tco::make_sweep_chunk(points), points, 2000,
                             true);
  }
  {
    // Venues (docs/model.md §3b) with every random input on: a neocloud capped at 16 GPUs with a
    // quarter-hour start at availability 0.3, 0.6 and 1, then the hyperscaler (the per-hour draws
    // and the instances carried from hour to hour run in the device's loop).
    std::vector<tco::SweepPoint> points;
    for (double availability : {0.3, 0.6, 1.0}) {
      Json doc = random_scenario();
      const Json venues = Json::array(
          {{{"name", "neocloud"},
            {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", 10.0}}},
            {"availability", availability},
            {"quota_gpus", 16},
            {"provisioning_delay_h", 0.25}},
           {{"name", "hyperscaler"}, {"offer", "test/gpu8/region-a"}}});
      for (int j : {0, 1}) {
        doc["plans"][j]["spot_share"] = 0.0;
        doc["plans"][j]["venues"] = venues;
      }
      const tco::Scenario s = tco::load_scenario_json(doc, "cuda-venues.json", TCO_SOURCE_DIR);
      points.push_back(tco::prepare_sweep_point(s, 13));
    }
    failures += check_parity("venues", tco::make_sweep_chunk(points), points, 300, false);
  }
  failures += check_pipelined_sweep();
  const std::string catalog = std::string(TCO_SOURCE_DIR) + "/tests/fixtures/catalog";
  for (const tco::test::ParityGrid& g : tco::test::parity_grids(catalog))
    failures += check_parity(("parity grid: " + g.input).c_str(), g.chunk, g.points, tco::test::kParityGridPaths,
                             false);
  {
    const tco::ParityProbeResult probe = tco::run_parity_probe(catalog, tco::cuda_sweep_device(), 0);
    std::printf("the parity probe on this device: %s\n", tco::parity_probe_words(probe).c_str());
    if (!probe.passed) ++failures;
  }
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
