// CUDA parity of the sweep (SPEC §9): the same grid gives the same per-path NPVs on the CUDA
// backend as on the CPU backend, to 1e-9 relative, and the same best plans; the device-side
// means and standard errors agree with the host's. Exits 77 (CTest: skipped) when no CUDA device
// is visible. A plain program, not a doctest case, so that the skip code is its exit code.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/stats/statistics.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "models/scenario.hpp"
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

}  // namespace

int main() {
  std::string why;
  if (tco::sweep_cuda_devices(&why) == 0) {
    std::printf("skipped: %s\n", why.c_str());
    return 77;
  }
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
  const long paths = 300;
  const tco::SweepChunk chunk = tco::make_sweep_chunk(points);
  const tco::SweepPathValues cpu = tco::run_sweep_cpu(chunk, paths, 0);
  tco::SweepDeviceMoments moments;
  const tco::SweepPathValues gpu = tco::run_sweep_cuda(chunk, paths, &moments);

  int failures = 0;
  double worst = 0.0;
  double worst_moment = 0.0;
  for (const auto& pt : chunk.points) {
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
      worst_moment = std::max(worst_moment, relative(s.mean, moments.npv_mean_usd[slot]));
      worst_moment = std::max(worst_moment, std::fabs(s.stderr_ - moments.npv_stderr_usd[slot]) /
                                                std::max(1.0, s.stderr_));
      if (mean_cpu[j] < mean_cpu[best_cpu]) best_cpu = j;
      if (moments.npv_mean_usd[slot] < moments.npv_mean_usd[pt.first_plan + best_gpu]) best_gpu = j;
    }
    if (best_cpu != best_gpu) {
      std::printf("FAIL: best plan differs at a point: cpu %d, cuda %d\n", best_cpu, best_gpu);
      ++failures;
    }
  }
  std::printf("per-path NPV and total, CPU vs CUDA: largest relative difference %.3e (limit 1e-9)\n", worst);
  std::printf("device means and stderrs vs host: largest relative difference %.3e (limit 1e-9)\n", worst_moment);
  if (worst > 1e-9) ++failures;
  if (worst_moment > 1e-9) ++failures;
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
