#include "reports/markdown/sizing_markdown.hpp"
#include "reports/markdown/markdown_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/verdict/prices_as_of.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

std::string markdown_summary(const Json& report) {
  const Json& sc = report.at("scenario");
  std::string md = fmt::format("## tcosim: {}\n\n", sc.at("name").get<std::string>());
  md += fmt::format("{} from {}, discount rate {:.1f}%/yr, baseline **{}**.\n\n",
                    format_months(sc.at("horizon_months").get<int>()), sc.at("start").get<std::string>(),
                    100.0 * sc.at("discount_rate_per_year").get<double>(), sc.at("baseline").get<std::string>());
  // The report document's sections in their order (reports/document/section_order.cpp): the
  // verdict, an uncertain scenario's tornado, the plans and the breakevens; as the HTML page, the
  // sizing curve, then the Monte Carlo distribution, the features, and the warnings and the
  // monthly flows last.
  md.pop_back();  // a section opens with its own blank line
  for (const Section& section : report_sections(report, true)) md += markdown_section(section);
  md += sizing_markdown(report);
  if (const std::string missing = missing_sections_line(sections_present(report)); !missing.empty())
    md += "\n" + missing + "\n";
  for (const Section& section : report_sections(report, false)) md += markdown_section(section);
  md += fmt::format("\n<sub>tcosim {} · scenario sha256 {} · catalog sha256 {}</sub>\n",
                    report.at("tool").at("version").get<std::string>(),
                    sc.at("digest_sha256").get<std::string>().substr(0, 12),
                    report.at("pricing").at("catalog_digest_sha256").get<std::string>().substr(0, 12));
  return md;
}

}  // namespace tco
