// Cost of base-load sizing (docs/performance.md, "Optimize (issue 4)"): tcosim optimize over
// N = 0..64 nodes with 1,000 paths each on scenarios/base-load-and-burst.json (its first hybrid
// plan, buy-4-burst, against cloud-on-demand), with uncertainty switched on in code: demand growth
// sigma 0.1, spot availability 0.95 and 0.02 preemptions per instance-hour, spot price sigma 0.2,
// power price sigma 0.15, AFR 0.05 per year. Timed against 65 independent runs, one per N, each
// sizing a single N with its own seed (so each evaluates its own baseline, as a separate `run` of
// the comparison would). Besides the wall time, the variance of the curve's differences
// NPV(N*+1) - NPV(N*) with common random numbers against independent runs says how many more
// paths independent runs would need for the same precision.
//   bench_optimize [--paths N] [--to N] [--threads N] [--independent yes|no]
// Run it from the repository root of a Release build: build/bench/bench_optimize.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "core/memory/freed_memory_reuse.hpp"
#include "core/io/json_reader.hpp"
#include "engine/decisions/sizing.hpp"

namespace {

using tco::Json;

Json bench_scenario() {
  Json doc = tco::read_json_file("scenarios/base-load-and-burst.json");
  doc["monte_carlo"] = {{"paths", 1000}, {"seed", 4}, {"demand_growth_sigma_per_year", 0.1}};
  doc["cloud"]["spot"] = {{"availability", 0.95}, {"preemptions_per_instance_hour", 0.02}, {"price_sigma", 0.2}};
  doc["onprem"]["power"]["monthly_price_sigma"] = 0.15;
  doc["onprem"]["failures"] = {{"afr_per_year", 0.05}, {"repair_h", 48}};
  return doc;
}

template <typename F>
double seconds_of(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();  // as tcosim does (cli/main.cpp)
  long paths = 1000;
  long to = 64;
  int threads = 0;
  bool independent = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--paths")) paths = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--to")) to = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--independent")) independent = !std::strcmp(argv[i + 1], "yes");
    else {
      std::fprintf(stderr, "usage: bench_optimize [--paths N] [--to N] [--threads N] [--independent yes|no]\n");
      return 2;
    }
  }
  const Json doc = bench_scenario();
  tco::SizingOptions o;
  o.nodes = {0, to, 1};
  o.paths = paths;
  o.threads = threads;
  fmt::print("bench_optimize: base-load-and-burst (36 months), N = 0..{}, {} paths, {} threads ({} hardware)\n", to,
             paths, threads, std::thread::hardware_concurrency());

  tco::SizingResult crn;
  const double crn_s = seconds_of([&] { crn = tco::optimize_sizing(doc, "scenarios/base-load-and-burst.json", "scenarios", "", o); });
  const auto& best = crn.best_for("mean");
  fmt::print("optimize (common random numbers): {:.2f} s for {} points; best N (mean) = {}, NPV {:.0f} USD\n", crn_s,
             crn.points.size(), crn.points[best.point].nodes, best.value_usd);

  // The precision argument: the difference between N* and a neighbour, paired on common random
  // numbers, against the difference of two independent estimates (their variances add).
  const std::size_t a = best.point, b = best.point + 1 < crn.points.size() ? best.point + 1 : best.point - 1;
  const double se_paired = crn.points[b].minus_best_mean_usd.stderr_;
  const double se_a = crn.points[a].npv_usd.stderr_, se_b = crn.points[b].npv_usd.stderr_;
  const double se_independent = std::sqrt(se_a * se_a + se_b * se_b);
  const double paths_factor = se_paired > 0.0 ? (se_independent / se_paired) * (se_independent / se_paired) : INFINITY;
  fmt::print("NPV(N={}) - NPV(N={}): {:.0f} USD; stderr paired {:.0f} USD, independent {:.0f} USD: independent runs "
             "need {:.1f}x the paths for the same precision\n",
             crn.points[b].nodes, crn.points[a].nodes, crn.points[b].minus_best_mean_usd.mean, se_paired, se_independent,
             paths_factor);

  if (independent) {
    double total_s = 0.0;
    for (long n = 0; n <= to; ++n) {
      tco::SizingOptions one = o;
      one.nodes = {n, n, 1};
      one.seed = 1000 + static_cast<std::uint64_t>(n);
      total_s += seconds_of([&] { tco::optimize_sizing(doc, "scenarios/base-load-and-burst.json", "scenarios", "", one); });
    }
    fmt::print("{} independent runs (one N each, own seed and baseline): {:.2f} s; ratio {:.2f}x\n", to + 1, total_s,
               total_s / crn_s);
  }
  return 0;
}
