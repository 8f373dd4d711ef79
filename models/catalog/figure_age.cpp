#include "models/catalog/figure_age.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/catalog/field_provenance.hpp"

namespace tco {

std::vector<DatedFigures> aged_figures(const std::vector<Provenance>& used, const Date& today, int max_age_days) {
  std::vector<DatedFigures> out;
  for (const Provenance& p : used) {
    std::vector<DatedFigures> groups;
    for (const FigureProvenance& f : p.figures) {
      Date as_of;
      if (!parse_date(f.as_of, as_of)) continue;
      const long age_days = days_between(as_of, today);
      // Only a price goes stale; any figure dated after today is flagged.
      const bool aged = age_days < 0 || (age_days > max_age_days && is_price_field(f.field));
      if (!aged) continue;
      auto group = std::find_if(groups.begin(), groups.end(), [&f](const DatedFigures& g) { return g.as_of == f.as_of; });
      if (group == groups.end()) {
        groups.push_back({p.kind, p.id, f.as_of, {}, age_days});
        group = groups.end() - 1;
      }
      group->fields.push_back(f.field);
    }
    for (DatedFigures& g : groups) out.push_back(std::move(g));
  }
  return out;
}

Finding aged_figures_warning(const DatedFigures& g, const std::string& today, int max_age_days) {
  const std::string who = fmt::format("{} \"{}\" {}", g.kind, g.id.empty() ? "(inline)" : g.id, fmt::join(g.fields, ", "));
  const bool one = g.fields.size() == 1;
  if (g.age_days < 0)
    return {Finding::Severity::warning, "as-of-in-future", "", g.kind + ":" + g.id,
            fmt::format("{}: dated {}, {} days after today ({})", who, g.as_of, -g.age_days, today)};
  return {Finding::Severity::warning, "as-of-stale", "", g.kind + ":" + g.id,
          fmt::format("{}: dated {}, {} days old on {} (more than {}): re-check {}", who, g.as_of, g.age_days, today,
                      max_age_days, one ? "the figure" : "the figures")};
}

std::string oldest_figure_as_of(const std::vector<Provenance>& used) {
  std::string oldest;
  auto consider = [&oldest](const std::string& as_of) {
    if (oldest.empty() || as_of < oldest) oldest = as_of;
  };
  for (const Provenance& p : used) {
    if (p.figures.empty()) consider(p.as_of);
    for (const FigureProvenance& f : p.figures)
      if (is_price_field(f.field)) consider(f.as_of);
  }
  return oldest;
}

int history_months(const Date& start, const Date& today, int horizon_months) {
  const long days = days_between(start, today);
  if (days <= 0) return 0;
  return static_cast<int>(std::min<long>(days * 24 / kHoursPerMonth, horizon_months));
}

}  // namespace tco
