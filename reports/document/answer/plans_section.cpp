// The plans table (docs/report.md, `plans` and `comparisons`): each plan's NPV, nominal total,
// cost per useful GPU-hour and, against the baseline, its NPV saving, payback and IRR; its
// on-prem utilization; and, when the recommended plan is not the baseline, each plan's payback
// against it. plans.csv adds the CO2 figures (the carbon section's) for a reader of that file alone.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "reports/document/number_words.hpp"
#include "reports/document/report_section.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

namespace {

const Json* comparison_of(const Json& report, const Json& plan) {
  for (const auto& c : report.at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

const Json& irr_plan_named(const Json& report, const Json& name) {
  for (const auto& p : report.at("plans"))
    if (p.at("name") == name) return p;
  throw std::logic_error("no plan " + name.dump());
}

std::vector<double> irr_monthly_totals_usd(const Json& plan) {
  const Json& monthly = plan.at("monthly");
  std::size_t column = 0;
  while (column < monthly.at("columns").size() && monthly.at("columns")[column] != "total_usd") ++column;
  std::vector<double> out;
  for (const auto& row : monthly.at("rows")) out.push_back(row.at(column).get<double>());
  return out;
}

// An IRR beyond +/-1,000% a year is flagged in its cell; this says why, from the monthly totals:
// the most the plan is ever behind the baseline (its outlay, nominal) and the month it is ahead
// again. A small outlay returned within a month or two compounds to thousands of percent a year.
// "" for an IRR within the bound, or a report without a baseline's monthly totals.
std::string irr_outside_range_note(const Json& report, const Json& comparison) {
  if (!comparison.value("starts_with_investment", false) || !comparison.at("irr_per_year").is_number()) return "";
  const double irr = comparison.at("irr_per_year").get<double>();
  if (!(std::fabs(100.0 * irr) > kMeaningfulPercentLimit)) return "";
  const std::vector<double> base = irr_monthly_totals_usd(irr_plan_named(report, comparison.at("baseline")));
  const std::vector<double> plan = irr_monthly_totals_usd(irr_plan_named(report, comparison.at("plan")));
  double ahead_usd = 0.0, deepest_usd = 0.0;
  std::size_t deepest_month = 0, back_month = 0;
  for (std::size_t m = 0; m < std::min(base.size(), plan.size()); ++m) {
    ahead_usd += base[m] - plan[m];
    if (ahead_usd < deepest_usd) {
      deepest_usd = ahead_usd;
      deepest_month = m;
      back_month = 0;
    } else if (back_month == 0 && deepest_usd < 0.0 && ahead_usd >= 0.0) {
      back_month = m;
    }
  }
  if (!(deepest_usd < 0.0)) return "";
  return fmt::format(
      "{}'s IRR of {} a year is outside a meaningful range: its up-front outlay is small beside what it returns, at "
      "most {} behind the baseline (month {}){}, and a yearly rate compounds a return within weeks into thousands of "
      "percent; judge it by its NPV saving, {}, and its payback.",
      comparison.at("plan").get<std::string>(), format_percent(irr, 1).substr(0, format_percent(irr, 1).find(" (")),
      format_usd(-deepest_usd), deepest_month,
      back_month > 0 ? fmt::format(" and ahead of it again in month {}", back_month) : std::string(),
      format_usd(comparison.at("npv_saving_usd")));
}

}  // namespace

Section plans_section(const Json& report) {
  const std::string recommended = recommended_reference(report);
  std::vector<Column> columns = {{"plan", "plan"},
                                 {"kind", "kind"},
                                 {"nodes", "onprem_nodes"},
                                 {"NPV", "npv_usd"},
                                 {"total (nominal)", "total_nominal_usd"},
                                 {"$/useful GPU-h", "usd_per_useful_gpu_hour"},
                                 {"NPV saving vs baseline", "npv_saving_usd"},
                                 {"payback", "payback_month"},
                                 {"IRR", "irr_per_year"},
                                 {"", "co2_onprem_kg", Shown::csv},
                                 {"", "co2_embodied_kg", Shown::csv},
                                 {"", "co2_cloud_kg", Shown::csv},
                                 {"on-prem utilization", "onprem_utilization"}};
  if (!recommended.empty()) columns.emplace_back("payback vs " + recommended, "", Shown::human);
  Table t = make_table(std::move(columns), "plans.csv");
  for (const auto& p : report.at("plans")) {
    const Json* c = comparison_of(report, p.at("name"));
    const Json& co2 = p.at("co2_kg");
    Cell saving = usd_cell(c ? c->at("npv_saving_usd") : Json(nullptr));
    Cell payback = month_cell(c ? c->at("payback_month") : Json(nullptr));
    Cell irr = percent_cell(c ? c->at("irr_per_year") : Json(nullptr));
    if (!c) saving = shown_as(saving, "baseline");
    payback = shown_as(payback, c ? payback_words(*c) : "-");
    irr = shown_as(irr, c ? irr_words(*c) : "-");  // "-" where the flows start with no investment
    Cell utilization = percent_cell(p.at("onprem_utilization"));
    if (!utilization.has_number()) utilization = shown_as(utilization, "-");
    std::vector<Cell> cells = {text_cell(p.at("name")),
                               text_cell(p.at("kind")),
                               count_cell(p.at("onprem_nodes")),
                               usd_cell(p.at("npv_usd")),
                               usd_cell(p.at("total_nominal_usd")),
                               usd_price_cell(p.at("usd_per_useful_gpu_hour"), 2),
                               saving,
                               payback,
                               irr,
                               co2_kg_cell(co2.at("onprem")),
                               co2_kg_cell(co2.value("embodied", Json(nullptr))),
                               co2_kg_cell(co2.at("cloud")),
                               utilization};
    if (!recommended.empty())
      cells.push_back(text_cell(payback_vs_recommended_words(report, p.at("name").get<std::string>())));
    t.rows.emplace_back(std::move(cells));
  }
  const std::string baseline = report.at("scenario").at("baseline").get<std::string>();
  Section s = make_section(
      "plans", "Plans",
      "USD; savings, payback and IRR are against the baseline, " + baseline +
          ": the IRR is the return on the extra money a plan spends first, and a plan that saves from its first "
          "month has none" +
          (recommended.empty() ? std::string() : "; the last column is the payback against the recommended plan, " + recommended),
      {t});
  for (const auto& c : report.at("comparisons"))
    if (const std::string note = irr_outside_range_note(report, c); !note.empty()) s.sentences.push_back(note);
  return s;
}

}  // namespace tco
