// The plans table `tcosim run` prints, fitted to a terminal's width: the figures' columns take
// what their widest cell needs and the plan column the rest; a name longer than that ends in "~"
// and is written out in full in a legend under the table.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco::cli {

inline constexpr int kTerminalColumns = 100;

std::string plans_table(const Json& report, int columns = kTerminalColumns);

}  // namespace tco::cli
