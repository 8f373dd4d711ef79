#include "reports/markdown/sizing_markdown.hpp"
#include "reports/markdown/markdown_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/verdict/prices_as_of.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

namespace {

// The Monte Carlo block of a discrete-event or fluid run (absent or "deterministic" otherwise).
bool has_monte_carlo(const Json& report) {
  if (!report.contains("monte_carlo")) return false;
  const std::string mode = report.at("monte_carlo").value("mode", "");
  return mode == "discrete_event" || mode == "fluid";
}

const Json* mc_comparison_for(const Json& report, const std::string& plan) {
  for (const auto& c : report.at("monte_carlo").at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

std::string monte_carlo_markdown(const Json& report) {
  const Json& mc = report.at("monte_carlo");
  if (!sections_present(report).distribution)
    return fmt::format("\n**Monte Carlo** ({} paths, seed {}): the model of these paths draws none of its inputs at random, so every path "
                       "costs the same and there is no interval to show.\n",
                       mc.at("paths").get<long>(), mc.at("seed").get<std::uint64_t>());
  const std::string model = mc.at("mode") == "fluid"
                                ? std::string("hourly fluid model; the plans above are its expected-value run")
                                : fmt::format("discrete-event replay of {} jobs on path 0{}", mc.at("jobs_path0").get<long>(),
                                              mc.contains("uncertain_inputs")
                                                  ? ", each path in a world with the scenario's uncertain inputs drawn"
                                                  : "");
  std::string md = fmt::format("\n**Monte Carlo** ({} paths, seed {}; {}):\n\n", mc.at("paths").get<long>(),
                               mc.at("seed").get<std::uint64_t>(), model);
  md += "| plan | mean NPV | 95% CI | P5 | P95 | CVaR95 | NPV vs baseline (mean, 95% CI) | P(cheaper) |\n";
  md += "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& p : mc.at("plans")) {
    const Json& npv = p.at("npv_usd");
    const Json* c = mc_comparison_for(report, p.at("name").get<std::string>());
    md += fmt::format("| {} | {} | {} .. {} | {} | {} | {} | {} | {} |\n", p.at("name").get<std::string>(),
                      format_usd(npv.at("mean")), format_usd(npv.at("ci95_low")), format_usd(npv.at("ci95_high")),
                      format_usd(npv.at("p5")), format_usd(npv.at("p95")), format_usd(npv.at("cvar95")),
                      c ? fmt::format("{} ({} .. {})", format_usd(c->at("npv_difference_usd").at("mean")),
                                      format_usd(c->at("npv_difference_usd").at("ci95_low")),
                                      format_usd(c->at("npv_difference_usd").at("ci95_high")))
                        : std::string("(baseline)"),
                      c ? fmt::format("{:.1f}%", 100.0 * c->at("p_cheaper").get<double>()) : std::string("-"));
  }
  for (const auto& a : mc.value("checkpoint_advice", Json::array()))  // a fluid run has none
    md += fmt::format("- checkpoint advice, plan {}, class {}: every {:.2f} h (Young: sqrt(2 x {:.3f} h / {:.4f} per h))\n",
                      a.at("plan").get<std::string>(), a.at("class").get<std::string>(),
                      a.at("young_interval_h").get<double>(), a.at("checkpoint_write_h").get<double>(),
                      a.at("preemptions_per_hour").get<double>());
  return md;
}

// The tornado of `tcosim sensitivity` or an uncertain scenario: each input's swing of the saving.
std::string tornado_markdown(const Json& report) {
  if (!report.contains("sensitivity") || !report.at("sensitivity").contains("tornado")) return "";
  const Json& t = report.at("sensitivity").at("tornado");
  std::string md = fmt::format("| input (NPV saving of {} vs {}, base {}) | at its low value | at its high value |\n"
                               "|---|---:|---:|\n",
                               t.at("plan").get<std::string>(), t.at("baseline").get<std::string>(),
                               format_usd(t.at("base_saving_usd")));
  for (const auto& row : t.at("inputs"))
    md += fmt::format("| {} | {} | {} |\n", row.at("input").get<std::string>(), format_usd(row.at("saving_at_low_usd")),
                      format_usd(row.at("saving_at_high_usd")));
  return md + "\n";
}

}  // namespace

std::string markdown_summary(const Json& report) {
  const Json& sc = report.at("scenario");
  std::string md = fmt::format("## tcosim: {}\n\n", sc.at("name").get<std::string>());
  md += fmt::format("{} from {}, discount rate {:.1f}%/yr, baseline **{}**.\n\n",
                    format_months(sc.at("horizon_months").get<int>()), sc.at("start").get<std::string>(),
                    100.0 * sc.at("discount_rate_per_year").get<double>(), sc.at("baseline").get<std::string>());
  md += "**Verdict.** " + verdict_sentence(report) + "\n\n";
  if (const std::string dates = dates_sentence(report); !dates.empty()) md += dates + "\n\n";
  for (const std::string& note : verdict_notes(report)) md += note + "\n\n";
  if (const std::string uncertainty = uncertainty_sentence(report); !uncertainty.empty())
    md += uncertainty + "\n\n" + tornado_markdown(report);
  md.pop_back();  // a section opens with its own blank line
  for (const Section& section : report_sections(report, true)) md += markdown_section(section);  // plans, breakevens
  // As the HTML page: the distribution and the sizing curve, then the report document's sections
  // in their order (reports/document/section_order.cpp), the warnings last.
  if (has_monte_carlo(report)) md += monte_carlo_markdown(report);
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
