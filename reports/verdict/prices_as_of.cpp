#include "reports/verdict/prices_as_of.hpp"

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "models/catalog/field_provenance.hpp"

namespace tco {

namespace {

// Price figures of the report's records more than max_age_days old on `today` (a specification
// does not age: models/catalog/field_provenance.hpp, is_price_field).
int stale_figure_count(const Json& pricing, const Date& today, int max_age_days) {
  int count = 0;
  for (const Json& r : pricing.at("records"))
    for (const Json& f : r.value("figures", Json::array())) {
      Date as_of;
      if (is_price_field(f.at("field").get<std::string>()) && parse_date(f.at("as_of").get<std::string>(), as_of) &&
          days_between(as_of, today) > max_age_days)
        ++count;
    }
  return count;
}

}  // namespace

std::string prices_as_of_sentence(const Json& report) {
  if (!report.contains("pricing")) return "";
  const Json& pricing = report.at("pricing");
  if (!pricing.contains("oldest_as_of") || !pricing.at("oldest_as_of").is_string()) return "";
  const std::string oldest = pricing.at("oldest_as_of").get<std::string>();
  std::string out = fmt::format("Prices as of {} (the oldest price used)", oldest);
  Date today, as_of;
  if (!pricing.contains("today") || !parse_date(pricing.at("today").get<std::string>(), today) ||
      !parse_date(oldest, as_of))
    return out + ".";
  const long age_days = days_between(as_of, today);
  const std::string today_text = pricing.at("today").get<std::string>();
  if (age_days < 0) return out + fmt::format(", after today ({}).", today_text);
  out += fmt::format(", {} days before today ({})", age_days, today_text);
  const int max_age_days = pricing.value("max_age_days", 365);
  const int stale = stale_figure_count(pricing, today, max_age_days);
  if (stale == 0) return out + ".";
  return out + fmt::format(": {} {} used {} more than {} days old (see the warnings).", stale,
                           stale == 1 ? "price" : "prices", stale == 1 ? "is" : "are", max_age_days);
}

std::string history_sentence(const Json& report) {
  if (!report.contains("pricing") || !report.at("pricing").contains("today")) return "";
  const Json& sc = report.at("scenario");
  const std::string today = report.at("pricing").at("today").get<std::string>();
  const std::string start = sc.at("start").get<std::string>();
  if (!(start < today)) return "";
  const int history = sc.value("history_months", 0);
  const int horizon = sc.at("horizon_months").get<int>();
  const std::string lead = fmt::format("The scenario starts {}, before today ({}): ", start, today);
  if (history == 0) return lead + "its first month is under way; all its months are forecast.";
  if (history >= horizon) return lead + fmt::format("all its {} months are history, none forecast.", horizon);
  return lead + fmt::format("{} history, months {}-{} forecast.",
                            history == 1 ? std::string("month 1 is") : fmt::format("months 1-{} are", history),
                            history + 1, horizon);
}

std::string dates_sentence(const Json& report) {
  const std::string prices = prices_as_of_sentence(report);
  const std::string history = history_sentence(report);
  if (prices.empty() || history.empty()) return prices + history;
  return prices + " " + history;
}

}  // namespace tco
