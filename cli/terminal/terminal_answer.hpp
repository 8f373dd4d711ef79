// What `tcosim run` (and `tcosim report` without an output) prints: the verdict, the plans table
// fitting 100 columns, the report document's Breakevens and Cost distribution sections one row
// a line (the sentences and cells of the other formats), its other sections that fit the
// columns (the others named), the warnings, and every file the command wrote. It renders the
// JSON report only, so a saved report prints the same.
#pragma once

#include <string>
#include <vector>

#include "cli/terminal/plans_table.hpp"
#include "core/io/json_reader.hpp"

namespace tco::cli {

std::string terminal_answer(const Json& report, const std::vector<std::string>& files_written,
                            int columns = kTerminalColumns);

// The parts, each ending in a newline (empty when the report has nothing for it).
std::string breakeven_lines(const Json& report, int columns = kTerminalColumns);
std::string monte_carlo_lines(const Json& report, int columns = kTerminalColumns);
std::string files_written_lines(const std::vector<std::string>& files);

}  // namespace tco::cli
