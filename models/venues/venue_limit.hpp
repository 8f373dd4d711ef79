// How many venues a plan may list (docs/scenario.md "venues"). The list is short in practice (a
// neocloud, a hyperscaler, spot): the hourly model's expectation takes up to 2^n branches an
// hour, and the sweep kernel keeps each venue's state in a fixed array of this size.
#pragma once

namespace tco {

inline constexpr int kMaxVenuesPerPlan = 8;

}  // namespace tco
