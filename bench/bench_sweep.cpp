// Throughput of the sweep's hot loop (docs/performance.md, "Sweep (issue 5)"): path-hours per
// second = points x paths x hours / seconds of the backend alone (the host's preparation of the
// points is timed apart), and the peak resident memory. A 3-year scenario (26,280 hours) with
// three plans (cloud with spot and reserved capacity, hybrid, on-prem), on the round-number test
// catalog, in two variants: every random input on, and all off (the deterministic inputs).
// Two grids: `nodes` sweeps the hybrid plan's node count (2, 3, ...), so the other two plans are
// alike at every point and the CPU backend evaluates them once per path (SweepChunk::same_as);
// `waiting` sweeps the waiting cost (1, 1.1, ... USD per GPU-hour), which every plan books, so
// no plan repeats and every point x plan is evaluated.
// `--workload tokens` gives the same demand as a token workload (issue 46): 2-GPU replicas of
// 1.08M tokens an hour, about the GPUs of the GPU profiles, so both kernels also return each
// path's tokens served.
//   bench_sweep [--points N] [--paths N] [--threads N] [--catalog DIR] [--backend cpu|cuda|both]
//               [--variant on|off|both] [--grid nodes|waiting] [--workload gpus|tokens]
// Run it from the repository root of a Release build: build/bench/bench_sweep.
#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/memory/freed_memory_reuse.hpp"
#include "process_usage.hpp"
#include "core/parallel_for_index.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "models/scenario.hpp"

using tco::bench::peak_rss_mib;

namespace {

using tco::Json;

Json bench_scenario(const std::string& catalog_dir, bool random, const std::string& grid, long point,
                    bool tokens) {
  Json doc = Json::parse(R"({
    "name": "bench-sweep-3y",
    "start": "2026-01-05",
    "horizon_months": 36,
    "discount_rate_per_year": 0.08,
    "waiting_usd_per_gpu_hour": 1.0,
    "workload": {"profiles": [
      {"type": "steady", "gpus": 40, "diurnal_amplitude": 0.3, "weekend_factor": 0.7},
      {"type": "campaigns", "gpus": 32, "every_days": 60, "duration_days": 10, "first_day": 5}],
      "growth_per_year": 0.1},
    "monte_carlo": {"paths": 1, "seed": 1, "demand_growth_sigma_per_year": 0.1},
    "cloud": {"offer": "test/gpu8/region-a", "price_change_per_year": -0.1, "spot_overhead_factor": 1.1,
              "egress_gb_per_gpu_hour": 2.0, "egress_usd_per_gb": 0.05,
              "spot": {"availability": 0.9, "preemptions_per_instance_hour": 0.05, "price_sigma": 0.2}},
    "onprem": {
      "server": "test-node-8", "maintenance_per_year": 0.06,
      "power": {"tariff": {"type": "flat", "usd_per_kwh": 0.1}, "g_co2_per_kwh": 400, "escalation_per_year": 0.03,
                "demand_charge_usd_per_kw_month": 10.0, "monthly_price_sigma": 0.15},
      "cooling": {"id": "test-air", "pue_model": "ambient", "pue": null, "pue_min": 1.15, "pue_slope_per_c": 0.02,
                  "free_cooling_c": 12},
      "ambient": {"mean_c": 16, "seasonal_amp_c": 10, "diurnal_amp_c": 5, "noise_sigma_c": 2.0,
                  "throttle_above_c": 30, "throttle_fraction": 0.2},
      "failures": {"afr_per_year": 0.1, "afr_growth_per_year": 0.2, "repair_h": 48},
      "colocation": "test-colo"},
    "plans": [
      {"name": "cloud", "kind": "cloud", "spot_share": 0.5, "reserved_instances": 2},
      {"name": "hybrid", "kind": "hybrid", "onprem_nodes": 4, "spot_share": 0.3},
      {"name": "onprem", "kind": "onprem", "onprem_nodes": 10}],
    "baseline": "cloud"})");
  doc["catalog_dir"] = catalog_dir;
  if (tokens) {
    // 40 GPUs x 1.08M / 2 tokens an hour = 21.6M: 1.875 requests/s of 3,200 tokens, with the
    // GPU profile's diurnal swing, weekends and growth (no campaigns).
    doc["workload"] = Json::parse(R"({"tokens": {
      "requests_per_second": {"profiles": [{"type": "steady", "requests_per_second": 1.875,
                                            "diurnal_amplitude": 0.3, "weekend_factor": 0.7}],
                              "growth_per_year": 0.1},
      "input_tokens_per_request": 2800, "output_tokens_per_request": 400,
      "slo": {"min_interactivity_tokens_per_s_per_user": 40},
      "serving_profile": {"gpu_model": "ref-gpu", "model": "m", "precision": "fp8", "framework": "vllm",
        "gpus_per_replica": 2, "input_tokens_per_request": 1024, "output_tokens_per_request": 1024,
        "points": [{"concurrency": 16, "tokens_per_s_per_gpu": 100, "median_tpot_ms": 20},
                   {"concurrency": 32, "tokens_per_s_per_gpu": 150, "median_tpot_ms": 25}],
        "source": "bench", "as_of": "2026-01-01"}}})");
  }
  if (grid == "nodes") doc["plans"][1]["onprem_nodes"] = 2 + point;
  if (grid == "waiting") doc["waiting_usd_per_gpu_hour"] = 1.0 + 0.1 * static_cast<double>(point);
  if (!random) {
    doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.0;
    doc["cloud"]["spot"]["availability"] = 1.0;
    doc["cloud"]["spot"]["preemptions_per_instance_hour"] = 0.0;
    doc["cloud"]["spot"]["price_sigma"] = 0.0;
    doc["onprem"]["power"]["monthly_price_sigma"] = 0.0;
    doc["onprem"]["ambient"]["noise_sigma_c"] = 0.0;
    doc["onprem"]["failures"]["afr_per_year"] = 0.0;
  }
  return doc;
}

template <typename F>
double seconds_of(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();  // as tcosim does (cli/main.cpp)
  long points = 8;
  long paths = 256;
  int threads = 0;
  std::string catalog = "tests/fixtures/catalog";
  std::string backend = "both";
  std::string variant = "both";
  std::string grid = "nodes";
  std::string workload = "gpus";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--points") points = std::atol(value.c_str());
    else if (key == "--paths") paths = std::atol(value.c_str());
    else if (key == "--threads") threads = std::atoi(value.c_str());
    else if (key == "--catalog") catalog = value;
    else if (key == "--backend") backend = value;
    else if (key == "--variant") variant = value;
    else if (key == "--grid") grid = value;
    else if (key == "--workload") workload = value;
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  if (workload != "gpus" && workload != "tokens") {
    std::fprintf(stderr, "--workload is gpus or tokens, not %s\n", workload.c_str());
    return 2;
  }
  if (grid != "nodes" && grid != "waiting") {
    std::fprintf(stderr, "--grid is nodes or waiting, not %s\n", grid.c_str());
    return 2;
  }
  const bool cuda = backend != "cpu" && tco::sweep_cuda_devices() > 0;
  const bool cpu = backend != "cuda";
  fmt::print("bench_sweep: {} points x {} paths x 26,280 hours, 3 plans, grid {}, workload {}; threads {} (0 = all)\n",
             points, paths, grid, workload, threads);
  for (const bool random : {true, false}) {
    if ((random && variant == "off") || (!random && variant == "on")) continue;
    std::vector<tco::SweepPoint> prepared(points);
    tco::SweepChunk chunk;
    // On every host core, as `tcosim sweep` prepares its points (engine/sweep/sweep_run.cpp).
    const double prepare_s = seconds_of([&] {
      tco::parallel_for_index(points, threads, [&](long i) {
        const tco::Scenario s =
            tco::load_scenario_json(bench_scenario(catalog, random, grid, i, workload == "tokens"), "bench.json", ".");
        prepared[i] = tco::prepare_sweep_point(s, 1);
      });
      chunk = tco::make_sweep_chunk(prepared);
    });
    const double path_hours = static_cast<double>(points) * paths * static_cast<double>(chunk.points[0].hours);
    const char* variant = random ? "every random input on" : "random inputs off";
    long evaluated = 0;
    for (int twin : chunk.same_as) evaluated += twin < 0 ? 1 : 0;
    fmt::print("  {:<22} {} of {} point x plan evaluations per path (the others repeat an earlier one)\n", variant,
               evaluated, chunk.same_as.size());
    fmt::print("  {:<22} host preparation {:.3f} s ({:.1f} ms per point)\n", variant, prepare_s,
               1e3 * prepare_s / points);
    if (cpu) {
      tco::run_sweep_cpu(chunk, std::min<long>(paths, 8), threads);  // warm-up
      const double cpu0 = process_cpu_seconds();
      const double s = seconds_of([&] { tco::run_sweep_cpu(chunk, paths, threads); });
      const double cpu_s = process_cpu_seconds() - cpu0;
      // On a shared machine the wall clock includes other people's work; CPU seconds do not
      // (per core: what one core does when it is not shared).
      fmt::print("  {:<22} cpu : {:.3f} s wall, {:.3e} path-hours/s; {:.3f} CPU-s, {:.3e} path-hours per CPU-s\n",
                 variant, s, path_hours / s, cpu_s, path_hours / cpu_s);
    }
    if (cuda) {
      tco::SweepDeviceMoments moments;
      tco::run_sweep_cuda(chunk, std::min<long>(paths, 8), &moments);  // warm-up (context, module load)
      const double s = seconds_of([&] { tco::run_sweep_cuda(chunk, paths, &moments); });
      fmt::print("  {:<22} cuda: {:.3f} s, {:.3e} path-hours/s (transfers included); with the host's preparation "
                 "{:.3f} s\n",
                 variant, s, path_hours / s, s + prepare_s);
    }
  }
  if (backend != "cpu" && !cuda) fmt::print("  cuda: no device visible (or built without CUDA): not measured\n");
  fmt::print("peak RSS {:.1f} MiB\n", peak_rss_mib());
  return 0;
}
