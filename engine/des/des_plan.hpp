// A plan of the scenario as the discrete-event replay needs it: plain numbers resolved once
// per run (prices per instance-hour, pool sizes, the on-prem site's hourly PUE, price and
// work rate), shared read-only by every path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/des/cloud/price_growth.hpp"
#include "engine/des/fleet/site_curve.hpp"
#include "engine/des/cloud/spot_market.hpp"
#include "engine/des/fleet/time_shift_policy.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/scenario.hpp"

namespace tco::des {

struct DesVenue;

struct DesPlan {
  const Plan* plan = nullptr;
  bool bursts = true;
  // On-prem
  const OnPremSpec* onprem = nullptr;  // null for a cloud plan
  int nodes = 0;
  int gpus_per_node = 8;
  long purchase_h = 0;                 // the planned delivery; a path may draw another (delivery_h)
  double idle_kw = 0.0;
  double peak_kw = 0.0;
  double perf_onprem = 1.0;
  std::vector<SiteHour> site;          // the deterministic site (escalated prices); empty without nodes
  ShiftCurve shift_curve;              // what time shifting reads of the site; empty without time_shift
  std::vector<double> ambient_c;       // the deterministic ambient temperature, when a path adds noise
  std::vector<double> grid_g_co2_by_hour;  // the site's hourly grid intensity; empty when it is flat
  // A refresh inside the horizon (models/next_generation/refresh.hpp): from refresh_h on, the pool
  // is the successor fleet's (the simulator's cutover); refresh_h < 0: no refresh.
  struct Fleet {
    int nodes = 0;
    int gpus_per_node = 8;
    double idle_kw = 0.0;
    double peak_kw = 0.0;
    double perf_onprem = 1.0;
    bool operator==(const Fleet&) const = default;
  };
  long refresh_h = -1;
  Fleet successor;
  int site_group = -1;                 // plans of one group have alike sites (engine/des/fleet/site_curve.hpp)
  // The site's curve when no path adds noise (ambient_c empty; else null), shared by the plans
  // whose sites have the same inputs (same_site_inputs in des_plan.cpp): 560 kB a year of hours.
  std::shared_ptr<const SiteCurve> fixed_site;
  // Cloud
  const CloudSpec* cloud = nullptr;    // null for an onprem plan
  int gpus_per_instance = 8;
  double perf_cloud = 1.0;
  double on_demand_usd_per_instance_h = 0.0;
  double spot_usd_per_instance_h = 0.0;
  bool spot_allowed = false;
  double billing_granularity_h = 1.0 / 3600.0;
  double minimum_billed_h = 0.0;
  double startup_h = 0.0;
  bool emergency_checkpoint_covers = false;  // notice >= checkpoint write and emergency checkpoints on
  int reserved_instances = 0;
  double reserved_usd_per_instance_h = 0.0;
  long reserved_term_h = kHoursPerYear;
  const SpotTrace* spot_trace = nullptr;
  double egress_usd_per_gpu_hour = 0.0;
  PriceGrowth price_growth;            // of on-demand prices (none without a cloud)
  PriceGrowth spot_price_growth;       // of spot prices
  std::vector<DesVenue> venues;        // the plan's ordered cloud venues (engine/des/cloud/venue_router.hpp)
  // The plan's take-or-pay contracts and capacity blocks (engine/des/cloud/committed_pool.hpp): their
  // GPUs by hour, pooled by the job class they serve; those for one class first, then those
  // for any job (""). Each pool's instruments (indices into plan->commitments, take-or-pay
  // contracts first, then blocks, as the hourly model fills them) share its use hour by hour.
  struct Committed {
    std::string job_class;
    std::vector<double> gpus_by_hour;
    std::vector<int> instruments;
    std::vector<std::vector<double>> gpus_by_hour_by_instrument;
  };
  std::vector<Committed> committed;
  // The plan's savings plan (engine/des/cloud/savings_plan_meter.hpp); instrument < 0: none.
  struct SavingsPlan {
    int instrument = -1;
    std::vector<double> usd_by_hour;
    double usd_per_instance_hour = 0.0;
    int order = 0;  // on a venue: where the commitment reaches it among the venues it covers
  };
  SavingsPlan savings_plan;
  // Jobs
  SchedulingSpec scheduling;
  SpotSpec spot;                 // the plan's, or the defaults for an onprem plan
  double checkpoint_write_h = 0.05;
  double waiting_usd_per_gpu_hour = 0.0;
  // Plans of one pool group have event loops that behave alike (same_pool_side): they differ at
  // most in what happens to a job once it leaves for spot or on-demand (spot share and policy,
  // cloud prices and billing), which never feeds back into the loop. The replay runs the loop
  // once for the group (simulate_group_*).
  int pool_group = -1;
};

// A cloud venue of a plan as the replay runs it: the plan's cloud terms with the venue's offer
// (instance size, GPU speed, on-demand price, billing) and provisioning delay, and its limits.
struct DesVenue {
  DesPlan terms;
  bool spot = false;  // a spot venue: runs on spot at terms.spot_usd_per_instance_h
  double availability = 1.0;
  int quota_instances = -1;  // < 0: no quota
};

// The hour a path's fleet arrives: the planned delivery, or the path's draw of a slip
// (models/finance/procurement.hpp); at or past the horizon when it never arrives inside it.
long delivery_h(const DesPlan& plan, std::uint64_t seed, std::uint32_t path);

struct DesPlans {
  std::vector<DesPlan> plans;
  std::vector<std::vector<int>> pool_groups;            // plan indices by pool group, ascending
  std::vector<std::unique_ptr<SpotTrace>> spot_traces;  // owned here, referenced by plans
};

// Do a and b give the event loop (engine/des/event_loop.hpp) the same settings? Everything the
// loop reads outside CloudRuns: the on-prem pool, its site, failures and power, the queue
// settings, the checkpoint write time, the price of waiting and whether the plan bursts. Plans
// with reserved instances never share (the loop runs reserved jobs on the plan's cloud terms).
bool same_pool_side(const DesPlan& a, const DesPlan& b);

// Throws InputError for an unreadable spot trace.
DesPlans prepare_des_plans(const Scenario& scenario);

}  // namespace tco::des
