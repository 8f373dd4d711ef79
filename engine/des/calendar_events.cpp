// The replay's calendar (engine/des/event_loop.hpp): the site's own curve, month boundaries,
// work-rate changes and the horizon's closing sums. Out of line and cold: a few times a path.
#include "engine/des/event_loop.hpp"

namespace tco::des::detail {

// The plan's site on this path, without a PathSites to share it from (tests, streaming).
const SiteCurve& Simulator::own_site() {
  if (p_.ambient_c.empty()) return *p_.fixed_site;
  std::vector<double> z;
  ambient_noise(in_.seed, in_.path, static_cast<long>(p_.site.size()), z);
  build_site_curve(p_, z, own_site_);
  return own_site_;
}

void Simulator::enter_month(int m) {
  sync_onprem();
  sync_waiting();
  month_ = m;
  schedule_month_boundary(m + 1);
  if (p_.onprem && static_cast<long>(m) * kHoursPerMonth == purchase_h_) {
    pool_.bring_up_all();  // synced above
    if (p_.onprem->spares) spares_.deliver(p_.onprem->spare_nodes());
    draw_first_failures(now_);
    note_peak();
    try_start_queued();
  }
}

void Simulator::reschedule_onprem_finishes() {
  const double work_clock = site_->work_clock(now_);
  for (std::uint32_t slot : onprem_running_) {
    Slot& j = slots_[slot];
    ++j.generation;
    const double left_clock = j.run_clock0 + j.run_wall_h - work_clock;
    events_.push(now_ + divide_exactly(std::max(0.0, left_clock), work_rate_), EventKind::finish, slot, j.generation);
  }
}

void Simulator::finish_horizon() {
  auto& c = out_.jobs;
  for (std::uint32_t slot = 0; slot < slots_.size(); ++slot) {
    Slot& j = slots_[slot];
    if (j.venue == Venue::none) continue;
    const bool running = j.venue == Venue::onprem || j.venue == Venue::reserved;
    // Work left: what the current run has not done yet (checkpointed or not).
    const double left_h = running ? std::max(0.0, j.remaining_h - run_progress(j).done_h * j.run_speed) : j.remaining_h;
    if (j.venue == Venue::reserved) end_run(slot);
    book_unfinished(c, j.job.gpus, left_h, j.deadline_abs_h, now_);
  }
  out_.gpu_hours.unserved = c.unserved_gpu_hours;
  // Reserved capacity: paid every hour of its term at the price of the term's start.
  if (p_.reserved_instances > 0) {
    const double usd_per_h = p_.reserved_instances * p_.reserved_usd_per_instance_h;
    for (int m = 0; m < months_; ++m) {
      const long h = static_cast<long>(m) * kHoursPerMonth;
      const long term_start = (h / p_.reserved_term_h) * p_.reserved_term_h;
      out_.cost_by_month[m][static_cast<int>(Category::cloud_reserved)] +=
          usd_per_h * kHoursPerMonth * p_.cloud->reserved_factor(term_start);
    }
    out_.gpu_hours.reserved_paid = static_cast<double>(p_.reserved_instances) * p_.gpus_per_instance * horizon_h_;
  }
  if (p_.onprem && p_.onprem->power.demand_charge_usd_per_kw_month > 0.0) {
    for (int m = 0; m < months_; ++m)
      out_.cost_by_month[m][static_cast<int>(Category::energy)] +=
          p_.onprem->power.demand_charge_usd_per_kw_month * out_.peak_facility_kw_by_month[m] *
          monthly_growth_factor(p_.onprem->power.escalation_per_year, m);
  }
}

}  // namespace tco::des::detail
