// A date and a source per figure (issue 41): any catalog record, and a record written inline or
// overridden in a scenario, may carry
//   "field_provenance": {"<numeric field>": {"as_of": "YYYY-MM-DD", "source": "text"}}
// Each entry names a numeric field of the record's kind that the record carries; "as_of" and
// "source" are each optional, one of them required, and each falls back to the record's own.
// A cloud offer's capacity_block_as_of is the as_of of capacity_block_usd_per_hour: it may be
// given instead of that entry's as_of, or beside it when both say the same date.
// Example: a record dated 2025-06-01 with {"reserved_3y_usd_per_hour": {"as_of": "2026-02-10"}}
// dates its 3-year price 2026-02-10 (source: the record's) and every other figure 2025-06-01.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"

namespace tco {

// The numeric fields of a record kind, in the order the kind's parser reads them (empty for an
// unknown kind).
const std::vector<std::string>& figure_fields(std::string_view kind);

// Reads "field_provenance" (when present) and fills provenance.figures: one per field of
// figure_fields(provenance.kind) that the record carries (not null), dated by its entry or by
// the record. Throws InputError at /field_provenance/<field> for an entry naming an unknown
// field or one the record lacks, and for an entry that is not {"as_of"?, "source"?} with one.
void read_field_provenance(JsonObjectReader& r, Provenance& provenance);

// Whether a numeric field is a price: its unit is money ("usd" in its name, SPEC's units-in-names
// rule: on_demand_usd_per_hour, price_usd, usd_per_kwh, usd_per_kw_month, egress_usd_per_gb).
// Only prices age (issue 41): a price is set by a market and may change tomorrow, while a
// datasheet specification of a shipped product (a GPU's TDP, memory and FLOPS ratio, a server's
// peak and idle kW, a cooling design's rack limit and PUE, an instance's GPU count) stays what it
// was. The as-of-stale rule and the "prices as of" date look at price figures only; a date after
// today is still flagged for every figure (a typo in the year).
bool is_price_field(std::string_view field);

// The figure of `field` in provenance.figures, or nullptr when the record does not carry it.
const FigureProvenance* find_figure(const Provenance& provenance, std::string_view field);

}  // namespace tco
