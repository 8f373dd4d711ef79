// A plan's commitments in the hourly model (models/commitment/commitment.hpp): their hour-by-hour
// inputs to step_hour, their bills in the ledger (category cloud_reserved: capacity bought ahead
// and paid whether used or not, SPEC §4 item 2) and, per instrument, what was committed, used and
// left unused. The committed pool of an hour is used in the plan's order: take-or-pay contracts
// first, then capacity blocks, each kind in list order.
// Each instrument's figures are in dollars of its commitment:
//   committed USD = its bills inside the horizon;  unused USD = committed - used
//   block, take-or-pay: used USD = committed x used GPU-hours / committed GPU-hours (one rate)
//   savings plan:       used USD = sum_h sum_k covered_k,h x rate_k (what the cover spent of C_h,
//                       as AWS measures a savings plan's utilization)
// and in GPU-hours where one rate applies (every kind but a savings plan whose venues' rates per
// GPU-hour differ): a savings plan's committed GPU-hours are what its dollars buy at its rate,
// sum_h C_h / r x g; used are the on-demand instance-hours it covered x g.
// Nothing is clamped: unused < 0 would be a defect, and the tests look for it.
// Example (tests/test_commitments.cpp): a 14-day block of 2 x 8-GPU instances at $40 (26,880 USD
// prepaid, 5,376 GPU-hours) that serves 8 GPUs of overflow every hour: used 2,688, unused 2,688
// GPU-hours and 13,440 USD.
#pragma once

#include <string>
#include <vector>

#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/ledger.hpp"
#include "models/scenario.hpp"

namespace tco {

struct CommitmentFigures {
  std::string name;
  Commitment::Kind kind = Commitment::Kind::capacity_block;
  double committed_usd = 0.0;  // = cost_nominal_usd: the commitment's dollars inside the horizon
  double used_usd = 0.0;
  double unused_usd = 0.0;     // committed_usd - used_usd
  // GPU-hours, meaningful only where gpu_hours_apply (one rate per GPU-hour; the JSON writes null
  // otherwise).
  bool gpu_hours_apply = true;
  double committed_gpu_hours = 0.0;
  double used_gpu_hours = 0.0;
  double unused_gpu_hours = 0.0;
  // The committed and used GPU-hours (and a savings plan's used dollars) month by month, where the
  // hourly model followed the instrument's hours; empty where the replay measured its use.
  std::vector<double> committed_gpu_hours_by_month, used_gpu_hours_by_month, used_usd_by_month;
  double cost_nominal_usd = 0.0;
  double cost_npv_usd = 0.0;
};

// The hour-by-hour step inputs of a plan's commitments (both empty for a plan without any).
// price_multiplier scales the savings plan's commitment with every cloud price.
struct CommitmentHours {
  std::vector<double> committed_gpus;
  std::vector<double> savings_plan_usd;
};
CommitmentHours commitment_hours(const Plan& plan, long hours, double price_multiplier = 1.0);

// Follows the plan's hours, then books the bills and gives the figures.
class CommitmentTracker {
 public:
  CommitmentTracker(const Plan& plan, long hours);

  bool empty() const { return figures_.empty(); }
  // Divides the hour's committed GPUs used and savings-plan coverage among the instruments.
  void add_hour(long hour, const HourOutcome& out);
  // Books every instrument's bill in `ledger` (cloud_reserved) at its timing, priced x
  // price_multiplier; returns the figures, NPV at rate_per_year.
  std::vector<CommitmentFigures> book(Ledger& ledger, double rate_per_year, double price_multiplier);
  // GPU-hours the instruments' capacity ran work (for the cloud's CO2).
  double used_gpu_hours() const;
  // Replaces each instrument's used GPU-hours, and a savings plan's used dollars, with ones
  // measured elsewhere (the replay's).
  void set_used(const std::vector<double>& used_gpu_hours_by_instrument,
                const std::vector<double>& used_usd_by_instrument);

 private:
  const Plan& plan_;
  long hours_;
  double gpus_per_instance_;
  std::vector<int> pool_order_;  // indices of take-or-pay, then capacity blocks
  std::vector<CommitmentFigures> figures_;
};

// The figures of a plan whose instruments' use the discrete-event replay measured (the mean over
// its paths, in plan.commitments' order: GPU-hours, and a savings plan's dollars of cover):
// committed GPU-hours and bills as the hourly model books them, NPV at rate_per_year.
std::vector<CommitmentFigures> replayed_commitment_figures(const Plan& plan, long hours, int months,
                                                           double rate_per_year,
                                                           const std::vector<double>& used_gpu_hours_by_instrument,
                                                           const std::vector<double>& used_usd_by_instrument);

// Whether a savings plan's GPU-hours mean one thing: it covers one usage, or usages whose rates
// per GPU-hour are equal (then its dollars buy the same GPU-hours wherever they go).
bool savings_plan_has_one_gpu_hour_rate(const Plan& plan, const Commitment& c);

}  // namespace tco
