// The discrete-event replay's entry points (engine/des/simulator.hpp): the job feeds, and the
// loop (engine/des/event_loop.hpp) run in an AVX2 clone.
#include "engine/des/simulator.hpp"

#include "engine/des/event_loop.hpp"

namespace tco::des {

namespace detail {

// Once a path: out of line, so outside the clone of replay() below.
Simulator::Simulator(const Scenario& s, std::span<const DesPlan* const> plans, JobFeed& feed, const PathInputs& in)
    : s_(s), p_(*plans.front()), feed_(feed), in_(in), horizon_h_(static_cast<double>(s.horizon_hours())),
      months_(s.horizon_months), month_index_(months_),
      cloud_only_(!p_.onprem && p_.reserved_instances == 0 && p_.bursts), purchase_h_(delivery_h(p_, in.seed, in.path)) {
  const DesPlan& p = p_;
  clouds_.reserve(plans.size());
  for (const DesPlan* plan : plans) {
    plans_.push_back(plan);
    clouds_.emplace_back(*plan, in, month_index_, months_, horizon_h_);
  }
  routers_.resize(plans.size());
  committed_.resize(plans.size());
  for (std::size_t k = 0; k < plans.size(); ++k) {
    if (!plans[k]->venues.empty())
      routers_[k] = std::make_unique<VenueRouter>(*plans[k], in, month_index_, months_, horizon_h_);
    for (const DesPlan::Committed& c : plans[k]->committed)
      committed_[k].push_back({class_id(c.job_class, in.class_names), CommittedPool(c.gpus_by_hour)});
  }
  reserved_speed_[0] = p.perf_cloud;
  reserved_speed_[1] = p.perf_cloud * p.scheduling.cloud_multi_node_efficiency;
  out_.cost_by_month.assign(months_, CostRow{});
  out_.peak_facility_kw_by_month.assign(months_, 0.0);
  power_shock_.assign(months_, 1.0);
  if (p.onprem && p.onprem->power.monthly_price_sigma > 0.0)
    for (int m = 0; m < months_; ++m)
      power_shock_[m] = lognormal_mean_one(uniform(in.seed, in.path, RandomSource::power_price, m, 0),
                                           p.onprem->power.monthly_price_sigma);
  if (p.onprem) {
    site_ = in.sites ? &in.sites->curve(p) : &own_site();
    if (p.scheduling.time_shift) shift_ = TimeShiftPolicy(&p.shift_curve, p.waiting_usd_per_gpu_hour);
    pool_ = NodePool(p.nodes, p.gpus_per_node, purchase_h_ == 0);
    idle_kw_ = p.idle_kw;
    perf_onprem_ = p.perf_onprem;
    kw_per_busy_gpu_ = (p.peak_kw - p.idle_kw) / p.gpus_per_node;
    carbon_usd_per_kwh_ = p.onprem->power.g_co2_per_kwh / 1e6 * p.onprem->carbon.usd_per_tonne;
    hourly_intensity_ = site_->has_intensity();
    carbon_usd_per_g_ = p.onprem->carbon.usd_per_tonne / 1e6;
    node_generation_.assign(p.nodes, 0);
    node_failures_drawn_.assign(p.nodes, 0);
    repair_end_h_.assign(p.nodes, 0.0);
    if (p.onprem->spares) {
      swap_h_ = p.onprem->spares->swap_h;
      repair_usd_per_failure_ = p.onprem->spares->repair_cost_usd_per_failure;
      if (purchase_h_ == 0) spares_.deliver(p.onprem->spare_nodes());
    }
  }
  if (p.reserved_instances > 0) reserved_ = NodePool(p.reserved_instances, p.gpus_per_instance, true);
}

}  // namespace detail

using detail::Simulator;

namespace {

class SpanFeed final : public JobFeed {
 public:
  explicit SpanFeed(const std::vector<SimJob>& jobs) : jobs_(jobs) {}
  bool next(SimJob& job) override {
    if (i_ == jobs_.size()) return false;
    job = jobs_[i_++];
    return true;
  }
  std::span<const SimJob> next_batch() override {
    const std::span<const SimJob> rest(jobs_.data() + i_, jobs_.size() - i_);
    i_ = jobs_.size();
    return rest;
  }

 private:
  const std::vector<SimJob>& jobs_;
  std::size_t i_ = 0;
};

class StreamFeed final : public JobFeed {
 public:
  explicit StreamFeed(JobStream& stream) : stream_(stream) {}
  bool next(SimJob& job) override { return stream_.next(job); }

 private:
  JobStream& stream_;
};

}  // namespace

std::span<const SimJob> JobFeed::next_batch() {
  constexpr std::size_t kBatchJobs = 256;
  buffer_.resize(kBatchJobs);
  std::size_t n = 0;
  while (n < kBatchJobs && next(buffer_[n])) ++n;
  return {buffer_.data(), n};
}

PathOutcome simulate_jobs(const Scenario& scenario, const DesPlan& plan, const std::vector<SimJob>& jobs,
                          const PathInputs& inputs) {
  const DesPlan* one[] = {&plan};
  return std::move(simulate_group_jobs(scenario, one, jobs, inputs).front());
}

// The replay in an AVX2 clone (three-operand instructions, one-instruction rounding) where the CPU
// has it, flattened so that the whole event loop is compiled for it; without FMA contraction
// (CMakeLists.txt) it gives the baseline code's bits. What runs a few times a path is kept out
// of it (TCO_COLD, engine/des/kernel/cold.hpp).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TCO_REPLAY_CLONES __attribute__((target_clones("arch=x86-64-v3", "default"), flatten, noinline))
#else
#define TCO_REPLAY_CLONES
#endif

namespace {

TCO_REPLAY_CLONES std::vector<PathOutcome> replay(const Scenario& scenario, std::span<const DesPlan* const> plans,
                                                  JobFeed& feed, const PathInputs& inputs) {
  return Simulator(scenario, plans, feed, inputs).run();
}

}  // namespace

std::vector<PathOutcome> simulate_group_jobs(const Scenario& scenario, std::span<const DesPlan* const> plans,
                                             const std::vector<SimJob>& jobs, const PathInputs& inputs) {
  SpanFeed feed(jobs);
  return replay(scenario, plans, feed, inputs);
}

std::vector<PathOutcome> simulate_group_path(const Scenario& scenario, std::span<const DesPlan* const> plans,
                                             const JobCatalog& catalog, const PathInputs& inputs) {
  JobStream stream(*scenario.jobs, catalog, scenario.calendar, inputs.seed, inputs.path,
                   static_cast<double>(scenario.horizon_hours()), inputs.growth_per_year);
  StreamFeed feed(stream);
  return replay(scenario, plans, feed, inputs);
}

PathOutcome simulate_feed(const Scenario& scenario, const DesPlan& plan, JobFeed& feed, const PathInputs& inputs) {
  const DesPlan* one[] = {&plan};
  return std::move(replay(scenario, one, feed, inputs).front());
}

PathOutcome simulate_path(const Scenario& scenario, const DesPlan& plan, const JobCatalog& catalog,
                          const PathInputs& inputs) {
  const DesPlan* one[] = {&plan};
  PathInputs in = inputs;
  if (!in.class_names) in.class_names = &catalog.class_names;
  return std::move(simulate_group_path(scenario, one, catalog, in).front());
}

}  // namespace tco::des
