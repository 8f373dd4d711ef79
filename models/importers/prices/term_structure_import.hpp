// `tcosim pricing import --format term-structure`: a reserved-price curve read at one date (term
// in months -> USD per GPU-hour, as published daily for 1 to 36 months) into each term's reserved
// price and the forwards the curve implies at a discount rate (docs/model.md §4 "Implied forwards
// from a term structure"; models/price_path/implied_forward.hpp). CSV columns, a header naming
// them in any order:
//   as_of (or date)   YYYY-MM-DD, the same on every row: the curve's date
//   term_months       an integer >= 1, strictly increasing down the file
//   usd_per_gpu_hour  a price > 0 (a curve has no missing figures: $0 and NaN are refused)
//   source            where the point was read, not empty
// Example: "2026-11-27,12,2.10,example index" -> {"term_months": 12, "usd_per_gpu_hour": 2.1, "source": ...}.
// With an offer (its catalog id and GPUs per instance), the output also holds "offer": an override
// of that cloud_offer record that a scenario's cloud.offer loads as it is: each term as a reserved
// price per instance-hour (USD per GPU-hour x GPUs), 12 and 36 months as reserved_1y/3y_usd_per_hour,
// the others in reserved_usd_per_hour_by_term_months, each dated the curve's as_of in field_provenance
// with its rows' source. E.g. 6 months at $2.20 for an 8-GPU instance -> {"6": 17.6}.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/finding.hpp"

namespace tco {

struct TermStructureImport {
  // {"kind": "term_structure", "as_of", "discount_rate_per_year", "reserved_terms": [{term_months,
  // usd_per_gpu_hour, source}], "implied_forwards": [{start_month, end_month, usd_per_gpu_hour}]}
  Json curve;
  std::vector<Finding> notes;  // warnings: a forward at or below $0
};

// Throws InputError naming the file and "line N[, column C]" for a missing column, a malformed
// field, a second date, a term not above the previous one, or a price <= 0; and when no row has a term.
struct TermStructureOffer {
  std::string id;             // the catalog's cloud_offer id the patch overrides
  int gpus_per_instance = 0;  // 0: no offer patch
};

// With offer.gpus_per_instance > 0, a term above 60 months (the longest a catalog offer holds) is
// refused too, at its line.
TermStructureImport import_term_structure(const std::string& path, double discount_rate_per_year,
                                          const TermStructureOffer& offer = {});

}  // namespace tco
