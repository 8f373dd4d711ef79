#include "reports/markdown/next_generation_markdown.hpp"

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string next_generation_words(const Json& g) {
  return fmt::format("the {} successor arrives in month {}: rental prices x{:.2f}, resale x{:.2f}",
                     g.at("predecessor_gpu").get<std::string>(), g.at("arrival_month").get<int>(),
                     g.at("rental_price_step_factor").get<double>(), g.at("resale_step_factor").get<double>());
}

std::string next_generation_effect_usd(const Json& usd) {
  return usd.is_number() && usd.get<double>() == 0.0 ? std::string("none") : format_usd(usd);
}

std::string next_generation_markdown(const Json& report) {
  if (!report.contains("next_generation")) return "";
  const Json& g = report.at("next_generation");
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
