#include "engine/sweep/sweep_prepare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "engine/ledger/api_booking.hpp"
#include "engine/ledger/ownership_costs.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "engine/ledger/hourly/spot_draws.hpp"
#include "engine/ledger/hourly/venue_hour.hpp"
#include "models/api/api_bill.hpp"
#include "models/finance.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/serving/token_demand.hpp"
#include "models/workload/workload.hpp"

namespace tco {

namespace {


bool power_of_two(double d) {
  int exponent = 0;
  return d > 0.0 && std::frexp(d, &exponent) == 0.5;
}

// A point's series, each stored once, laid end to end by into(): one copy of each into a buffer
// of the final size (appending to the point's data as they came made it regrow, copying the
// megabyte or so of series before at every growth).
class SeriesStore {
 public:
  // Stored whatever is there already (the point's demand and discount factors come first).
  long append(std::vector<double> series) {
    const long offset = size_;
    size_ += static_cast<long>(series.size());
    series_.push_back({offset, std::move(series), false});
    return offset;
  }

  // Stored unless an identical series was added before; returns its offset.
  long add(std::vector<double> series) {
    for (const Stored& s : series_)
      if (s.shared && s.values == series) return s.offset;
    const long offset = append(std::move(series));
    series_.back().shared = true;
    return offset;
  }

  void into(std::vector<double>& data) && {
    data.clear();
    data.reserve(static_cast<std::size_t>(size_));
    for (const Stored& s : series_) data.insert(data.end(), s.values.begin(), s.values.end());
  }

 private:
  struct Stored {
    long offset;
    std::vector<double> values;
    bool shared;
  };
  std::vector<Stored> series_;
  long size_ = 0;
};

static_assert(kSweepPreemptionLevels == kSpotPreemptionLevels);

struct FixedFlows {
  double npv_usd = 0.0;
  double total_usd = 0.0;
};

// The embodied part of `carbon`: fixed, the kernel books the grid's part.
FixedFlows embodied_flows(const Plan& plan, const Scenario& s) {
  if (owned_nodes(plan) == 0) return {};
  Ledger ledger(s.horizon_months);
  book_plan_embodied_carbon(plan, s.horizon_months, ledger);
  return {ledger.npv_usd(s.discount_rate_per_year), ledger.total_usd()};
}

// The waiting cost of the work a time shift holds (engine/ledger/hourly_time_shift.hpp): planned
// once on the forecast, so the same on every path.
FixedFlows hold_flows(const std::optional<HourlyShift>& shift, double discount_rate_per_year) {
  FixedFlows f;
  if (!shift) return f;
  for (int m = 0; m < static_cast<int>(shift->hold_usd_by_month.size()); ++m) {
    f.npv_usd += shift->hold_usd_by_month[m] * discount_end_of_month(discount_rate_per_year, m);
    f.total_usd += shift->hold_usd_by_month[m];
  }
  return f;
}

FixedFlows category_flows(const PlanResult& det, Category c, double discount_rate_per_year) {
  return {det.ledger.category_npv_usd(c, discount_rate_per_year), det.ledger.category_total_usd(c)};
}

// The ledger categories that no random input touches, and (with_api) the deterministic API bill:
// the kernels add each path's hourly difference to it (sweep_api_hour_usd), 0 where nothing drawn
// moves the hour, so such a path keeps these bits.
FixedFlows fixed_flows(const PlanResult& det, double discount_rate_per_year, bool with_api = true) {
  FixedFlows f;
  const auto add = [&](Category c) {
    const FixedFlows one = category_flows(det, c, discount_rate_per_year);
    f.npv_usd += one.npv_usd;
    f.total_usd += one.total_usd;
  };
  for (Category c : kVolumeFixedCategories) add(c);
  if (with_api) add(Category::api);
  // The GPU bill's uplifts (support, goodput's lost work) are the deterministic run's too
  // (docs/model.md "Hidden costs of renting").
  add(Category::support);
  add(Category::lost_work);
  return f;
}

// A next generation whose arrival month is drawn per path: the step goes on the kernel's
// prices (p.arrival), and, when the plan's reserved terms or resale value step with it, the
// fixed flows are tabulated by arrival month 0 .. months from the plan's evaluation at each
// month the draw can give (a month past the horizon's end changes nothing inside it), a
// refresh's month and fleets moving with it.
void set_drawn_arrival(SweepPlanParams& p, const Scenario& s, const Plan& plan, const std::vector<double>& demand,
                       const FixedFlows& hold, const FixedFlows& api, SeriesStore& store) {
  const ArrivalDraw& draw = s.next_generation->arrival_draw;
  p.arrival = draw;
  if (plan.cloud && plan.cloud->generation_step.from_hour >= 0)
    p.generation_rent_factor = plan.cloud->generation_step.factor;
  const bool reserved_steps = plan.cloud && plan.reserved_instances > 0 && p.generation_rent_factor != 1.0;
  const bool resale_steps = owned_nodes(plan) > 0 && plan.onprem->resale_step.active();
  if (!reserved_steps && !resale_steps && !plan.refresh) return;
  const int months = s.horizon_months;
  // The months the draw can give: triangular ceil(low) .. ceil(high), lognormal 0 .. (a month at or
  // past the horizon's end prices as the horizon's end).
  const int lowest = draw.lognormal ? 0 : std::min(whole_arrival_month(draw.low_months), months);
  const int highest = draw.lognormal ? months : std::min(whole_arrival_month(draw.high_months), months);
  std::vector<double> npv(static_cast<std::size_t>(months) + 1, p.fixed_npv_usd);
  std::vector<double> total(npv.size(), p.fixed_total_usd);
  for (int a = lowest; a <= highest; ++a) {
    Plan moved = plan;
    move_next_generation(moved, a);
    // The API's part is the plan as written's: the kernel bills each hour's difference to it.
    const FixedFlows f = fixed_flows(evaluate_plan(s, moved, demand), s.discount_rate_per_year, false);
    const FixedFlows embodied = embodied_flows(moved, s);
    npv[a] = f.npv_usd + api.npv_usd + embodied.npv_usd + hold.npv_usd;
    total[a] = f.total_usd + api.total_usd + embodied.total_usd + hold.total_usd;
  }
  p.fixed_npv_by_arrival_offset = store.add(std::move(npv));
  p.fixed_total_by_arrival_offset = store.add(std::move(total));
}

void set_spot(SweepPlanParams& p, const Plan& plan) {
  const SpotDraws d = spot_draws(plan);
  p.spot_unavailable_below = d.unavailable_below;
  p.preemption_levels = d.preemption_levels;
  std::copy(d.preemption_cdf, d.preemption_cdf + kSpotPreemptionLevels, p.preemption_cdf);
  p.preemption_base_factor = d.preemption_base_factor;
  p.preemption_loss_h = d.preemption_loss_h;
  if (plan.cloud && plan.spot_share > 0.0) p.spot_price_sigma = plan.cloud->spot.price_sigma;
}

// A plan's venues, their price factor (price_change_per_year alone, as the deterministic run's)
// and, with a spot venue, the spot price shock and process of the plan's cloud section.
// A plan that buys tokens with venues gives them the tokens above its API's rate limit, as
// reference GPUs, hour by hour on each path (sweep_api_hour_usd), instead of the fleet's overflow.
void set_venues(SweepPlanParams& p, const Plan& plan, long hours, SeriesStore& store) {
  const std::vector<VenueParams> venues = plan.api_bursts_to_venues() ? api_venue_params(plan) : venue_params(plan);
  p.venue_count = static_cast<int>(venues.size());
  std::copy(venues.begin(), venues.end(), p.venues);
  const CloudSpec& c = *plan.cloud;
  if (c.price_change_per_year != 0.0) {
    std::vector<double> factor(hours);
    for (long t = 0; t < hours; ++t) factor[t] = hourly_growth_factor(c.price_change_per_year, t);
    p.venue_factor_offset = store.add(std::move(factor));
  }
  if (std::any_of(venues.begin(), venues.end(), [](const VenueParams& v) { return v.spot != 0; })) {
    p.spot_price_sigma = c.spot.price_sigma;
    p.spot_process = c.price_processes.spot_params();
  }
}

// A plan that buys tokens: what the kernel needs to bill each hour of a path as ApiMeter::add_hour
// bills it, and the deterministic run's bill hour by hour (the kernel adds the path's difference).
void set_api(SweepPlanParams& p, const Scenario& s, const Plan& plan, const PlanResult& det, long hours,
             SeriesStore& store) {
  const ApiMeter meter(s, plan);
  p.api = 1;
  p.api_prices = api_prices(*plan.api);
  p.api_tokens_per_gpu_hour = meter.tokens_per_gpu_hour();
  p.api_input_share = meter.input_share_at(0);
  std::vector<double> series(hours);
  if (meter.input_share_by_hour()) {
    for (long t = 0; t < hours; ++t) series[t] = meter.input_share_at(t);
    p.api_input_share_offset = store.add(series);
  }
  for (long t = 0; t < hours; ++t) series[t] = plan.api->price_factor_at(t);
  p.api_factor_offset = store.add(std::move(series));
  p.api_usd_offset = store.add(det.api->usd_by_hour);
}

void set_failures(SweepPlanParams& p, const FailureSpec& f, int nodes, long hours) {
  if (nodes <= 0 || f.afr_per_year <= 0.0) return;
  p.failure_nodes = nodes;
  p.failure_rate_per_h = f.afr_per_year / kHoursPerYear;
  p.failure_growth_b_per_h = f.afr_growth_per_year / (2.0 * kHoursPerYear);
  p.repair_h = f.repair_h;
  // Room for the failures of one path: the expected count (no repairs) + 12 sigma + 16.
  const double life_h = static_cast<double>(hours - p.nodes_from_hour);
  const double mean = nodes * failure_cumulative_hazard(life_h, p.failure_rate_per_h, p.failure_growth_b_per_h);
  const double capacity = std::ceil(mean + 12.0 * std::sqrt(mean) + 16.0);
  if (capacity > 1 << 22)
    throw ModelError(fmt::format("the sweep would track about {:.0f} node failures per path (nodes {}, AFR {}); "
                                 "that is beyond the fluid model's design (at most 4 million)",
                                 mean, nodes, f.afr_per_year));
  p.failure_capacity = static_cast<int>(capacity);
}

}  // namespace

SweepPoint prepare_sweep_point(const Scenario& s, std::uint64_t seed) {
  SweepPoint point;
  SweepPointHeader& h = point.header;
  const long hours = s.horizon_hours();
  const int months = s.horizon_months;
  h.hours = hours;
  h.months = months;
  h.plan_count = static_cast<int>(s.plans.size());
  h.baseline = s.baseline_index;
  h.seed = seed;
  h.growth_per_year = s.workload.growth_per_year;
  h.growth_log_per_year = std::log1p(s.workload.growth_per_year);
  h.growth_sigma_per_year = s.monte_carlo.demand_growth_sigma_per_year;

  const std::vector<double> demand = demand_gpus_by_hour(s.workload, hours, s.calendar);
  SeriesStore store;
  h.demand_offset = store.append(demand);
  std::vector<double> discount(static_cast<std::size_t>(months));
  for (int m = 0; m < months; ++m) discount[m] = discount_end_of_month(s.discount_rate_per_year, m);
  h.discount_offset = store.append(std::move(discount));
  if (s.workload.tokens) {
    // Each path's tokens served (sweep_tokens_served); the sum in hour order, as plan_tokens adds
    // the tokens demanded, so a path without growth uncertainty starts from the same bits.
    std::vector<double> tokens = token_hours(*s.workload.tokens, hours, s.calendar).tokens;
    for (double t : tokens) h.tokens_total += t;
    h.tokens_offset = store.append(std::move(tokens));
  }

  for (const Plan& plan : s.plans) {
    const PlanResult det = evaluate_plan(s, plan, demand);
    point.deterministic_npv_usd.push_back(det.npv_usd);

    SweepPlanParams p;
    if (plan.uses_api()) set_api(p, s, plan, det, hours, store);
    p.fleet = fleet_params(plan);  // packing efficiency included: both kernels step with it
    p.power_of_two_divisors = power_of_two(p.fleet.gpus_per_node) && power_of_two(p.fleet.gpus_per_instance) &&
                              power_of_two(p.fleet.perf_cloud);
    const FixedFlows fixed = fixed_flows(det, s.discount_rate_per_year);
    p.fixed_npv_usd = fixed.npv_usd;
    p.fixed_total_usd = fixed.total_usd;
    p.waiting_usd_per_gpu_hour = s.waiting_usd_per_gpu_hour;
    const int nodes = plan.onprem ? plan.onprem_nodes : 0;
    const FixedFlows embodied = embodied_flows(plan, s);
    p.fixed_npv_usd += embodied.npv_usd;
    p.fixed_total_usd += embodied.total_usd;
    const std::vector<SiteHour> site = plan.onprem ? site_hours(*plan.onprem, s.calendar, hours) : std::vector<SiteHour>{};
    const std::optional<HourlyShift> shift = plan_time_shift(s, plan, demand, site);
    const FixedFlows hold = hold_flows(shift, s.discount_rate_per_year);
    p.fixed_npv_usd += hold.npv_usd;
    p.fixed_total_usd += hold.total_usd;
    if (shift) p.demand_offset = store.add(shift->demand_gpus);
    if (nodes > 0 && plan.onprem->resale_price_path && plan.cloud->price_processes.on_demand) {
      p.residual_follows_process = 1;
      p.delivery_month = plan.onprem->planned_delivery_month();
      p.residual_npv_usd = det.ledger.category_npv_usd(Category::residual, s.discount_rate_per_year);
      p.residual_total_usd = det.ledger.category_total_usd(Category::residual);
    }
    if (plan.refresh && nodes > 0) {
      p.refresh_after_arrival_months = plan.refresh->months_after_arrival;
      p.refresh_month = plan.refresh->month;
      p.delivery_month = plan.onprem->planned_delivery_month();
      p.refreshed_fleet = refreshed_fleet_params(p.fleet, *plan.refresh);
      p.refreshed_nodes = plan.refresh->nodes;
      p.power_of_two_divisors = p.power_of_two_divisors && power_of_two(p.refreshed_fleet.gpus_per_node);
    }
    const bool drawn_arrival =
        s.next_generation && s.next_generation->arrival_draw.drawn && stepped_by_next_generation(plan);
    if (drawn_arrival)
      set_drawn_arrival(p, s, plan, demand, hold, category_flows(det, Category::api, s.discount_rate_per_year), store);
    p.nodes = nodes;
    if (nodes > 0) p.spare_nodes = plan.onprem->spare_nodes();
    // The kernel has no delivery draw: a fixed slip shifts the delivery, a drawn one is refused.
    if (plan.onprem && plan.onprem->delivery_drawn())
      throw InputError(s.file, "/onprem/procurement/delivery_slip_months",
                       fmt::format("plan \"{}\" draws its delivery slip per path; the hourly sweep model has no such "
                                   "draw (its CPU and CUDA kernels share one hourly step): give a fixed slip in months, "
                                   "or run the scenario's discrete-event Monte Carlo",
                                   plan.name));
    p.nodes_from_hour =
        plan.onprem ? std::min<long>(static_cast<long>(plan.onprem->planned_delivery_month()) * kHoursPerMonth, hours)
                    : hours;

    if (plan.cloud) {
      // With a drawn arrival the kernel puts the step on the factors of each path itself.
      std::optional<CloudSpec> unstepped;
      if (drawn_arrival) {
        unstepped = *plan.cloud;
        unstepped->generation_step = {};
      }
      const CloudSpec& c = unstepped ? *unstepped : *plan.cloud;
      p.egress_usd_per_cloud_work = c.egress_gb_per_gpu_hour * c.egress_usd_per_gb / c.gpu.perf_relative;
      if (c.price_change_per_year != 0.0 || c.price_schedules.on_demand || c.generation_step.active()) {
        std::vector<double> factor(hours);
        for (long t = 0; t < hours; ++t) factor[t] = c.on_demand_factor(t);
        p.cloud_factor_offset = store.add(std::move(factor));
      }
      // Spot follows the on-demand series unless either kind has a schedule of its own.
      p.spot_factor_offset = p.cloud_factor_offset;
      if (c.price_schedules.on_demand || c.price_schedules.spot) {
        std::vector<double> factor(hours);
        for (long t = 0; t < hours; ++t) factor[t] = c.spot_factor(t);
        p.spot_factor_offset = store.add(std::move(factor));
      }
      set_spot(p, plan);
      p.on_demand_process = c.price_processes.on_demand_params();
      if (plan.spot_share > 0.0) p.spot_process = c.price_processes.spot_params();
      if (!plan.venues.empty()) set_venues(p, plan, hours, store);
      // A plan that buys tokens bills egress on its reserved and committed work alone
      // (sweep_api_hour_usd): the overflow it steps at $0 is the API's tokens, which leave no rented fleet.
      // Commitments: their bills are fixed (cloud_reserved, above); the hours' pool and savings plan
      // change what each path's overflow pays.
      if (!plan.commitments.empty()) {
        CommitmentHours committed = commitment_hours(plan, hours);
        p.committed_gpus_offset = store.add(std::move(committed.committed_gpus));
        p.savings_plan_usd_offset = store.add(std::move(committed.savings_plan_usd));
      }
    }

    if (plan.onprem) {
      const OnPremSpec& o = *plan.onprem;
      std::vector<double> series(hours);
      for (long t = 0; t < hours; ++t) series[t] = site[t].pue;
      p.pue_offset = store.add(series);
      // A carbon price is a price per facility kWh (g_co2_per_kwh x usd_per_tonne / 10^6) added to
      // the tariff's, so both kernels book it with no change; the month's power shock must then
      // leave it alone, which the kernel cannot: that pair is refused.
      // With an hourly grid intensity the carbon price is the hour's g x price / 10^6.
      const HourlySeries* intensity = o.power.g_co2_series.get();
      const double carbon_usd_per_kwh = o.power.g_co2_per_kwh / 1e6 * o.carbon.usd_per_tonne;
      const bool priced_carbon = o.carbon.usd_per_tonne > 0.0 && (intensity || carbon_usd_per_kwh > 0.0);
      if (priced_carbon && o.power.monthly_price_sigma > 0.0 && nodes > 0)
        throw InputError(s.file, "/onprem/carbon/usd_per_tonne",
                         fmt::format("plan \"{}\" prices its CO2 and draws monthly power price shocks; the hourly "
                                     "sweep model would shock the carbon price too: use one of the two, or the "
                                     "discrete-event Monte Carlo",
                                     plan.name));
      for (long t = 0; t < hours; ++t)
        series[t] = site[t].usd_per_kwh +
                    (intensity ? intensity->at(t) / 1e6 * o.carbon.usd_per_tonne : carbon_usd_per_kwh);
      p.usd_per_kwh_offset = store.add(series);
      for (long t = 0; t < hours; ++t) series[t] = site[t].work_rate;
      p.work_rate_offset = store.add(series);
      p.power_price_sigma = o.power.monthly_price_sigma;
      p.pue = pue_params(o.cooling);
      if (o.ambient) {
        p.throttle_fraction = o.ambient->throttle_fraction;
        p.throttles = o.ambient->throttle_above_c.has_value() ? 1 : 0;
        p.throttle_above_c = o.ambient->throttle_above_c.value_or(0.0);
        // Noise matters only where temperature does: an ambient-driven PUE or throttling.
        if (o.ambient->noise_sigma_c > 0.0 && (p.pue.ambient_driven || p.throttles)) {
          p.ambient_sigma_c = o.ambient->noise_sigma_c;
          for (long t = 0; t < hours; ++t)
            series[t] = ambient_c_at_hour(*o.ambient, t, s.calendar);
          p.ambient_c_offset = store.add(series);
        }
      }
      if (nodes > 0 && o.power.demand_charge_usd_per_kw_month > 0.0) {
        p.demand_charge_usd_per_kw_month = o.power.demand_charge_usd_per_kw_month;
        std::vector<double> growth(months);
        for (int m = 0; m < months; ++m) growth[m] = monthly_growth_factor(o.power.escalation_per_year, m);
        p.demand_charge_offset = store.add(std::move(growth));
      }
      set_failures(p, o.failures, nodes, hours);
    }
    p.failure_offset = h.failure_scratch;
    h.failure_scratch += p.failure_capacity;
    point.plans.push_back(p);
  }
  std::move(store).into(point.data);
  return point;
}

namespace {

// The chunk's series, each stored once: identical series of different points share an offset,
// which also lets plans be compared by their offsets.
class ChunkSeriesStore {
 public:
  explicit ChunkSeriesStore(std::vector<double>& data) : data_(data) {}

  long add(const double* series, std::size_t size) {
    const std::uint64_t key = hash(series, size);
    const auto [first, last] = stored_.equal_range(key);
    for (auto it = first; it != last; ++it) {
      const auto [offset, stored_size] = it->second;
      if (stored_size == size && std::equal(series, series + size, data_.begin() + offset)) return offset;
    }
    const long offset = static_cast<long>(data_.size());
    data_.insert(data_.end(), series, series + size);
    stored_.emplace(key, std::make_pair(offset, size));
    return offset;
  }

 private:
  // FNV-1a over the values' bits (equal series hash equally; a collision costs a comparison).
  static std::uint64_t hash(const double* series, std::size_t size) {
    std::uint64_t h = 14695981039346656037ull ^ size;
    for (std::size_t i = 0; i < size; ++i) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, series + i, sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
    return h;
  }

  std::vector<double>& data_;
  std::unordered_multimap<std::uint64_t, std::pair<long, std::size_t>> stored_;
};

// Everything of a point that a plan's path result depends on, besides the plan itself.
bool same_point_inputs(const SweepPointHeader& a, const SweepPointHeader& b) {
  return a.hours == b.hours && a.months == b.months && a.demand_offset == b.demand_offset &&
         a.discount_offset == b.discount_offset && a.growth_log_per_year == b.growth_log_per_year &&
         a.growth_per_year == b.growth_per_year && a.growth_sigma_per_year == b.growth_sigma_per_year &&
         a.seed == b.seed && a.tokens_offset == b.tokens_offset && a.tokens_total == b.tokens_total;
}

// Plans equal but for where their failure scratch lies.
bool same_plan_inputs(SweepPlanParams a, SweepPlanParams b) {
  a.failure_offset = 0;
  b.failure_offset = 0;
  return a == b;
}

// For each plan, the nearest earlier plan with the same inputs, or -1.
std::vector<int> find_same_plans(const SweepChunk& chunk) {
  std::vector<int> same_as(chunk.plans.size(), -1);
  std::vector<int> point_of(chunk.plans.size());
  for (std::size_t i = 0; i < chunk.points.size(); ++i)
    for (int j = 0; j < chunk.points[i].plan_count; ++j) point_of[chunk.points[i].first_plan + j] = static_cast<int>(i);
  // Keyed by what cheaply tells plans apart; only plans with the same key are compared.
  std::unordered_map<std::uint64_t, std::vector<int>> by_key;
  for (int j = 0; j < static_cast<int>(chunk.plans.size()); ++j) {
    const SweepPlanParams& p = chunk.plans[j];
    const SweepPointHeader& pt = chunk.points[point_of[j]];
    std::uint64_t key = static_cast<std::uint64_t>(pt.demand_offset) * 1000003u;
    for (double x : {p.fixed_npv_usd, p.nodes, p.fleet.reserved_gpus, p.fleet.spot_share})
      key = (key ^ std::hash<double>{}(x)) * 1099511628211ull;
    std::vector<int>& earlier = by_key[key];
    for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
      if (same_point_inputs(chunk.points[point_of[*it]], pt) && same_plan_inputs(chunk.plans[*it], p)) {
        same_as[j] = *it;
        break;
      }
    }
    earlier.push_back(j);
  }
  return same_as;
}

}  // namespace

SweepChunk make_sweep_chunk(const std::vector<SweepPoint>& points) {
  SweepChunk chunk;
  ChunkSeriesStore store(chunk.data);
  for (const auto& p : points) {
    SweepPointHeader h = p.header;
    const auto rebase = [&](long& offset, long size) {
      if (offset >= 0) offset = store.add(p.data.data() + offset, static_cast<std::size_t>(size));
    };
    rebase(h.demand_offset, h.hours);
    rebase(h.discount_offset, h.months);
    rebase(h.tokens_offset, h.hours);
    h.first_plan = static_cast<int>(chunk.plans.size());
    for (SweepPlanParams plan : p.plans) {
      for (long* offset : {&plan.pue_offset, &plan.usd_per_kwh_offset, &plan.work_rate_offset, &plan.ambient_c_offset,
                           &plan.cloud_factor_offset, &plan.spot_factor_offset, &plan.committed_gpus_offset,
                           &plan.savings_plan_usd_offset, &plan.venue_factor_offset, &plan.demand_offset,
                           &plan.api_input_share_offset, &plan.api_factor_offset, &plan.api_usd_offset})
        rebase(*offset, h.hours);
      rebase(plan.demand_charge_offset, h.months);
      rebase(plan.fixed_npv_by_arrival_offset, h.months + 1);
      rebase(plan.fixed_total_by_arrival_offset, h.months + 1);
      chunk.plans.push_back(plan);
    }
    chunk.max_failure_scratch = std::max(chunk.max_failure_scratch, h.failure_scratch);
    chunk.has_tokens = chunk.has_tokens || h.tokens_offset >= 0;
    chunk.points.push_back(h);
  }
  chunk.same_as = find_same_plans(chunk);
  return chunk;
}

}  // namespace tco
