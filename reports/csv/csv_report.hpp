// CSV tables of a report for spreadsheets: monthly_cash_flows.csv (one row per plan and
// month, one column per category), plans.csv, and, when the report has them, sizing.csv,
// sensitivity.csv, procurement.csv, commitments.csv (one row per instrument of a plan) and
// depreciation.csv (the book and tax views by year). Numbers are written with full precision (shortest round-trip form).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// The tables as (file name, CSV text), rendered in memory.
using CsvTables = std::vector<std::pair<std::string, std::string>>;
CsvTables csv_tables(const Json& report);

}  // namespace tco
