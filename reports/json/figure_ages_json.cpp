#include "reports/json/figure_ages_json.hpp"

#include <algorithm>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/catalog/figure_age.hpp"

namespace tco {

Json pricing_records_json(const std::vector<Provenance>& used) {
  Json records = Json::array();
  for (const auto& p : used) {
    Json figures = Json::array();
    for (const FigureProvenance& f : p.figures)
      figures.push_back({{"field", f.field}, {"as_of", f.as_of}, {"source", f.source}});
    records.push_back({{"kind", p.kind}, {"id", p.id}, {"source", p.source}, {"as_of", p.as_of}, {"figures", figures}});
  }
  return records;
}

Json figure_ages_json(const std::vector<Provenance>& used, const std::string& start, int horizon_months,
                      const std::string& today, int max_age_days) {
  const std::string oldest = oldest_figure_as_of(used);
  Json out = {{"scenario", {{"start", start}, {"horizon_months", horizon_months}}},
              {"pricing", {{"oldest_as_of", oldest.empty() ? Json(nullptr) : Json(oldest)},
                           {"records", pricing_records_json(used)}}},
              {"warnings", Json::array()}};
  add_figure_ages(out, used, today, max_age_days);
  return out;
}

void add_figure_ages(Json& report, const std::vector<Provenance>& used, const std::string& today_text,
                     int max_age_days) {
  Date today, start;
  if (!parse_date(today_text, today))
    throw InputError("", "--today", "expected a date YYYY-MM-DD, found \"" + today_text + "\"");
  Json& scenario = report.at("scenario");
  if (!parse_date(scenario.at("start").get<std::string>(), start))
    throw InputError("", "/scenario/start", "expected a date YYYY-MM-DD, found " + scenario.at("start").dump());
  report["pricing"]["today"] = today_text;
  report["pricing"]["max_age_days"] = max_age_days;
  scenario["history_months"] = history_months(start, today, scenario.at("horizon_months").get<int>());
  for (const DatedFigures& g : aged_figures(used, today, max_age_days)) {
    const Finding f = aged_figures_warning(g, today_text, max_age_days);
    report["warnings"].push_back({{"severity", "warning"}, {"code", f.code}, {"where", f.where}, {"message", f.message}});
  }
}

void redate_report(Json& report, const std::string& today, int max_age_days) {
  std::vector<Provenance> used;
  for (const Json& r : report.at("pricing").at("records")) {
    Provenance p{r.at("kind").get<std::string>(), r.at("id").get<std::string>(), r.at("source").get<std::string>(),
                 r.at("as_of").get<std::string>(), {}};
    for (const Json& f : r.value("figures", Json::array()))
      p.figures.push_back({f.at("field").get<std::string>(), f.at("source").get<std::string>(),
                           f.at("as_of").get<std::string>(), false, false});
    used.push_back(std::move(p));
  }
  Json& warnings = report.at("warnings");
  Json kept = Json::array();
  for (const Json& w : warnings) {
    const std::string code = w.value("code", "");
    if (code != "as-of-stale" && code != "as-of-in-future") kept.push_back(w);
  }
  warnings = kept;
  add_figure_ages(report, used, today, max_age_days);
}

}  // namespace tco
