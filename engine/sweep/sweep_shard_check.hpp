// The checks `tcosim merge` makes on a shard document before it reads it: written by `tcosim
// sweep --shard`, so anything else (null, [], a "NaN" string or a null where a figure belongs,
// an edited point range) is bad input, an InputError naming the file and the JSON pointer.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// Throws InputError unless `doc` is an object with schema `schema`, an integer "shard" range
// and "grid"/"points" count, and points whose figures are all finite numbers, with every statistic
// a point has (the pointer of a missing one named) and each plan's statistics ordered as those of
// one sample: p5 <= p50 <= p95, the CVaR beyond its tail's quantile, the mean inside its ci95.
void check_sweep_shard(const std::string& file, const Json& doc, const char* schema);

}  // namespace tco
