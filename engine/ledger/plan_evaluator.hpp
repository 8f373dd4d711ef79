// Evaluates one plan of a scenario deterministically, hour by hour over the horizon (the
// fluid model of engine/ledger/hourly/hourly_model.hpp), and books every cost into the monthly ledger.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/ledger/api_booking.hpp"
#include "engine/ledger/commitment_booking.hpp"
#include "engine/ledger/depreciation_booking.hpp"
#include "engine/ledger/goodput.hpp"
#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/hourly_time_shift.hpp"
#include "engine/ledger/ledger.hpp"
#include "engine/ledger/ownership_costs.hpp"
#include "engine/ledger/refresh_booking.hpp"
#include "engine/ledger/hourly/site_hour.hpp"
#include "engine/ledger/hourly/venue_hour.hpp"
#include "models/scenario.hpp"

namespace tco {

struct EvaluationOptions {
  // Multiplies every cloud price (on-demand, spot and reserved): the price breakeven's knob.
  double cloud_price_multiplier = 1.0;
  // A Monte Carlo path of the venues' availability (engine/ledger/hourly/venue_hour.hpp); absent: its expectation.
  std::optional<VenueDrawKey> venue_draws;
  // A Monte Carlo path's demand growth (the sweep kernel's lambda per hour, engine/sweep/sweep_kernel.hpp):
  // hour h's GPU demand and tokens x c(h) = exp(lambda h0) exp(lambda (h - h0)), h0 its month's first
  // hour; 0: the demand as written.
  double demand_growth_lambda_per_h = 0.0;
  // A Monte Carlo path's owned node-hours down in each hour (failures; empty: none): nodes up = nodes - down.
  std::vector<double> nodes_down_by_hour;
};

struct GpuHours {
  double onprem_busy = 0.0;
  double onprem_capacity = 0.0;  // nodes up x G, before packing (utilization <= packing)
  double reserved_used = 0.0;
  double reserved_paid = 0.0;
  double spot_billed = 0.0;
  double on_demand_billed = 0.0;
  double cloud_work = 0.0;
  double useful = 0.0;     // reference GPU-hours of work completed
  double waited = 0.0;     // GPU-hours of work waiting: for on-prem capacity (no-burst plans), or
                           // held by time shifting (engine/ledger/hourly_time_shift.hpp)
  double unserved = 0.0;   // work still waiting at the horizon's end
  double api_work = 0.0;   // the part of `useful` an API took (tokens / tokens per reference GPU-hour)

  bool operator==(const GpuHours&) const = default;
  GpuHours& operator+=(const GpuHours& o) {
    static_assert(sizeof(GpuHours) == 11 * sizeof(double), "a new GpuHours field: add it here");
    onprem_busy += o.onprem_busy;
    onprem_capacity += o.onprem_capacity;
    reserved_used += o.reserved_used;
    reserved_paid += o.reserved_paid;
    spot_billed += o.spot_billed;
    on_demand_billed += o.on_demand_billed;
    cloud_work += o.cloud_work;
    useful += o.useful;
    waited += o.waited;
    unserved += o.unserved;
    api_work += o.api_work;
    return *this;
  }
};

struct FacilityFigures {
  int nodes_per_rack = 0;
  int racks = 0;
  double rack_peak_kw = 0.0;         // peak IT of the fullest rack
  double airflow_cfm_per_rack = 0.0;
  double provisioned_it_kw = 0.0;    // nodes x peak_kw
};

// An owned fleet's order and delivery, for a plan with `procurement` (models/finance/procurement.hpp).
// Without Monte Carlo paths every delivery figure is the planned month.
struct ProcurementFigures {
  int order_month = 0;
  int purchase_month = 0;             // the delivery the order promises
  int planned_delivery_month = 0;     // purchase_month + the fixed slip, or a drawn slip's median
  double deposit_usd = 0.0;           // paid at the start of order_month
  bool drawn = false;                 // the slip is drawn per path
  long paths = 0;                     // paths the distribution below is over (0: no paths)
  double delivery_month_mean = 0.0;
  double delivery_month_p5 = 0.0;
  double delivery_month_p50 = 0.0;
  double delivery_month_p95 = 0.0;
  double share_later_than_planned = 0.0;  // of paths delivered after planned_delivery_month
  double share_past_horizon = 0.0;        // of paths with no delivery inside the horizon
};

struct PlanResult {
  std::string name;
  Ledger ledger;
  double total_usd = 0.0;
  double npv_usd = 0.0;
  std::optional<double> usd_per_useful_gpu_hour;
  std::optional<double> onprem_utilization;  // busy / capacity GPU-hours while nodes exist
  GpuHours gpu_hours;
  // The same figures month by month (the fluid model's: each month's sum of its hours); empty from the
  // replay, whose report keeps the horizon's means only. The FOCUS export reads them.
  std::vector<GpuHours> gpu_hours_by_month;
  double it_energy_kwh = 0.0;
  double facility_energy_kwh = 0.0;
  std::vector<double> facility_energy_kwh_by_month;  // the fluid model's, as gpu_hours_by_month
  double peak_facility_kw = 0.0;
  std::vector<double> peak_facility_kw_by_month;
  FacilityFigures facility;
  double co2_onprem_kg = 0.0;
  std::optional<double> co2_cloud_kg;   // when the offer gives its grid's carbon intensity
  double co2_embodied_kg = 0.0;         // the servers' embodied CO2 amortised inside the horizon
  int throttled_hours = 0;
  std::vector<double> depreciation_usd_by_month;
  double depreciation_total_usd = 0.0;
  // The yearly book and tax views, for an owned (not leased) fleet whose scenario opts in to a
  // depreciation view (`depreciation.method` or `depreciation.tax`); absent otherwise.
  std::optional<DepreciationViews> depreciation_views;
  std::optional<ProcurementFigures> procurement;
  // The replay's goodput (mean figures over the paths), for a plan that opts in with
  // `onprem.spares`; absent otherwise, and from the fluid models (they draw no failures to lose).
  std::optional<GoodputFigures> goodput;
  std::vector<VenueFigures> venues;  // a plan with venues: one per venue, in order
  std::vector<CommitmentFigures> commitments;  // one per instrument of the plan, in its order
  std::optional<RefreshFigures> refresh;       // a plan with `refresh` (engine/ledger/refresh_booking.hpp)
  // A plan with scheduling.time_shift on an hourly workload with a deferrable share.
  std::optional<HourlyShiftFigures> time_shift;
  std::optional<ApiFigures> api;  // a plan that buys tokens from an API (engine/ledger/api_booking.hpp)
};

// The figures of one delivery month (the deterministic run: the planned month).
ProcurementFigures procurement_figures(const OnPremSpec& onprem, const OwnershipSummary& ownership, int horizon_months);

// Layout of the plan's racks (throws ModelError when a node fits no rack).
FacilityFigures facility_figures(const OnPremSpec& onprem, int nodes);

// The cloud's CO2 (SPEC §5): cloud GPU-hours x the GPU's kW x the offer's PUE x its grid's
// g CO2/kWh, where the offer gives both (else null: tcosim does not guess a provider's PUE).
// Example: 1,000 GPU-hours of 700 W GPUs at PUE 1.2 and 400 g/kWh: 1000 x 0.7 x 1.2 x 0.4 = 336 kg.
std::optional<double> cloud_co2_kg(const CloudSpec& cloud, double cloud_gpu_hours);

// The plan's fleet and prices as the hourly step reads them, on-prem and cloud packing
// efficiency included; price_multiplier scales every cloud price (also used by the Monte Carlo sweep,
// engine/sweep/sweep_prepare.cpp, so the CPU and CUDA kernels get the same fleet).
FleetParams fleet_params(const Plan& plan, double price_multiplier = 1.0);

// The hourly time shift of a plan with scheduling.time_shift in a scenario whose workload has a
// deferrable share and that owns nodes (engine/ledger/hourly_time_shift.hpp); nullopt otherwise.
// `site` is site_hours of the plan's on-prem section.
std::optional<HourlyShift> plan_time_shift(const Scenario& scenario, const Plan& plan,
                                           const std::vector<double>& demand_gpus, const std::vector<SiteHour>& site);

PlanResult evaluate_plan(const Scenario& scenario, const Plan& plan, const std::vector<double>& demand_gpus,
                         const EvaluationOptions& options = {});

// The hour-by-hour environment of a plan's on-prem site: PUE, energy price (escalated) and
// work rate (throttling), from its cooling, tariff and ambient models.
std::vector<SiteHour> site_hours(const OnPremSpec& onprem, const Calendar& calendar, long hours);

}  // namespace tco
