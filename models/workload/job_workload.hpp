// Job workloads for the discrete-event replay (SPEC §3), the scenario's "jobs" section, and
// each plan's scheduling settings (SPEC §4). docs/des.md documents every field.
//   trace:     the canonical CSV (models/workload/trace_csv.hpp), or a public trace read in place through
//              its importer (trace_format), replayed from t = 0; with `tile` it repeats every
//              period_h (default: the last submission rounded up to whole weeks)
//   growth:    a job submitted at t is cloned into m(t) = (1 + g)^(t / 8760) copies: floor(m),
//              plus one more with probability frac(m), drawn per path (g = growth_per_year,
//              + demand_growth_sigma_per_year x z per path when the Monte Carlo section sets it)
//   bootstrap: week w of the horizon replays a week of the trace drawn uniformly per path
//   poisson:   arrivals at rate jobs_per_hour x shape(t) (diurnal cosine, weekend factor, as the
//              steady demand profile), GPUs from a categorical distribution, duration lognormal
//              by median and sigma (capped at max_duration_h)
//   campaigns: every every_days days from first_day (+ a uniform jitter in [0, jitter_days)),
//              one job of `gpus` GPUs for duration_days days
//   steady:    gpus GPUs busy around the clock as back-to-back jobs of gpus_per_job GPUs and
//              job_duration_h hours (no randomness)
// Example: poisson 2 jobs/h, diurnal 0.5 peaking at 14:00: 3 jobs/h at 14:00, 1 job/h at 02:00.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// Fields every synthetic generator shares: what its jobs look like besides size and time.
struct JobTraits {
  double preemptible_fraction = 0.0;   // share of jobs marked preemptible (drawn per job)
  double checkpoint_h = 0.0;
  std::optional<double> max_wait_h;    // absent: the plan's default
  std::optional<double> deadline_factor;  // deadline = factor x duration after submission
  bool deferrable = false;
  std::string job_class;
};

struct PoissonJobs {
  double jobs_per_hour = 1.0;
  double diurnal_amplitude = 0.0;
  int peak_hour = 14;
  double weekend_factor = 1.0;
  std::vector<std::pair<int, double>> gpus_weights;  // (GPUs, probability), normalised
  double duration_median_h = 1.0;
  double duration_sigma = 1.0;
  double max_duration_h = 24.0 * 30.0;
  JobTraits traits;
};

struct CampaignJobs {
  int gpus = 64;
  double every_days = 91.0;
  double duration_days = 14.0;
  double first_day = 0.0;
  double jitter_days = 0.0;
  JobTraits traits;
};

struct SteadyJobs {
  int gpus = 8;
  int gpus_per_job = 8;
  double job_duration_h = 24.0;
  JobTraits traits;
};

struct JobsSpec {
  std::string trace_file;           // as written in the scenario; "" = none
  std::string trace_resolved_path;  // relative to the scenario's folder
  std::string trace_format = "canonical";  // or an importer's format, imported in memory at load
  bool tile = true;
  double period_h = 0.0;            // 0 = the last submission rounded up to whole weeks
  double growth_per_year = 0.0;
  bool weekly_bootstrap = false;
  std::vector<PoissonJobs> poisson;
  std::vector<CampaignJobs> campaigns;
  std::vector<SteadyJobs> steady;
};

// Per-plan settings of the discrete-event replay.
struct SchedulingSpec {
  double max_wait_h = 1.0;                   // for jobs that give none
  bool backfill_first_fit = false;           // else strict FIFO
  double onprem_multi_node_efficiency = 1.0; // speed factor for jobs spanning nodes
  double cloud_multi_node_efficiency = 1.0;  // ... spanning instances (no fabric between them)
  bool time_shift = false;                   // hold deferrable jobs for cheap hours
  double restart_h = 0.1;                    // after a node failure (spot restarts use spot.restart_h)

  bool operator==(const SchedulingSpec&) const = default;
};

JobsSpec parse_jobs(JsonObjectReader& r, const std::string& scenario_dir);
SchedulingSpec parse_scheduling(JsonObjectReader& r);
Json to_json(const JobsSpec& spec);
Json to_json(const SchedulingSpec& spec);

}  // namespace tco
