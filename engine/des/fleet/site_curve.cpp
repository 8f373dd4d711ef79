#include "engine/des/fleet/site_curve.hpp"

#include "core/random/ambient_draws.hpp"
#include "engine/des/des_plan.hpp"
#include "engine/des/simulator.hpp"
#include "models/site/cooling.hpp"

namespace tco::des {

void SiteCurve::assign(const std::vector<SiteHour>& site) {
  hours_.resize(site.size());
  hour_count_ = static_cast<long>(site.size());
  rate_changes_.clear();
  intensity_.clear();
  double pue_sum = 0.0, pue_usd_sum = 0.0, work_sum = 0.0, throttled = 0.0;
  for (std::size_t h = 0; h < site.size(); ++h) {
    if (h % kHoursPerMonth == 0) pue_sum = pue_usd_sum = 0.0;
    Hour& out = hours_[h];
    out.pue = site[h].pue;
    out.usd_per_kwh = site[h].usd_per_kwh;
    out.work_rate = site[h].work_rate;
    out.pue_usd_per_kwh = out.pue * out.usd_per_kwh;
    out.pue_before = pue_sum;
    out.pue_usd_per_kwh_before = pue_usd_sum;
    out.work_before = work_sum;
    throttled += out.work_rate < 1.0 ? 1.0 : 0.0;
    out.throttled_through = throttled;
    pue_sum += out.pue;
    pue_usd_sum += out.pue_usd_per_kwh;
    work_sum += out.work_rate;
    if (h > 0 && out.work_rate != hours_[h - 1].work_rate) rate_changes_.push_back(static_cast<long>(h));
  }
  pue_block_max_.assign((site.size() + kPueBlockHours - 1) / kPueBlockHours, 0.0);
  uniform_pue_ = true;
  for (std::size_t h = 0; h < site.size(); ++h) {
    double& block = pue_block_max_[h / kPueBlockHours];
    block = std::max(block, hours_[h].pue);
    uniform_pue_ = uniform_pue_ && hours_[h].pue == hours_[0].pue;
  }
}

void SiteCurve::assign_intensity(const std::vector<double>& g_co2_per_kwh) {
  intensity_.resize(hours_.size());
  double sum = 0.0;
  for (std::size_t h = 0; h < hours_.size(); ++h) {
    if (h % kHoursPerMonth == 0) sum = 0.0;
    IntensityHour& out = intensity_[h];
    out.pue_g_co2 = hours_[h].pue * g_co2_per_kwh[h];
    out.pue_g_co2_before = sum;
    sum += out.pue_g_co2;
  }
}

void ambient_noise(std::uint64_t seed, std::uint32_t path, long hours, std::vector<double>& z) {
  thread_local std::vector<double> u;
  thread_local std::vector<int> tails;
  const auto n = static_cast<std::size_t>(hours);
  z.resize(n);
  u.resize(n);
  tails.resize(n);
  ambient_z(seed, path, 0, static_cast<int>(hours), u.data(), z.data(), tails.data());
}

void build_site_curve(const DesPlan& plan, const std::vector<double>& ambient_noise, SiteCurve& curve) {
  if (plan.ambient_c.empty()) {
    curve.assign(plan.site);
    if (!plan.grid_g_co2_by_hour.empty()) curve.assign_intensity(plan.grid_g_co2_by_hour);
    return;
  }
  const AmbientSpec& a = *plan.onprem->ambient;
  const PueParams pue = pue_params(plan.onprem->cooling);
  thread_local std::vector<SiteHour> noisy;
  noisy = plan.site;
  for (std::size_t h = 0; h < noisy.size(); ++h) {
    const double t_c = plan.ambient_c[h] + a.noise_sigma_c * ambient_noise[h];
    noisy[h].pue = pue_at(pue, t_c);
    noisy[h].work_rate = work_rate_at(a, t_c, a.throttle_above_c.has_value(), a.throttle_above_c.value_or(0.0));
  }
  curve.assign(noisy);
  if (!plan.grid_g_co2_by_hour.empty()) curve.assign_intensity(plan.grid_g_co2_by_hour);
}

void PathSites::start_path(std::uint64_t seed, std::uint32_t path) {
  seed_ = seed;
  path_ = path;
  noise_.clear();
  built_.assign(built_.size(), 0);
}

const SiteCurve& PathSites::curve(const DesPlan& plan) {
  if (plan.ambient_c.empty()) return *plan.fixed_site;
  const auto group = static_cast<std::size_t>(plan.site_group);
  if (group >= curves_.size()) {
    curves_.resize(group + 1);
    built_.resize(group + 1, 0);
  }
  if (!built_[group]) {
    if (noise_.size() < plan.site.size()) ambient_noise(seed_, path_, static_cast<long>(plan.site.size()), noise_);
    build_site_curve(plan, noise_, curves_[group]);
    built_[group] = 1;
  }
  return curves_[group];
}

}  // namespace tco::des
