// The jobs one Monte Carlo path replays (SPEC §3, models/workload/job_workload.hpp), in submission
// order, generated lazily so that a trace of any length replays in bounded memory:
//   trace   read from the trace's columns (mapped from its binary file, or parsed once per run:
//           models/workload/trace_cache.hpp), repeated every period_h while `tile` is on, or
//           rebuilt week by week from weeks drawn per path (weekly bootstrap)
//   poisson candidate arrivals at the peak rate, kept with probability shape(t) / peak
//           (thinning), draw k of source `arrival` for generator i; GPUs, duration and
//           preemptibility from draw k of sources gpu_count and duration
//   growth  job n (in merged order) becomes floor(m) + [u_n < frac(m)] jobs, m = (1+g)^(t/8760)
// Every job gets an entity id = its position in the path's stream, so every plan on a path
// sees the same jobs with the same ids (common random numbers for spot and preemption draws).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/calendar.hpp"
#include "models/workload/job_workload.hpp"
#include "models/workload/trace_cache.hpp"
#include "models/workload/trace_start.hpp"
#include "models/workload/trace_table.hpp"

namespace tco::des {

// A job as the simulator holds it: 48 bytes, strings interned.
struct SimJob {
  double submit_h = 0.0;
  double duration_h = 0.0;
  double checkpoint_h = 0.0;
  double max_wait_h = -1.0;  // < 0: the plan's default
  double deadline_h = std::numeric_limits<double>::infinity();  // after submit
  int gpus = 1;
  std::uint32_t entity = 0;
  std::uint16_t job_class = 0;
  bool preemptible = false;
  bool deferrable = false;

  bool has_deadline() const { return deadline_h < std::numeric_limits<double>::infinity(); }
};

// What a run knows about its jobs before any path starts: the class names, the trace's
// period and size, and the trace's columns (shared by every path and thread).
struct JobCatalog {
  std::vector<std::string> class_names;              // id -> name
  std::unordered_map<std::string, std::uint16_t> class_ids;
  std::string trace_path;
  TraceTable trace;
  std::vector<std::uint16_t> class_of_string;        // the trace's string id -> class id
  TraceOrigin trace_origin = TraceOrigin::csv;       // where the columns came from
  std::vector<std::string> trace_notes;              // binary files not used, a cache not written
  std::vector<std::size_t> week_starts;              // bootstrap: first job of each trace week
  double trace_period_h = 0.0;
  // Hour 0 of the trace as an absolute time ("# start:"), which the stream aligns to the
  // scenario's calendar (models/workload/trace_clock.hpp).
  std::optional<TraceStart> trace_start;
  long trace_jobs = 0;
  double trace_gpu_hours = 0.0;
  // Per class: jobs and GPUs in one pass over the base sources (for checkpoint advice).
  std::vector<long> class_jobs;
  std::vector<double> class_gpus_sum;
  std::vector<long> class_preemptible_jobs;

  std::uint16_t intern(const std::string& name);
};

// Loads the trace's columns (a canonical CSV through the binary cache of `cache`, by default as
// the environment sets it) and registers every generator's class.
JobCatalog build_job_catalog(const JobsSpec& spec);
JobCatalog build_job_catalog(const JobsSpec& spec, const TraceCacheOptions& cache);

// Job i of the catalog's trace.
SimJob trace_sim_job(const JobCatalog& catalog, std::size_t i);

// An upper estimate of the jobs one path generates over horizon_h (before the horizon cuts
// them): every source at its peak rate, the trace once per tile, all cloned at the growth
// multiple of the horizon's end, (1 + g)^(horizon_h / 8760). Used to refuse, before running, a
// workload that could never be replayed (a rate or a growth typed a thousand times too large).
//   Example: Poisson 1 job/h, diurnal amplitude 0.25, weekend factor 0.7, over 8,760 h with
//   g = 0.1: 1 x 1.25 x 1 x 8,760 x 1.1 = 12,045 jobs.
double upper_jobs_per_path(const JobsSpec& spec, const JobCatalog& catalog, double horizon_h,
                           double growth_per_year);

// More jobs than this on one path are refused as bad input (upper_jobs_per_path).
inline constexpr double kMaxJobsPerPath = 1e8;

class JobStream {
 public:
  // growth_per_year is the path's rate (the scenario's, plus its Monte Carlo noise).
  JobStream(const JobsSpec& spec, const JobCatalog& catalog, const Calendar& calendar, std::uint64_t seed,
            std::uint32_t path, double horizon_h, double growth_per_year);
  ~JobStream();
  JobStream(const JobStream&) = delete;
  JobStream& operator=(const JobStream&) = delete;

  // The next job submitted before the horizon; false when there is none.
  bool next(SimJob& job);
  long jobs_emitted() const { return emitted_; }

  class Source;

 private:
  bool next_base(SimJob& job);
  void pull_head(std::size_t source);
  double clone_uniform(std::uint32_t base);

  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<SimJob> heads_;
  std::uint64_t seed_;
  std::uint32_t path_;
  double horizon_h_;
  double growth_per_year_;
  double growth_per_h_;  // ln(1 + growth_per_year) / 8760: the clone multiplier is e^{k t}
  std::uint32_t base_index_ = 0;
  SimJob pending_;
  static constexpr int kCloneBatch = 64;
  double clone_u_[kCloneBatch] = {};  // the growth clone uniforms of bases clone_first_ ..
  std::uint32_t clone_first_ = 0;
  bool clone_ready_ = false;
  int pending_copies_ = 0;
  long emitted_ = 0;
};

}  // namespace tco::des
