#include "reports/markdown/next_generation_markdown.hpp"

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

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

}  // namespace

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
  return fmt::format("the {} successor arrives {}: rental prices x{:.2f}, resale x{:.2f}",
                     g.at("predecessor_gpu").get<std::string>(), month, g.at("rental_price_step_factor").get<double>(),
                     g.at("resale_step_factor").get<double>());
}

std::string next_generation_effect_usd(const Json& usd) {
  return usd.is_number() && usd.get<double>() == 0.0 ? std::string("none") : format_usd(usd);
}

std::string next_generation_markdown(const Json& report) {
  if (!report.contains("next_generation")) return "";
  const Json& g = report.at("next_generation");
  if (g.at("plans").empty()) return "\n**Next generation**: " + next_generation_words(g) + ".\n";
  std::string md = "\n**Next generation**: " + next_generation_words(g) +
                   " (effect = NPV with the event - NPV without; positive costs the plan):\n\n";
  md += "| plan | NPV | NPV without the event | effect | of which resale |\n|---|---:|---:|---:|---:|\n";
  for (const auto& p : g.at("plans"))
    md += fmt::format("| {} | {} | {} | {} | {} |\n", p.at("plan").get<std::string>(), format_usd(p.at("npv_usd")),
                      format_usd(p.at("npv_without_event_usd")), next_generation_effect_usd(p.at("npv_effect_usd")),
                      next_generation_effect_usd(p.at("residual_npv_effect_usd")));
  return md;
}

}  // namespace tco
