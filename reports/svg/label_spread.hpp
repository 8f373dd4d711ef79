// Places labels along one axis (e.g. the line-end labels of a chart, by y) as close as possible
// to where each wants to be, at least `gap` apart, inside [lo, hi] when they fit. Overlapping
// labels are merged into clusters centred on the mean of their wishes (the classic
// "dodge" of direct labelling), then the clusters are pushed inside the bounds.
// Example: wishes {100, 102, 200}, gap 14, bounds [0, 300] -> {94, 108, 200}.
#pragma once

#include <vector>

namespace tco::svg {

// Positions in the order of `wanted`; neighbours (sorted by wish) are at least `gap` apart. When
// n x gap exceeds hi - lo the labels start at lo and run past hi.
std::vector<double> spread_labels(const std::vector<double>& wanted, double gap, double lo, double hi);

}  // namespace tco::svg
