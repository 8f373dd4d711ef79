// The Monte Carlo distribution (docs/report.md, `monte_carlo`): each plan's mean NPV over the
// paths with its 95% interval, P5, P95 and CVaR95, and against the baseline, path by path, the
// mean difference (the plan's NPV minus the baseline's: negative is cheaper) with its 95%
// interval and P(cheaper), the share of paths where the plan is cheaper. A run whose paths draw
// nothing at random says so instead of printing intervals of no width; a deterministic run has
// no such section. The HTML page draws the box charts of the same figures under it
// (reports/html/html_monte_carlo.cpp).
#include <fmt/format.h>

#include "reports/document/number_words.hpp"
#include "reports/document/report_section.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

namespace {

bool has_monte_carlo_paths(const Json& report) {
  if (!report.contains("monte_carlo")) return false;
  const std::string mode = report.at("monte_carlo").value("mode", "");
  return mode == "discrete_event" || mode == "fluid";
}

const Json* mc_comparison_of(const Json& mc, const Json& plan) {
  for (const auto& c : mc.at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

// "$1 .. $2" in the human formats, over the interval's low end (the CSV has both ends as columns).
Cell interval_cell(const Json& stats) {
  return shown_as(usd_cell(stats.at("ci95_low")), format_usd(stats.at("ci95_low")) + " .. " + format_usd(stats.at("ci95_high")));
}

std::string model_words(const Json& mc) {
  if (mc.at("mode") == "fluid") return "the hourly fluid model (the plans table is its expected-value run)";
  return fmt::format("the discrete-event replay of {} jobs on path 0{}",
                     format_grouped(mc.at("jobs_path0").get<double>(), 0),
                     mc.contains("uncertain_inputs") ? ", each path in a world with the scenario's uncertain inputs drawn" : "");
}

}  // namespace

Section monte_carlo_section(const Json& report) {
  Section s = make_section("monte_carlo", "Cost distribution", "USD over the Monte Carlo paths");
  if (!has_monte_carlo_paths(report)) return s;
  const Json& mc = report.at("monte_carlo");
  const std::string paths = fmt::format("{} paths (seed {}) of {}", format_grouped(mc.at("paths").get<double>(), 0),
                                        mc.at("seed").get<std::uint64_t>(), model_words(mc));
  if (!sections_present(report).distribution) {
    s.nothing_to_show = paths + ": the model of these paths draws none of its inputs at random, so every path costs "
                                "the same and there is no interval to show";
    return s;
  }
  const std::string baseline = report.at("scenario").at("baseline").get<std::string>();
  s.opening = {paths + ".",
               "Against the baseline, " + baseline +
                   ", path by path (the same random draws for every plan): the difference is the plan's NPV minus the "
                   "baseline's, so a negative difference means the plan is cheaper; P(cheaper) is the share of paths "
                   "where it is."};
  Table t = make_table({{"plan", "plan"},
                        {"mean NPV", "npv_mean_usd"},
                        {"95% CI", "", Shown::human},
                        {"", "npv_ci95_low_usd", Shown::csv},
                        {"", "npv_ci95_high_usd", Shown::csv},
                        {"P5", "npv_p5_usd"},
                        {"P95", "npv_p95_usd"},
                        {"CVaR95", "npv_cvar95_usd"},
                        {"NPV minus baseline", "difference_mean_usd"},
                        {"its 95% CI", "", Shown::human},
                        {"", "difference_ci95_low_usd", Shown::csv},
                        {"", "difference_ci95_high_usd", Shown::csv},
                        {"P(cheaper)", "p_cheaper"}},
                       "monte_carlo.csv");
  const Json none(nullptr);
  for (const auto& p : mc.at("plans")) {
    const Json& npv = p.at("npv_usd");
    const Json* c = mc_comparison_of(mc, p.at("name"));
    const Json* d = c ? &c->at("npv_difference_usd") : nullptr;
    Cell difference = usd_cell(d ? d->at("mean") : none);
    if (!c) difference = shown_as(difference, "(the baseline)");
    Cell p_cheaper = percent_cell(c ? c->at("p_cheaper") : none);
    if (!c) p_cheaper = shown_as(p_cheaper, "-");
    t.rows.emplace_back(std::vector<Cell>{
        text_cell(p.at("name")), usd_cell(npv.at("mean")), interval_cell(npv), usd_cell(npv.at("ci95_low")),
        usd_cell(npv.at("ci95_high")), usd_cell(npv.at("p5")), usd_cell(npv.at("p95")), usd_cell(npv.at("cvar95")),
        difference, d ? interval_cell(*d) : shown_as(usd_cell(none), "-"), usd_cell(d ? d->at("ci95_low") : none),
        usd_cell(d ? d->at("ci95_high") : none), p_cheaper});
  }
  s.tables = {t};
  for (const auto& a : mc.value("checkpoint_advice", Json::array()))  // a fluid run has none
    s.items.push_back(fmt::format("checkpoint advice, plan {}, class {}: every {:.2f} h (Young: sqrt(2 x {:.3f} h / {:.4f} "
                                  "per h))",
                                  a.at("plan").get<std::string>(), a.at("class").get<std::string>(),
                                  a.at("young_interval_h").get<double>(), a.at("checkpoint_write_h").get<double>(),
                                  a.at("preemptions_per_hour").get<double>()));
  return s;
}

}  // namespace tco
