// What an uncertain venue costs the hourly model (docs/performance.md, "Venues' expectation"). The
// deterministic run takes the expectation over the 2^n combinations of n uncertain venues'
// availability each hour, and a savings plan's cover over the pairs of whole combinations
// (engine/ledger/hourly/venue_hour.hpp); a Monte Carlo path draws each venue once an hour. This prints,
// for n = 1 .. 8 on-demand venues of availability 0.9 (quota 16 GPUs each, against 100 GPUs of
// steady demand, so every venue serves), with and without a savings plan covering them all: the
// deterministic evaluation's hours per second, one drawn path's, and the deterministic
// evaluation's seconds for a 36-month horizon at that rate.
//   bench_venue_hours [--months 1] [--catalog tests/fixtures/catalog] [--max-venues 8]
// Run it from the repository root of a Release build: build/bench/bench_venue_hours.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/memory/freed_memory_reuse.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/scenario.hpp"
#include "models/workload/workload.hpp"
#include "process_usage.hpp"

namespace {

using tco::Json;

Json venues_scenario(const std::string& catalog_dir, int months, int venue_count, bool savings_plan) {
  Json doc = Json::parse(R"({
    "name": "bench-venue-hours",
    "start": "2026-01-05",
    "discount_rate_per_year": 0.08,
    "workload": {"profiles": [{"type": "steady", "gpus": 100, "diurnal_amplitude": 0.3}]},
    "cloud": {"offer": "test/gpu8/region-a"},
    "baseline": "venues"})");
  doc["catalog_dir"] = std::filesystem::absolute(catalog_dir).string();
  doc["horizon_months"] = months;
  Json venues = Json::array();
  Json covered = Json::array();
  for (int i = 0; i < venue_count; ++i) {
    const std::string name = fmt::format("venue-{}", i + 1);
    venues.push_back({{"name", name}, {"offer", "test/gpu8/region-a"}, {"availability", 0.9},
                      {"quota_gpus", 16}, {"provisioning_delay_h", 0.25}});
    covered.push_back({{"venue", name}, {"usd_per_instance_hour", 12.0}});
  }
  Json plan = {{"name", "venues"}, {"kind", "cloud"}, {"venues", venues}};
  if (savings_plan)
    plan["commitments"] = Json::array({{{"kind", "savings_plan"}, {"name", "sp"}, {"usd_per_hour", 40.0},
                                        {"term_months", months}, {"venues", covered}}});
  doc["plans"] = Json::array({plan});
  return doc;
}

template <typename F>
double best_seconds_of(int repeat, F&& f) {
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();  // as tcosim does (cli/main.cpp)
  int months = 1;
  int max_venues = 8;
  std::string catalog = "tests/fixtures/catalog";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--months") months = std::atoi(value.c_str());
    else if (key == "--catalog") catalog = value;
    else if (key == "--max-venues") max_venues = std::atoi(value.c_str());
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  fmt::print("bench_venue_hours: {} month(s), n on-demand venues of availability 0.9, one thread\n", months);
  fmt::print("{:>2} {:>13} {:>22} {:>20} {:>26}\n", "n", "savings plan", "deterministic hours/s",
             "drawn path hours/s", "deterministic, 36 months");
  for (int n = 1; n <= max_venues; ++n) {
    for (const bool savings_plan : {false, true}) {
      const tco::Scenario s =
          tco::load_scenario_json(venues_scenario(catalog, months, n, savings_plan), "bench-venue-hours.json", ".");
      const long hours = s.horizon_hours();
      const std::vector<double> demand = tco::demand_gpus_by_hour(s.workload, hours, s.calendar);
      double sink = 0.0;
      const double deterministic_s =
          best_seconds_of(3, [&] { sink += tco::evaluate_plan(s, s.plans[0], demand).total_usd; });
      tco::EvaluationOptions drawn;
      drawn.venue_draws = tco::VenueDrawKey{1, 0};
      const double path_s =
          best_seconds_of(3, [&] { sink += tco::evaluate_plan(s, s.plans[0], demand, drawn).total_usd; });
      const double per_hour_s = deterministic_s / static_cast<double>(hours);
      fmt::print("{:>2} {:>13} {:>22.3g} {:>20.3g} {:>24.3g} s{}\n", n, savings_plan ? "yes" : "no",
                 static_cast<double>(hours) / deterministic_s, static_cast<double>(hours) / path_s,
                 per_hour_s * 36.0 * 730.0, sink == 0.0 ? " (no cost?)" : "");
    }
  }
  fmt::print("peak RSS {:.0f} MiB\n", tco::bench::peak_rss_mib());
  return 0;
}
