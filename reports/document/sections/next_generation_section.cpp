// Next generation (docs/report.md, `next_generation`): the event in words, and per plan its NPV
// with and without it, by the hourly fluid model's deterministic run.
#include <fmt/format.h>

#include "reports/document/report_section.hpp"

namespace tco {

namespace {

// "triangular 3 / 8 / 18 months" or "lognormal, median 9 months, sigma 0.4".
std::string months_distribution_words(const Json& d) {
  if (d.at("type") == "lognormal")
    return fmt::format("lognormal, median {:g} months, sigma {:g}", d.at("median_months").get<double>(),
                       d.at("sigma").get<double>());
  return fmt::format("triangular {:g} / {:g} / {:g} months", d.at("low_months").get<double>(),
                     d.at("mode_months").get<double>(), d.at("high_months").get<double>());
}

std::string next_generation_words(const Json& g) {
  std::string month = fmt::format("in month {}", g.at("arrival_month").get<int>());
  if (g.contains("arrival_month_drawn")) {
    month = fmt::format("in a month drawn per path ({}; the deterministic figures take month {}, the median's",
                        months_distribution_words(g.at("arrival_month_drawn")), g.at("arrival_month").get<int>());
    if (g.contains("arrival_month_over_paths")) {
      const Json& o = g.at("arrival_month_over_paths");
      month += fmt::format("; over the {} paths: mean {:.1f}, P5 {:g}, P95 {:g}, {:.1f}% inside the horizon",
                           o.at("paths").get<long>(), o.at("mean").get<double>(), o.at("p5").get<double>(),
                           o.at("p95").get<double>(), 100.0 * o.at("share_inside_horizon").get<double>());
    }
    month += ")";
  }
  return fmt::format("The {} successor arrives {}: rental prices x{:.2f}, resale x{:.2f}.",
                     g.at("predecessor_gpu").get<std::string>(), month, g.at("rental_price_step_factor").get<double>(),
                     g.at("resale_step_factor").get<double>());
}

// An effect of exactly 0 is "none": the event does not touch that plan.
Cell effect_cell(const Json& usd) {
  const Cell cell = usd_cell(usd);
  return cell.has_number() && cell.number() == 0.0 ? shown_as(cell, "none") : cell;
}

}  // namespace

Section next_generation_section(const Json& report) {
  if (!report.contains("next_generation")) return {};
  const Json& g = report.at("next_generation");
  Table t = make_table({{"plan", "plan"},
                        {"NPV", "npv_usd"},
                        {"NPV without the event", "npv_without_event_usd"},
                        {"effect", "npv_effect_usd"},
                        {"of which resale", "residual_npv_effect_usd"}},
                       "next_generation.csv");
  for (const auto& p : g.at("plans"))
    t.rows.push_back({{text_cell(p.at("plan")), usd_cell(p.at("npv_usd")), usd_cell(p.at("npv_without_event_usd")),
                       effect_cell(p.at("npv_effect_usd")), effect_cell(p.at("residual_npv_effect_usd"))}});
  return make_section("next_generation", "Next generation",
                      g.at("plans").empty() ? ""
                                            : "effect = NPV with the event - NPV without, by the hourly fluid model's "
                                              "deterministic run: positive costs the plan, negative saves it",
                      {t}, {next_generation_words(g)});
}

}  // namespace tco
