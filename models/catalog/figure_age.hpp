// How old the figures a run uses are on a given day (issue 41): `tcosim validate`'s as-of rule
// (models/catalog/catalog_validation.hpp) applied to each figure's own date, field-level dates
// and capacity_block_as_of included. A price figure (is_price_field) dated more than
// max_age_days before today is stale; a specification (a GPU's tdp_w, a server's peak_kw) does
// not age. Any figure dated after today is "in the future" (a warning in a report: a run pinned to
// an earlier --today may use a newer catalog). The figures of one record that share a date make
// one warning. Example: today 2026-11-28, an offer dated 2025-06-01 whose on-demand and spot prices
// and gpus_per_instance fall back to that date: 2025-06-01 -> 2026-06-01 is 365 days, + 180 to
// 2026-11-28 = 545 days, above 365: one as-of-stale warning naming the two prices (not the count).
#pragma once

#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "models/catalog/records.hpp"
#include "models/finding.hpp"

namespace tco {

// Figures of one record sharing one date.
struct DatedFigures {
  std::string kind;
  std::string id;
  std::string as_of;
  std::vector<std::string> fields;
  long age_days = 0;  // days from as_of to today; negative: after today
};

// The groups of `used`: price figures dated more than max_age_days before `today`, and figures
// of any kind dated after it, in the order of `used` and then of first appearance of each date.
std::vector<DatedFigures> aged_figures(const std::vector<Provenance>& used, const Date& today, int max_age_days);

// The warning of one group: code "as-of-stale" or "as-of-in-future", where "kind:id".
Finding aged_figures_warning(const DatedFigures& figures, const std::string& today, int max_age_days);

// The oldest date of any price figure in `used` (a record that lists no figures, an API price or
// a serving profile, counts with its own date); "" when none.
std::string oldest_figure_as_of(const std::vector<Provenance>& used);

// Whole model months (730 h) of a scenario starting `start` that lie before `today`, at most
// horizon_months: those months are history, the rest forecast. Example: start 2025-07-01, today
// 2026-11-28: 515 days = 12,360 h = 16.9 months: 16 months of history.
int history_months(const Date& start, const Date& today, int horizon_months);

}  // namespace tco
