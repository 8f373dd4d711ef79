// Helpers for the discrete-event replay's tests: scenarios of jobs on the round-number
// fixture catalog (tests/scenario_builder.hpp lists its figures), and a job feed from a vector.
#pragma once

#include <vector>

#include "engine/des/des_plan.hpp"
#include "engine/des/simulator.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

// base_scenario_json() with `jobs` instead of the hourly workload: 12 months, a cloud plan
// (test/gpu8: 8 GPUs, $16/h on-demand, $8/h spot) and a hybrid plan owning 2 test-node-8.
inline Json des_scenario_json(const Json& jobs) {
  Json doc = base_scenario_json();
  doc.erase("workload");
  doc["jobs"] = jobs;
  return doc;
}

// Issue #42 item 5's case, without its plans: Poisson 8-GPU deferrable jobs (1.2 an hour, median
// 3 h, max_wait_h 2, deadline_factor 8) beside a $0.25 / $0.05 (0-8 h) time-of-use tariff, waiting
// at $0.05 a GPU-hour, 12 months, 40 paths, seed 2. On 10 owned nodes time shifting adds misses.
inline Json deferrable_jobs_night_tariff_json() {
  Json doc = des_scenario_json({{"poisson",
                                 {{"jobs_per_hour", 1.2},
                                  {"gpus", {{"8", 1.0}}},
                                  {"duration_median_h", 3},
                                  {"duration_sigma", 0.8},
                                  {"max_duration_h", 48},
                                  {"max_wait_h", 2},
                                  {"deadline_factor", 8},
                                  {"deferrable", true}}}});
  Json night_cheap = Json::array();
  for (int h = 0; h < 24; ++h) night_cheap.push_back(h < 8 ? 0.05 : 0.25);
  doc["onprem"]["power"]["tariff"] = {
      {"type", "time_of_use"}, {"weekday_usd_per_kwh", night_cheap}, {"weekend_usd_per_kwh", night_cheap}};
  doc["waiting_usd_per_gpu_hour"] = 0.05;
  doc["monte_carlo"] = {{"paths", 40}, {"seed", 2}};
  return doc;
}

inline Scenario load_des_scenario(const Json& doc) {
  return load_scenario_json(doc, "des-test.json", source_path("tests"));
}

inline des::SimJob job_at(double submit_h, int gpus, double duration_h) {
  des::SimJob j;
  j.submit_h = submit_h;
  j.gpus = gpus;
  j.duration_h = duration_h;
  return j;
}

inline double category_total(const des::PathOutcome& o, Category c) {
  double total = 0.0;
  for (const auto& row : o.cost_by_month) total += row[static_cast<int>(c)];
  return total;
}

class VectorFeed final : public des::JobFeed {
 public:
  explicit VectorFeed(std::vector<des::SimJob> jobs) : jobs_(std::move(jobs)) {}
  bool next(des::SimJob& job) override {
    if (i_ == jobs_.size()) return false;
    job = jobs_[i_];
    job.entity = static_cast<std::uint32_t>(i_++);
    return true;
  }

 private:
  std::vector<des::SimJob> jobs_;
  std::size_t i_ = 0;
};

// The replay of `jobs` by the scenario `doc`'s first plan on one path (seed 7, path 0).
inline des::PathOutcome replay_first_plan(const Json& doc, std::vector<des::SimJob> jobs) {
  const Scenario s = load_des_scenario(doc);
  const des::DesPlans plans = des::prepare_des_plans(s);
  VectorFeed feed(std::move(jobs));
  return des::simulate_feed(s, plans.plans[0], feed, {7, 0, 0.0});
}

inline const McPlanStats& mc_plan(const MonteCarloRun& mc, const std::string& name) {
  for (const auto& p : mc.plans)
    if (p.name == name) return p;
  FAIL("no plan " << name);
  return mc.plans.front();
}

inline double job_mean(const McPlanStats& p, const char* counter) { return p.job_means[job_counter_index(counter)]; }

// A report without its "run" block (what may differ between runs: threads).
inline std::string report_without_run(const std::string& text) {
  Json report = Json::parse(text);
  report.erase("run");
  return report.dump(2);
}

}  // namespace tco::test
