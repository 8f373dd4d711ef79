// `tcosim pricing import --format price-index`: a published price series (one row a month, as
// ../shared/data/published-prices/h100_rental_index.csv) into a dated price schedule for a
// scenario's `cloud.price_schedule.on_demand` or `.spot` (docs/model.md §4):
//   {"interpolation": ..., "points": [{"date": "YYYY-MM-01", "usd_per_gpu_hour": p, "source": s}]}
// Columns read: `date` (YYYY-MM, the month's first day; or YYYY-MM-DD), `usd_per_gpu_hour`,
// and, when present, `source` and `kind`. A row whose price is $0 is skipped and a NaN row
// dropped, each counted in a note (never written as a price). The series' distinct `kind`s are
// listed in a note: an index that mixes market ranges, on-demand lists and 1-year contract
// figures is a proxy for one offer's price, to be read with care.
// Example: "2025-10,1.70,...,1-year contract index low" -> {"date": "2025-10-01", "usd_per_gpu_hour": 1.7}.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/finding.hpp"

namespace tco {

struct PriceIndexImport {
  Json schedule;               // {"interpolation", "points"}: a price_schedule kind's object
  std::vector<Finding> notes;  // warnings: kinds mixed, $0 rows skipped, NaN rows dropped
  long rows_read = 0;
  long zero_price_rows = 0;
  long nan_rows = 0;
};

// A file may hold several indices of one GPU, told apart by a `series` column (each row keeping
// its own `source`): `series` names the one to read (the others' rows are passed over), and a
// file of two or more series read without one is refused, listing them.
// Throws InputError naming the file and "line N, column C" for a malformed row, a bad date, or
// dates out of increasing order within the series; and when no row has a price.
PriceIndexImport import_price_index(const std::string& path, const std::string& interpolation,
                                    const std::string& series = "");

}  // namespace tco
