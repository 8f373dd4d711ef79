// The Monte Carlo fluid model of a sweep (SPEC §7, §9; docs/sweep.md): one plan of one grid
// point on one path, hour by hour, through the foundation's step_hour. Everything here is a
// small TCO_HD function on plain numbers, so the CPU backend (engine/sweep/sweep_cpu.cpp) and the
// CUDA backend (engine/sweep/sweep_cuda.cu) run the same code. A draw is Philox of (path, source,
// entity, draw) under the seed (core/random/random.hpp); no draw depends on the grid point, the
// plan, the thread or the backend (common random numbers):
//   demand growth  g_p = g + sigma_g z,  z = Phi^-1(u(demand, 0, 0));  D_p(h) = D(h) c(h),
//                  c(h) = exp(lambda 730 m) exp(lambda j), h = 730 m + j,
//                  lambda = (ln(1 + g_p) - ln(1 + g)) / 8760           (g_p clamped at -0.99)
//   spot capacity  hour h has none when w(spot_availability, h) < (1 - availability) 2^32;
//                  w(source, h) = word h mod 4 of Philox(path, source, 0, floor(h / 4))
//   preemptions    K_h ~ Poisson(rate) per instance by inversion of w(preemption, h);
//                  billed spot = work x spot_overhead_factor x (1 + write_h / tau + K_h loss_h),
//                  tau = sqrt(2 write_h / rate) (Young), loss_h = tau / 2 + restart_h
//                  (restart_h alone when an emergency checkpoint fits in the notice)
//   spot price     month m: x exp(s z - s^2 / 2), z = Phi^-1(u(spot_price, m, 0))
//   price process  month m: on-demand and spot prices x M_m of their kind's process
//                  (models/price_path/price_process.hpp; 1 without one)
//   power price    month m: the kWh price x exp(s z - s^2 / 2), z = Phi^-1(u(power_price, m, 0));
//                  the demand charge is not shocked (SPEC §12.10)
//   ambient        T'(h) = T(h) + sigma z_h, z_h = Phi^-1(u(ambient, h, 0)) -> PUE(T') and
//                  throttling at T'
// (demand growth, prices, weather and failures are the discrete-event replay's draws too, so
// the two models of one path see the same world; u(source, entity, draw) is the first uniform.)
//   resale path    a residual that follows the cloud price x M_{months-1} / M_p of the on-demand
//                  process (models/finance/resale_price_path.hpp)
//   next generation  with a drawn arrival month a_p (models/next_generation/arrival_draw.hpp), the
//                  cloud section's on-demand and spot prices x the step from month a_p on, and the
//                  fixed flows (reserved terms, residual) those of arrival month min(a_p, months)
//   refresh        from the month r of a plan's refresh (r = max(a_p + k, p + 1) with a drawn
//                  arrival) the successor's fleet and node count step the hours
//   venues         venue i of a plan has capacity in hour h when
//                  u(venue_availability, i, h) < availability_i (its own uniform per hour)
//   failures       node i (entity i): E_k = -ln u(failure, i, k); hazard rate
//                  rate (1 + growth a / 8760) at age a hours, Lambda(a) = rate (a + b a^2),
//                  b = growth / 17520; the k-th failure age solves Lambda(a_k) = Lambda(a_{k-1} +
//                  repair_h) + E_k (a_0 + repair_h := 0); the node is down [a_k, a_k + repair_h)
//                  and nodes_up(h) = N - (node-hours down inside [h, h + 1)).
//   tokens served  (a token workload) T_p = sum_h tokens(h) c(h) - U_p - API_unserved, where U_p
//                  walks the path's backlog B back over the last hours' demand, first in first out
//                  (engine/ledger/plan_tokens.hpp): U_p = sum tokens(h) c(h) x waiting(h) / D_p(h),
//                  waiting(h) = min(B left, D_p(h)); API_unserved: the tokens above an API's rate
//                  limit that its venues left on the path (below)
//   the API        (a plan that buys tokens) hour h sends sent_p(h) = max(0, tokens(h) c(h) - fleet
//                  work_p(h) x tokens per reference GPU-hour) to the API, billed as ApiMeter::add_hour
//                  bills it (models/api/api_hour_bill.hpp): the path's demand growth and the fleet's
//                  failures, throttling and refresh move the bill and what goes down the venue list.
//                  The deterministic bill is a fixed flow and the path adds bill_p(h) - bill(h) each
//                  hour: 0 exactly, so the same bits, where nothing drawn moves the hour. The API's
//                  tokens leave no rented fleet: egress on the reserved and committed work alone.
// Example: availability 0.9 -> about one hour in ten bills all its spot work on-demand; rate 0
// -> every spot hour is billed x spot_overhead_factor exactly, as in the deterministic run.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/calendar.hpp"
#include "core/hd.hpp"
#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/hourly/venue_step.hpp"
#include "core/random/random.hpp"
#include "models/api/api_hour_bill.hpp"
#include "models/next_generation/arrival_draw.hpp"
#include "models/next_generation/refresh.hpp"
#include "models/price_path/price_process.hpp"
#include "models/site/ambient.hpp"
#include "models/site/cooling.hpp"

namespace tco {

inline constexpr int kSweepPreemptionLevels = 16;  // Poisson(rate) inverted up to 16 per hour (engine/ledger/hourly/spot_draws.hpp)
inline constexpr int kSweepMonthHours = kHoursPerMonth;

// Status codes of the device-side path evaluation (host code throws; device code returns).
enum SweepStatus : int { kSweepOk = 0, kSweepFailureOverflow = 1 };

// One plan at one grid point, as plain numbers. Offsets index the data (a flat array of
// doubles); -1 means "none" (factor 1, or no on-prem site).
struct SweepPlanParams {
  FleetParams fleet;
  int power_of_two_divisors = 0;  // GPUs per node and per instance and cloud perf are powers of
                                  // two: step_hour may multiply by their (exact) reciprocals
  double fixed_npv_usd = 0.0;    // capex, financing, lease, maintenance, facility, staff,
  double fixed_total_usd = 0.0;  // reserved, residual, tax shield: the same on every path
  double nodes = 0.0;
  double spare_nodes = 0.0;      // hot spares: idle power from nodes_from_hour, no work
  long nodes_from_hour = 0;
  long pue_offset = -1;          // site series [hours]: PUE, USD/kWh (escalated), work rate
  long usd_per_kwh_offset = -1;
  long work_rate_offset = -1;
  long ambient_c_offset = -1;    // ambient temperature [hours], only with ambient noise
  long cloud_factor_offset = -1; // on-demand: (1 + price_change)^(h / 8760) or its schedule [hours]
  long spot_factor_offset = -1;  // spot: the same (the on-demand offset when neither has a schedule)
  long demand_charge_offset = -1;  // (1 + escalation)^(m / 12) [months]
  long committed_gpus_offset = -1;   // commitments' GPUs [hours] (engine/ledger/commitment_booking.hpp)
  long savings_plan_usd_offset = -1; // the savings plan's commitment [hours]
  long demand_offset = -1;           // the plan's own demand after time shifting [hours]; -1: the point's
  double demand_charge_usd_per_kw_month = 0.0;
  double egress_usd_per_cloud_work = 0.0;  // egress USD per reference GPU-hour sent to the cloud
  double waiting_usd_per_gpu_hour = 0.0;
  // spot
  std::uint32_t spot_unavailable_below = 0;
  int preemption_levels = 0;
  std::uint32_t preemption_cdf[kSweepPreemptionLevels] = {};
  double preemption_base_factor = 1.0;
  double preemption_loss_h = 0.0;
  double spot_price_sigma = 0.0;
  PriceProcessParams on_demand_process;  // inactive (all zero): M = 1
  PriceProcessParams spot_process;
  // on-prem site
  double power_price_sigma = 0.0;
  double ambient_sigma_c = 0.0;
  PueParams pue;
  double throttle_fraction = 0.0;  // the ambient model's (its series stays on the host)
  int throttles = 0;
  double throttle_above_c = 0.0;
  // failures
  int failure_nodes = 0;
  double failure_rate_per_h = 0.0;
  double failure_growth_b_per_h = 0.0;
  double repair_h = 0.0;
  int failure_capacity = 0;  // room for failure times on one path
  int failure_offset = 0;    // where this plan's room starts in the path's scratch
  // venues (engine/ledger/hourly/venue_step.hpp): the overflow after reserved goes down the list, each
  // venue's capacity drawn per hour; their prices follow venue_factor alone (docs/model.md §3b)
  // and on a path the on-demand (spot) price process and shock of the plan's cloud section
  int venue_count = 0;
  long venue_factor_offset = -1;  // (1 + price_change_per_year)^(h / 8760) [hours]
  VenueParams venues[kMaxVenuesPerPlan] = {};
  // a plan that buys tokens (engine/ledger/api_booking.hpp): each hour the API bills the path's
  // tokens its fleet left (the fleet's overflow steps at $0); with venues ("api_next_venue") they take
  // the reference GPUs of work above the API's rate limit, not the fleet's overflow, and what they
  // leave is unserved
  int api = 0;
  ApiPrices api_prices;
  double api_tokens_per_gpu_hour = 0.0;  // tokens a reference GPU-hour serves at the slo
  double api_input_share = 0.0;          // of the tokens, input (the requests' mix)
  long api_input_share_offset = -1;      // a measured series' share, hour by hour [hours]; -1: the above
  long api_factor_offset = -1;           // the API's price factor [hours]
  long api_usd_offset = -1;              // the deterministic run's bill [hours] (it is in the fixed flows)
  // a next generation arriving in a drawn month (models/next_generation/arrival_draw.hpp): the
  // factor series above leave its step out; the fixed flows are per arrival month (0 .. months,
  // months = at or past the horizon's end) when reserved terms or a resale value step with it
  ArrivalDraw arrival;
  double generation_rent_factor = 1.0;     // on-demand and spot x this from the arrival month on
  long fixed_npv_by_arrival_offset = -1;   // [months + 1]
  long fixed_total_by_arrival_offset = -1;
  // a refresh (models/next_generation/refresh.hpp): from month r on the plan steps with
  // refreshed_fleet and refreshed_nodes; r = max(a_p + k, p + 1) on a path with a drawn arrival
  // a_p, else refresh_month. Its fixed flows are those of the path's arrival month (above).
  int refresh_after_arrival_months = -1;  // k; -1: no refresh
  int refresh_month = 0;                  // r at the scenario's fixed arrival month
  int delivery_month = 0;                 // p
  FleetParams refreshed_fleet;
  double refreshed_nodes = 0.0;
  // a resale value that follows the cloud price (models/finance/resale_price_path.hpp) on a path
  // of the on-demand price process: the residual above (its fixed part) x M_{months-1} / M_p
  int residual_follows_process = 0;
  double residual_npv_usd = 0.0;
  double residual_total_usd = 0.0;

  bool operator==(const SweepPlanParams&) const = default;
};

// One grid point: horizon, shared series and where its plans are.
struct SweepPointHeader {
  long hours = 0;
  int months = 0;
  int plan_count = 0;
  int first_plan = 0;            // index of its first SweepPlanParams
  int baseline = 0;
  long demand_offset = 0;        // demand in GPUs [hours] (the deterministic series)
  long discount_offset = 0;      // (1 + r)^(-(m + 1) / 12) [months]
  double growth_log_per_year = 0.0;  // ln(1 + g)
  double growth_per_year = 0.0;
  double growth_sigma_per_year = 0.0;
  std::uint64_t seed = 0;
  int failure_scratch = 0;       // doubles of failure scratch one path needs
  long tokens_offset = -1;       // a token workload's tokens per hour [hours] (-1: GPU demand)
  double tokens_total = 0.0;     // their sum in hour order (the tokens demanded without growth)
};

// ---- draws ----

TCO_HD PhiloxWords sweep_block(std::uint64_t seed, std::uint32_t path, RandomSource source, std::uint32_t entity,
                               std::uint32_t draw) {
  return philox4x32_10(path, static_cast<std::uint32_t>(source), entity, draw, static_cast<std::uint32_t>(seed),
                       static_cast<std::uint32_t>(seed >> 32));
}

// The 32-bit word of hour h for a per-hour source (4 hours per Philox block).
TCO_HD std::uint32_t sweep_hour_word(std::uint64_t seed, std::uint32_t path, RandomSource source, long hour) {
  return sweep_block(seed, path, source, 0u, static_cast<std::uint32_t>(hour >> 2)).v[hour & 3];
}

// The standard normal of hour h for ambient noise (the discrete-event replay's draw: entity = hour).
TCO_HD double sweep_ambient_z(std::uint64_t seed, std::uint32_t path, long hour) {
  return normal_quantile(uniform(seed, path, RandomSource::ambient, static_cast<std::uint32_t>(hour), 0u));
}

// Per-path demand growth: lambda per hour, 0 without growth uncertainty.
TCO_HD double sweep_growth_lambda_per_h(const SweepPointHeader& pt, std::uint32_t path) {
  if (pt.growth_sigma_per_year <= 0.0) return 0.0;
  const double z = normal_quantile(uniform(pt.seed, path, RandomSource::demand, 0u, 0u));
  double g = pt.growth_per_year + pt.growth_sigma_per_year * z;
  if (g < -0.99) g = -0.99;
  return (std::log1p(g) - pt.growth_log_per_year) / kHoursPerYear;
}

// The month's mean-one lognormal multiplier of a source (1 when sigma is 0).
TCO_HD double sweep_month_multiplier(std::uint64_t seed, std::uint32_t path, RandomSource source, int month,
                                     double sigma) {
  if (sigma <= 0.0) return 1.0;
  return lognormal_mean_one(uniform(seed, path, source, static_cast<std::uint32_t>(month), 0u), sigma);
}

// Preemptions of one instance in an hour: the number of CDF levels the word reaches.
TCO_HD double sweep_preemption_factor(const SweepPlanParams& p, std::uint32_t word) {
  int k = 0;
  while (k < p.preemption_levels && word >= p.preemption_cdf[k]) ++k;
  return p.preemption_base_factor + k * p.preemption_loss_h;
}

TCO_HD double sweep_spot_available(const SweepPlanParams& p, std::uint32_t word) {
  return word < p.spot_unavailable_below ? 0.0 : 1.0;
}

// ---- failures ----

// Age (hours) at which the cumulative hazard rate (a + b a^2) reaches y.
TCO_HD double failure_age_at_hazard(double y, double rate_per_h, double b_per_h) {
  const double x = y / rate_per_h;
  return b_per_h > 0.0 ? 2.0 * x / (1.0 + std::sqrt(1.0 + 4.0 * b_per_h * x)) : x;
}

TCO_HD double failure_cumulative_hazard(double age_h, double rate_per_h, double b_per_h) {
  return rate_per_h * (age_h + b_per_h * age_h * age_h);
}

TCO_HD void sweep_sift_down(double* a, int root, int end) {
  while (2 * root + 1 < end) {
    int child = 2 * root + 1;
    if (child + 1 < end && a[child] < a[child + 1]) ++child;
    if (!(a[root] < a[child])) return;
    const double t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}

// In-place heap sort (no recursion, no allocation: it runs on the device too).
TCO_HD void sweep_heap_sort(double* v, int n) {
  for (int start = n / 2 - 1; start >= 0; --start) sweep_sift_down(v, start, n);
  for (int end = n - 1; end > 0; --end) {
    const double t = v[0];
    v[0] = v[end];
    v[end] = t;
    sweep_sift_down(v, 0, end);
  }
}

// The failure times (hours from t = 0) of the plan's nodes on one path, sorted; returns their
// count, or -1 when they do not fit in the plan's room (a model far outside its design).
TCO_HD int sweep_failure_starts(const SweepPlanParams& p, long hours, std::uint64_t seed, std::uint32_t path,
                                double* starts) {
  int n = 0;
  const double life_h = static_cast<double>(hours - p.nodes_from_hour);
  for (int node = 0; node < p.failure_nodes; ++node) {
    double up_from_h = 0.0;
    for (std::uint32_t k = 0;; ++k) {
      const double e = exponential_quantile(uniform(seed, path, RandomSource::failure, static_cast<std::uint32_t>(node), k), 1.0);
      const double y = failure_cumulative_hazard(up_from_h, p.failure_rate_per_h, p.failure_growth_b_per_h) + e;
      const double age_h = failure_age_at_hazard(y, p.failure_rate_per_h, p.failure_growth_b_per_h);
      if (!(age_h < life_h)) break;
      if (n == p.failure_capacity) return -1;
      starts[n++] = static_cast<double>(p.nodes_from_hour) + age_h;
      up_from_h = age_h + p.repair_h;
    }
  }
  sweep_heap_sort(starts, n);
  return n;
}

// Walks sorted failure intervals [s, s + repair_h) hour by hour.
struct DownTracker {
  int first = 0;  // intervals before it ended before the current hour
  int end = 0;    // intervals from it start after the current hour
};

// Node-hours down inside [hour, hour + 1); hours must be visited in increasing order.
TCO_HD double sweep_nodes_down(const double* starts, int count, double repair_h, long hour, DownTracker& t) {
  const double h0 = static_cast<double>(hour);
  const double h1 = h0 + 1.0;
  while (t.first < count && starts[t.first] + repair_h <= h0) ++t.first;
  while (t.end < count && starts[t.end] < h1) ++t.end;
  double down = 0.0;
  for (int i = t.first; i < t.end; ++i) {
    const double s = starts[i];
    const double e = s + repair_h;
    down += (e < h1 ? e : h1) - (s > h0 ? s : h0);
  }
  return down;
}

// ---- one hour ----

// Ambient noise changes PUE and throttling only; applied to the site's hour.
TCO_HD void sweep_apply_ambient(const SweepPlanParams& p, double ambient_c, double z, double& pue, double& work_rate) {
  const double t_c = ambient_c + p.ambient_sigma_c * z;
  pue = pue_at(p.pue, t_c);
  work_rate = throttled_work_rate(t_c, p.throttles != 0, p.throttle_above_c, p.throttle_fraction);
}

// The hour's variable cost (cloud on-demand and spot, energy, egress, waiting) through
// step_hour; updates the backlog and returns the facility kW for the month's demand charge.
TCO_HD double sweep_outcome_usd(const SweepPlanParams& p, const HourOutcome& o) {
  return o.on_demand_usd + o.spot_usd + o.energy_usd + o.cloud_work * p.egress_usd_per_cloud_work +
         o.backlog_gpu_hours * p.waiting_usd_per_gpu_hour;
}

template <typename Divide = PlainDivision>
TCO_HD double sweep_hour_usd(const SweepPlanParams& p, const FleetParams& fleet, const HourInputs& in,
                             double& backlog_gpu_hours, double& facility_kw, Divide divide = {}) {
  const HourOutcome o = step_hour(fleet, in, backlog_gpu_hours, divide);
  backlog_gpu_hours = o.backlog_gpu_hours;
  facility_kw = o.facility_kw;
  return sweep_outcome_usd(p, o);
}

// An hour of a plan with venues on one path: engine/ledger/hourly/venue_hour.cpp's step_venue_hour with
// each venue's capacity drawn. On-prem first (the backlog too), then reserved, then the
// commitments' GPUs (capacity blocks, take-or-pay contracts), then each venue
// that has capacity takes what it can; what none takes waits as the backlog. held[i] carries
// venue i's instances from hour to hour (the provisioning delay is paid per instance launched).
// Venue prices x venue_factor x the month's multiplier of their kind (on-demand or spot).
struct VenueHourPrices {
  double factor = 1.0;
  double on_demand_mult = 1.0;
  double spot_mult = 1.0;
};

// The venue list's hour on one path: each venue with capacity (its own draw) takes what it can of
// `rest_gpus` plan GPUs in whole instances; held[i] carries venue i's instances from hour to hour (the
// provisioning delay is paid per instance launched), billed[i] gets its billed instance-hours.
// Returns the plan GPUs no venue took.
TCO_HD double sweep_venues_take(const SweepPlanParams& p, double rest_gpus, std::uint64_t seed, std::uint32_t path,
                                long hour, double* held, double* billed) {
  double rest = rest_gpus;
  for (int i = 0; i < p.venue_count; ++i) {
    const VenueParams& v = p.venues[i];
    double instances = 0.0;
    if (rest > 0.0 && venue_draws_capacity(seed, path, i, hour, v.availability)) {
      const VenueTake take = venue_take(v, rest);
      instances = take.instances;
      rest -= take.plan_gpus;
    }
    const double launched = instances > held[i] ? instances - held[i] : 0.0;
    held[i] = instances;
    billed[i] = venue_billed_instance_hours(v, instances, launched);
  }
  return rest;
}

template <typename Divide = PlainDivision>
TCO_HD HourOutcome sweep_venue_hour(const SweepPlanParams& p, const FleetParams& fleet, const HourInputs& in,
                                    double backlog_gpu_hours, const VenueHourPrices& prices, std::uint64_t seed,
                                    std::uint32_t path, long hour, double* held, Divide divide = {}) {
  FleetParams onprem_only = fleet;
  onprem_only.bursts = 0;
  HourOutcome out = step_hour(onprem_only, in, backlog_gpu_hours, divide);
  const double overflow = out.backlog_gpu_hours;
  const double cloud_gpus = overflow / p.fleet.perf_cloud;
  out.reserved_used_gpus = cloud_gpus < p.fleet.reserved_gpus ? cloud_gpus : p.fleet.reserved_gpus;
  const double after_reserved = cloud_gpus - out.reserved_used_gpus;
  out.committed_used_gpus = after_reserved < in.committed_gpus ? after_reserved : in.committed_gpus;
  double billed[kMaxVenuesPerPlan], covered[kMaxVenuesPerPlan];
  const double rest = sweep_venues_take(p, after_reserved - out.committed_used_gpus, seed, path, hour, held, billed);
  venues_savings_plan_cover(p.venues, p.venue_count, billed, in.savings_plan_usd, covered);
  for (int i = 0; i < p.venue_count; ++i) {
    const VenueParams& v = p.venues[i];
    // - 0.0 is exact: a venue the savings plan does not cover keeps every bit.
    const double usd = (billed[i] - covered[i]) * v.usd_per_instance_hour * prices.factor *
                       (v.spot ? prices.spot_mult : prices.on_demand_mult);
    if (v.spot) {
      out.spot_usd += usd;
    } else {
      out.on_demand_usd += usd;
    }
  }
  out.backlog_gpu_hours = (rest < 1e-12 ? 0.0 : rest) * p.fleet.perf_cloud;
  out.cloud_work = overflow - out.backlog_gpu_hours;
  return out;
}

// An hour of the venues of an API's rate-limited tokens on one path: `over_gpus` reference GPUs
// of work down the list (sweep_venues_take); what none takes is unserved (nothing waits), in
// left_gpus. Returns their bill: sweep_venue_hour's venues without a savings plan.
TCO_HD double sweep_api_venue_hour_usd(const SweepPlanParams& p, double over_gpus, const VenueHourPrices& prices,
                                       std::uint64_t seed, std::uint32_t path, long hour, double* held,
                                       double& left_gpus) {
  double billed[kMaxVenuesPerPlan];
  left_gpus = sweep_venues_take(p, over_gpus, seed, path, hour, held, billed);
  double usd = 0.0;
  for (int i = 0; i < p.venue_count; ++i) {
    const VenueParams& v = p.venues[i];
    usd += (billed[i] - 0.0) * v.usd_per_instance_hour * prices.factor *
           (v.spot ? prices.spot_mult : prices.on_demand_mult);
  }
  return usd;
}

// An hour of a plan that buys tokens on one path, after its fleet's step `o` (the overflow past
// reserved stepped at $0): the fleet's costs, egress on the rented fleet's work alone (the API's
// tokens leave no rented fleet: docs/decisions.md §24), and the API's bill of the `tokens` the
// fleet left as ApiMeter::add_hour bills them, less the deterministic hour's (a fixed flow); with
// venues, the tokens above the rate limit down the list. Adds the tokens left unserved to
// unserved_tokens.
TCO_HD_STEP double sweep_api_hour_usd(const SweepPlanParams& p, const FleetParams& fleet, const HourOutcome& o,
                                 const double* data, long hour, double tokens, const VenueHourPrices& prices,
                                 std::uint64_t seed, std::uint32_t path, double* held, double& unserved_tokens) {
  const double rented_work = (o.reserved_used_gpus + o.committed_used_gpus) * fleet.perf_cloud;
  double usd = o.on_demand_usd + o.spot_usd + o.energy_usd + rented_work * p.egress_usd_per_cloud_work +
               o.backlog_gpu_hours * p.waiting_usd_per_gpu_hour;
  const double left = tokens - (o.work_onprem + rented_work) * p.api_tokens_per_gpu_hour;
  const double sent = 0.0 < left ? left : 0.0;  // std::max(0.0, left), as the meter
  double over_tokens = 0.0;
  if (sent > 0.0) {
    const double share = p.api_input_share_offset >= 0 ? data[p.api_input_share_offset + hour] : p.api_input_share;
    const ApiHourBill b = api_hour_bill(p.api_prices, sent, share, data[p.api_factor_offset + hour]);
    usd += b.usd - data[p.api_usd_offset + hour];
    over_tokens = b.unserved_tokens;
  } else {
    usd += 0.0 - data[p.api_usd_offset + hour];
  }
  if (p.venue_count > 0) {
    double left_gpus = 0.0;
    usd += sweep_api_venue_hour_usd(p, over_tokens / p.api_tokens_per_gpu_hour, prices, seed, path, hour, held,
                                    left_gpus);
    const double left_tokens = left_gpus * p.api_tokens_per_gpu_hour;
    unserved_tokens += left_tokens < over_tokens ? left_tokens : over_tokens;  // std::min, as the meter
  } else {
    unserved_tokens += over_tokens;
  }
  return usd;
}

// The month's variable cost booked at its end: hourly costs plus the demand charge on the
// month's peak facility kW (SPEC §12.6).
TCO_HD double sweep_month_usd(const SweepPlanParams& p, const double* data, int month, double hourly_usd,
                              double peak_facility_kw) {
  if (p.demand_charge_offset < 0) return hourly_usd;
  return hourly_usd + p.demand_charge_usd_per_kw_month * peak_facility_kw * data[p.demand_charge_offset + month];
}

// ---- tokens served ----

// A month's tokens x growth: hour j in lane j mod 8, the lanes added pairwise (a fixed order).
// The CPU backend reads the growth of hour h0 + j from its month tile (the demand's own factors).
TCO_HD double sweep_month_tokens(const double* tokens, int n, const double* growth) {
  double acc[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  int j0 = 0;
  for (; j0 + 8 <= n; j0 += 8)
    for (int l = 0; l < 8; ++l) acc[l] += tokens[j0 + l] * growth[j0 + l];
  for (int l = 0; j0 + l < n; ++l) acc[l] += tokens[j0 + l] * growth[j0 + l];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

// The same sum with the factors computed: lane l starts at exp(lambda h0) exp(lambda l) and steps
// x exp(8 lambda), 9 exponentials a month instead of 730 (within 1e-13 of the tile's factors).
TCO_HD double sweep_month_tokens_computed(const double* tokens, int n, long h0, double lambda) {
  const double growth_m = std::exp(lambda * static_cast<double>(h0));
  const double step = std::exp(8.0 * lambda);
  double acc[8], g[8];
#if defined(__CUDACC__)
#pragma unroll
#endif
  for (int l = 0; l < 8; ++l) {
    acc[l] = 0.0;
    g[l] = growth_m * std::exp(lambda * static_cast<double>(l));
  }
  int j0 = 0;
  for (; j0 + 8 <= n; j0 += 8) {
#if defined(__CUDACC__)
#pragma unroll
#endif
    for (int l = 0; l < 8; ++l) {
      acc[l] += tokens[j0 + l] * g[l];
      g[l] *= step;
    }
  }
#if defined(__CUDACC__)
#pragma unroll
#endif
  for (int l = 0; l < 8; ++l)
    if (j0 + l < n) acc[l] += tokens[j0 + l] * g[l];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

// The tokens demanded on a path: the point's sum without growth uncertainty, else month by month.
TCO_HD double sweep_tokens_demanded(const SweepPointHeader& pt, const double* data, double lambda) {
  if (pt.tokens_offset < 0) return 0.0;
  if (lambda == 0.0) return pt.tokens_total;
  double sum = 0.0;
  for (int m = 0; m < pt.months; ++m) {
    const long h0 = static_cast<long>(m) * kSweepMonthHours;
    const int n = static_cast<int>(h0 + kSweepMonthHours < pt.hours ? kSweepMonthHours : pt.hours - h0);
    sum += sweep_month_tokens_computed(data + pt.tokens_offset + h0, n, h0, lambda);
  }
  return sum;
}

// The tokens of the work still waiting at the horizon's end: the backlog walked back over the
// last hours' demand (the point's, as the deterministic run's plan_tokens walks it).
TCO_HD double sweep_unserved_tokens(const SweepPointHeader& pt, const double* data, double lambda,
                                    double backlog_gpu_hours) {
  if (pt.tokens_offset < 0 || !(backlog_gpu_hours > 0.0)) return 0.0;
  const double* demand = data + pt.demand_offset;
  const double* tokens = data + pt.tokens_offset;
  double left = backlog_gpu_hours;
  double unserved = 0.0;
  long month_h0 = -1;
  double growth_m = 1.0;  // exp(lambda h0) of the month walked
  for (long h = pt.hours - 1; h >= 0 && left > 0.0; --h) {
    double c = 1.0;  // c(h) = exp(lambda h0) exp(lambda (h - h0)), as both backends step the demand
    if (lambda != 0.0) {
      const long h0 = h / kSweepMonthHours * kSweepMonthHours;
      if (h0 != month_h0) {
        month_h0 = h0;
        growth_m = std::exp(lambda * static_cast<double>(h0));
      }
      c = growth_m * std::exp(lambda * static_cast<double>(h - h0));
    }
    const double d = demand[h] * c;
    if (!(d > 0.0)) continue;
    const double waiting = left < d ? left : d;
    left -= waiting;
    unserved += tokens[h] * c * (waiting / d);
  }
  return unserved;
}

// A plan's tokens served on a path from its demanded tokens, its backlog at the end and the
// tokens an API's rate limit left unserved on the path (0 for a plan that buys none).
TCO_HD double sweep_tokens_served(const SweepPointHeader& pt, const double* data, double lambda,
                                  double tokens_demanded, double backlog_gpu_hours, double api_unserved_tokens) {
  if (pt.tokens_offset < 0) return 0.0;
  return tokens_demanded - sweep_unserved_tokens(pt, data, lambda, backlog_gpu_hours) - api_unserved_tokens;
}

// ---- one plan on one path (the device's loop; the CPU backend tiles the same steps) ----

// The month the plan's drawn next generation arrives on the path (0 when it is not drawn), and
// the cloud price step in month m.
TCO_HD int sweep_arrival_month(const SweepPlanParams& p, std::uint64_t seed, std::uint32_t path) {
  return p.arrival.drawn ? arrival_month_on_path(p.arrival, seed, path) : 0;
}

TCO_HD double sweep_generation_factor(const SweepPlanParams& p, int arrival_month, int m) {
  return p.arrival.drawn && m >= arrival_month ? p.generation_rent_factor : 1.0;
}

// The month the plan's refresh swaps its fleet on the path (past every horizon without one).
TCO_HD int sweep_refresh_month(const SweepPlanParams& p, int arrival_month) {
  if (p.refresh_after_arrival_months < 0) return 1 << 30;
  return p.arrival.drawn ? refresh_month_for(arrival_month, p.refresh_after_arrival_months, p.delivery_month)
                         : p.refresh_month;
}

// Adds the plan's fixed flows (those of the path's arrival month when they depend on it).
TCO_HD void sweep_add_fixed(const SweepPlanParams& p, const double* data, int months, int arrival_month,
                            double& npv_usd, double& total_usd) {
  if (p.fixed_npv_by_arrival_offset < 0) {
    npv_usd += p.fixed_npv_usd;
    total_usd += p.fixed_total_usd;
    return;
  }
  const int at = arrival_month < months ? arrival_month : months;
  npv_usd += data[p.fixed_npv_by_arrival_offset + at];
  total_usd += data[p.fixed_total_by_arrival_offset + at];
}

// The residual's move with the path's on-demand price process when the resale value follows the
// cloud price: residual x (M_{months-1} / M_p - 1), M of the months of sale and delivery p.
TCO_HD void sweep_add_resale_process(const SweepPlanParams& p, std::uint64_t seed, std::uint32_t path, int months,
                                     double& npv_usd, double& total_usd) {
  if (!p.residual_follows_process || p.delivery_month >= months) return;
  double log_multiplier = 0.0;
  double at_delivery = 1.0;
  double at_sale = 1.0;
  for (int m = 0; m < months; ++m) {
    at_sale = price_process_step(p.on_demand_process, seed, path, kPriceKindOnDemand, m, log_multiplier);
    if (m == p.delivery_month) at_delivery = at_sale;
  }
  const double move = at_sale / at_delivery - 1.0;
  npv_usd += p.residual_npv_usd * move;
  total_usd += p.residual_total_usd * move;
}

struct SweepPathResult {
  double npv_usd = 0.0;
  double total_usd = 0.0;
  double tokens_served = 0.0;  // a token workload's (0 otherwise)
  int status = kSweepOk;
};

template <typename Divide>
TCO_HD SweepPathResult sweep_plan_path_with(const SweepPointHeader& pt, const SweepPlanParams& p, const double* data,
                                            std::uint32_t path, double* failure_scratch, Divide divide) {
  SweepPathResult r;
  const std::uint64_t seed = pt.seed;
  const double* demand = data + (p.demand_offset >= 0 ? p.demand_offset : pt.demand_offset);
  const double* discount = data + pt.discount_offset;
  const double lambda = sweep_growth_lambda_per_h(pt, path);
  const bool growth = lambda != 0.0;
  const bool spot_random = p.fleet.bursts && p.fleet.spot_share > 0.0 &&
                           (p.spot_unavailable_below > 0u || p.preemption_levels > 0);
  const bool ambient_noise = p.ambient_c_offset >= 0;
  int failures = 0;
  double* starts = failure_scratch + p.failure_offset;
  if (p.failure_nodes > 0) {
    failures = sweep_failure_starts(p, pt.hours, seed, path, starts);
    if (failures < 0) {
      r.status = kSweepFailureOverflow;
      return r;
    }
  }
  DownTracker tracker;
  double backlog = 0.0;
  double api_unserved = 0.0;  // tokens
  double venue_held[kMaxVenuesPerPlan] = {};
  double on_demand_log = 0.0, spot_log = 0.0;  // ln M of the price processes
  const int arrival = sweep_arrival_month(p, seed, path);
  const int refresh = sweep_refresh_month(p, arrival);
  for (int m = 0; m < pt.months; ++m) {
    const bool refreshed = m >= refresh;
    const FleetParams& fleet = refreshed ? p.refreshed_fleet : p.fleet;
    const long h0 = static_cast<long>(m) * kSweepMonthHours;
    const long h1 = h0 + kSweepMonthHours < pt.hours ? h0 + kSweepMonthHours : pt.hours;
    const double growth_m = growth ? std::exp(lambda * static_cast<double>(h0)) : 1.0;
    const double power_mult = sweep_month_multiplier(seed, path, RandomSource::power_price, m, p.power_price_sigma);
    const double spot_mult = sweep_month_multiplier(seed, path, RandomSource::spot_price, m, p.spot_price_sigma);
    const double on_demand_process =
        price_process_step(p.on_demand_process, seed, path, kPriceKindOnDemand, m, on_demand_log);
    const double spot_process = price_process_step(p.spot_process, seed, path, kPriceKindSpot, m, spot_log);
    const double generation = sweep_generation_factor(p, arrival, m);
    const double nodes = h0 >= p.nodes_from_hour ? (refreshed ? p.refreshed_nodes : p.nodes) : 0.0;
    double month_usd = 0.0;
    double peak_kw = 0.0;
    for (long h = h0; h < h1; ++h) {
      HourInputs in;
      in.demand_gpus = demand[h];
      const double c = growth ? growth_m * std::exp(lambda * static_cast<double>(h - h0)) : 1.0;
      if (growth) in.demand_gpus *= c;
      in.nodes_up = nodes;
      if (nodes > 0.0) in.idle_nodes = p.spare_nodes;
      if (failures > 0 && nodes > 0.0) in.nodes_up = nodes - sweep_nodes_down(starts, failures, p.repair_h, h, tracker);
      if (p.pue_offset >= 0) {
        in.pue = data[p.pue_offset + h];
        in.work_rate = data[p.work_rate_offset + h];
        in.usd_per_kwh = data[p.usd_per_kwh_offset + h] * power_mult;
        if (ambient_noise)
          sweep_apply_ambient(p, data[p.ambient_c_offset + h], sweep_ambient_z(seed, path, h), in.pue, in.work_rate);
      }
      if (p.cloud_factor_offset >= 0) in.cloud_price_factor = data[p.cloud_factor_offset + h];
      if (p.spot_factor_offset >= 0) in.spot_price_factor = data[p.spot_factor_offset + h];
      in.cloud_price_factor *= generation;  // x 1.0 without a drawn step or a process: exact
      in.spot_price_factor *= generation;
      in.cloud_price_factor *= on_demand_process;
      in.spot_price_factor *= spot_process;
      if (spot_random) {
        in.spot_available = sweep_spot_available(p, sweep_hour_word(seed, path, RandomSource::spot_availability, h));
        in.spot_preemption_factor = sweep_preemption_factor(p, sweep_hour_word(seed, path, RandomSource::preemption, h));
      }
      in.spot_price_multiplier = spot_mult;
      if (p.committed_gpus_offset >= 0) in.committed_gpus = data[p.committed_gpus_offset + h];
      if (p.savings_plan_usd_offset >= 0) in.savings_plan_usd = data[p.savings_plan_usd_offset + h];
      double facility_kw = 0.0;
      const VenueHourPrices prices{p.venue_factor_offset >= 0 ? data[p.venue_factor_offset + h] : 1.0,
                                   on_demand_process, spot_mult * spot_process};
      if (p.api) {
        const HourOutcome o = step_hour(fleet, in, backlog, divide);
        backlog = o.backlog_gpu_hours;
        facility_kw = o.facility_kw;
        const double tokens = growth ? data[pt.tokens_offset + h] * c : data[pt.tokens_offset + h];
        month_usd += sweep_api_hour_usd(p, fleet, o, data, h, tokens, prices, seed, path, venue_held, api_unserved);
      } else if (p.venue_count > 0) {
        const HourOutcome o = sweep_venue_hour(p, fleet, in, backlog, prices, seed, path, h, venue_held, divide);
        backlog = o.backlog_gpu_hours;
        facility_kw = o.facility_kw;
        month_usd += sweep_outcome_usd(p, o);
      } else {
        month_usd += sweep_hour_usd(p, fleet, in, backlog, facility_kw, divide);
      }
      peak_kw = peak_kw > facility_kw ? peak_kw : facility_kw;
    }
    const double usd = sweep_month_usd(p, data, m, month_usd, peak_kw);
    r.npv_usd += usd * discount[m];
    r.total_usd += usd;
  }
  sweep_add_fixed(p, data, pt.months, arrival, r.npv_usd, r.total_usd);
  sweep_add_resale_process(p, seed, path, pt.months, r.npv_usd, r.total_usd);
  if (pt.tokens_offset >= 0)
    r.tokens_served =
        sweep_tokens_served(pt, data, lambda, sweep_tokens_demanded(pt, data, lambda), backlog, api_unserved);
  return r;
}

TCO_HD SweepPathResult sweep_plan_path(const SweepPointHeader& pt, const SweepPlanParams& p, const double* data,
                                       std::uint32_t path, double* failure_scratch) {
  return p.power_of_two_divisors ? sweep_plan_path_with(pt, p, data, path, failure_scratch, PowerOfTwoDivision{})
                                 : sweep_plan_path_with(pt, p, data, path, failure_scratch, PlainDivision{});
}

}  // namespace tco
