// Speed and memory of the discrete-event replay (docs/performance.md, "Discrete-event replay
// (issue 3)"). Three measurements:
//   1. events per second per thread: the openb trace (../shared/data, read in place) tiled to
//      36 months, every plan of scenarios/openb-h100-hybrid.json, one thread, the job stream
//      generated once per path (as the Monte Carlo does) and timed apart;
//   2. the wall time of 1,000 paths of scenarios/startup-monte-carlo.json with 2 threads
//      (run_monte_carlo, everything included but loading the scenario; its 6 plans run in 4
//      event loops, since plans of one pool group share one);
//   3. streaming: a generated 10-million-job trace file (larger than the in-memory limit, so
//      it streams from the file) replayed through one hybrid plan, with the peak resident memory.
//   bench_des [--paths N] [--threads N] [--mc-paths N] [--stream-jobs N] [--skip 1,2,3] [--scenario FILE]
// --scenario replaces the openb scenario of measurement 1 (per-plan rates of any DES scenario).
// Run it from the repository root of a Release build: build/bench/bench_des.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/memory/freed_memory_reuse.hpp"
#include "process_usage.hpp"
#include "engine/des/batch_draws.hpp"
#include "engine/des/des_plan.hpp"
#include "engine/des/job_stream.hpp"
#include "engine/des/simulator.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "core/random/random.hpp"
#include "models/scenario.hpp"
#include "models/workload/trace_csv.hpp"

#include "generated_trace.hpp"

using tco::bench::peak_rss_mib;
using tco::bench::thread_cpu_s;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU seconds of this thread or process: on a shared machine the wall clock measures the
// other users' work too, so rates are also given per CPU-second (what one unshared core does).
double cpu_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}


constexpr const char* kOpenbScenario = "scenarios/openb-h100-hybrid.json";

void events_per_second(long paths, const std::string& path) {
  if (path == kOpenbScenario &&
      !std::filesystem::exists("../shared/data/alibaba-gpu-v2023/openb_pod_list_default.csv")) {
    fmt::print("1. skipped: ../shared/data is absent\n");
    return;
  }
  const tco::Scenario s = tco::load_scenario(path);
  const tco::des::DesPlans plans = tco::des::prepare_des_plans(s);
  const tco::des::JobCatalog catalog = tco::des::build_job_catalog(*s.jobs);
  tco::des::PathSites sites;
  double generate_s = 0.0, simulate_s = 0.0, simulate_cpu_s = 0.0;
  long events = 0, jobs = 0;
  std::vector<long> plan_events(plans.plans.size(), 0);
  std::vector<double> plan_seconds(plans.plans.size(), 0.0);
  for (long p = 0; p < paths; ++p) {
    tco::des::PathInputs in{s.monte_carlo.seed, static_cast<std::uint32_t>(p), s.jobs->growth_per_year};
    // As the Monte Carlo does: a path's site curves built once for all plans (timed with the
    // first plan of each site group).
    sites.start_path(in.seed, in.path);
    in.sites = &sites;
    auto t0 = Clock::now();
    tco::des::JobStream stream(*s.jobs, catalog, s.calendar, in.seed, in.path, static_cast<double>(s.horizon_hours()),
                               in.growth_per_year);
    std::vector<tco::des::SimJob> path_jobs;
    tco::des::SimJob j;
    while (stream.next(j)) path_jobs.push_back(j);
    // As the Monte Carlo does: each job's spot_share draw made once for all plans.
    std::vector<double> spot_share_u(path_jobs.size()), unused(path_jobs.size());
    tco::des::uniform_pairs_by_entity(in.seed, in.path, tco::RandomSource::spot_availability, 0,
                                      static_cast<int>(path_jobs.size()), unused.data(), spot_share_u.data());
    in.spot_share_u = spot_share_u.data();
    generate_s += seconds_since(t0);
    jobs += static_cast<long>(path_jobs.size());
    for (std::size_t k = 0; k < plans.plans.size(); ++k) {
      t0 = Clock::now();
      const double c0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
      const tco::des::PathOutcome o = tco::des::simulate_jobs(s, plans.plans[k], path_jobs, in);
      const double dt = seconds_since(t0);
      simulate_cpu_s += cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
      simulate_s += dt;
      plan_seconds[k] += dt;
      plan_events[k] += o.events;
      events += o.events;
    }
  }
  fmt::print("1. {}: {} paths x {} plans, {:.0f} jobs per path\n", path, paths, plans.plans.size(),
             static_cast<double>(jobs) / paths);
  for (std::size_t k = 0; k < plans.plans.size(); ++k)
    fmt::print("   {:<20} {:>10.0f} events/path  {:>6.2f} M events/s\n", s.plans[k].name,
               static_cast<double>(plan_events[k]) / paths, plan_events[k] / plan_seconds[k] / 1e6);
  fmt::print("   all plans: {} events in {:.3f} s = {:.2f} M events/s per thread; {:.3f} CPU-s = {:.2f} M events per "
             "CPU-second (job generation {:.3f} s apart)\n",
             events, simulate_s, events / simulate_s / 1e6, simulate_cpu_s, events / simulate_cpu_s / 1e6, generate_s);
}

void monte_carlo_time(long paths, int threads) {
  const tco::Scenario s = tco::load_scenario("scenarios/startup-monte-carlo.json");
  tco::MonteCarloOptions o;
  o.paths = paths;
  o.threads = threads;
  const auto t0 = Clock::now();
  const double c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  const tco::MonteCarloRun mc = tco::run_monte_carlo(s, o);
  const double dt = seconds_since(t0);
  const double cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
  // Plans of one pool group share an event loop, and each counts its events: the plan events
  // are those of the plans replayed one by one.
  const std::size_t loops = tco::des::prepare_des_plans(s).pool_groups.size();
  fmt::print("2. startup-monte-carlo: {} paths x {} plans ({} event loops) with {} threads in {:.2f} s wall, {:.2f} "
             "CPU-s ({} plan events, {:.2f} M per CPU-second; {:.2f} s on {} unshared cores)\n",
             mc.paths, s.plans.size(), loops, threads, dt, cpu, mc.total_events, mc.total_events / cpu / 1e6,
             cpu / threads, threads);
}

void streaming_memory(long jobs_wanted) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "tcosim-bench-des";
  fs::create_directories(dir);
  const std::string trace = (dir / "big.csv").string();
  auto t0 = Clock::now();
  tco::bench::write_generated_trace(trace, jobs_wanted);
  const double write_s = seconds_since(t0);
  const double rss_before = peak_rss_mib();
  tco::Json doc = tco::Json::parse(R"({
    "name": "bench-streaming", "start": "2026-01-01", "horizon_months": 36, "discount_rate_per_year": 0.08,
    "jobs": {"trace": "big.csv", "tile": false},
    "cloud": {"offer": "aws/p5.48xlarge/us-east-1", "spot": {"preemptions_per_instance_hour": 0.05}},
    "onprem": {"server": "hgx-h100-8", "power": {"region": "us-virginia"}, "cooling": "rear-door"},
    "plans": [{"name": "buy-300-burst", "kind": "hybrid", "onprem_nodes": 300, "spot_share": 1.0}]
  })");
  doc["catalog_dir"] = fs::absolute("pricing-data").string();
  const tco::Scenario s = tco::load_scenario_json(doc, (dir / "bench.json").string(), dir.string());
  tco::MonteCarloOptions o;
  o.paths = 1;
  t0 = Clock::now();
  const tco::MonteCarloRun mc = tco::run_monte_carlo(s, o);
  const double run_s = seconds_since(t0);
  fmt::print("3. streaming: {} jobs ({:.0f} MiB file, written in {:.1f} s) replayed in {:.1f} s ({} events); peak "
             "RSS {:.0f} MiB (before the replay {:.0f} MiB)\n",
             jobs_wanted, static_cast<double>(fs::file_size(trace)) / (1 << 20), write_s, run_s, mc.total_events,
             peak_rss_mib(), rss_before);
  fs::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();  // as tcosim does (cli/main.cpp)
  long paths = 5, mc_paths = 1000, stream_jobs = 10'000'000;
  int threads = 2;
  std::string skip;
  std::string scenario = kOpenbScenario;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--paths")) paths = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mc-paths")) mc_paths = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--stream-jobs")) stream_jobs = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--skip")) skip = argv[i + 1];
    else if (!std::strcmp(argv[i], "--scenario")) scenario = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: bench_des [--paths N] [--threads N] [--mc-paths N] [--stream-jobs N] [--skip 1,2,3] "
                           "[--scenario FILE]\n");
      return 2;
    }
  }
  if (skip.find('1') == std::string::npos) events_per_second(paths, scenario);
  if (skip.find('2') == std::string::npos) monte_carlo_time(mc_paths, threads);
  if (skip.find('3') == std::string::npos && stream_jobs > 0) streaming_memory(stream_jobs);
  return 0;
}
