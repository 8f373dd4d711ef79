// A scenario: the workload, the cloud offer, the on-prem fleet's costs, and the plans to
// compare (docs/scenario.md documents every field; schema/scenario.schema.json is the JSON
// Schema). Loading resolves catalog references, applies each plan's overrides, and checks
// everything strictly; afterwards a Scenario is valid by construction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/site/ambient.hpp"
#include "models/site/carbon.hpp"
#include "models/finance/depreciation.hpp"
#include "models/finance/procurement.hpp"
#include "models/finance/resale_price_path.hpp"
#include "models/price_path/price_process_spec.hpp"
#include "models/price_path/price_schedule.hpp"
#include "models/finding.hpp"
#include "models/next_generation/generation_step.hpp"
#include "models/next_generation/next_generation_spec.hpp"
#include "models/next_generation/refresh.hpp"
#include "models/workload/job_workload.hpp"
#include "models/site/power.hpp"
#include "models/site/site_capacity.hpp"
#include "models/site/spares.hpp"
#include "models/catalog/records.hpp"
#include "models/commitment/commitment.hpp"
#include "models/uncertain.hpp"
#include "models/venues/cloud_venue.hpp"
#include "models/workload/workload.hpp"

namespace tco {

// How jobs use spot capacity (SPEC §4, §12.12, §12.13). The deterministic fluid model uses
// only spot_overhead_factor; the discrete-event replay and the Monte Carlo sweep use the rest.
struct SpotSpec {
  double availability = 1.0;                 // probability a spot request finds capacity
  double retry_h = 0.25;                     // wait before retrying an unavailable request
  int max_tries = 3;                         // then fall back to on-demand (policy "fallback")
  std::string policy = "fallback";           // or "deadline_aware"
  bool fallback_to_on_demand = true;
  double restart_h = 0.1;                    // wall time to restart after a preemption
  double checkpoint_write_h = 0.05;          // wall time per checkpoint write
  bool emergency_checkpoint = false;         // write a checkpoint inside the preemption notice
  double preemptions_per_instance_hour = 0.0;  // Poisson rate (default: the offer's figure)
  double price_sigma = 0.0;                  // monthly mean-one lognormal spot price shock
  std::string trace_file;                    // Can't Be Late availability/preemption trace (optional)
  std::string trace_resolved_path;
};

struct CloudSpec {
  CloudOffer offer;
  SpotSpec spot;
  GpuModel gpu;
  double price_change_per_year = 0.0;   // on-demand and spot prices, compounding by the hour
  CloudPriceSchedules price_schedules;  // dated prices per kind (models/price_path/price_schedule.hpp)
  CloudPriceProcesses price_processes;  // Monte Carlo multipliers per kind (models/price_path/price_process.hpp)
  GenerationStep generation_step;       // the next generation's step on every kind (models/next_generation/)
  double spot_overhead_factor = 1.0;    // billed spot GPU-hours per GPU-hour of work (>= 1)
  // Fluid model only: billed on-demand and spot GPUs = GPUs / packing_efficiency before rounding
  // to whole instances (per-job rounding in the replay; fitted by tcosim calibrate). In (0, 1].
  double packing_efficiency = 1.0;
  double egress_gb_per_gpu_hour = 0.0;  // data leaving the cloud per cloud GPU-hour of work
  double egress_usd_per_gb = 0.0;

  // Factors on the catalog prices in hour h (reserved: at its term's first hour).
  double on_demand_factor(long hour) const {
    return price_factor(price_schedules.on_demand, price_change_per_year, hour) * generation_step.at(hour);
  }
  double spot_factor(long hour) const {
    return price_factor(price_schedules.spot, price_change_per_year, hour) * generation_step.at(hour);
  }
  double reserved_factor(long hour) const {
    return price_factor(price_schedules.reserved, price_change_per_year, hour) * generation_step.at(hour);
  }
};

struct Financing {
  enum class Kind { cash, loan, lease };
  Kind kind = Kind::cash;
  double apr = 0.0;
  int term_months = 0;
  double down_payment_fraction = 0.0;
  double lease_usd_per_node_month = 0.0;
  bool maintenance_included = false;  // lease only
};

struct StaffSpec {
  double fixed_fte = 0.0;
  double fte_per_node = 0.0;
  double usd_per_fte_year = 0.0;
  double escalation_per_year = 0.0;
};

// Hardware failures (SPEC §4): each node fails as a Poisson process of rate
// afr_per_year / 8760 per hour, rising by afr_growth_per_year (fractional) per year of age;
// a failed node is back after repair_h.
struct FailureSpec {
  double afr_per_year = 0.0;
  double afr_growth_per_year = 0.0;
  double repair_h = 24.0;
};

struct OnPremSpec {
  ServerModel server;
  GpuModel gpu;
  double network_usd_per_node = 0.0;
  double storage_usd_per_node = 0.0;
  double install_usd_per_node = 0.0;
  double room_capex_usd = 0.0;
  // Share of the GPUs the hourly fluid model can fill with jobs, in (0, 1] (fragmentation:
  // 5-GPU jobs on 8-GPU nodes fill 5 of 8). The discrete-event replay packs jobs itself and
  // ignores it; `tcosim calibrate` fits it from a replay (docs/calibration.md).
  double packing_efficiency = 1.0;
  int purchase_month = 0;             // the planned delivery month (models/finance/procurement.hpp)
  std::optional<ProcurementSpec> procurement;  // order, deposit and delivery slip (bought fleets only)
  SiteCapacity site;
  CarbonSpec carbon;
  double maintenance_per_year = 0.0;  // fraction of capex per year
  Financing financing;
  double life_years = 5.0;            // depreciation and the utilization breakeven
  double salvage_fraction = 0.0;      // of the depreciable cost
  BookMethod book_method = BookMethod::straight_line;
  // The tax view (MACRS, bonus, section 179); absent = the tax shield follows the book view.
  std::optional<TaxDepreciationSpec> tax_depreciation;
  bool residual_enabled = true;
  double resale_decline_per_year = 0.3;
  GenerationStep resale_step;  // the next generation's step on the resale value (models/next_generation/)
  bool resale_follows_cloud_price = false;  // residual.follows_cloud_price as written
  std::optional<ResalePricePath> resale_price_path;  // filled from the plan's cloud (models/finance/resale_price_path.hpp)
  double tax_rate = 0.0;
  bool tax_shield_enabled = false;
  StaffSpec staff;
  FailureSpec failures;
  std::optional<SparesSpec> spares;  // hot spares, repair cost and goodput (models/site/spares.hpp)
  PowerSpec power;
  CoolingType cooling;
  std::optional<AmbientSpec> ambient;
  std::optional<Colocation> colocation;

  // The month the hardware arrives without a Monte Carlo path (a drawn slip at its median).
  int planned_delivery_month() const {
    return procurement ? tco::planned_delivery_month(purchase_month, *procurement) : purchase_month;
  }
  bool delivery_drawn() const { return procurement && procurement->slip_drawn; }
  int spare_nodes() const { return spares ? spares->nodes : 0; }
  double capex_per_node_usd() const {
    return server.price_usd + network_usd_per_node + storage_usd_per_node + install_usd_per_node;
  }
  // Installation has no resale value (SPEC §12.5).
  double resale_base_per_node_usd() const {
    return server.price_usd + network_usd_per_node + storage_usd_per_node;
  }
};

struct Plan {
  enum class Kind { cloud, onprem, hybrid };
  std::string name;
  Kind kind = Kind::cloud;
  int onprem_nodes = 0;
  int reserved_instances = 0;
  int reserved_term_years = 1;
  double spot_share = 0.0;  // share of the cloud overflow (after reserved) that runs on spot
  std::vector<Commitment> commitments;  // capacity blocks, savings plan, take-or-pay (models/commitment/)
  SchedulingSpec scheduling;  // the discrete-event replay's queue settings (docs/des.md)
  std::optional<OnPremSpec> onprem;  // present when onprem_nodes > 0 or the kind is not cloud
  std::optional<CloudSpec> cloud;    // present unless the kind is onprem
  // Sell the owned nodes and buy the next generation's (models/next_generation/refresh.hpp).
  std::optional<PlanRefresh> refresh;
  // Where the overflow after reserved goes, in order (models/venues/cloud_venue.hpp); empty =
  // the cloud offer's on-demand with spot_share on spot, as before venues existed.
  std::vector<CloudVenue> venues;
  Json resolved;                     // every resolved value, for the report

  bool bursts() const { return kind != Kind::onprem; }
  double reserved_usd_per_instance_hour() const;
};

// Monte Carlo settings; the command line may override both. paths = 1 with no uncertainty
// is the deterministic run.
struct MonteCarloSpec {
  long paths = 1;
  std::uint64_t seed = 0;
  double demand_growth_sigma_per_year = 0.0;  // per-path growth rate ~ growth + sigma z
};

struct Scenario {
  std::string file;
  std::string dir;
  std::string name;
  std::string description;
  Date start;
  Calendar calendar;
  int horizon_months = 36;
  double discount_rate_per_year = 0.0;
  double waiting_usd_per_gpu_hour = 0.0;
  // The top-level cloud section's spot.checkpoint_write_h (else the default): the replay's
  // checkpoint write time for plans without a cloud (docs/des.md).
  double checkpoint_write_h = SpotSpec{}.checkpoint_write_h;
  WorkloadSpec workload;          // hourly demand (empty when only "jobs" is given)
  std::optional<JobsSpec> jobs;   // jobs for the discrete-event replay (docs/des.md)
  MonteCarloSpec monte_carlo;
  std::optional<UncertainSpec> uncertain;  // inputs for sensitivity and breakevens (docs/decisions.md)
  std::optional<NextGenerationSpec> next_generation;  // a successor GPU's arrival (models/next_generation/)
  std::vector<Plan> plans;
  int baseline_index = 0;
  std::string catalog_dir;
  std::string catalog_digest_sha256;
  std::string scenario_digest_sha256;
  std::vector<Provenance> records_used;  // every catalog or inline record, sorted, unique
  std::vector<Finding> warnings;

  long horizon_hours() const { return static_cast<long>(horizon_months) * kHoursPerMonth; }
};

std::string to_string(Plan::Kind kind);

// The nodes a plan buys: its on-prem nodes and, when it has any, its hot spares.
inline int owned_nodes(const Plan& p) {
  return p.onprem && p.onprem_nodes > 0 ? p.onprem_nodes + p.onprem->spare_nodes() : 0;
}

// Loads and checks a scenario. `catalog_dir_override` (when not empty) replaces the
// scenario's "catalog_dir". Throws InputError / ModelError.
Scenario load_scenario(const std::string& path, const std::string& catalog_dir_override = "");

// The same from a JSON value (tests, sweeps); `file` and `dir` are used in messages and to
// resolve relative paths.
Scenario load_scenario_json(const Json& doc, const std::string& file, const std::string& dir,
                            const std::string& catalog_dir_override = "");

// `tcosim validate` on a scenario file: an error finding for what load_scenario rejects (with
// `catalog_dir_override` as `run --catalog` gives it), plus the scenario's warnings.
std::vector<Finding> validate_scenario_file(const std::string& path, const std::string& catalog_dir_override = "");

}  // namespace tco
