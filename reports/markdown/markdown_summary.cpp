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

std::string fmt_or_na(const Json& v, const char* pattern) {
  return v.is_number() ? fmt::format(fmt::runtime(pattern), v.get<double>()) : std::string("n/a");
}

const Json* comparison_for(const Json& report, const std::string& plan) {
  for (const auto& c : report.at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

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
  const std::string recommended = recommended_reference(report);
  md += "| plan | kind | nodes | NPV | total (nominal) | $/useful GPU-h | NPV saving vs baseline | payback | IRR |" +
        (recommended.empty() ? std::string() : " payback vs " + recommended + " |") + "\n";
  md += "|---|---|---:|---:|---:|---:|---:|---|---:|" + std::string(recommended.empty() ? "" : "---|") + "\n";
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    const Json* c = comparison_for(report, name);
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |", name, p.at("kind").get<std::string>(),
                      p.at("onprem_nodes").get<int>(), format_usd(p.at("npv_usd").get<double>()),
                      format_usd(p.at("total_nominal_usd")), fmt_or_na(p.at("usd_per_useful_gpu_hour"), "${:.2f}"),
                      c ? format_usd(c->at("npv_saving_usd")) : std::string("(baseline)"),
                      c ? payback_words(*c) : std::string("-"), c ? irr_words(*c) : std::string("-"));
    md += (recommended.empty() ? std::string() : " " + payback_vs_recommended_words(report, name) + " |") + "\n";
  }
  md += fmt::format("\nSavings, payback and IRR are against the baseline, {}; the IRR is the return on the extra money a "
                    "plan spends first (a plan that saves from its first month has none).{}\n",
                    sc.at("baseline").get<std::string>(),
                    recommended.empty() ? std::string()
                                        : fmt::format(" The last column is the payback against the recommended plan, {}.",
                                                      recommended));
  const Json& util = report.at("breakevens").at("utilization");
  if (!util.empty()) {
    md += "\n**Utilization breakeven** (one node, with its share of the fleet's fixed staff, room and racks, vs renting "
          "the same GPU-hours on the cloud price's path; over the horizon the node ends as the plans do, sold at the "
          "horizon's end when they book a resale). The rows for the prices the plans pay:\n\n";
    md += fmt::format("| server | fleet | cloud offer | price | cloud price at the start, path | breakeven utilization per "
                      "node {} | over the node's life | GPU-hours per node per month (horizon) |\n"
                      "|---|---:|---|---|---:|---:|---:|---:|\n",
                      horizon_header(report));
    for (const auto& b : util) {
      if (!utilization_row_decides(b)) continue;
      const Json* h = b.contains("over_horizon") ? &b.at("over_horizon") : nullptr;
      md += fmt::format("| {} | {} nodes | {} | {} | {} | {} | {} | {} |\n", b.at("server").get<std::string>(),
                        b.value("fleet_nodes", 1), b.value("offer", ""), b.at("price_basis").get<std::string>(),
                        price_path_cell(b), horizon_breakeven_cell(b), life_breakeven_cell(b),
                        h ? fmt_or_na(h->at("gpu_hours_per_month"), "{:.0f}") : std::string("n/a"));
    }
    if (const std::string hidden = hidden_utilization_rows_line(report); !hidden.empty()) md += "\n" + hidden + "\n";
  }
  const Json& price = report.at("breakevens").at("cloud_price_multiplier");
  if (!price.empty()) {
    md += "\n**Cloud price breakeven** (the multiple of every cloud price at which two plans cost the same NPV):\n\n";
    for (const auto& b : price)
      if (price_row_decides(b)) md += "- " + price_breakeven_sentence(b) + "\n";
    if (const std::string hidden = hidden_price_rows_line(report); !hidden.empty()) md += "\n" + hidden + "\n";
  }
  for (const Section& section : report_sections(report, false)) md += markdown_section(section);
  md += sizing_markdown(report);
  if (has_monte_carlo(report)) md += monte_carlo_markdown(report);
  if (const std::string missing = missing_sections_line(sections_present(report)); !missing.empty())
    md += "\n" + missing + "\n";
  const Json& warnings = report.at("warnings");
  if (!warnings.empty()) {
    md += "\n**Warnings**\n\n";
    for (const auto& w : warnings)
      md += fmt::format("- `{}` {}\n", w.at("code").get<std::string>(), w.at("message").get<std::string>());
  }
  md += fmt::format("\n<sub>tcosim {} · scenario sha256 {} · catalog sha256 {}</sub>\n",
                    report.at("tool").at("version").get<std::string>(),
                    sc.at("digest_sha256").get<std::string>().substr(0, 12),
                    report.at("pricing").at("catalog_digest_sha256").get<std::string>().substr(0, 12));
  return md;
}

}  // namespace tco
