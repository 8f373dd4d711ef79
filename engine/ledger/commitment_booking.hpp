// A plan's commitments in the hourly model (models/commitment/commitment.hpp): their hour-by-hour
// inputs to step_hour, their bills in the ledger (category cloud_reserved: capacity bought ahead
// and paid whether used or not, SPEC §4 item 2) and, per instrument, what was committed, used and
// left unused. The committed pool of an hour is used in the plan's order: take-or-pay contracts
// first, then capacity blocks, each kind in list order.
//   unused GPU-hours = committed - used;  unused USD = cost x unused / committed
// A savings plan's committed GPU-hours are what its dollars buy at its rate: sum_h C_h / r x g;
// used are the on-demand instance-hours it covered x g (g: the instance of the venue it covers,
// or of the plan's offer).
// Example (tests/test_commitments.cpp): a 14-day block of 2 x 8-GPU instances at $40 (26,880 USD
// prepaid, 5,376 GPU-hours) that serves 8 GPUs of overflow every hour: used 2,688, unused 2,688
// GPU-hours and 13,440 USD.
#pragma once

#include <string>
#include <vector>

#include "engine/ledger/hourly_model.hpp"
#include "engine/ledger/ledger.hpp"
#include "models/scenario.hpp"

namespace tco {

struct CommitmentFigures {
  std::string name;
  Commitment::Kind kind = Commitment::Kind::capacity_block;
  double committed_gpu_hours = 0.0;
  double used_gpu_hours = 0.0;
  double unused_gpu_hours = 0.0;
  double cost_nominal_usd = 0.0;
  double cost_npv_usd = 0.0;
  double unused_usd = 0.0;  // the cost of the unused share
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
  // Replaces each instrument's used GPU-hours with ones measured elsewhere (the replay's).
  void set_used_gpu_hours(const std::vector<double>& used_by_instrument);

 private:
  const Plan& plan_;
  long hours_;
  double gpus_per_instance_;
  std::vector<int> pool_order_;  // indices of take-or-pay, then capacity blocks
  std::vector<CommitmentFigures> figures_;
};

// The figures of a plan whose instruments' use the discrete-event replay measured (the mean over
// its paths, in plan.commitments' order): committed GPU-hours and bills as the hourly model
// books them, NPV at rate_per_year.
std::vector<CommitmentFigures> replayed_commitment_figures(const Plan& plan, long hours, int months,
                                                           double rate_per_year,
                                                           const std::vector<double>& used_by_instrument);

}  // namespace tco
