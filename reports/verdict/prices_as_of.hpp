// The first screen's dates (issue 41), beside the verdict in every format: how old the prices
// are, and which months of a scenario that started before today are history. Both read the JSON
// report (pricing.oldest_as_of, pricing.today, pricing.records[].figures, scenario.history_months).
// Example: "Prices as of 2025-06-01 (the oldest price used), 545 days before today (2026-11-28):
// 14 prices used are more than 365 days old (see the warnings)." Only prices count: a datasheet
// specification does not age (models/catalog/field_provenance.hpp, is_price_field).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// "" when the report names no dated figure.
std::string prices_as_of_sentence(const Json& report);

// "The scenario starts 2025-07-01, before today (2026-11-28): months 1-16 are history, months
// 17-36 forecast." "" when the report has no today, or the scenario starts on or after it.
std::string history_sentence(const Json& report);

// Both, joined by a space ("" when neither applies).
std::string dates_sentence(const Json& report);

}  // namespace tco
