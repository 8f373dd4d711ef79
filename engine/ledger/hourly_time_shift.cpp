#include "engine/ledger/hourly_time_shift.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/calendar.hpp"

namespace tco {

namespace {

constexpr double kNoRoom = 1e-9;  // GPU-hours of room below which an hour takes no more

// The forecast's hour-by-hour figures that do not change as work moves.
struct ShiftForecast {
  std::vector<double> cap;        // work the pool can do
  std::vector<double> cap_kept;   // the same with one node kept free
  std::vector<double> usd_per_work;  // e(h); infinite with no node up
  std::vector<double> load_ceiling;  // the most load the month's unshifted peak kW allows
  std::vector<std::uint8_t> usable;  // 1: the hour's own load runs on-prem with no backlog coming in
};

ShiftForecast forecast(const std::vector<double>& demand, const HourlyShiftInputs& in, int months) {
  const long hours = static_cast<long>(demand.size());
  const FleetParams& f = in.fleet;
  const double per_node = f.gpus_per_node * f.packing_efficiency * f.perf_onprem;
  const double dynamic_kw_per_gpu = (f.peak_kw - f.idle_kw) / f.gpus_per_node;
  ShiftForecast out;
  out.cap.resize(hours);
  out.cap_kept.resize(hours);
  out.usd_per_work.resize(hours);
  out.load_ceiling.assign(hours, std::numeric_limits<double>::infinity());
  out.usable.assign(hours, 0);
  std::vector<double> peak_kw_by_month(months, 0.0);
  double backlog = 0.0;
  for (long h = 0; h < hours; ++h) {
    const SiteHour& site = in.site[h];
    const double nodes = h >= in.nodes_from_hour ? in.nodes : 0.0;
    out.cap[h] = nodes * per_node * site.work_rate;
    out.cap_kept[h] = std::max(0.0, nodes - 1.0) * per_node * site.work_rate;
    const double carbon = in.carbon_usd_per_kwh.empty() ? 0.0 : in.carbon_usd_per_kwh[h];
    out.usd_per_work[h] = nodes > 0.0 ? dynamic_kw_per_gpu / (f.perf_onprem * site.work_rate) * site.pue *
                                            (site.usd_per_kwh + carbon)
                                      : std::numeric_limits<double>::infinity();
    const double need = demand[h] + backlog;
    out.usable[h] = nodes > 0.0 && backlog == 0.0 && demand[h] <= out.cap[h] ? 1 : 0;
    const double onprem_work = std::min(need, out.cap[h]);
    if (!f.bursts) backlog = need - onprem_work < 1e-12 ? 0.0 : need - onprem_work;
    if (nodes > 0.0) {
      const double busy_gpus = onprem_work / (f.perf_onprem * site.work_rate);
      const double kw = ((nodes + in.spare_nodes) * f.idle_kw + dynamic_kw_per_gpu * busy_gpus) * site.pue;
      double& peak = peak_kw_by_month[month_of_hour(h)];
      peak = std::max(peak, kw);
    }
  }
  if (in.demand_charge_usd_per_kw_month > 0.0 && dynamic_kw_per_gpu > 0.0) {
    for (long h = 0; h < hours; ++h) {
      const double nodes = h >= in.nodes_from_hour ? in.nodes : 0.0;
      if (nodes <= 0.0) continue;
      const SiteHour& site = in.site[h];
      const double it_kw = peak_kw_by_month[month_of_hour(h)] / site.pue - (nodes + in.spare_nodes) * f.idle_kw;
      out.load_ceiling[h] = it_kw / dynamic_kw_per_gpu * f.perf_onprem * site.work_rate;
    }
  }
  return out;
}

}  // namespace

HourlyShift shift_deferrable_demand(const std::vector<double>& demand_gpus, const HourlyShiftInputs& in, int months) {
  const long hours = static_cast<long>(demand_gpus.size());
  const ShiftForecast fc = forecast(demand_gpus, in, months);
  HourlyShift out;
  out.demand_gpus = demand_gpus;
  std::vector<double>& load = out.demand_gpus;
  out.hold_usd_by_month.assign(months, 0.0);
  out.figures.share = in.share;
  out.figures.max_delay_h = in.max_delay_h;
  std::vector<std::uint8_t> received(hours, 0);
  std::vector<double> held_change(hours + 1, 0.0);  // held(x) = sum of held_change over [0, x]
  const long reach = static_cast<long>(std::floor(in.max_delay_h));
  const auto room = [&](long t) {
    if (!fc.usable[t]) return 0.0;
    return std::min(fc.cap_kept[t], fc.load_ceiling[t]) - load[t];
  };
  for (long h = 0; h < hours; ++h) {
    double left = in.share * demand_gpus[h];
    if (left <= 0.0 || !fc.usable[h] || load[h] > fc.cap[h]) continue;
    const long last = std::min(hours - 1, h + reach);
    while (left > 0.0) {
      long best = -1;
      double best_net = fc.usd_per_work[h];
      for (long t = h + 1; t <= last; ++t) {
        const double net = fc.usd_per_work[t] + in.waiting_usd_per_gpu_hour * static_cast<double>(t - h);
        if (net < best_net && room(t) > kNoRoom) {
          best = t;
          best_net = net;
        }
      }
      if (best < 0) break;
      const double moved = std::min(left, room(best));
      load[best] += moved;
      load[h] -= moved;
      left -= moved;
      held_change[h] += moved;
      held_change[best] -= moved;
      received[best] = 1;
      out.figures.moved_gpu_hours += moved;
      out.figures.saved_usd += moved * (fc.usd_per_work[h] - fc.usd_per_work[best]);
    }
    if (load[h] < 1e-12) load[h] = 0.0;
  }
  double held = 0.0;
  for (long x = 0; x < hours; ++x) {
    held += held_change[x];
    if (held <= 1e-12) continue;
    out.figures.held_gpu_hours += held;
    out.hold_usd_by_month[month_of_hour(x)] += held * in.waiting_usd_per_gpu_hour;
  }
  out.figures.hold_usd = out.figures.held_gpu_hours * in.waiting_usd_per_gpu_hour;
  out.figures.target_hours = std::count(received.begin(), received.end(), std::uint8_t{1});
  return out;
}

}  // namespace tco
