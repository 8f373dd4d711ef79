#include "reports/verdict/verdict_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

namespace {

std::string gpu_hours_words(double gpu_hours) { return format_usd(gpu_hours).substr(1) + " GPU-hours"; }

std::string basis_words(const std::string& basis) {
  if (basis == "on_demand") return "on-demand";
  if (basis == "reserved_1y") return "1-year reserved";
  if (basis == "reserved_3y") return "3-year reserved";
  // "reserved_6m": a term of the offer's reserved_usd_per_hour_by_term_months.
  if (basis.size() > 10 && basis.compare(0, 9, "reserved_") == 0 && basis.back() == 'm')
    return basis.substr(9, basis.size() - 10) + "-month reserved";
  return basis;
}

const Json* difference_in(const Json& section, const std::string& plan) {
  if (!section.contains("comparisons")) return nullptr;
  for (const auto& c : section.at("comparisons"))
    if (c.at("plan") == plan && interval_varies(c.at("npv_difference_usd"))) return &c;
  return nullptr;
}

// The saving's interval over the paths. The `uncertain` section draws its inputs around the
// values the figure before it was computed at, so its mean can differ from that figure (a
// triangular draw's mean is not its mode); it is named with its own mean. The core Monte Carlo's
// mean is the figure itself (one expected value), so its interval alone follows.
std::string interval_words(const Json& report, const std::string& plan) {
  const Json* c = drawn_difference(report, plan);
  if (!c) return "";
  const Json& d = c->at("npv_difference_usd");
  // The difference is plan minus baseline; the saving is its negative, an extra cost when all of it is.
  const double low = d.at("ci95_low").get<double>(), high = d.at("ci95_high").get<double>();
  const std::string interval =
      low > 0.0 ? fmt::format("95% CI of the extra cost {} .. {}, cheaper than the baseline on {:.0f}% of paths",
                              format_usd(low), format_usd(high), 100.0 * c->at("p_cheaper").get<double>())
                : fmt::format("95% CI of the saving {} .. {}, cheaper than the baseline on {:.0f}% of paths",
                              format_usd(-high), format_usd(-low), 100.0 * c->at("p_cheaper").get<double>());
  if (report.contains("uncertainty") && c == difference_in(report.at("uncertainty"), plan))
    return fmt::format(" at the inputs as written (over the drawn inputs of `uncertain`: a mean saving of {}, {})",
                       format_usd(-d.at("mean").get<double>()), interval);
  return " (" + interval + ")";
}

}  // namespace

bool interval_varies(const Json& s) {
  if (!s.contains("ci95_low") || !s.contains("ci95_high")) return false;
  // Paths that all cost the same still sum to intervals a few ulps wide: a width below a
  // billionth of the figure is rounding, not a drawn input.
  const double low = s.at("ci95_low").get<double>(), high = s.at("ci95_high").get<double>();
  return high - low > 1e-9 * std::max({1.0, std::fabs(low), std::fabs(high)});
}

const Json* drawn_difference(const Json& report, const std::string& plan) {
  if (report.contains("uncertainty"))
    if (const Json* c = difference_in(report.at("uncertainty"), plan)) return c;
  if (report.contains("monte_carlo")) return difference_in(report.at("monte_carlo"), plan);
  return nullptr;
}

std::string payback_words(const Json& c) {
  if (!c.at("payback_month").is_number()) return "never";
  const int month = c.at("payback_month").get<int>();
  return month == 0 ? "none needed (no investment)" : fmt::format("month {}", month);
}

std::string irr_words(const Json& c) {
  if (!c.value("starts_with_investment", false) || !c.at("irr_per_year").is_number()) return "-";
  return format_percent(c.at("irr_per_year").get<double>(), 1);  // flagged beyond +/-1,000%
}

namespace {

std::string percent_words(double fraction) { return fmt::format("{:.1f}%", 100.0 * fraction); }

// "$2.99 per GPU-hour at the start, falling 10% a year to $2.18 at the horizon's end".
std::string price_path_words(const Json& b) {
  const Json& path = b.at("price_path");
  const double start = path.at("start_usd_per_gpu_hour").get<double>();
  const double end = path.at("horizon_end_usd_per_gpu_hour").get<double>();
  const double change = path.at("change_per_year").get<double>();
  if (path.at("scheduled").get<bool>())
    return fmt::format("${:.2f} per GPU-hour at the start on the scenario's price schedule, ${:.2f} at the horizon's end",
                       start, end);
  if (change == 0.0) return fmt::format("${:.2f} per GPU-hour throughout", start);
  return fmt::format("${:.2f} per GPU-hour at the start, {} {:.3g}% a year to ${:.2f} at the horizon's end", start,
                     change < 0.0 ? "falling" : "rising", 100.0 * std::fabs(change), end);
}

// The breakeven of a report written before it was priced over the horizon (one figure, over the life).
std::string life_only_sentence(const Json& b, const std::string& against, const std::string& node) {
  if (!b.at("utilization").is_number())
    return fmt::format("Owning never beats {}: {} costs more than renting its GPU-hours even when busy all the time.",
                       against, node);
  return fmt::format("Owning beats {} when {} is busy more than {} of the time ({} GPU-hours per node per month).",
                     against, node, percent_words(b.at("utilization").get<double>()),
                     format_grouped(b.at("gpu_hours_per_month_per_node").get<double>(), 0));
}

}  // namespace

std::string verdict_breakeven_sentence(const Json& report) {
  if (!report.contains("verdict") || !report.at("verdict").at("breakeven").is_object()) return "";
  const Json& b = report.at("verdict").at("breakeven");
  const std::string offer = fmt::format("the {} price of {}", basis_words(b.at("price_basis").get<std::string>()),
                                        b.at("offer").get<std::string>());
  const std::string node = fmt::format("an owned {} node (in a {}-node fleet)", b.at("server").get<std::string>(),
                                       b.at("fleet_nodes").get<int>());
  if (!b.contains("utilization_over_horizon"))
    return life_only_sentence(b, fmt::format("{} (${:.2f} per GPU-hour)", offer, b.at("cloud_usd_per_gpu_hour").get<double>()),
                              node);
  // Spot is priced alone: the plans also pay its preemptions, overhead and on-demand fallback, which
  // the breakeven does not (docs/model.md §7), so the sentence says so.
  const std::string spot_alone = b.at("price_basis") == "spot"
                                     ? "; the spot price alone, without the preemptions, overhead and on-demand "
                                       "fallback the plans pay"
                                     : "";
  const std::string against = fmt::format("{} ({}{})", offer, price_path_words(b), spot_alone);
  const int horizon = b.at("horizon_months").get<int>(), life = b.at("life_months").get<int>();
  const std::string over = fmt::format("over the {} the plans run {}", format_months(horizon),
                                       b.value("resale_at_end", true) ? "(sold at their end, as the plans sell theirs)"
                                                                      : "(with no resale at their end, as in the plans)");
  const Json& u_h = b.at("utilization_over_horizon");
  std::string out =
      u_h.is_number()
          ? fmt::format("Owning beats {} when {} is busy more than {} of the time ({} GPU-hours per node per month) {}",
                        against, node, percent_words(u_h.get<double>()),
                        format_grouped(b.at("gpu_hours_per_month_per_node_over_horizon").get<double>(), 0), over)
          : fmt::format("Renting at {} costs less than {} even when the node is busy all the time {}", against, node,
                        over);
  if (life == horizon) return out + ".";
  const Json& u_l = b.at("utilization");
  return out + fmt::format("; over the node's {}-month life, {}.", life,
                           u_l.is_number() ? "owning beats it above " + percent_words(u_l.get<double>())
                                           : std::string("owning costs more even when it is busy all the time"));
}

namespace {

std::string lowest_nominal_sentence(const Json& report) {
  const Json& v = report.at("verdict");
  if (!v.contains("lowest_nominal") || !v.at("lowest_nominal").is_object()) return "";
  const Json& low = v.at("lowest_nominal");
  const std::string name = low.at("plan").get<std::string>();
  // A plan passed over for the work it leaves undone is named, with its reason, by the verdict.
  if (v.at("passed_over").is_object() && v.at("passed_over").at("plan") == name) return "";
  const std::string plan = v.at("plan").get<std::string>();
  double plan_total = 0.0;
  for (const auto& p : report.at("plans"))
    if (p.at("name") == plan) plan_total = p.at("total_nominal_usd").get<double>();
  const double rate = report.at("scenario").at("discount_rate_per_year").get<double>();
  const std::string head = fmt::format("{} has the lowest nominal total ({}, {} less than {}'s) but a higher NPV (by {})",
                                       name, format_usd(low.at("total_nominal_usd")),
                                       format_usd(plan_total - low.at("total_nominal_usd").get<double>()), plan,
                                       format_usd(low.at("npv_usd").get<double>() - v.at("npv_usd").get<double>()));
  const double ahead = low.at("peak_extra_spending_usd").get<double>();
  if (ahead <= 0.0) return head + fmt::format(", discounted at {:.3g}% a year.", 100.0 * rate);
  const int month = low.at("peak_extra_spending_month").get<int>();
  return head + fmt::format(": it spends more first, up to {} more {} month {}, and saves it back later, and at {:.3g}% "
                            "a year the later savings are worth less than the earlier spending.",
                            format_usd(ahead), month == 0 ? "in" : "by", month, 100.0 * rate);
}

std::string tax_sentence(const Json& report) {
  const Json& v = report.at("verdict");
  if (!v.contains("tax")) return "";
  const Json& tax = v.at("tax");
  if (tax.at("basis") == "before_tax") return "All figures are before tax (the scenario sets no tax rate).";
  return fmt::format("Figures are before tax except for owned hardware: its depreciation tax shield at {:.3g}% (and "
                     "the tax on its resale, with a tax view) is booked as a saving; cloud bills and running costs are "
                     "not tax-deducted.",
                     100.0 * tax.at("rate").get<double>());
}

}  // namespace

std::vector<std::string> verdict_notes(const Json& report) {
  std::vector<std::string> out;
  if (!report.contains("verdict")) return out;
  for (const std::string& s : {lowest_nominal_sentence(report), tax_sentence(report)})
    if (!s.empty()) out.push_back(s);
  return out;
}

std::string recommended_reference(const Json& report) {
  if (!report.contains("recommended_comparisons") || report.at("recommended_comparisons").empty()) return "";
  return report.at("verdict").at("plan").get<std::string>();
}

std::string payback_vs_recommended_words(const Json& report, const std::string& plan) {
  if (recommended_reference(report) == plan) return "(recommended)";
  if (!report.contains("recommended_comparisons")) return "-";
  for (const auto& c : report.at("recommended_comparisons"))
    if (c.at("plan") == plan) return payback_words(c);
  return "-";
}

std::string price_path_cell(const Json& row) {
  const double today = row.at("cloud_usd_per_gpu_hour").get<double>();
  if (!row.contains("price_path")) return fmt::format("${:.3f}/GPU-h", today);
  const Json& path = row.at("price_path");
  const double start = path.at("start_usd_per_gpu_hour").get<double>();
  if (path.at("scheduled").get<bool>()) return fmt::format("${:.3f}/GPU-h, schedule", start);
  const double change = path.at("change_per_year").get<double>();
  if (change == 0.0) return fmt::format("${:.3f}/GPU-h, flat", start);
  return fmt::format("${:.3f}/GPU-h, {:+.3g}%/yr", start, 100.0 * change);
}

std::string horizon_breakeven_cell(const Json& row) {
  if (!row.contains("over_horizon")) return "n/a";
  const Json& u = row.at("over_horizon").at("utilization");
  return u.is_number() ? percent_words(u.get<double>()) : "never";
}

std::string life_breakeven_cell(const Json& row) {
  const Json& u = row.at("utilization");
  return fmt::format("{} ({} months)", u.is_number() ? percent_words(u.get<double>()) : std::string("never"),
                     row.at("life_months").get<int>());
}

std::string horizon_header(const Json& report) {
  return fmt::format("over the {}-month horizon", report.at("scenario").at("horizon_months").get<int>());
}

bool utilization_row_decides(const Json& row) { return row.value("decides", true); }

bool price_row_decides(const Json& row) { return row.at("cloud_price_multiplier").is_number(); }

std::string hidden_utilization_rows_line(const Json& report) {
  std::size_t hidden = 0;
  for (const auto& b : report.at("breakevens").at("utilization")) hidden += !utilization_row_decides(b);
  if (hidden == 0) return "";
  return fmt::format("{} more row{} price these fleets against offers and price bases that no plan pays (all in the "
                     "JSON report's breakevens.utilization).",
                     hidden, hidden == 1 ? "" : "s");
}

std::string hidden_price_rows_line(const Json& report) {
  std::size_t hidden = 0;
  for (const auto& b : report.at("breakevens").at("cloud_price_multiplier")) hidden += !price_row_decides(b);
  if (hidden == 0) return "";
  return fmt::format("{} more pair{} of plans cost the same at no multiple of today's cloud prices between 0 and 1000 "
                     "(all in the JSON report's breakevens.cloud_price_multiplier).",
                     hidden, hidden == 1 ? "" : "s");
}

std::string price_breakeven_sentence(const Json& b) {
  const std::string against = fmt::format("{} ({})", b.at("baseline").get<std::string>(),
                                          b.value("reference", "baseline") == "baseline" ? "the baseline" : "the recommended plan");
  if (!b.at("cloud_price_multiplier").is_number())
    return fmt::format("{} costs the same NPV as {} at no multiple of today's cloud prices between 0 and 1000.",
                       b.at("plan").get<std::string>(), against);
  return fmt::format("{} costs the same NPV as {} when every cloud price is {:.3f} times today's.",
                     b.at("plan").get<std::string>(), against, b.at("cloud_price_multiplier").get<double>());
}

std::string uncertainty_sentence(const Json& report) {
  if (!report.contains("sensitivity") || !report.at("sensitivity").contains("saving_usd")) return "";
  const Json& a = report.at("sensitivity");
  const Json& saving = a.at("saving_usd");
  const std::string head = fmt::format("Uncertainty analysis of {} against {} over {} paths (seed {})",
                                       a.at("plan").get<std::string>(), a.at("baseline").get<std::string>(),
                                       a.at("paths").get<long>(), a.at("seed").get<std::uint64_t>());
  if (!interval_varies(saving))
    return head + ": none of its uncertain inputs was drawn in this run, so its saving has no interval.";
  return fmt::format("{}: NPV saving {} on average (95% CI {} .. {}), a saving on {:.0f}% of paths; the tornado below "
                     "shows which input moves it most.",
                     head, format_usd(saving.at("mean")), format_usd(saving.at("ci95_low")), format_usd(saving.at("ci95_high")),
                     100.0 * a.at("probability_saving").get<double>());
}

SectionPresence sections_present(const Json& report) {
  SectionPresence out;
  if (report.contains("monte_carlo") && report.at("monte_carlo").contains("plans"))
    for (const auto& p : report.at("monte_carlo").at("plans"))
      out.distribution = out.distribution || interval_varies(p.at("npv_usd"));
  out.sizing = report.contains("sizing");
  out.tornado = report.contains("sensitivity") && report.at("sensitivity").contains("tornado");
  return out;
}

std::string missing_sections_line(const SectionPresence& present) {
  std::vector<std::string> missing;
  if (!present.distribution)
    missing.push_back("the cost distribution over Monte Carlo paths (a scenario with \"jobs\" or random inputs, run "
                      "with --paths N)");
  if (!present.sizing) missing.push_back("cost against the number of on-prem nodes (tcosim optimize)");
  if (!present.tornado) missing.push_back("a tornado of the inputs that move the saving most (tcosim sensitivity)");
  if (missing.empty()) return "";
  std::string out = "Not in this report: ";
  for (std::size_t i = 0; i < missing.size(); ++i) out += (i == 0 ? "" : i + 1 == missing.size() ? "; and " : "; ") + missing[i];
  return out + ".";
}

// " (2,000,000 tokens)" where a token workload's verdict counts the tokens of its unserved work.
static std::string unserved_tokens_words(const Json& verdict_or_plan) {
  if (!verdict_or_plan.contains("unserved_tokens")) return "";
  return fmt::format(" ({} tokens)", format_grouped(verdict_or_plan.at("unserved_tokens").get<double>(), 0));
}

std::string verdict_sentence(const Json& report) {
  if (!report.contains("verdict")) return "This report has no verdict (it was written by an older tcosim).";
  const Json& v = report.at("verdict");
  const Json& sc = report.at("scenario");
  const std::string plan = v.at("plan").get<std::string>();
  const std::string baseline = v.at("baseline").get<std::string>();
  const int months = sc.at("horizon_months").get<int>();
  std::string out;
  if (!v.at("npv_saving_usd").is_number()) {
    out = fmt::format("Keep the baseline, {}: no plan that serves the work costs less over {} (NPV {}).", plan,
                      format_months(months), format_usd(v.at("npv_usd")));
  } else {
    const double saving = v.at("npv_saving_usd").get<double>();
    // A plan dearer than the baseline is chosen when the baseline leaves work unserved (named below).
    out = saving >= 0.0 ? fmt::format("Choose {}: it saves {} in NPV against {} over {}{}.", plan, format_usd(saving),
                                      baseline, format_months(months), interval_words(report, plan))
                        : fmt::format("Choose {}: it costs {} more in NPV than {} over {}{}.", plan, format_usd(-saving),
                                      baseline, format_months(months), interval_words(report, plan));
  }
  const double unserved = v.at("unserved_gpu_hours").get<double>();
  if (unserved > 0.0)
    out += fmt::format(" It leaves {}{} of work unserved at the horizon's end{}.", gpu_hours_words(unserved),
                       unserved_tokens_words(v),
                       v.at("waiting_priced").get<bool>()
                           ? fmt::format(", priced at ${:.2f} per GPU-hour of waiting",
                                         sc.at("waiting_usd_per_gpu_hour").get<double>())
                           : std::string(", within 1% of the demand of the least any plan leaves"));
  if (v.at("passed_over").is_object()) {
    const Json& p = v.at("passed_over");
    out += fmt::format(" {} costs less (NPV {}) but leaves {}{} of work unserved, which this scenario does not price "
                       "(waiting_usd_per_gpu_hour is 0), so it is not recommended.",
                       p.at("plan").get<std::string>(), format_usd(p.at("npv_usd")),
                       gpu_hours_words(p.at("unserved_gpu_hours").get<double>()), unserved_tokens_words(p));
  }
  const std::string breakeven = verdict_breakeven_sentence(report);
  return breakeven.empty() ? out : out + " " + breakeven;
}

}  // namespace tco
