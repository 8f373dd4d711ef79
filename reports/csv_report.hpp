// CSV tables of a report for spreadsheets: monthly_cash_flows.csv (one row per plan and
// month, one column per category), plans.csv, and, when the report has them, sizing.csv and
// sensitivity.csv. Numbers are written with full precision (shortest round-trip form).
#pragma once

#include <string>

#include "engine/json_reader.hpp"

namespace tco {

// Writes the tables into `dir` (created if missing), each atomically. Returns the file names.
std::string write_csv_tables(const Json& report, const std::string& dir);

}  // namespace tco
