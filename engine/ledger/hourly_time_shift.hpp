// Time shifting in the hourly model (docs/model.md §5.2): a plan with `scheduling.time_shift`
// in a scenario whose workload has `deferrable {share, max_delay_h}` moves part of each hour's
// deferrable work into later hours where its owned GPUs would otherwise stand idle and the
// work's energy costs less. The move is planned once, on the deterministic forecast (the
// plan's own site and fleet, the scenario's demand), as a scheduler planning the week would;
// every Monte Carlo path then runs the shifted demand (times its own growth).
//
// Per hour h, with work in reference GPU-hours, N(h) nodes up, G GPUs per node, packing q,
// perf p and work rate w(h) (w < 1 when throttled):
//   cap(h)  = N(h) G q p w(h)                     the work the pool can do
//   room(h) = (N(h) - 1) G q p w(h) - load(h)     what a hold may fill: one node is kept free
//   e(h)    = (peak_kw - idle_kw) / (G p w(h)) x PUE(h) x (usd_per_kwh(h) + carbon(h))
//             the energy (and carbon price) of one unit of work run on-prem at h
//   net(h -> t) = e(t) + waiting_usd_per_gpu_hour x (t - h)
// In hour order, the deferrable work s x D(h) of an hour that runs all its load on-prem (load
// <= cap, and for a plan that does not burst no backlog coming in) goes, cheapest first, into
// the whole hours t in (h, h + max_delay_h] with room and net(h -> t) < e(h); ties go to the
// earliest hour, and a filled hour sends the rest on (valley filling). Work moved into an hour
// is not moved again. With a demand charge, room(t) also keeps t's facility kW at or under its
// month's peak before shifting, so no month's peak rises.
// Why this never costs more in the deterministic run: every unit moved leaves an hour where it
// ran on-prem and lands where it runs on-prem too, so it changes only its energy, from e(h) to
// e(t), and adds its wait; the move is made only when that sum is lower. A target hour stays
// below its capacity, so no backlog grows (for a plan that does not burst, only hours with no
// backlog coming in are used). On a Monte Carlo path (failures, growth, ambient noise) the
// forecast can be wrong; the node kept free is the margin.
// Example (tests/test_hourly_time_shift.cpp): 3 nodes of 8 GPUs at 1 kW above idle per GPU, PUE
// 1.5, $0.25/kWh in hours 0-1 and $0.05 after, waiting $0.10/GPU-h, share 0.5, 4 h; demand 16, 16,
// then 4: e = $0.375 then $0.075. Hour 0's 8 go to hour 2 (net 0.275); hour 1's 8 go 4 to hour 2
// (net 0.175, room 4) and 4 to hour 3 (0.275). Moved 16, held 28 GPU-hours ($2.80), saved $4.80.
#pragma once

#include <vector>

#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/hourly/site_hour.hpp"

namespace tco {

struct HourlyShiftInputs {
  double share = 0.0;          // of each hour's demand that may wait
  double max_delay_h = 0.0;    // the latest a unit of work may run after its hour
  double waiting_usd_per_gpu_hour = 0.0;
  FleetParams fleet;
  double nodes = 0.0;          // nodes up from nodes_from_hour on
  double spare_nodes = 0.0;    // powered, idle (for the demand charge's kW)
  long nodes_from_hour = 0;
  std::vector<SiteHour> site;              // the deterministic site, one per hour
  std::vector<double> carbon_usd_per_kwh;  // per hour; empty: no carbon price
  double demand_charge_usd_per_kw_month = 0.0;
};

// What the shift did, in the deterministic forecast.
struct HourlyShiftFigures {
  double share = 0.0;
  double max_delay_h = 0.0;
  double moved_gpu_hours = 0.0;  // work moved to a later hour
  double held_gpu_hours = 0.0;   // sum over hours of the work held in it (GPU-hours x hours)
  double hold_usd = 0.0;         // held_gpu_hours x waiting_usd_per_gpu_hour
  double saved_usd = 0.0;        // sum of moved x (e(h) - e(t)): energy and carbon price, forecast
  long target_hours = 0;         // hours that received work

  bool operator==(const HourlyShiftFigures&) const = default;
};

struct HourlyShift {
  std::vector<double> demand_gpus;       // the shifted demand, per hour
  std::vector<double> hold_usd_by_month; // the waiting cost of the held work, in the months it waits
  HourlyShiftFigures figures;
};

HourlyShift shift_deferrable_demand(const std::vector<double>& demand_gpus, const HourlyShiftInputs& in, int months);

}  // namespace tco
