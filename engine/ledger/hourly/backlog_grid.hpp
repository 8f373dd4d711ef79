// The next hour's backlog states of a plan with venues (VenueStepper, engine/ledger/hourly/venue_hour.hpp),
// from this hour's groups of leaves of equal backlog, in increasing backlog.
// Up to `max_states` groups: one state per group at its own backlog (exact). Past it, the states go
// onto a grid: the state of no backlog stays, and the others spread over M evenly spaced backlogs
// x_0 = the lowest .. x_M-1 = the highest (M = max_states, less one for the state of no backlog).
// A group of probability p and backlog b, x_k <= b <= x_k+1, gives p (x_k+1 - b) / step to x_k and
// p (b - x_k) / step to x_k+1 (linear interpolation): every probability, the mean backlog and each
// venue's distribution of instances held are kept exactly, and a figure linear in the backlog
// between two grid points is kept exactly too; one that bends there moves by at most
// p (b - x_k)(x_k+1 - b) / 2 times its curvature. (Merging two neighbours into their mean, as
// before, also kept the mean but removed their spread hour after hour: a generated scenario's
// long-lived backlog drifted 5.6 standard errors below its Monte Carlo mean, issue 42.)
// Example, at most 3 states: groups at 0 (p 0.5), 1 (p 0.2), 2.5 (p 0.2) and 4 (p 0.1) backlog
// GPU-hours: 0 stays; the grid is 1 and 4 (step 3); 2.5 gives 0.1 to each. States 0 (p 0.5), 1
// (p 0.3) and 4 (p 0.2): mean 0.3 + 0.8 = 1.1, as 0.2 + 0.5 + 0.4 before.
#pragma once

#include <cstddef>
#include <vector>

namespace tco {

// Leaves [first, last) of the hour's leaves sorted by backlog, with the same backlog.
struct BacklogGroup {
  std::size_t first = 0, last = 0;
  double probability = 0.0;
  double weighted_backlog = 0.0;  // sum of probability x backlog (reference GPU-hours)

  double backlog_gpu_hours() const { return weighted_backlog / probability; }
};

// A next state: its backlog and the share of each group it takes.
struct GridState {
  struct Part {
    std::size_t group;
    double fraction;  // of the group's probability (1 below the cap)
  };
  double backlog_gpu_hours = 0.0;
  std::vector<Part> parts;
};

// max_states >= 3. States with nothing in them are left out.
std::vector<GridState> backlog_grid(const std::vector<BacklogGroup>& groups, std::size_t max_states);

}  // namespace tco
