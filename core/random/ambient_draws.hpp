// The hourly ambient noise of a path, z_h = Phi^-1(uniform(seed, path, source ambient, entity h,
// draw 0)) (SPEC §7), for a run of hours at a time: the Philox blocks in a vector loop, the
// central piece of Phi^-1 on every hour, then the tails (|u - 0.5| > 0.425, 15 % of hours) one
// by one from a list made without branches (which hours are tails is a coin toss the branch
// predictor cannot learn). The same bits as normal_quantile(uniform(...)) hour by hour; the
// sweep and the replay both draw their noise here.
#pragma once

#include <cstdint>

namespace tco {

// z[j] for hours h0 + j, j < n; u and tails are scratch of n entries.
void ambient_z(std::uint64_t seed, std::uint32_t path, long h0, int n, double* __restrict u, double* __restrict z,
               int* __restrict tails);

}  // namespace tco
