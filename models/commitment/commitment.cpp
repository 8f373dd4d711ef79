#include "models/commitment/commitment.hpp"

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "core/io/integer_fields.hpp"
#include "models/commitment/capacity_block_durations.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace {

constexpr long kHoursPerDay = 24;

long term_start_h(const Commitment& c) { return static_cast<long>(c.start_month) * kHoursPerMonth; }
long term_end_h(const Commitment& c) { return static_cast<long>(c.start_month + c.term_months) * kHoursPerMonth; }

void parse_term(JsonObjectReader& r, Commitment& c, int horizon_months) {
  c.start_month = static_cast<int>(r.integer_or("start_month", 0, 0, horizon_months - 1));
  c.term_months = static_cast<int>(r.integer("term_months", 1, limits::kMaxCommitmentTermMonths));
}

void parse_capacity_block(JsonObjectReader& r, Commitment& c, const CommitmentOffer& offer, int horizon_months) {
  const long horizon_days = static_cast<long>(horizon_months) * kHoursPerMonth / kHoursPerDay;
  c.start_day = static_cast<int>(r.integer("start_day", 0, horizon_days - 1));
  c.days = static_cast<int>(r.integer("days", 1, limits::kMaxCapacityBlockDays));
  if (!capacity_block_days_sold(offer.provider, c.days))
    r.fail("days",
           fmt::format("a block length that {} sells for the offer \"{}\": {} (pricing-data/README.md "
                       "\"Capacity-block durations\")",
                       offer.provider, offer.id, capacity_block_days_rule(offer.provider)),
           &r.value("days"));
  c.instances = static_cast<int>(r.integer("instances", 1, limits::kMaxCount));
  c.lead_days = static_cast<int>(r.integer_or("lead_days", 0, 0, limits::kMaxBookingLeadDays));
  if (c.lead_days > c.start_day)
    r.fail("lead_days",
           fmt::format("at most start_day ({}): a block booked {} days ahead of day {} would be paid before the "
                       "scenario starts",
                       c.start_day, c.lead_days, c.start_day),
           &r.value("lead_days"));
  if (r.has("repeat_every_days")) {
    c.repeat_every_days = static_cast<int>(r.integer("repeat_every_days", c.days, horizon_days));
  }
  if (r.has("usd_per_instance_hour")) {
    c.usd_per_instance_hour = r.number("usd_per_instance_hour", limits::kUsdPerInstanceHour);
  } else if (offer.capacity_block_usd_per_hour) {
    c.usd_per_instance_hour = *offer.capacity_block_usd_per_hour;
  } else {
    r.fail("usd_per_instance_hour",
           fmt::format("a prepaid price per instance-hour: the offer \"{}\" has no capacity_block_usd_per_hour",
                       offer.id),
           nullptr);
  }
  const long horizon_h = static_cast<long>(horizon_months) * kHoursPerMonth;
  if ((static_cast<long>(c.start_day) + c.days) * kHoursPerDay > horizon_h)
    r.fail("days",
           fmt::format("a block that ends inside the {}-hour horizon (day {} + {} days ends at hour {})", horizon_h,
                       c.start_day, c.days, (static_cast<long>(c.start_day) + c.days) * kHoursPerDay),
           &r.value("days"));
}

// "venues": [{"venue": name, "usd_per_instance_hour": rate}, ...], several on-demand venues of
// one provider. Each name and rate is checked against the plan's venues once they are read
// (models/commitment/savings_plan_venues.cpp), which also puts them in the order the commitment reaches them.
void parse_covered_venues(JsonObjectReader& r, Commitment& c) {
  for (const char* single : {"venue", "usd_per_instance_hour"})
    if (r.has(single))
      r.fail(single,
             "either \"venues\" (each with its rate) or \"venue\" and \"usd_per_instance_hour\", not both",
             &r.value(single));
  const Json& list = r.value("venues");
  if (!list.is_array() || list.empty())
    r.fail("venues", "a non-empty list of {\"venue\", \"usd_per_instance_hour\"}: the on-demand venues it covers",
           &list);
  for (std::size_t i = 0; i < list.size(); ++i) {
    JsonObjectReader vr(list[i], r.file(), r.pointer_of("venues") + "/" + std::to_string(i));
    Commitment::VenueRate v;
    v.venue = vr.string("venue");
    if (v.venue.empty()) vr.fail("venue", "the name of one of the plan's on-demand venues", &vr.value("venue"));
    v.usd_per_instance_hour = vr.number("usd_per_instance_hour", Bounds{0.0, limits::kUsdPerInstanceHour.max, true});
    vr.finish();
    for (const Commitment::VenueRate& seen : c.venue_rates)
      if (seen.venue == v.venue)
        vr.fail("venue", fmt::format("each venue once (\"{}\" is listed twice)", v.venue), &vr.value("venue"));
    c.venue_rates.push_back(v);
  }
  c.venues_written = true;
}

void parse_savings_plan(JsonObjectReader& r, Commitment& c, const CommitmentOffer& offer, int horizon_months) {
  c.usd_per_hour = r.number("usd_per_hour", limits::kUsdPerHourCommitment);
  if (r.has("venues")) {
    parse_covered_venues(r, c);
    parse_term(r, c, horizon_months);
    return;
  }
  c.usd_per_instance_hour = r.number("usd_per_instance_hour", Bounds{0.0, limits::kUsdPerInstanceHour.max, true});
  // A venue's rate is checked against that venue's price once the venues are read
  // (models/commitment/savings_plan_venues.cpp).
  if (r.has("venue")) {
    c.venue = r.string("venue");
    if (c.venue.empty()) r.fail("venue", "the name of one of the plan's on-demand venues", &r.value("venue"));
  }
  if (c.venue.empty() && c.usd_per_instance_hour > offer.on_demand_usd_per_hour)
    r.fail("usd_per_instance_hour",
           fmt::format("a savings-plan rate at or below the offer's on-demand {} USD/h (\"{}\")",
                       offer.on_demand_usd_per_hour, offer.id),
           &r.value("usd_per_instance_hour"));
  parse_term(r, c, horizon_months);
}

void parse_take_or_pay(JsonObjectReader& r, Commitment& c, int horizon_months) {
  c.gpus = static_cast<int>(r.integer("gpus", 1, limits::kMaxCount));
  c.usd_per_gpu_hour = r.number("usd_per_gpu_hour", limits::kUsdPerGpuHour);
  parse_term(r, c, horizon_months);
  if (r.has("ramp_gpus_by_month")) {
    const Json& ramp = r.value("ramp_gpus_by_month");
    const std::string pointer = r.pointer_of("ramp_gpus_by_month");
    if (!ramp.is_array() || ramp.empty() || static_cast<long>(ramp.size()) >= c.term_months)
      throw InputError(r.file(), pointer,
                       fmt::format("expected a list of 1 to {} GPU counts (the months before the full {} GPUs), "
                                   "found {}",
                                   c.term_months - 1, c.gpus, describe_json(ramp)));
    for (std::size_t i = 0; i < ramp.size(); ++i) {
      const Json& v = ramp[i];
      IntegerFieldRecorder::note(r.file(), pointer + "/" + std::to_string(i));
      if (!v.is_number_integer() || v.get<long>() < 0 || v.get<long>() > c.gpus)
        throw InputError(r.file(), pointer + "/" + std::to_string(i),
                         fmt::format("expected a whole number of GPUs from 0 to {} (gpus), found {}", c.gpus,
                                     describe_json(v)));
      c.ramp_gpus_by_month.push_back(static_cast<int>(v.get<long>()));
    }
  }
}

}  // namespace

std::string to_string(Commitment::Kind kind) {
  switch (kind) {
    case Commitment::Kind::capacity_block: return "capacity_block";
    case Commitment::Kind::savings_plan: return "savings_plan";
    case Commitment::Kind::take_or_pay: return "take_or_pay";
  }
  return "capacity_block";
}

std::vector<BlockWindow> block_windows(const Commitment& c, long horizon_hours) {
  std::vector<BlockWindow> out;
  if (c.kind != Commitment::Kind::capacity_block) return out;
  const long every_days = c.repeat_every_days.value_or(0);
  for (long day = c.start_day;; day += every_days) {
    const long start_h = day * kHoursPerDay;
    const long end_h = (day + c.days) * kHoursPerDay;
    if (end_h > horizon_hours) break;  // an occurrence that would end past the horizon is not booked
    out.push_back({start_h, end_h, (day - c.lead_days) * kHoursPerDay});
    if (every_days <= 0) break;
  }
  return out;
}

double committed_gpus_at(const Commitment& c, long hour, double gpus_per_instance, long horizon_hours) {
  switch (c.kind) {
    case Commitment::Kind::take_or_pay: {
      if (hour < term_start_h(c) || hour >= term_end_h(c)) return 0.0;
      const auto month_of_term = static_cast<std::size_t>(month_of_hour(hour) - c.start_month);
      return month_of_term < c.ramp_gpus_by_month.size() ? c.ramp_gpus_by_month[month_of_term] : c.gpus;
    }
    case Commitment::Kind::capacity_block: {
      const long day = hour / kHoursPerDay;
      if (day < c.start_day) return 0.0;
      const long into = c.repeat_every_days ? (day - c.start_day) % *c.repeat_every_days : day - c.start_day;
      const long occurrence_end_h = (day - into + c.days) * kHoursPerDay;  // as block_windows books them
      return into < c.days && occurrence_end_h <= horizon_hours ? c.instances * gpus_per_instance : 0.0;
    }
    case Commitment::Kind::savings_plan: return 0.0;
  }
  return 0.0;
}

SavingsPlanVenueTerms savings_plan_terms_at(const Commitment& c, const std::string& venue) {
  if (c.kind != Commitment::Kind::savings_plan) return {};
  for (std::size_t i = 0; i < c.venue_rates.size(); ++i)
    if (c.venue_rates[i].venue == venue) return {c.venue_rates[i].usd_per_instance_hour, static_cast<int>(i)};
  return {};
}

double savings_plan_usd_at(const Commitment& c, long hour) {
  if (c.kind != Commitment::Kind::savings_plan || hour < term_start_h(c) || hour >= term_end_h(c)) return 0.0;
  return c.usd_per_hour;
}

std::vector<Commitment> parse_commitments(JsonObjectReader& plan, const CommitmentOffer& offer, int horizon_months) {
  std::vector<Commitment> out;
  const Json& list = plan.value("commitments");
  const std::string pointer = plan.pointer_of("commitments");
  if (!list.is_array())
    throw InputError(plan.file(), pointer,
                     "expected a list of commitments (objects with \"kind\": capacity_block, savings_plan or "
                     "take_or_pay), found " + describe_json(list));
  int savings_plans = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    JsonObjectReader r(list[i], plan.file(), pointer + "/" + std::to_string(i));
    Commitment c;
    const std::string kind = r.choice("kind", {"capacity_block", "savings_plan", "take_or_pay"});
    c.kind = kind == "capacity_block" ? Commitment::Kind::capacity_block
             : kind == "savings_plan" ? Commitment::Kind::savings_plan
                                      : Commitment::Kind::take_or_pay;
    c.name = r.string_or("name", fmt::format("{} {}", kind, i + 1));
    for (const Commitment& earlier : out)
      if (earlier.name == c.name)
        r.fail("name", "a name no other commitment of the plan has", r.has("name") ? &r.value("name") : nullptr);
    if (c.kind == Commitment::Kind::capacity_block) parse_capacity_block(r, c, offer, horizon_months);
    if (c.kind == Commitment::Kind::take_or_pay) parse_take_or_pay(r, c, horizon_months);
    if (c.kind != Commitment::Kind::savings_plan && r.has("job_class")) {
      c.job_class = r.string("job_class");
      if (c.job_class.empty()) r.fail("job_class", "a job class name (the jobs' \"class\")", &r.value("job_class"));
    }
    if (c.kind == Commitment::Kind::savings_plan) {
      if (++savings_plans > 1)
        r.fail("kind", "at most one savings plan per plan (one commitment covers the plan's one on-demand offer)",
               &r.value("kind"));
      parse_savings_plan(r, c, offer, horizon_months);
    }
    r.finish();
    out.push_back(std::move(c));
  }
  return out;
}

Json to_json(const Commitment& c) {
  Json out = {{"kind", to_string(c.kind)}, {"name", c.name}};
  switch (c.kind) {
    case Commitment::Kind::capacity_block:
      out["start_day"] = c.start_day;
      out["days"] = c.days;
      out["instances"] = c.instances;
      out["lead_days"] = c.lead_days;
      out["repeat_every_days"] = c.repeat_every_days ? Json(*c.repeat_every_days) : Json(nullptr);
      out["usd_per_instance_hour"] = c.usd_per_instance_hour;
      break;
    case Commitment::Kind::savings_plan:
      out["usd_per_hour"] = c.usd_per_hour;
      out["usd_per_instance_hour"] = c.usd_per_instance_hour;
      out["start_month"] = c.start_month;
      out["term_months"] = c.term_months;
      if (c.venues_written) {
        out.erase("usd_per_instance_hour");
        Json venues = Json::array();
        for (const Commitment::VenueRate& v : c.venue_rates)
          venues.push_back({{"venue", v.venue}, {"usd_per_instance_hour", v.usd_per_instance_hour}});
        out["venues"] = std::move(venues);
      } else if (!c.venue.empty()) {
        out["venue"] = c.venue;
      }
      break;
    case Commitment::Kind::take_or_pay:
      out["gpus"] = c.gpus;
      out["usd_per_gpu_hour"] = c.usd_per_gpu_hour;
      out["start_month"] = c.start_month;
      out["term_months"] = c.term_months;
      out["ramp_gpus_by_month"] = c.ramp_gpus_by_month;
      break;
  }
  if (!c.job_class.empty()) out["job_class"] = c.job_class;
  return out;
}

}  // namespace tco
