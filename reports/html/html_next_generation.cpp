#include "reports/html/html_next_generation.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/next_generation_markdown.hpp"

namespace tco {

std::string next_generation_section(const Json& report) {
  if (!report.contains("next_generation")) return "";
  const Json& g = report.at("next_generation");
  if (g.at("plans").empty()) return "<h2>Next generation</h2>\n<p>" + html_escape(next_generation_words(g)) + ".</p>\n";
  std::string out = "<h2>Next generation</h2>\n<p>" + html_escape(next_generation_words(g)) +
                    ".</p>\n<table><tr><th>plan</th><th>NPV</th><th>NPV without the event</th><th>effect</th>"
                    "<th>of which resale</th></tr>\n";
  for (const auto& p : g.at("plans"))
    out += fmt::format("<tr><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
                       html_escape(p.at("plan").get<std::string>()), format_usd(p.at("npv_usd")),
                       format_usd(p.at("npv_without_event_usd")), next_generation_effect_usd(p.at("npv_effect_usd")),
                       next_generation_effect_usd(p.at("residual_npv_effect_usd")));
  return out + "</table>\n<p class=note>Effect = NPV with the event - NPV without it (the hourly fluid model, "
               "deterministic): positive costs the plan, negative saves it.</p>\n";
}

}  // namespace tco
