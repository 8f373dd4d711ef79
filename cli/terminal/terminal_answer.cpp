#include "cli/terminal/terminal_answer.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/io/utf8_text.hpp"
#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/verdict/prices_as_of.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco::cli {

namespace {

// Words wrapped at `columns`; the text's own leading spaces are kept, continuation lines are
// indented by `indent` spaces.
std::string wrapped(const std::string& text, int columns, int indent) {
  const std::size_t lead = std::min(text.find_first_not_of(' '), text.size());
  std::string out;
  std::string line = text.substr(0, lead);
  bool line_has_words = false;
  std::size_t start = lead;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line_has_words && static_cast<int>(line.size() + 1 + word.size()) > columns) {
      out += line + "\n";
      line = std::string(static_cast<std::size_t>(indent), ' ');
      line_has_words = false;
    }
    line += (line_has_words ? " " : "") + word;
    line_has_words = true;
    start = end + 1;
  }
  return out + line + "\n";
}

std::string basis_text(const std::string& price_basis) {
  if (price_basis == "on_demand") return "on-demand";
  if (price_basis == "reserved_1y") return "1-year reserved";
  if (price_basis == "reserved_3y") return "3-year reserved";
  // "reserved_6m": a term of the offer's reserved_usd_per_hour_by_term_months.
  if (price_basis.size() > 10 && price_basis.compare(0, 9, "reserved_") == 0 && price_basis.back() == 'm')
    return price_basis.substr(9, price_basis.size() - 10) + "-month reserved";
  return price_basis;
}

// "buy-4-burst (4 x hgx-h100-8) vs on-demand of aws/p5.48xlarge/us-east-1 ($12.290/GPU-h, -10%/yr): owning
// is cheaper above 25.1% utilization over the 36-month horizon (1,466 GPU-hours per node per month), 23.8%
// over its 60-month life". The offer is named when the report keys the breakeven by one.
std::string utilization_line(const Json& b, int horizon_months) {
  std::string against = basis_text(b.at("price_basis").get<std::string>());
  if (b.contains("offer") && b.at("offer").is_string()) against += " of " + b.at("offer").get<std::string>();
  against += " (" + price_path_cell(b) + ")";
  const std::string who = fmt::format("{} ({} x {})", b.at("plan").get<std::string>(), b.at("fleet_nodes").get<int>(),
                                      b.at("server").get<std::string>());
  const std::string life = life_breakeven_cell(b);
  if (!b.contains("over_horizon")) {
    if (!b.at("utilization").is_number()) return fmt::format("{} vs {}: renting is cheaper at any utilization", who, against);
    return fmt::format("{} vs {}: owning is cheaper above {:.1f}% utilization ({:.0f} GPU-hours per node per month)",
                       who, against, 100.0 * b.at("utilization").get<double>(), b.at("gpu_hours_per_month").get<double>());
  }
  const Json& h = b.at("over_horizon");
  if (!h.at("utilization").is_number())
    return fmt::format("{} vs {}: renting is cheaper at any utilization over the {}-month horizon; over its life: {}",
                       who, against, horizon_months, life);
  return fmt::format("{} vs {}: owning is cheaper above {:.1f}% utilization over the {}-month horizon ({:.0f} GPU-hours "
                     "per node per month); over its life: {}",
                     who, against, 100.0 * h.at("utilization").get<double>(), horizon_months,
                     h.at("gpu_hours_per_month").get<double>(), life);
}

std::string price_line(const Json& b) {
  const std::string who = fmt::format("{} vs {}", b.at("plan").get<std::string>(), b.at("baseline").get<std::string>());
  if (!b.at("cloud_price_multiplier").is_number())
    return fmt::format("{}: no scale of the cloud prices ({}) between 0 and 1000 makes them cost the same", who,
                       b.at("prices").get<std::string>());
  return fmt::format("{}: they cost the same when the cloud prices ({}) are {:.3f} x today's", who,
                     b.at("prices").get<std::string>(), b.at("cloud_price_multiplier").get<double>());
}

// Paired differences plan - baseline: "plan - baseline: mean (95% CI low .. high), P(cheaper)".
std::string difference_lines(const Json& comparisons, int columns) {
  std::string out;
  for (const auto& c : comparisons) {
    const Json& d = c.at("npv_difference_usd");
    out += wrapped(fmt::format("  {} - {}: {} (95% CI {} .. {}), P(cheaper) {:.1f}%", c.at("plan").get<std::string>(),
                       c.at("baseline").get<std::string>(), format_usd(d.at("mean")), format_usd(d.at("ci95_low")),
                       format_usd(d.at("ci95_high")), 100.0 * c.at("p_cheaper").get<double>()),
                   columns, 4);
  }
  return out;
}

// True when no comparison's 95% interval is a dollar wide: the run drew nothing that moves a
// difference (a fluid run of a scenario whose only uncertainty is its "uncertain" section), so
// intervals would print as "-$9,462,460 .. -$9,462,460".
bool nothing_varies(const Json& comparisons) {
  for (const auto& c : comparisons) {
    const Json& d = c.at("npv_difference_usd");
    if (!(d.at("ci95_high").get<double>() - d.at("ci95_low").get<double>() < 1.0)) return false;
  }
  return true;
}

constexpr const char* kSignConvention =
    "  (NPV of the plan minus NPV of the baseline, path by path: negative means the plan is cheaper;\n"
    "   P(cheaper) is the share of paths on which it is)\n";

// "Payback against the recommended plan, X: never for a, b; month 5 for c." The plans grouped by
// their words, in the table's order, so that the table keeps its width.
std::string payback_vs_recommended_line(const Json& report, int columns) {
  const std::string recommended = recommended_reference(report);
  if (recommended.empty()) return "";
  std::vector<std::pair<std::string, std::string>> groups;  // words, plans
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    if (name == recommended) continue;
    const std::string words = payback_vs_recommended_words(report, name);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == words; });
    if (it == groups.end()) groups.push_back({words, name});
    else it->second += ", " + name;
  }
  std::string out = "Payback against the recommended plan, " + recommended + ":";
  for (std::size_t i = 0; i < groups.size(); ++i)
    out += fmt::format("{} {} for {}", i == 0 ? "" : ";", groups[i].first, groups[i].second);
  return wrapped(out + ".", columns, 2);
}

}  // namespace

std::string breakeven_lines(const Json& report, int columns) {
  if (!report.contains("breakevens")) return "";
  const Json& b = report.at("breakevens");
  std::string out;
  const Json utilization = b.value("utilization", Json::array());
  const int horizon = report.at("scenario").at("horizon_months").get<int>();
  if (!utilization.empty()) {
    out += "Utilization breakevens (SPEC §8: average utilization of the owned nodes; over the horizon the node\n"
           "ends as the plans do, sold at its end when they book a resale), for the prices the plans pay:\n";
    for (const auto& u : utilization)
      if (utilization_row_decides(u)) out += wrapped("  " + utilization_line(u, horizon), columns, 4);
    if (const std::string hidden = hidden_utilization_rows_line(report); !hidden.empty())
      out += wrapped("  " + hidden, columns, 4);
  }
  const Json price = b.value("cloud_price_multiplier", Json::array());
  if (!price.empty()) {
    out += "Cloud-price breakevens (all of the named cloud prices scaled alike):\n";
    for (const auto& p : price)
      if (price_row_decides(p)) out += wrapped("  " + price_line(p), columns, 4);
    if (const std::string hidden = hidden_price_rows_line(report); !hidden.empty())
      out += wrapped("  " + hidden, columns, 4);
  }
  return out;
}

namespace {

// ", each path drawing the scenario's 6 uncertain inputs" when the replay drew them per path.
std::string drawn_inputs_words(const Json& mc) {
  if (!mc.contains("uncertain_inputs")) return "";
  const std::size_t n = mc.at("uncertain_inputs").at("inputs").size();
  return fmt::format(", each path drawing the scenario's {} uncertain input{}", n, n == 1 ? "" : "s");
}

}  // namespace

std::string monte_carlo_lines(const Json& report, int columns) {
  std::string out;
  if (report.contains("monte_carlo")) {
    const Json& mc = report.at("monte_carlo");
    const std::string mode = mc.value("mode", "");
    if ((mode == "discrete_event" || mode == "fluid") && !mc.at("comparisons").empty()) {
      out += wrapped(fmt::format("Monte Carlo, {} ({} paths, seed {}{}):",
                         mode == "fluid" ? "hourly fluid model; the table is its expected-value run"
                                         : "discrete-event replay; the table holds the means over paths",
                         mc.at("paths").get<long>(), mc.at("seed").get<std::uint64_t>(), drawn_inputs_words(mc)),
                     columns, 2);
      out += nothing_varies(mc.at("comparisons"))
                 ? "  no random input of this model varies in this run: every path gives the figures of the table\n"
                 : kSignConvention + difference_lines(mc.at("comparisons"), columns);
    }
  }
  if (report.contains("uncertainty") && !report.at("uncertainty").at("comparisons").empty()) {
    const Json& u = report.at("uncertainty");
    out += wrapped(fmt::format("Uncertain inputs ({} draws, seed {}; the sensitivity of {} is in the report):",
                               u.at("paths").get<long>(), u.at("seed").get<std::uint64_t>(),
                               u.at("plan").get<std::string>()),
                   columns, 2);
    out += kSignConvention + difference_lines(u.at("comparisons"), columns);
  }
  return out;
}

std::string files_written_lines(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += "wrote: " + escaped_text(f) + "\n";  // a file name need not be UTF-8
  return out;
}

namespace {

// The widest line of `text` in terminal columns (UTF-8 continuation bytes take none).
std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0, width = 0;
  for (char c : text) {
    if (c == '\n') {
      widest = std::max(widest, width);
      width = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++width;
    }
  }
  return std::max(widest, width);
}

// The report document's sections (reports/document/section_order.cpp) as the terminal draws them,
// those of the first screen or those after it; those too wide for `columns` are named in a line
// instead, before the warnings (the last section with words). The verdict, the plans and the
// breakevens are drawn their own way above, the Monte Carlo distribution as sentences
// (monte_carlo_lines).
std::string section_lines(const Json& report, bool first_screen, int columns) {
  std::string out, too_wide;
  const auto name_too_wide = [&] {
    if (!too_wide.empty())
      out += "\n" + wrapped("Wider than the terminal, in the Markdown, HTML and CSV outputs: " + too_wide + ".", columns, 0);
    too_wide.clear();
  };
  for (const Section& s : report_sections(report, first_screen)) {
    if (s.id == "verdict" || s.id == "plans" || s.id == "breakevens" || s.id == "monte_carlo") continue;
    if (s.id == "warnings") name_too_wide();
    const std::string text = terminal_section(s, static_cast<std::size_t>(columns));
    if (widest_line(text) <= static_cast<std::size_t>(columns))
      out += text;
    else
      too_wide += (too_wide.empty() ? "" : ", ") + s.title;
  }
  name_too_wide();
  return out;
}

}  // namespace

std::string terminal_answer(const Json& report, const std::vector<std::string>& files_written, int columns) {
  const Json& sc = report.at("scenario");
  std::string out;
  const Section verdict = report_section(report, "verdict"), plans = report_section(report, "plans");
  for (const std::string& sentence : verdict.opening) out += wrapped(sentence, columns, 0);
  out += section_lines(report, true, columns);  // an uncertain scenario's tornado
  out += "\n";
  out += fmt::format("Plans over {}, in USD, against the baseline {}\n"
                     "(saving = the baseline's NPV minus the plan's: positive means the plan is cheaper; payback\n"
                     "\"none needed\": the plan never costs more than the baseline, there is no investment):\n",
                     format_months(sc.at("horizon_months").get<int>()), sc.at("baseline").get<std::string>());
  out += plans_table(report, columns);
  out += payback_vs_recommended_line(report, columns);
  // The plans section's notes (an IRR beyond +/-1,000% and why), as the other formats write them.
  for (const std::string& sentence : plans.sentences) out += wrapped(sentence, columns, 2);
  for (const std::string& part : {breakeven_lines(report, columns), monte_carlo_lines(report, columns)})
    if (!part.empty()) out += "\n" + part;
  out += section_lines(report, false, columns);  // the warnings last (reports/document/section_order.cpp)
  if (!files_written.empty()) out += "\n" + files_written_lines(files_written);
  return out;
}

}  // namespace tco::cli
