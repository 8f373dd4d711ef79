#include "engine/des/des_plan.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>

#include "models/site/cooling.hpp"

namespace tco::des {

namespace {

bool same_hours(const std::vector<SiteHour>& a, const std::vector<SiteHour>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const SiteHour& x, const SiteHour& y) {
    return x.pue == y.pue && x.usd_per_kwh == y.usd_per_kwh && x.work_rate == y.work_rate;
  });
}

// Sites that give the same curve on every path: the same hours and grid intensity and, under
// ambient noise, the same temperatures, noise, throttling and cooling.
bool alike_sites(const DesPlan& a, const DesPlan& b) {
  if (!same_hours(a.site, b.site) || a.ambient_c != b.ambient_c || a.grid_g_co2_by_hour != b.grid_g_co2_by_hour)
    return false;
  if (a.ambient_c.empty()) return true;
  const AmbientSpec &x = *a.onprem->ambient, &y = *b.onprem->ambient;
  return x.noise_sigma_c == y.noise_sigma_c && x.throttle_above_c == y.throttle_above_c &&
         x.throttle_fraction == y.throttle_fraction && pue_params(a.onprem->cooling) == pue_params(b.onprem->cooling);
}

int site_group(const DesPlan& d, const std::vector<DesPlan>& earlier) {
  int groups = 0;
  for (const DesPlan& e : earlier) {
    if (e.site_group < 0) continue;
    if (alike_sites(d, e)) return e.site_group;
    groups = std::max(groups, e.site_group + 1);
  }
  return groups;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same_bits(const std::array<double, 24>& a, const std::array<double, 24>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) { return same_bits(x, y); });
}

// A field added to these must be compared in same_site_inputs below.
static_assert(sizeof(AmbientSpec) == 11 * 8, "AmbientSpec changed: compare the new field in same_site_inputs");
static_assert(sizeof(Tariff) == 52 * 8, "Tariff changed: compare the new field in same_site_inputs");

// Do two on-prem specs give the same deterministic site: the same hours (site_hours: PUE, work
// rate and escalated price), hourly grid intensity and ambient temperatures? Everything those
// read of the spec: the cooling's PUE parameters, the ambient, the tariff, the escalation and the
// intensity series (the scenario's calendar and horizon are the same for every plan). Doubles
// compare by their bits, series by identity (plans that name one file share it); anything else
// does not share, which costs time and never a byte.
bool same_site_inputs(const OnPremSpec& a, const OnPremSpec& b) {
  if (!(pue_params(a.cooling) == pue_params(b.cooling))) return false;
  if (a.ambient.has_value() != b.ambient.has_value()) return false;
  if (a.ambient) {
    const AmbientSpec &x = *a.ambient, &y = *b.ambient;
    if (!same_bits(x.mean_c, y.mean_c) || !same_bits(x.seasonal_amp_c, y.seasonal_amp_c) ||
        !same_bits(x.hottest_day, y.hottest_day) || !same_bits(x.diurnal_amp_c, y.diurnal_amp_c) ||
        !same_bits(x.hottest_hour, y.hottest_hour) || !same_bits(x.noise_sigma_c, y.noise_sigma_c) ||
        x.throttle_above_c.has_value() != y.throttle_above_c.has_value() ||
        !same_bits(x.throttle_above_c.value_or(0.0), y.throttle_above_c.value_or(0.0)) ||
        !same_bits(x.throttle_fraction, y.throttle_fraction) || x.series != y.series)
      return false;
  }
  const Tariff &ta = a.power.tariff, &tb = b.power.tariff;
  return ta.kind == tb.kind && same_bits(ta.flat_usd_per_kwh, tb.flat_usd_per_kwh) &&
         same_bits(ta.weekday_usd_per_kwh, tb.weekday_usd_per_kwh) &&
         same_bits(ta.weekend_usd_per_kwh, tb.weekend_usd_per_kwh) && ta.series == tb.series &&
         same_bits(a.power.escalation_per_year, b.power.escalation_per_year) &&
         a.power.g_co2_series == b.power.g_co2_series;
}

// The deterministic site of an on-prem plan: its hours, hourly grid intensity, ambient
// temperatures (when a path adds noise) and, without noise, its curve; taken from an earlier
// plan whose spec gives the same site, else computed (a year of hours, a pow for each when the
// price escalates, and a 560 kB curve: most of a small scenario's set-up per plan).
void set_site(DesPlan& d, const OnPremSpec& o, const Scenario& s, const std::vector<DesPlan>& earlier) {
  for (const DesPlan& e : earlier) {
    if (!e.onprem || !same_site_inputs(*e.onprem, o)) continue;
    d.site = e.site;
    d.grid_g_co2_by_hour = e.grid_g_co2_by_hour;
    d.ambient_c = e.ambient_c;
    d.fixed_site = e.fixed_site;
    return;
  }
  d.site = site_hours(o, s.calendar, s.horizon_hours());
  if (const HourlySeries* intensity = o.power.g_co2_series.get()) {
    d.grid_g_co2_by_hour.resize(d.site.size());
    for (std::size_t h = 0; h < d.site.size(); ++h) d.grid_g_co2_by_hour[h] = intensity->at(static_cast<long>(h));
  }
  if (o.ambient && o.ambient->noise_sigma_c > 0.0) {
    d.ambient_c.resize(d.site.size());
    for (std::size_t h = 0; h < d.site.size(); ++h)
      d.ambient_c[h] = ambient_c_at_hour(*o.ambient, static_cast<long>(h), s.calendar);
  }
  if (d.ambient_c.empty()) {
    auto curve = std::make_shared<SiteCurve>();
    build_site_curve(d, {}, *curve);
    d.fixed_site = std::move(curve);
  }
}

}  // namespace

bool same_pool_side(const DesPlan& a, const DesPlan& b) {
  if (a.reserved_instances > 0 || b.reserved_instances > 0) return false;
  if (a.bursts != b.bursts || a.scheduling != b.scheduling || a.checkpoint_write_h != b.checkpoint_write_h ||
      a.waiting_usd_per_gpu_hour != b.waiting_usd_per_gpu_hour || (a.onprem == nullptr) != (b.onprem == nullptr))
    return false;
  if (!a.onprem) return true;
  const FailureSpec &fa = a.onprem->failures, &fb = b.onprem->failures;
  const PowerSpec &pa = a.onprem->power, &pb = b.onprem->power;
  return a.nodes == b.nodes && a.gpus_per_node == b.gpus_per_node && a.purchase_h == b.purchase_h &&
         a.onprem->procurement == b.onprem->procurement && a.onprem->carbon == b.onprem->carbon &&
         a.onprem->spares == b.onprem->spares &&
         (a.onprem->carbon.usd_per_tonne == 0.0 || pa.g_co2_per_kwh == pb.g_co2_per_kwh) &&
         pa.g_co2_series == pb.g_co2_series &&
         a.idle_kw == b.idle_kw && a.peak_kw == b.peak_kw && a.perf_onprem == b.perf_onprem &&
         a.refresh_h == b.refresh_h && (a.refresh_h < 0 || a.successor == b.successor) &&
         a.site_group == b.site_group && a.shift_curve == b.shift_curve && fa.afr_per_year == fb.afr_per_year &&
         fa.afr_growth_per_year == fb.afr_growth_per_year && fa.repair_h == fb.repair_h &&
         pa.escalation_per_year == pb.escalation_per_year &&
         pa.demand_charge_usd_per_kw_month == pb.demand_charge_usd_per_kw_month &&
         pa.monthly_price_sigma == pb.monthly_price_sigma;
}

// The carbon price per facility kWh in each hour of the site: g(h) x usd_per_tonne / 10^6.
static std::vector<double> carbon_usd_per_kwh_by_hour(const DesPlan& d, const OnPremSpec& o) {
  std::vector<double> usd(d.site.size(), o.power.g_co2_per_kwh / 1e6 * o.carbon.usd_per_tonne);
  for (std::size_t h = 0; h < d.grid_g_co2_by_hour.size(); ++h)
    usd[h] = d.grid_g_co2_by_hour[h] / 1e6 * o.carbon.usd_per_tonne;
  return usd;
}

// A venue on the plan's cloud terms: its offer's instance size, GPU speed, price (on-demand, or
// spot for a spot venue, whose preemptions are the plan's spot market's) and billing, its
// provisioning delay, prices that follow price_change_per_year alone (as in the hourly model),
// no reserved instances (those stay with the plan's event loop).
static DesVenue des_venue(const DesPlan& plan, const CloudSpec& c, const CloudVenue& v, long horizon_h) {
  DesVenue out;
  DesPlan& t = out.terms;
  t.plan = plan.plan;
  t.bursts = plan.bursts;
  t.cloud = plan.cloud;
  t.spot = plan.spot;
  t.spot_trace = plan.spot_trace;
  t.scheduling = plan.scheduling;
  t.checkpoint_write_h = plan.checkpoint_write_h;
  t.waiting_usd_per_gpu_hour = plan.waiting_usd_per_gpu_hour;
  t.egress_usd_per_gpu_hour = plan.egress_usd_per_gpu_hour;
  t.gpus_per_instance = v.offer.gpus_per_instance;
  t.perf_cloud = v.gpu.perf_relative;
  t.on_demand_usd_per_instance_h = v.offer.on_demand_usd_per_hour;
  t.billing_granularity_h = std::max(1.0, v.offer.billing_granularity_s) / 3600.0;
  t.minimum_billed_h = v.offer.minimum_billed_s / 3600.0;
  t.startup_h = v.provisioning_delay_h;
  t.price_growth = PriceGrowth(c.price_change_per_year, horizon_h, kHoursPerYear);
  t.spot_price_growth = t.price_growth;
  out.spot = v.price == CloudVenue::PriceKind::spot;
  if (out.spot) t.spot_usd_per_instance_h = v.usd_per_instance_hour();
  out.availability = v.availability;
  if (const std::optional<double> quota = v.quota_instances()) out.quota_instances = static_cast<int>(*quota);
  // The savings plan meters each on-demand venue it covers, at that venue's rate
  // (engine/des/cloud/savings_plan_meter.hpp).
  if (plan.savings_plan.instrument >= 0) {
    const SavingsPlanVenueTerms terms = savings_plan_terms_at(plan.plan->commitments[plan.savings_plan.instrument], v.name);
    if (terms.order >= 0) {
      t.savings_plan = plan.savings_plan;
      t.savings_plan.usd_per_instance_hour = terms.usd_per_instance_hour;
      t.savings_plan.order = terms.order;
    }
  }
  return out;
}

long delivery_h(const DesPlan& d, std::uint64_t seed, std::uint32_t path) {
  if (!d.onprem || !d.onprem->delivery_drawn()) return d.purchase_h;
  return static_cast<long>(delivered_month(d.onprem->purchase_month, *d.onprem->procurement, seed, path)) *
         kHoursPerMonth;
}

// The plan's GPU-holding commitments by the class they serve: each class's pool in the order
// of first mention, the pool for any job last; inside a pool, take-or-pay contracts first.
std::vector<DesPlan::Committed> committed_pools(const Plan& p, long hours) {
  std::vector<std::string> classes;
  bool any_job = false;
  for (const Commitment& k : p.commitments) {
    if (k.kind == Commitment::Kind::savings_plan) continue;
    if (k.job_class.empty()) {
      any_job = true;
    } else if (std::find(classes.begin(), classes.end(), k.job_class) == classes.end()) {
      classes.push_back(k.job_class);
    }
  }
  if (any_job) classes.emplace_back();
  const double gpus_per_instance = p.cloud ? p.cloud->offer.gpus_per_instance : 8.0;
  std::vector<DesPlan::Committed> out;
  for (const std::string& job_class : classes) {
    DesPlan::Committed pool{job_class, std::vector<double>(hours, 0.0), {}, {}};
    for (const Commitment::Kind kind : {Commitment::Kind::take_or_pay, Commitment::Kind::capacity_block})
      for (std::size_t i = 0; i < p.commitments.size(); ++i) {
        const Commitment& k = p.commitments[i];
        if (k.kind != kind || k.job_class != job_class) continue;
        std::vector<double> gpus(hours);
        for (long h = 0; h < hours; ++h) {
          gpus[h] = committed_gpus_at(k, h, gpus_per_instance, hours);
          pool.gpus_by_hour[h] += gpus[h];
        }
        pool.instruments.push_back(static_cast<int>(i));
        pool.gpus_by_hour_by_instrument.push_back(std::move(gpus));
      }
    out.push_back(std::move(pool));
  }
  return out;
}

DesPlan::SavingsPlan savings_plan_terms(const Plan& p, long hours) {
  DesPlan::SavingsPlan out;
  for (std::size_t i = 0; i < p.commitments.size(); ++i) {
    const Commitment& k = p.commitments[i];
    if (k.kind != Commitment::Kind::savings_plan) continue;
    out.instrument = static_cast<int>(i);
    out.usd_per_instance_hour = k.usd_per_instance_hour;
    out.usd_by_hour.resize(hours);
    for (long h = 0; h < hours; ++h) out.usd_by_hour[h] = savings_plan_usd_at(k, h);
  }
  return out;
}

DesPlans prepare_des_plans(const Scenario& s) {
  DesPlans out;
  std::map<std::string, const SpotTrace*> traces;
  // A plan's checkpoint write time applies on every venue (a job's checkpoints do not get
  // cheaper on-prem): its cloud section's, or for a plan without one the scenario's top-level
  // cloud section's (never another plan's patch), else the default.
  for (const Plan& p : s.plans) {
    DesPlan d;
    d.plan = &p;
    d.bursts = p.bursts();
    d.scheduling = p.scheduling;
    d.checkpoint_write_h = p.cloud ? p.cloud->spot.checkpoint_write_h : s.checkpoint_write_h;
    d.waiting_usd_per_gpu_hour = s.waiting_usd_per_gpu_hour;
    if (p.onprem && p.onprem_nodes > 0) {
      const OnPremSpec& o = *p.onprem;
      d.onprem = &o;
      d.nodes = p.onprem_nodes;
      d.gpus_per_node = o.server.gpus;
      d.purchase_h = static_cast<long>(o.planned_delivery_month()) * kHoursPerMonth;
      d.idle_kw = o.server.idle_kw;
      d.peak_kw = o.server.peak_kw;
      d.perf_onprem = o.gpu.perf_relative;
      if (p.refresh && p.refresh->month < s.horizon_months) {
        d.refresh_h = static_cast<long>(p.refresh->month) * kHoursPerMonth;
        d.successor = {p.refresh->nodes, p.refresh->server.gpus, p.refresh->server.idle_kw, p.refresh->server.peak_kw,
                       p.refresh->gpu.perf_relative};
      }
      set_site(d, o, s, out.plans);
      if (p.scheduling.time_shift) d.shift_curve = shift_curve(d.site, carbon_usd_per_kwh_by_hour(d, o));
      d.site_group = site_group(d, out.plans);
    }
    if (p.cloud) {
      const CloudSpec& c = *p.cloud;
      d.cloud = &c;
      d.spot = c.spot;
      d.gpus_per_instance = c.offer.gpus_per_instance;
      d.perf_cloud = c.gpu.perf_relative;
      d.on_demand_usd_per_instance_h = c.offer.on_demand_usd_per_hour;
      d.spot_usd_per_instance_h = c.offer.spot_usd_per_hour.value_or(0.0);
      d.spot_allowed = c.offer.spot_usd_per_hour.has_value() && p.spot_share > 0.0;
      d.billing_granularity_h = std::max(1.0, c.offer.billing_granularity_s) / 3600.0;
      d.minimum_billed_h = c.offer.minimum_billed_s / 3600.0;
      d.startup_h = c.offer.startup_h;
      d.emergency_checkpoint_covers = c.spot.emergency_checkpoint && c.offer.spot_notice_s &&
                                      *c.offer.spot_notice_s / 3600.0 >= c.spot.checkpoint_write_h;
      d.reserved_instances = p.reserved_instances;
      d.reserved_usd_per_instance_h = p.reserved_usd_per_instance_hour();
      d.reserved_term_h = p.reserved_term_hours();
      d.egress_usd_per_gpu_hour = c.egress_gb_per_gpu_hour * c.egress_usd_per_gb;
      d.price_growth = PriceGrowth(c.price_change_per_year, s.horizon_hours(), kHoursPerYear);
      d.spot_price_growth = d.price_growth;
      if (c.price_schedules.on_demand || c.price_schedules.spot || c.generation_step.active()) {
        std::vector<double> on_demand(static_cast<std::size_t>(s.horizon_hours()) + 1), spot(on_demand.size());
        for (std::size_t h = 0; h < on_demand.size(); ++h) {
          on_demand[h] = c.on_demand_factor(static_cast<long>(h));
          spot[h] = c.spot_factor(static_cast<long>(h));
        }
        d.price_growth = PriceGrowth::hourly(std::move(on_demand));
        d.spot_price_growth = PriceGrowth::hourly(std::move(spot));
      }
      d.committed = committed_pools(p, s.horizon_hours());
      d.savings_plan = savings_plan_terms(p, s.horizon_hours());
      if (!c.spot.trace_resolved_path.empty()) {
        auto it = traces.find(c.spot.trace_resolved_path);
        if (it == traces.end()) {
          out.spot_traces.push_back(std::make_unique<SpotTrace>(load_spot_trace(c.spot.trace_resolved_path)));
          it = traces.emplace(c.spot.trace_resolved_path, out.spot_traces.back().get()).first;
        }
        d.spot_trace = it->second;
      }
      // After the spot trace: a spot venue's preemptions follow it.
      for (const CloudVenue& v : p.venues) d.venues.push_back(des_venue(d, c, v, s.horizon_hours()));
    }
    out.plans.push_back(std::move(d));
  }
  for (std::size_t k = 0; k < out.plans.size(); ++k) {
    DesPlan& d = out.plans[k];
    for (const auto& group : out.pool_groups)
      if (same_pool_side(out.plans[group.front()], d)) {
        d.pool_group = out.plans[group.front()].pool_group;
        break;
      }
    if (d.pool_group < 0) {
      d.pool_group = static_cast<int>(out.pool_groups.size());
      out.pool_groups.emplace_back();
    }
    out.pool_groups[d.pool_group].push_back(static_cast<int>(k));
  }
  return out;
}

}  // namespace tco::des
