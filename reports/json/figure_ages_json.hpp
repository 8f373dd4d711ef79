// The report's dates (issue 41): the day the figures' ages were taken on ("pricing.today",
// "pricing.max_age_days"), the months of the horizon before it ("scenario.history_months") and
// one warning per stale or future-dated group of figures (models/catalog/figure_age.hpp), added
// to "warnings". `tcosim report --today` re-dates a saved report from its own pricing.records.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"

namespace tco {

// The report's pricing.records: every record used with its figures, each with its own date and source.
Json pricing_records_json(const std::vector<Provenance>& used);

// The dates of a command whose output is not a report (sweep, calibrate): a report's "scenario"
// (start, horizon), "pricing" (oldest_as_of, records, today, max_age_days) and "warnings" (the
// aged figures only), for the terminal and the command's own JSON.
Json figure_ages_json(const std::vector<Provenance>& used, const std::string& start, int horizon_months,
                      const std::string& today, int max_age_days);

// `used`: the records the report's figures come from; report must hold "scenario" (start,
// horizon_months), "pricing" and "warnings". Throws InputError at --today for a bad date.
void add_figure_ages(Json& report, const std::vector<Provenance>& used, const std::string& today, int max_age_days);

// The same for a saved report: its as-of warnings replaced by those of `today`.
void redate_report(Json& report, const std::string& today, int max_age_days);

}  // namespace tco
