// The cloud part of an hour for a plan with an ordered venue list (models/venues/cloud_venue.hpp,
// docs/model.md §3b). After owned nodes, reserved capacity and the commitments' GPUs (capacity
// blocks and take-or-pay contracts, in the hour's committed pool), the rest of the overflow, R GPUs
// of the plan's cloud offer, is offered to venue 1, then what it leaves to venue 2, and so on.
// Venue i, with GPUs r_i = R_i x perf_cloud / perf_i (its own GPUs), instances of g_i GPUs, cloud
// packing q, quota N_i = floor(Q_i / g_i) instances and availability X_i in {0, 1}:
//   n_i      = min(c(r_i / q), N_i)                    instances held   (c: whole instances)
//   taken_i  = R_i if c(r_i / q) <= N_i, else N_i g_i q / r_i x R_i  (plan GPUs it serves)
//   R_i+1    = R_i - X_i taken_i
//   billed_i = X_i n_i x (1 for on-demand, spot_overhead_factor for spot) + new_i x delay_i
//   usd_i    = (billed_i - covered_i) x usd per instance-hour x the hour's price factor
// covered_i: on the on-demand venues the plan's savings plan covers, in its order (highest
// discount first), min(billed_i, L_i / r_i) instance-hours where L_i is what the hour's commitment
// C_h has left after the venues before (venues_savings_plan_cover), 0 elsewhere; the commitment
// itself is a fixed bill (engine/ledger/commitment_booking.hpp).
// new_i = max(0, n_i(h) - n_i(h-1)): instances launched this hour pay the provisioning delay (its
// expectation over both hours' branches in the deterministic run: availability is drawn hour by
// hour, so a venue that comes back relaunches what it holds).
// What is left after the last venue waits: it is the hour's backlog, offered again (on-prem
// first) the next hour, costed by waiting_usd_per_gpu_hour each hour it waits, and unserved
// if still waiting at the horizon's end.
// The deterministic run takes the expectation over the 2^n combinations of the venues'
// availability in the hour (a branch of probability 0 is skipped, so availability 1 leaves one
// branch and today's numbers to the bit), the launches and the savings plan's cover included:
// E[max(0, n_b - n_b')] per venue over the pairs of this hour's branch b and the last hour's b'
// (independent draws), and E[covered_i] over the pairs of whole combinations (the covered venues
// share the commitment; summed depth by depth over a CoverTree, engine/ledger/hourly/cover_tree.hpp); a
// Monte Carlo path draws X_i per venue and hour
// (RandomSource::venue_availability, entity = venue index, draw = hour). The hour's expectation
// is exact, and the backlog is carried as its distribution (VenueStepper below), so the run is the
// Monte Carlo's expectation hour after hour.
// Example: R = 100 GPUs, 8-GPU instances, venue 1 quota 64 with a = 0.9, venue 2 uncapped a = 1:
//   X1 = 1 (p 0.9): n1 = 8 (c(100) = 13 > 8), taken 64, venue 2 gets 36 -> n2 = 5
//   X1 = 0 (p 0.1): venue 2 gets 100 -> n2 = 13
//   E[n1] = 0.9 x 8 = 7.2, E[n2] = 0.9 x 5 + 0.1 x 13 = 5.8 instances.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/ledger/hourly/cover_tree.hpp"
#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/hourly/venue_step.hpp"
#include "models/scenario.hpp"

namespace tco {

// One venue's share of one hour (expected in the deterministic run).
struct VenueHour {
  double plan_gpus = 0.0;       // GPUs of the plan's offer it served (x perf_cloud = work)
  double instances = 0.0;
  double billed_instance_hours = 0.0;
  double usd = 0.0;
};

// Per venue, over the horizon.
struct VenueTotals {
  double work_gpu_hours = 0.0;    // reference GPU-hours of work it served
  double billed_gpu_hours = 0.0;
  double cost_usd = 0.0;          // nominal
  double instance_hours = 0.0;    // held (before the overhead and the delay)
  double launched_instances = 0.0;

  bool operator==(const VenueTotals&) const = default;
};

// The venues of a plan whose fleet bursts to them (none for a plan that buys tokens).
std::vector<VenueParams> venue_params(const Plan& plan, double price_multiplier = 1.0);
// The venues of a plan that bursts the tokens above its API's rate limit to them
// (engine/ledger/api_booking.hpp): a plan GPU is a reference GPU (plan_perf 1), so venue i serves
// R reference GPUs of work with R / perf_i of its GPUs. Empty for any other plan.
std::vector<VenueParams> api_venue_params(const Plan& plan, double price_multiplier = 1.0);

// Philox key of a Monte Carlo path's availability draws; absent in the deterministic run.
struct VenueDrawKey {
  std::uint64_t seed = 0;
  std::uint32_t path = 0;
};


// Steps the venues hour by hour, remembering each venue's instances for the provisioning delay
// and, in the deterministic run, the distribution of the backlog.
//
// The backlog (the work no venue took) is offered again the next hour, where it enters nonlinear
// steps: on-prem's min(capacity, need), whole instances, quotas. So the deterministic run carries
// its distribution, not its mean: a set of backlog states, each with its probability and, per
// venue, the instances it held in the last hour given that state (the launches and the savings
// plan's cover compare this hour's instances with those, and the backlog ties the two hours). An
// hour runs every state's on-prem, reserved, committed and venue steps over the venues'
// combinations; each combination's leaf leaves a backlog, and the leaves with the same backlog
// (to 1e-12 relative) make the next hour's states. The hour's figures are the states' expectation,
// E[f(B)] rather than f(E[B]), so the deterministic run is the Monte Carlo's mean (docs/model.md
// §3b). States below kBacklogStateFloor of probability merge into their nearest neighbour, the
// probability-weighted mean of the two backlogs (the mean backlog is kept exactly; the merged
// nonlinear terms move by less than that probability's share); past kMaxBacklogStates they spread
// onto a grid of backlogs (engine/ledger/hourly/backlog_grid.hpp). With a backlog that is always 0 (the
// last venue uncapped and always available) there is one state, and the hour is today's to the bit;
// a Monte Carlo path (one combination of probability 1 an hour) has one state, its own backlog.
// Example: venue 1 (a 0.5, quota 64 GPUs) alone, 72 GPUs an hour, nothing on-prem: the first hour
// leaves 8 GPUs (p 0.5) or 72 (p 0.5); the second offers 80 or 144 with venue 1 there, so 4 states,
// 16, 80, 80 and 144: 3 after the merge (80 with p 0.5).
class VenueStepper {
 public:
  // An availability branch in which a venue holds `instances` (> 0).
  struct Branch {
    double probability;
    double instances;
  };

  VenueStepper(std::vector<VenueParams> venues, std::optional<VenueDrawKey> draws);

  // The backlog states the hour starts from (one on a Monte Carlo path): their count, probability
  // and backlog (reference GPU-hours of work).
  std::size_t state_count() const { return states_.size(); }
  double state_probability(std::size_t k) const { return states_[k].probability; }
  double state_backlog(std::size_t k) const { return states_[k].backlog_gpu_hours; }

  // Starts hour `hour`: draws the venues' capacity on a path.
  void begin_hour(long hour);
  // Sends `rest_gpus` (GPUs of the plan's offer after reserved and the committed pool) of backlog
  // state `k` through the venues; prices x the hour's factors (on-demand, spot); the savings plan's
  // commitment this hour covers its venues' usage. Returns the plan GPUs left waiting (expected,
  // given state k), sets out's venue bills (on_demand_*, spot_*, savings_plan_covered_*) given
  // state k, and records the combinations' leaves for end_hour. `work_per_plan_gpu` turns left GPUs
  // into work (perf_cloud).
  double step(std::size_t k, double rest_gpus, double on_demand_factor, double spot_factor, double savings_plan_usd,
              double work_per_plan_gpu, HourOutcome& out);
  // Ends the hour: adds the states' expected venue figures to totals() and makes the next hour's
  // backlog states from the leaves.
  void end_hour();

  const std::vector<VenueTotals>& totals() const { return totals_; }
  // The same figures month by month ([model month][venue], the months the stepper has seen; SPEC §2's
  // 730-hour month): the FOCUS export's rows per venue (plans[].venues.list[].*_by_month).
  const std::vector<std::vector<VenueTotals>>& totals_by_month() const { return totals_by_month_; }

  // States whose probability falls below this merge into their nearest neighbour (by backlog).
  static constexpr double kBacklogStateFloor = 1e-13;
  // At most this many states: past it, each state's probability is shared between the two nearest
  // of this many evenly spaced backlogs, keeping every probability, the mean backlog and the
  // instances held (an approximation only where work keeps waiting for many hours in many
  // different amounts; backlog_grid.hpp).
  static constexpr std::size_t kMaxBacklogStates = 1024;

 private:
  // A backlog state: its probability, backlog, and per venue the last hour's branches given it
  // (conditional probabilities) and the last hour's cover tree given it.
  struct State {
    double probability = 1.0;
    double backlog_gpu_hours = 0.0;
    std::vector<std::vector<Branch>> branches;
    CoverTree cover_tree;
  };
  // A leaf of this hour's combinations: its probability (absolute), the backlog it leaves (work),
  // and the venues' instances in it at leaf_instances_[index x n, (index + 1) x n).
  struct Leaf {
    double probability;
    double backlog_gpu_hours;
    std::size_t index;
  };

  std::vector<VenueParams> venues_;
  std::optional<VenueDrawKey> draws_;
  std::vector<double> availability_;  // this hour's a_i, or X_i on a Monte Carlo path
  std::vector<VenueHour> hour_;    // this hour's expectation given the state, per venue
  std::vector<VenueHour> hour_expected_;  // over the states, for the totals
  std::vector<double> launched_expected_;
  // Venue i's expected instances launched this hour given the state stepped, E[max(0, n - n')], over
  // this hour's branches and the state's last-hour branches.
  double expected_launched(int i, const State& state) const;

  // The savings plan's cover: the hour's combinations of the venues' availability (one of
  // probability 1 on a path) in a CoverTree, and E[covered_i] over the pairs of this hour's and
  // the state's last hour's, depth by depth (expect_cover_below: the pairs of nodes under `now` and
  // `before` at depth `depth`, with `left_usd` of the commitment left).
  void add_cover_leaf(int depth, double probability);
  void expect_cover(double savings_plan_usd, const CoverTree& before);
  void expect_cover_below(const CoverTree& before_tree, int now, int before, std::size_t depth, double left_usd);

  std::vector<int> covered_venues_;  // the venues the savings plan covers, in the order it reaches them
  // Per venue, this hour's branches given the state being stepped (as a single state's next).
  std::vector<std::vector<Branch>> branches_;
  std::vector<VenueTotals> totals_;
  std::vector<std::vector<VenueTotals>> totals_by_month_;
  int month_ = 0;  // of the hour begun
  std::vector<double> path_instances_;  // the visit's instances per venue down to the current depth
  CoverTree cover_tree_;
  std::vector<double> expected_covered_;  // this hour's E[covered instance-hours] per venue, given the state

  std::vector<State> states_, next_states_;
  std::vector<Leaf> leaves_;
  std::vector<double> leaf_instances_;
  double state_weight_ = 1.0;  // the probability of the state being stepped
  double work_per_plan_gpu_ = 1.0;
};

// A whole hour of a plan with venues: on-prem as step_hour (energy included), then reserved
// and the committed pool as cloud_hour, then the venues, from each of the stepper's backlog states
// (their expectation in the deterministic run); what the venues leave is out.backlog_gpu_hours
// (work, its expectation), and the stepper carries its distribution to the next hour.
HourOutcome step_venue_hour(const FleetParams& f, const HourInputs& in, long hour, double venue_price_factor,
                            VenueStepper& venues);

// Whether a venue's offer has another GPU power, PUE or grid than the plan's cloud offer, so
// that the cloud's CO2 (cloud_co2_kg, SPEC §5) is summed venue by venue.
bool venues_change_co2(const Plan& plan);
// The cloud's CO2 of a plan with venues: reserved and committed GPU-hours on the plan's offer
// (reserved_gpu_hours) plus each venue's billed
// GPU-hours on its own; null when any of them lacks its PUE or grid.
std::optional<double> venue_plan_co2_kg(const Plan& plan, double reserved_gpu_hours,
                                        const std::vector<VenueTotals>& totals);

// A venue's figures over the horizon, for the report, and month by month where the hourly model
// kept them (empty from a discrete-event replay, whose paths keep the horizon's only).
struct VenueFigures {
  std::string name;
  std::string price;  // "on_demand" or "spot"
  VenueTotals totals;
  std::vector<double> billed_gpu_hours_by_month, cost_usd_by_month;
};
// by_month: VenueStepper::totals_by_month() (empty: none); padded with zeros to `months`.
std::vector<VenueFigures> venue_figures(const Plan& plan, const std::vector<VenueTotals>& totals,
                                        const std::vector<std::vector<VenueTotals>>& by_month = {}, int months = 0);

}  // namespace tco
