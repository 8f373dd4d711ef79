#include "engine/ledger/commitment_booking.hpp"

#include <algorithm>

namespace tco {

namespace {

double gpus_per_instance_of(const Plan& plan) { return plan.cloud ? plan.cloud->offer.gpus_per_instance : 8.0; }

// The instance a savings plan's rate is per: its venue's offer's, else the plan's offer's.
double savings_plan_gpus_per_instance(const Plan& plan, const Commitment& c) {
  for (const CloudVenue& v : plan.venues)
    if (v.name == c.venue) return v.offer.gpus_per_instance;
  return gpus_per_instance_of(plan);
}

}  // namespace

bool savings_plan_has_one_gpu_hour_rate(const Plan& plan, const Commitment& c) {
  if (c.venue_rates.size() < 2) return true;
  auto usd_per_gpu_hour = [&](const Commitment::VenueRate& r) {
    for (const CloudVenue& v : plan.venues)
      if (v.name == r.venue) return r.usd_per_instance_hour / v.offer.gpus_per_instance;
    return r.usd_per_instance_hour / gpus_per_instance_of(plan);
  };
  const double first = usd_per_gpu_hour(c.venue_rates.front());
  return std::all_of(c.venue_rates.begin(), c.venue_rates.end(),
                     [&](const Commitment::VenueRate& r) { return usd_per_gpu_hour(r) == first; });
}

namespace {

// Hours of month m inside [from_h, to_h) and the horizon.
long hours_of_month_within(int m, long from_h, long to_h, long horizon_h) {
  const long begin = std::max<long>(static_cast<long>(m) * kHoursPerMonth, from_h);
  const long end = std::min({static_cast<long>(m + 1) * kHoursPerMonth, to_h, horizon_h});
  return end > begin ? end - begin : 0;
}

// One instrument's bills, in its own ledger (its NPV) that the plan's ledger then adds.
Ledger instrument_bills(const Commitment& c, long horizon_h, int months, double price_multiplier) {
  Ledger bills(months);
  const long term_from = static_cast<long>(c.start_month) * kHoursPerMonth;
  const long term_to = static_cast<long>(c.start_month + c.term_months) * kHoursPerMonth;
  switch (c.kind) {
    case Commitment::Kind::capacity_block:
      for (const BlockWindow& w : block_windows(c, horizon_h))
        bills.add(month_of_hour(w.booked_h), Category::cloud_reserved,
                  c.instances * static_cast<double>(w.end_h - w.start_h) * c.usd_per_instance_hour * price_multiplier,
                  Timing::start_of_month);
      break;
    case Commitment::Kind::take_or_pay:
    case Commitment::Kind::savings_plan:
      for (int m = c.start_month; m < months; ++m) {
        const long hours = hours_of_month_within(m, term_from, term_to, horizon_h);
        if (hours == 0) continue;
        // A take-or-pay contract's GPUs of the month (its ramp), at the month's first hour of the term.
        const double rate_usd_per_hour =
            c.kind == Commitment::Kind::savings_plan
                ? c.usd_per_hour
                : committed_gpus_at(c, std::max<long>(static_cast<long>(m) * kHoursPerMonth, term_from), 1.0,
                                    horizon_h) *
                      c.usd_per_gpu_hour;
        if (rate_usd_per_hour > 0.0)
          bills.add(m, Category::cloud_reserved, static_cast<double>(hours) * rate_usd_per_hour * price_multiplier,
                    Timing::end_of_month);
      }
      break;
  }
  return bills;
}

}  // namespace

CommitmentHours commitment_hours(const Plan& plan, long hours, double price_multiplier) {
  CommitmentHours out;
  if (plan.commitments.empty()) return out;
  const double gpi = gpus_per_instance_of(plan);
  out.committed_gpus.assign(hours, 0.0);
  out.savings_plan_usd.assign(hours, 0.0);
  for (const Commitment& c : plan.commitments)
    for (long h = 0; h < hours; ++h) {
      out.committed_gpus[h] += committed_gpus_at(c, h, gpi, hours);
      out.savings_plan_usd[h] += savings_plan_usd_at(c, h) * price_multiplier;
    }
  return out;
}

CommitmentTracker::CommitmentTracker(const Plan& plan, long hours)
    : plan_(plan), hours_(hours), gpus_per_instance_(gpus_per_instance_of(plan)) {
  for (const Commitment::Kind kind : {Commitment::Kind::take_or_pay, Commitment::Kind::capacity_block})
    for (std::size_t i = 0; i < plan.commitments.size(); ++i)
      if (plan.commitments[i].kind == kind) pool_order_.push_back(static_cast<int>(i));
  for (const Commitment& c : plan.commitments) {
    CommitmentFigures f;
    f.name = c.name;
    f.kind = c.kind;
    f.gpu_hours_apply = c.kind != Commitment::Kind::savings_plan || savings_plan_has_one_gpu_hour_rate(plan, c);
    const int months = hours > 0 ? month_of_hour(hours - 1) + 1 : 0;
    f.committed_gpu_hours_by_month.assign(months, 0.0);
    f.used_gpu_hours_by_month.assign(months, 0.0);
    f.used_usd_by_month.assign(months, 0.0);
    figures_.push_back(f);
  }
}

void CommitmentTracker::add_hour(long hour, const HourOutcome& out) {
  const int m = month_of_hour(hour);
  double left = out.committed_used_gpus;
  for (const int i : pool_order_) {
    const double held = committed_gpus_at(plan_.commitments[i], hour, gpus_per_instance_, hours_);
    const double used = std::min(left, held);
    CommitmentFigures& f = figures_[i];
    f.committed_gpu_hours += held;
    f.used_gpu_hours += used;
    f.committed_gpu_hours_by_month[m] += held;
    f.used_gpu_hours_by_month[m] += used;
    left -= used;
  }
  for (std::size_t i = 0; i < plan_.commitments.size(); ++i) {
    const Commitment& c = plan_.commitments[i];
    if (c.kind != Commitment::Kind::savings_plan) continue;
    const double gpus_per_instance = savings_plan_gpus_per_instance(plan_, c);
    const double committed = savings_plan_usd_at(c, hour) / c.usd_per_instance_hour * gpus_per_instance;
    const double used = plan_.venues.empty() ? out.savings_plan_covered_instances * gpus_per_instance
                                             : out.savings_plan_covered_gpus;
    CommitmentFigures& f = figures_[i];
    f.committed_gpu_hours += committed;
    f.used_gpu_hours += used;
    f.used_usd += out.savings_plan_used_usd;
    f.committed_gpu_hours_by_month[m] += committed;
    f.used_gpu_hours_by_month[m] += used;
    f.used_usd_by_month[m] += out.savings_plan_used_usd;
  }
}

std::vector<CommitmentFigures> CommitmentTracker::book(Ledger& ledger, double rate_per_year, double price_multiplier) {
  for (std::size_t i = 0; i < plan_.commitments.size(); ++i) {
    const Ledger bills = instrument_bills(plan_.commitments[i], hours_, ledger.months(), price_multiplier);
    ledger.add_scaled(bills, 1.0);
    CommitmentFigures& f = figures_[i];
    f.cost_nominal_usd = bills.total_usd();
    f.cost_npv_usd = bills.npv_usd(rate_per_year);
    f.committed_usd = f.cost_nominal_usd;
    // A savings plan's used dollars were summed hour by hour (scaled with its rates); a block's or
    // a contract's are its cost's used share, at its one rate.
    if (f.kind != Commitment::Kind::savings_plan)
      f.used_usd = f.committed_gpu_hours > 0.0 ? f.committed_usd * f.used_gpu_hours / f.committed_gpu_hours : 0.0;
    f.unused_usd = f.committed_usd - f.used_usd;
    f.unused_gpu_hours = f.committed_gpu_hours - f.used_gpu_hours;
    if (!f.gpu_hours_apply) {
      f.committed_gpu_hours = f.used_gpu_hours = f.unused_gpu_hours = 0.0;
      f.committed_gpu_hours_by_month.clear();
      f.used_gpu_hours_by_month.clear();
    }
  }
  return figures_;
}

double CommitmentTracker::used_gpu_hours() const {
  double used = 0.0;
  for (const int i : pool_order_) used += figures_[i].used_gpu_hours;
  return used;
}

void CommitmentTracker::set_used(const std::vector<double>& used_gpu_hours_by_instrument,
                                 const std::vector<double>& used_usd_by_instrument) {
  for (CommitmentFigures& f : figures_) {  // the replay's use has no months
    f.committed_gpu_hours_by_month.clear();
    f.used_gpu_hours_by_month.clear();
    f.used_usd_by_month.clear();
  }
  for (std::size_t i = 0; i < figures_.size() && i < used_gpu_hours_by_instrument.size(); ++i)
    figures_[i].used_gpu_hours = used_gpu_hours_by_instrument[i];
  for (std::size_t i = 0; i < figures_.size() && i < used_usd_by_instrument.size(); ++i)
    figures_[i].used_usd = used_usd_by_instrument[i];
}

std::vector<CommitmentFigures> replayed_commitment_figures(const Plan& plan, long hours, int months,
                                                           double rate_per_year,
                                                           const std::vector<double>& used_gpu_hours_by_instrument,
                                                           const std::vector<double>& used_usd_by_instrument) {
  CommitmentTracker tracker(plan, hours);
  for (long h = 0; h < hours; ++h) tracker.add_hour(h, HourOutcome{});
  tracker.set_used(used_gpu_hours_by_instrument, used_usd_by_instrument);
  Ledger bills(months);
  return tracker.book(bills, rate_per_year, 1.0);
}

}  // namespace tco
