// Commitment instruments of a plan (docs/model.md "Commitments"): capacity bought ahead, paid
// whether used or not. In the plan's capacity they come after owned nodes and reserved
// instances and before the cloud offer: take-or-pay contracts, then capacity blocks (inside
// their window only); a savings plan then discounts the on-demand usage it covers.
//   take-or-pay    G(m) GPUs in month m of its term (G, or ramp_gpus_by_month[m - start] while
//                  the ramp lasts); billed G(m) x 730 h x usd_per_gpu_hour at the month's end
//   capacity block I instances x g GPUs from hour 24 start_day for 24 days hours (and again every
//                  repeat_every_days); prepaid I x 24 days x usd_per_instance_hour at the start of
//                  the booking month, month_of_hour(24 (start_day - lead_days))
//   savings plan   C USD each hour of its term; covers min(on-demand instances, C / r) of the
//                  hour's on-demand instance-hours at its rate r (models/commitment/savings_plan.hpp);
//                  the rest is billed on-demand; C is paid whether covered usage reaches it or not
// Example: a 14-day block of 32 p5.48xlarge (8 GPUs) at $39.33 from day 60, booked 28 days
// ahead: 32 x 336 h x 39.33 = $422,876.16 at the start of month month_of_hour(24 x 32) = 1;
// 32 x 8 x 336 = 86,016 GPU-hours committed from hour 1,440 to 1,776.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

struct Commitment {
  enum class Kind { capacity_block, savings_plan, take_or_pay };
  Kind kind = Kind::capacity_block;
  std::string name;
  // capacity_block
  int start_day = 0;
  int days = 1;
  int instances = 0;
  int lead_days = 0;
  std::optional<int> repeat_every_days;
  double usd_per_instance_hour = 0.0;  // the block's prepaid rate, or the savings plan's rate
  // savings_plan and take_or_pay: whole months from start_month
  int start_month = 0;
  int term_months = 12;
  double usd_per_hour = 0.0;  // the savings plan's commitment
  // savings_plan in a plan with venues: the on-demand venue whose usage it covers (one provider's
  // offer, whose on-demand price its rate is below); "" without venues (the plan's offer). With
  // several ("venues"), the one it reaches first, and usd_per_instance_hour is that venue's rate.
  std::string venue;
  // savings_plan in a plan with venues: each on-demand venue it covers at its rate, in the order
  // the commitment reaches them (highest discount 1 - rate / on-demand first, ties as written);
  // one entry for the "venue" form. Empty without venues.
  struct VenueRate {
    std::string venue;
    double usd_per_instance_hour = 0.0;
    bool operator==(const VenueRate&) const = default;
  };
  std::vector<VenueRate> venue_rates;
  bool venues_written = false;  // written as "venues" (echoed so), not "venue"
  // take_or_pay
  int gpus = 0;
  double usd_per_gpu_hour = 0.0;
  std::vector<int> ramp_gpus_by_month;
  // capacity_block, take_or_pay: in the discrete-event replay only jobs of this class run on it
  // ("": any job); the hourly model has no classes and fills it with any overflow
  std::string job_class;

  bool operator==(const Commitment&) const = default;
};

std::string to_string(Commitment::Kind kind);

// A block's occurrences inside the horizon: [start_h, end_h) of each, and its booking hour.
struct BlockWindow {
  long start_h = 0;
  long end_h = 0;
  long booked_h = 0;
};
std::vector<BlockWindow> block_windows(const Commitment& c, long horizon_hours);

// GPUs an instrument holds in hour h (take-or-pay, capacity block; 0 for a savings plan and
// outside the term or window, and in a block occurrence block_windows does not book);
// gpus_per_instance converts a block's instances.
double committed_gpus_at(const Commitment& c, long hour, double gpus_per_instance, long horizon_hours);

// The savings plan's commitment in hour h (0 outside its term, and for the other kinds).
double savings_plan_usd_at(const Commitment& c, long hour);

// A savings plan's rate at venue `venue` and that venue's place in the order the commitment
// reaches the venues it covers; order -1 (rate 0) where it does not cover it.
struct SavingsPlanVenueTerms {
  double usd_per_instance_hour = 0.0;
  int order = -1;
};
SavingsPlanVenueTerms savings_plan_terms_at(const Commitment& c, const std::string& venue);

// What the plan's cloud offer lends a commitment: its instance size, on-demand price,
// capacity-block rate (absent: a block must give its own usd_per_instance_hour) and provider
// (whose block lengths a block's days must be, models/commitment/capacity_block_durations.hpp).
struct CommitmentOffer {
  std::string id;
  int gpus_per_instance = 8;
  double on_demand_usd_per_hour = 0.0;
  std::optional<double> capacity_block_usd_per_hour;
  std::string provider;
};

// Reads a plan's "commitments" array (r is the plan). Errors name the file and the JSON pointer.
std::vector<Commitment> parse_commitments(JsonObjectReader& plan, const CommitmentOffer& offer, int horizon_months);

Json to_json(const Commitment& c);

}  // namespace tco
