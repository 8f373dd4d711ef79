#include "reports/markdown_summary.hpp"
#include "reports/depreciation_markdown.hpp"

#include <cmath>

#include <fmt/format.h>

namespace tco {

namespace {

// Whole dollars, rounded half away from zero; the digits of any double below
// kMaxGroupedUsd (std::round of such a value is an integer that "{:.0f}" prints exactly).
std::string group_thousands(double x) {
  const std::string digits = fmt::format("{:.0f}", std::round(std::fabs(x)));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

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
  const std::string model = mc.at("mode") == "fluid"
                                ? std::string("hourly fluid model; the plans above are its expected-value run")
                                : fmt::format("discrete-event replay of {} jobs on path 0", mc.at("jobs_path0").get<long>());
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

std::string payback_text(const Json& c) {
  return c.at("payback_month").is_number() ? fmt::format("month {}", c.at("payback_month").get<int>())
                                            : std::string("never");
}

}  // namespace

std::string format_usd(double x) {
  if (!std::isfinite(x)) return "n/a";
  if (std::fabs(x) >= kMaxGroupedUsd) return fmt::format("{}${:.3e}", x < 0 ? "-" : "", std::fabs(x));
  return (x < 0 && std::round(std::fabs(x)) != 0 ? "-$" : "$") + group_thousands(x);
}

std::string format_usd(const Json& value) {
  return value.is_number() ? format_usd(value.get<double>()) : std::string("n/a");
}

std::string markdown_summary(const Json& report) {
  const Json& sc = report.at("scenario");
  std::string md = fmt::format("## tcosim: {}\n\n", sc.at("name").get<std::string>());
  md += fmt::format("{} months from {}, discount rate {:.1f}%/yr, baseline **{}**.\n\n",
                    sc.at("horizon_months").get<int>(), sc.at("start").get<std::string>(),
                    100.0 * sc.at("discount_rate_per_year").get<double>(), sc.at("baseline").get<std::string>());
  md += "| plan | kind | nodes | NPV | total (nominal) | $/useful GPU-h | NPV saving vs baseline | payback |\n";
  md += "|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    const Json* c = comparison_for(report, name);
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", name, p.at("kind").get<std::string>(),
                      p.at("onprem_nodes").get<int>(), format_usd(p.at("npv_usd")),
                      format_usd(p.at("total_nominal_usd")), fmt_or_na(p.at("usd_per_useful_gpu_hour"), "${:.2f}"),
                      c ? format_usd(c->at("npv_saving_usd")) : std::string("(baseline)"),
                      c ? payback_text(*c) : std::string("-"));
  }
  const Json& util = report.at("breakevens").at("utilization");
  if (!util.empty()) {
    md += "\n**Utilization breakeven** (one node over its life, with its share of the fleet's fixed staff, room and "
          "racks, vs renting the same GPU-hours):\n\n";
    md += "| server | fleet | vs price | cloud $/GPU-h | breakeven utilization | GPU-hours/month per node |\n"
          "|---|---:|---|---:|---:|---:|\n";
    for (const auto& b : util) {
      md += fmt::format("| {} | {} nodes | {} | ${:.3f} | {} | {} |\n", b.at("server").get<std::string>(),
                        b.value("fleet_nodes", 1),
                        b.at("price_basis").get<std::string>(), b.at("cloud_usd_per_gpu_hour").get<double>(),
                        b.at("utilization").is_number() ? fmt::format("{:.1f}%", 100.0 * b.at("utilization").get<double>())
                                                        : std::string("never"),
                        fmt_or_na(b.at("gpu_hours_per_month"), "{:.0f}"));
    }
  }
  const Json& price = report.at("breakevens").at("cloud_price_multiplier");
  if (!price.empty()) {
    md += "\n**Cloud price breakeven** (multiplier on every cloud price at which the plan costs the same NPV as the baseline):\n\n";
    for (const auto& b : price) {
      md += fmt::format("- {}: {}\n", b.at("plan").get<std::string>(),
                        b.at("cloud_price_multiplier").is_number()
                            ? fmt::format("x{:.3f}", b.at("cloud_price_multiplier").get<double>())
                            : std::string("none in (0, 1000]"));
    }
  }
  md += depreciation_markdown(report);
  if (has_monte_carlo(report)) md += monte_carlo_markdown(report);
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

std::string console_summary(const Json& report) {
  std::string out = fmt::format("{:<28} {:>7} {:>6} {:>16} {:>16} {:>10} {:>16} {:>9}\n", "plan", "kind", "nodes",
                                "NPV", "total", "$/GPU-h", "saving (NPV)", "payback");
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    const Json* c = comparison_for(report, name);
    out += fmt::format("{:<28} {:>7} {:>6} {:>16} {:>16} {:>10} {:>16} {:>9}\n", name.substr(0, 28),
                       p.at("kind").get<std::string>(), p.at("onprem_nodes").get<int>(), format_usd(p.at("npv_usd")),
                       format_usd(p.at("total_nominal_usd")), fmt_or_na(p.at("usd_per_useful_gpu_hour"), "{:.2f}"),
                       c ? format_usd(c->at("npv_saving_usd")) : std::string("baseline"),
                       c ? (c->at("payback_month").is_number() ? std::to_string(c->at("payback_month").get<int>()) : "never")
                         : "-");
  }
  if (has_monte_carlo(report)) {
    const Json& mc = report.at("monte_carlo");
    out += fmt::format("Monte Carlo: {} paths, seed {} ({}; statistics in the report)\n", mc.at("paths").get<long>(),
                       mc.at("seed").get<std::uint64_t>(),
                       mc.at("mode") == "fluid" ? "hourly fluid model; the plans above are its expected-value run"
                                                : "means above");
    for (const auto& c : mc.at("comparisons")) {
      const Json& d = c.at("npv_difference_usd");
      out += fmt::format("  {} - {}: NPV {} (95% CI {} .. {}), P(cheaper) {:.1f}%\n", c.at("plan").get<std::string>(),
                         c.at("baseline").get<std::string>(), format_usd(d.at("mean")), format_usd(d.at("ci95_low")),
                         format_usd(d.at("ci95_high")), 100.0 * c.at("p_cheaper").get<double>());
    }
  }
  for (const auto& w : report.at("warnings"))
    out += fmt::format("warning: {} [{}]\n", w.at("message").get<std::string>(), w.at("code").get<std::string>());
  return out;
}

}  // namespace tco
