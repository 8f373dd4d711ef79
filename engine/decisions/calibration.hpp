// Calibrates the hourly fluid model (engine/ledger/hourly/hourly_model.hpp) against the discrete-event
// replay of the same jobs (SPEC §9, §12.17; docs/calibration.md). Both see the jobs of the same
// Monte Carlo paths (same seed, same path indices, so the same jobs):
//   demand D_h(k)   = sum over path k's jobs of gpus x |[submit, submit + duration) ∩ [h, h+1)|
//                     (reference GPU-hours of work per hour, unconstrained); evaluate_plan runs on
//                     each path's series and its figures are averaged over paths (not run on the
//                     averaged series: rounding to whole instances does not commute with averaging,
//                     and jittered campaigns averaged over paths would bill fractions of instances
//                     in many more hours)
//   packing p       : mean_k sum_h busy_h(p) = the replay's mean on-prem busy GPU-hours,
//                     busy_h(p) = min(N_up G p, D_h / perf) is continuous and non-decreasing in p,
//                     solved by toms748 on [0.01, 1] (plans that own nodes and burst)
//   cloud packing q : mean_k sum_h billed_on_demand_h(q) = rho x the fluid model's cloud work,
//                     rho = the replay's billed on-demand GPU-hours per GPU-hour of cloud work (it
//                     rounds each job to whole instances); billed(q) is a non-increasing step
//                     function of q, so q is the end of the step (bisection on [0.01, 1]) whose
//                     total is nearest (plans that burst, without spot or reserved instances: the
//                     replay does not split its cloud work by venue), fitted after p
//   spot overhead s : mean_k sum_h billed_spot_h(s) = the replay's mean billed spot GPU-hours; billed
//                     spot rounds to whole instances per hour, a step function of s, so s is the
//                     end of the step (found by bisection on [1, 10]) whose total is nearest
//                     (plans with spot_share > 0), fitted after p and q
// A factor whose root lies outside its bounds is clamped to the nearer bound and says so.
// Example: 15 GPUs of 5-GPU jobs on 2 nodes of 8: the replay fits one job per node (10 busy),
// the fluid model at p = 1 would run 15; p = 10 / 16 = 0.625. Four 1-GPU jobs at a time on
// 8-GPU instances: the replay bills 4 instances (rho = 32 / 4 = 8), the fluid model
// ceil(4 / (8 q)) instances: 4 for q in [1/8, 1/6).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "core/progress/progress_counter.hpp"
#include "core/stats/statistics.hpp"
#include "models/scenario.hpp"

namespace tco {

struct CalibrationOptions {
  std::optional<long> paths;          // default: the scenario's monte_carlo.paths
  std::optional<std::uint64_t> seed;  // default: the scenario's monte_carlo.seed
  int threads = 1;
  ProgressCounter* progress = nullptr;  // counts the replay's paths, then the fluid model's (may be null)
  // Under mpirun (docs/cluster.md): the replay's paths split over the ranks and gathered to rank
  // 0 (engine/montecarlo/monte_carlo.hpp), which alone fits and returns the result; the other
  // ranks return one without plans. Every rank must call.
  bool split_over_processes = false;
};

inline constexpr double kPackingFitMin = 0.01;
inline constexpr double kCloudPackingFitMin = 0.01;
inline constexpr double kSpotOverheadMin = 1.0;   // the scenario's bounds (models/cloud/cloud_reader.cpp)
inline constexpr double kSpotOverheadMax = 10.0;

// One fitted factor: what it matches and how well.
struct FactorFit {
  enum class Status { not_fitted, fitted, clamped_low, clamped_high };
  Status status = Status::not_fitted;
  double before = 1.0;                // the plan's value as the scenario gives it
  double value = 1.0;                 // fitted (clamped to its bounds); = before when not fitted
  double des_gpu_hours = 0.0;         // the replay's mean (on-prem busy, billed cloud, or billed spot)
  double fluid_before_gpu_hours = 0.0;
  double fluid_after_gpu_hours = 0.0;
  std::string note;                   // why not fitted, or why clamped
  // Cloud packing only: billed on-demand GPU-hours per GPU-hour of cloud work (0: none).
  double des_ratio = 0.0;
  double fluid_ratio_after = 0.0;
};

std::string to_string(FactorFit::Status status);

struct PlanCalibration {
  std::string name;
  std::string pointer;                // "/plans/k": where the merge patch goes
  Summary des_npv_usd;                // over the replay's paths
  double fluid_npv_before_usd = 0.0;  // evaluate_plan, the scenario's factors
  double fluid_npv_after_usd = 0.0;   // evaluate_plan, the fitted factors
  double fluid_npv_on_mean_demand_usd = 0.0;  // the scenario's factors on the path-averaged series
  FactorFit packing;                  // onprem.packing_efficiency
  FactorFit cloud_packing;            // cloud.packing_efficiency
  FactorFit spot_overhead;            // cloud.spot_overhead_factor
  // Reported: the replay's jobs that fall back from spot to on-demand show here.
  double des_on_demand_billed_gpu_hours = 0.0;
  double fluid_on_demand_billed_after_gpu_hours = 0.0;
  // Cloud GPU-hours of work: billed / work measures instance rounding, per job in the replay and
  // per hour in the fluid model (SPEC §12.17).
  double des_cloud_work_gpu_hours = 0.0;
  double fluid_cloud_work_after_gpu_hours = 0.0;
  // fluid NPV - DES NPV, paired by path (same jobs): far less noisy than either NPV.
  Summary difference_before_usd;
  Summary difference_after_usd;
  Json merge_patch;                   // RFC 7386 patch of the plan object ({} when nothing fitted)

  double des_half_width_usd() const { return des_npv_usd.ci95_high - des_npv_usd.mean; }
  // (fluid - DES) / |DES|; 0 when both are 0.
  double relative_before() const;
  double relative_after() const;
};

struct CalibrationResult {
  std::uint64_t seed = 0;
  long paths = 0;
  double demand_gpu_hours = 0.0;  // mean per path over the horizon
  double demand_peak_gpus = 0.0;  // of the mean hourly series
  std::vector<PlanCalibration> plans;
};

// A job's unconstrained demand on an hourly grid of `hours` hours, clipped at both ends: the
// whole hours by a difference array (exact with integer GPUs), the partial ones directly.
class HourlyJobDemand {
 public:
  explicit HourlyJobDemand(long hours);
  void add(double submit_h, double duration_h, int gpus);
  std::vector<double> gpus_by_hour() const;

 private:
  long hours_;
  std::vector<double> partial_;
  std::vector<double> whole_step_;  // + gpus where a run of whole hours starts, - where it ends
};

// The jobs' unconstrained demand per hour of each path 0 .. paths - 1 (the replay's jobs for the
// same seed), and its average over paths. Require scenario.jobs (else InputError at "/jobs").
// The results do not depend on `threads`.
std::vector<std::vector<double>> job_demand_by_path(const Scenario& scenario, std::uint64_t seed, long paths,
                                                    int threads);
std::vector<double> mean_job_demand_by_hour(const Scenario& scenario, std::uint64_t seed, long paths, int threads);

// Throws InputError naming the file and "/jobs" when the scenario has no jobs to replay.
void require_calibration_jobs(const Scenario& scenario);

// Runs the replay's Monte Carlo and the fluid model, and fits each plan's factors.
// Throws InputError (naming the file and "/jobs") when the scenario has no jobs.
CalibrationResult calibrate(const Scenario& scenario, const CalibrationOptions& options);

// The calibration as JSON: seed, paths, per plan the DES and fluid NPVs, the fits and the
// merge patch (docs/calibration.md).
Json calibration_json(const Scenario& scenario, const CalibrationResult& result);

}  // namespace tco
