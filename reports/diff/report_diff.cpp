#include "reports/diff/report_diff.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>

#include <fmt/format.h>

#include "core/error.hpp"
#include "reports/markdown/markdown_summary.hpp"

namespace tco {

namespace {

// Two numbers closer than this (relative) are the same figure: a report round-trips doubles
// exactly, so only a different machine's last bits land here.
constexpr double kSameRelative = 1e-9;

// Standard error of the q-quantile over the standard error of the mean, for normal values:
// sqrt(q (1 - q)) / phi(z_q). Applied to the mean's standard error, as reports give no
// standard error for their quantiles.
double quantile_stderr_factor(double q, double z_q) {
  const double phi = std::exp(-0.5 * z_q * z_q) / std::sqrt(2.0 * std::numbers::pi);
  return std::sqrt(q * (1.0 - q)) / phi;
}

// The quantiles compared when a report has them (SPEC §7 reports P5/P50/P95 by default; the
// cost tail and the median are what a decision reads), with z_q = Phi^-1(q).
struct QuantileKey {
  const char* key;
  const char* label;
  double factor;
};
const QuantileKey kQuantiles[] = {{"p50", "P50", quantile_stderr_factor(0.50, 0.0)},
                                  {"p90", "P90", quantile_stderr_factor(0.90, 1.2815515655446004)},
                                  {"p95", "P95", quantile_stderr_factor(0.95, 1.6448536269514722)}};

enum class FigureKind { decision, headline, breakdown };

struct Figure {
  std::string key;    // unique within a report
  std::string owner;  // the plan it belongs to ("" for report-wide figures)
  std::string label;
  FigureUnit unit = FigureUnit::usd;
  FigureKind kind = FigureKind::headline;
  Json value;         // number, string or null
  std::optional<double> stderr_;
  bool payback = false;  // null <-> number is a decision
};

// Reads what the diff needs from a report, failing with the file and JSON pointer when a
// report does not have the shape docs/report.md gives.
class FigureReader {
 public:
  FigureReader(const Json& report, std::string file) : report_(report), file_(std::move(file)) {
    if (!report_.is_object()) fail("", "a tcosim report (a JSON object)", report_);
  }

  std::string schema_version() const { return string_at(report_, "/schema_version"); }
  std::string scenario_name() const { return string_at(report_, "/scenario/name"); }

  std::vector<Figure> figures() {
    plans();
    comparisons();
    breakevens();
    sizing();
    return std::move(figures_);
  }

  std::vector<std::string> plan_names() const {
    std::vector<std::string> names;
    const Json& plans = array_at(report_, "/plans");
    for (std::size_t i = 0; i < plans.size(); ++i) names.push_back(string_at(plans[i], "/name", "/plans/" + std::to_string(i)));
    return names;
  }

  // "" when absent.
  std::string optional_text(const std::string& pointer) const {
    const Json::json_pointer p(pointer);
    if (!report_.contains(p)) return "";
    const Json& v = report_.at(p);
    return v.is_string() ? v.get<std::string>() : v.dump();
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& expected, const Json& found) const {
    throw InputError(file_, pointer, "expected " + expected + ", found " + describe_json(found));
  }

  const Json& at(const Json& object, const std::string& pointer, const std::string& base_pointer) const {
    const Json::json_pointer p(pointer);
    if (!object.is_object() || !object.contains(p))
      throw InputError(file_, base_pointer + pointer, "expected a tcosim report with this field, found none");
    return object.at(p);
  }
  std::string string_at(const Json& object, const std::string& pointer, const std::string& base_pointer = "") const {
    const Json& v = at(object, pointer, base_pointer);
    if (!v.is_string()) fail(base_pointer + pointer, "a string", v);
    return v.get<std::string>();
  }
  const Json& array_at(const Json& object, const std::string& pointer, const std::string& base_pointer = "") const {
    const Json& v = at(object, pointer, base_pointer);
    if (!v.is_array()) fail(base_pointer + pointer, "an array", v);
    return v;
  }
  // A number or null; absent is null too.
  Json number_or_null(const Json& object, const char* key, const std::string& pointer) const {
    if (!object.contains(key) || object.at(key).is_null()) return nullptr;
    const Json& v = object.at(key);
    if (!v.is_number()) fail(pointer_join(pointer, key), "a number or null", v);
    return v.get<double>();
  }
  std::optional<double> optional_stderr(const Json& stats, const std::string& pointer) const {
    const Json v = number_or_null(stats, "stderr", pointer);
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
  }

  void add(Figure f) { figures_.push_back(std::move(f)); }

  // Monte Carlo statistics {mean, stderr, p50, p95, ...} of `field` for the entry of
  // /monte_carlo/<section> whose `name_key` is `name`; nullptr when the report has none.
  const Json* statistics(const char* section, const char* name_key, const std::string& name, const char* field,
                         std::string* pointer) const {
    const Json::json_pointer p(std::string("/monte_carlo/") + section);
    if (!report_.contains(p) || !report_.at(p).is_array()) return nullptr;
    const Json& list = report_.at(p);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Json& entry = list[i];
      if (!entry.is_object() || entry.value(name_key, Json()) != name || !entry.contains(field)) continue;
      if (!entry.at(field).is_object()) continue;
      *pointer = fmt::format("/monte_carlo/{}/{}/{}", section, i, field);
      return &entry.at(field);
    }
    return nullptr;
  }

  // A USD figure: the Monte Carlo mean, P50 and P90 when the report has statistics for it,
  // else the plain number.
  void add_usd(const std::string& key, const std::string& owner, const std::string& label, const Json& plain,
               const Json* stats, const std::string& stats_pointer, bool with_quantiles) {
    if (!stats) {
      add({key, owner, label, FigureUnit::usd, FigureKind::headline, plain, std::nullopt, false});
      return;
    }
    const std::optional<double> se = optional_stderr(*stats, stats_pointer);
    auto scaled = [&](double factor) { return se ? std::optional<double>(*se * factor) : std::nullopt; };
    add({key + "/mean", owner, label + " (mean)", FigureUnit::usd, FigureKind::headline,
         number_or_null(*stats, "mean", stats_pointer), se, false});
    if (!with_quantiles) return;
    for (const QuantileKey& q : kQuantiles) {
      if (!stats->contains(q.key)) continue;
      add({key + "/" + q.key, owner, label + " " + q.label, FigureUnit::usd, FigureKind::headline,
           number_or_null(*stats, q.key, stats_pointer), scaled(q.factor), false});
    }
  }

  void plans() {
    const Json& plans = array_at(report_, "/plans");
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const std::string pointer = "/plans/" + std::to_string(i);
      const Json& plan = plans[i];
      const std::string name = string_at(plan, "/name", pointer);
      std::string stats_pointer;
      const Json* stats = statistics("plans", "name", name, "npv_usd", &stats_pointer);
      const Json plain = stats ? Json(nullptr) : number_or_null(plan, "npv_usd", pointer);
      add_usd("plan/" + name + "/npv", name, name + ": NPV", plain, stats, stats_pointer, true);
      if (plan.contains("breakdown_npv_usd")) {
        const Json& breakdown = plan.at("breakdown_npv_usd");
        const std::string bp = pointer + "/breakdown_npv_usd";
        if (!breakdown.is_object()) fail(bp, "an object of USD by category", breakdown);
        for (const auto& [category, value] : breakdown.items()) {
          add({"plan/" + name + "/breakdown/" + category, name, name + ": " + category + " (NPV)", FigureUnit::usd,
               FigureKind::breakdown, number_or_null(breakdown, category.c_str(), bp), std::nullopt, false});
        }
      }
    }
  }

  void comparisons() {
    if (!report_.contains("comparisons")) return;
    const Json& list = array_at(report_, "/comparisons");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string pointer = "/comparisons/" + std::to_string(i);
      const std::string plan = string_at(list[i], "/plan", pointer);
      const std::string baseline = string_at(list[i], "/baseline", pointer);
      const std::string key = "comparison/" + plan + "/" + baseline;
      const std::string label = plan + ": NPV saving vs " + baseline;
      std::string stats_pointer;
      if (const Json* stats = statistics("comparisons", "plan", plan, "npv_saving_usd", &stats_pointer)) {
        add_usd(key + "/saving", plan, label, nullptr, stats, stats_pointer, false);
      } else if (const Json* difference = statistics("comparisons", "plan", plan, "npv_difference_usd", &stats_pointer)) {
        // Paired statistics of plan - baseline over the same paths: the saving is its negative.
        const Json mean = number_or_null(*difference, "mean", stats_pointer);
        add({key + "/saving/mean", plan, label + " (mean)", FigureUnit::usd, FigureKind::headline,
             mean.is_number() ? Json(-mean.get<double>()) : Json(nullptr), optional_stderr(*difference, stats_pointer),
             false});
      } else {
        add_usd(key + "/saving", plan, label, number_or_null(list[i], "npv_saving_usd", pointer), nullptr, "", false);
      }
      add({key + "/payback", plan, plan + ": payback month vs " + baseline, FigureUnit::month, FigureKind::headline,
           number_or_null(list[i], "payback_month", pointer), std::nullopt, true});
    }
  }

  void breakevens() {
    if (report_.contains(Json::json_pointer("/breakevens/utilization"))) {
      const Json& list = array_at(report_, "/breakevens/utilization");
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string pointer = "/breakevens/utilization/" + std::to_string(i);
        const std::string plan = string_at(list[i], "/plan", pointer);
        const std::string server = string_at(list[i], "/server", pointer);
        const std::string basis = string_at(list[i], "/price_basis", pointer);
        // One row per cloud offer a plan uses (a report before offers were named has one offer).
        const std::string offer = list[i].contains("offer") ? string_at(list[i], "/offer", pointer) : "";
        add({"utilization/" + plan + "/" + server + "/" + offer + "/" + basis, plan,
             fmt::format("{}: utilization breakeven vs {} {} ({})", plan, offer, basis, server), FigureUnit::fraction,
             FigureKind::headline, number_or_null(list[i], "utilization", pointer), std::nullopt, false});
      }
    }
    if (report_.contains(Json::json_pointer("/breakevens/cloud_price_multiplier"))) {
      const Json& list = array_at(report_, "/breakevens/cloud_price_multiplier");
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string pointer = "/breakevens/cloud_price_multiplier/" + std::to_string(i);
        const std::string plan = string_at(list[i], "/plan", pointer);
        const std::string against = string_at(list[i], "/baseline", pointer);
        add({"price-breakeven/" + plan + "/" + against, plan, plan + ": cloud price breakeven vs " + against,
             FigureUnit::multiplier,
             FigureKind::headline, number_or_null(list[i], "cloud_price_multiplier", pointer), std::nullopt, false});
      }
    }
  }

  // sizing.best: {measure: {nodes: N, ...}} (or {measure: N}).
  void sizing() {
    const Json::json_pointer p("/sizing/best");
    if (!report_.contains(p)) return;
    const Json& best = report_.at(p);
    if (!best.is_object()) fail("/sizing/best", "an object of the best N per risk measure", best);
    for (const auto& [measure, value] : best.items()) {
      const std::string pointer = "/sizing/best/" + measure;
      Json nodes = value;
      if (value.is_object()) nodes = number_or_null(value, "nodes", pointer);
      else if (!value.is_number() && !value.is_null()) fail(pointer, "a node count or {\"nodes\": N}", value);
      add({"sizing/best/" + measure, "", "best N (" + measure + ")", FigureUnit::nodes, FigureKind::decision, nodes,
           std::nullopt, false});
    }
  }

  const Json& report_;
  std::string file_;
  std::vector<Figure> figures_;
};

bool same_value(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::fabs(x - y) <= kSameRelative * std::max(std::fabs(x), std::fabs(y));
  }
  return a == b;
}

double combined_stderr(const std::optional<double>& a, const std::optional<double>& b) {
  const double sa = a.value_or(0.0), sb = b.value_or(0.0);
  return std::sqrt(sa * sa + sb * sb);
}

Verdict numeric_verdict(const Figure& base, const Figure& next, const DiffTolerance& t) {
  const double a = base.value.get<double>(), b = next.value.get<double>();
  const double moved = std::fabs(b - a);
  const double absolute = base.unit == FigureUnit::usd ? t.absolute_usd : 0.0;
  if (moved <= t.relative * std::fabs(a) || moved <= absolute) return Verdict::within_tolerance;
  if (moved <= t.noise_stderrs * combined_stderr(base.stderr_, next.stderr_)) return Verdict::noise;
  return base.kind == FigureKind::breakdown ? Verdict::breakdown_moved : Verdict::beyond_tolerance;
}

Verdict verdict_for(const Figure& base, const Figure& next, const DiffTolerance& t) {
  if (base.kind == FigureKind::decision) return Verdict::decision_changed;
  if (base.value.is_number() && next.value.is_number()) return numeric_verdict(base, next, t);
  if (base.payback) return Verdict::decision_changed;  // a payback appeared or disappeared
  return base.kind == FigureKind::breakdown ? Verdict::breakdown_moved : Verdict::beyond_tolerance;
}

// Sort order of the output: decisions, headline regressions, other headline moves, breakdown.
int rank(Verdict verdict, FigureKind kind) {
  switch (verdict) {
    case Verdict::decision_changed: return 0;
    case Verdict::beyond_tolerance: return 1;
    case Verdict::breakdown_moved: return 4;
    default: return kind == FigureKind::breakdown ? 5 : (verdict == Verdict::noise ? 2 : 3);
  }
}

struct PlanNpv {
  double mean = 0.0;
  std::optional<double> stderr_;
};

// The cheapest plan (lowest NPV, the Monte Carlo mean when present; the first on a tie).
std::string cheapest_plan(const std::vector<std::string>& names, const std::map<std::string, PlanNpv>& npv) {
  std::string best;
  for (const std::string& name : names) {
    const auto it = npv.find(name);
    if (it == npv.end()) continue;
    if (best.empty() || it->second.mean < npv.at(best).mean) best = name;
  }
  return best;
}

std::map<std::string, PlanNpv> plan_npvs(const std::vector<Figure>& figures) {
  std::map<std::string, PlanNpv> out;
  for (const Figure& f : figures) {
    const bool npv = f.key == "plan/" + f.owner + "/npv" || f.key == "plan/" + f.owner + "/npv/mean";
    if (npv && f.value.is_number()) out[f.owner] = {f.value.get<double>(), f.stderr_};
  }
  return out;
}

std::string signed_number(double x, const char* pattern) {
  return (x > 0 ? "+" : "") + fmt::format(fmt::runtime(pattern), x);
}

std::string change_text(const FigureChange& c) {
  if (!c.base.is_number() || !c.next.is_number()) return "-";
  const double a = c.base.get<double>(), b = c.next.get<double>(), d = b - a;
  const std::string relative = a != 0.0 ? fmt::format(" ({:+.2f}%)", 100.0 * d / std::fabs(a)) : std::string();
  switch (c.unit) {
    case FigureUnit::usd: return (d > 0 ? "+" : "") + format_usd(d) + relative;
    case FigureUnit::month: return signed_number(d, "{:.0f}") + (std::fabs(d) == 1.0 ? " month" : " months");
    case FigureUnit::fraction: return signed_number(100.0 * d, "{:.2f}") + " pp" + relative;
    case FigureUnit::multiplier: return signed_number(d, "{:.4f}") + relative;
    case FigureUnit::nodes: return signed_number(d, "{:.0f}");
    case FigureUnit::plan: return "-";
  }
  return "-";
}

const char* unit_name(FigureUnit unit) {
  switch (unit) {
    case FigureUnit::usd: return "usd";
    case FigureUnit::month: return "month";
    case FigureUnit::fraction: return "fraction";
    case FigureUnit::multiplier: return "multiplier";
    case FigureUnit::nodes: return "nodes";
    case FigureUnit::plan: return "plan";
  }
  return "usd";
}

std::string verdict_cell(const FigureChange& c, bool markdown) {
  std::string text = verdict_text(c.verdict);
  if (!c.note.empty()) text += " (" + c.note + ")";
  if (markdown && (c.verdict == Verdict::decision_changed || c.verdict == Verdict::beyond_tolerance))
    return "**" + text + "**";
  return text;
}

std::string md_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += "\\|";
    else out += ch;
  }
  return out;
}

std::string summary_line(const ReportDiff& d, const DiffTolerance& t) {
  if (d.no_change())
    return fmt::format("no change: {} figures compared, all identical.", d.figures_compared);
  std::string line = d.fails() ? "REGRESSION: " : "OK: ";
  std::vector<std::string> parts;
  auto part = [&](Verdict v, const char* one, const char* many) {
    const int n = d.count(v);
    if (n > 0) parts.push_back(fmt::format("{} {}", n, n == 1 ? one : many));
  };
  part(Verdict::decision_changed, "decision changed", "decisions changed");
  part(Verdict::beyond_tolerance, "headline figure beyond tolerance", "headline figures beyond tolerance");
  part(Verdict::noise, "within Monte Carlo noise", "within Monte Carlo noise");
  part(Verdict::within_tolerance, "within tolerance", "within tolerance");
  part(Verdict::breakdown_moved, "breakdown figure moved", "breakdown figures moved");
  for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "") + parts[i];
  return line + fmt::format("; {} figures compared; tolerance: {}.", d.figures_compared, describe_tolerance(t));
}

std::string decision_sentence(const FigureChange& c, const char* arrow) {
  std::string s = fmt::format("{}: {} {} {}", c.figure, format_figure(c.base, c.unit), arrow, format_figure(c.next, c.unit));
  if (!c.note.empty()) s += " (" + c.note + ")";
  return s;
}

}  // namespace

double parse_relative_tolerance(const std::string& text, const std::string& option) {
  std::string number = text;
  double scale = 1.0;
  if (!number.empty() && number.back() == '%') {
    number.pop_back();
    scale = 0.01;
  }
  char* end = nullptr;
  const double value = number.empty() ? std::nan("") : std::strtod(number.c_str(), &end) * scale;
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value) || value < 0.0 || value >= 1.0)
    throw InputError("", option,
                     "expected a relative tolerance as a percentage (\"0.5%\") or a fraction (\"0.005\") in [0, 1), "
                     "found \"" + text + "\"");
  return value;
}

const char* verdict_text(Verdict verdict) {
  switch (verdict) {
    case Verdict::decision_changed: return "decision changed";
    case Verdict::beyond_tolerance: return "beyond tolerance";
    case Verdict::breakdown_moved: return "moved (breakdown)";
    case Verdict::within_tolerance: return "within tolerance";
    case Verdict::noise: return "noise";
  }
  return "";
}

bool ReportDiff::fails() const {
  return count(Verdict::decision_changed) > 0 || count(Verdict::beyond_tolerance) > 0;
}

int ReportDiff::count(Verdict verdict) const {
  return static_cast<int>(std::count_if(changes.begin(), changes.end(),
                                        [&](const FigureChange& c) { return c.verdict == verdict; }));
}

std::string format_figure(const Json& value, FigureUnit unit) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_number()) {
    switch (unit) {
      case FigureUnit::month: return "never";
      case FigureUnit::fraction: return "never";
      case FigureUnit::plan: return "(none)";
      default: return "none";
    }
  }
  const double x = value.get<double>();
  switch (unit) {
    case FigureUnit::usd: return format_usd(value);
    case FigureUnit::month: return fmt::format("month {:.0f}", x);
    case FigureUnit::fraction: return fmt::format("{:.2f}%", 100.0 * x);
    case FigureUnit::multiplier: return fmt::format("x{:.4f}", x);
    case FigureUnit::nodes: return fmt::format("{:.0f}", x);
    case FigureUnit::plan: return value.dump();
  }
  return value.dump();
}

std::string describe_tolerance(const DiffTolerance& t) {
  return fmt::format("a move counts when above {:g}% and above {} (USD figures); Monte Carlo moves within {:g} "
                     "combined standard errors are noise",
                     100.0 * t.relative, format_usd(t.absolute_usd), t.noise_stderrs);
}

ReportDiff diff_reports(const Json& base, const Json& next, const DiffTolerance& tolerance,
                        const std::string& base_file, const std::string& next_file) {
  FigureReader base_reader(base, base_file), next_reader(next, next_file);
  const std::string base_schema = base_reader.schema_version(), next_schema = next_reader.schema_version();
  if (base_schema != next_schema)
    throw InputError(next_file, "/schema_version",
                     fmt::format("reports of different schema versions cannot be compared: {} has \"{}\", {} has "
                                 "\"{}\" (re-run the base with this tcosim, or update the baseline)",
                                 base_file, base_schema, next_file, next_schema));
  const std::string base_name = base_reader.scenario_name(), next_name = next_reader.scenario_name();
  if (base_name != next_name)
    throw InputError(next_file, "/scenario/name",
                     fmt::format("reports of different scenarios cannot be compared: {} is scenario \"{}\", {} is "
                                 "scenario \"{}\"", base_file, base_name, next_file, next_name));

  ReportDiff diff;
  diff.scenario = base_name;
  for (const auto& [pointer, what] : {std::pair{"/tool/version", "tcosim version"},
                                      std::pair{"/pricing/catalog_digest_sha256", "pricing catalog (sha256)"},
                                      std::pair{"/scenario/digest_sha256", "scenario file (sha256)"},
                                      std::pair{"/monte_carlo/seed", "Monte Carlo seed"},
                                      std::pair{"/monte_carlo/paths", "Monte Carlo paths"}}) {
    const std::string a = base_reader.optional_text(pointer), b = next_reader.optional_text(pointer);
    if (a != b) diff.notes.push_back(fmt::format("{} changed: {} -> {}", what, a.empty() ? "-" : a.substr(0, 16),
                                                 b.empty() ? "-" : b.substr(0, 16)));
  }

  const std::vector<std::string> base_plans = base_reader.plan_names(), next_plans = next_reader.plan_names();
  const std::vector<Figure> base_figures = base_reader.figures(), next_figures = next_reader.figures();
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };

  struct Ranked {
    int rank;
    FigureChange change;
  };
  std::vector<Ranked> ranked;

  // Plans only in one report: one row each; their figures are not compared.
  for (const std::string& name : base_plans)
    if (!contains(next_plans, name))
      ranked.push_back({1, {name, FigureUnit::plan, name, nullptr, {}, {}, Verdict::beyond_tolerance, "plan removed"}});
  for (const std::string& name : next_plans)
    if (!contains(base_plans, name))
      ranked.push_back({1, {name, FigureUnit::plan, nullptr, name, {}, {}, Verdict::beyond_tolerance, "plan added"}});

  // The cheapest plan. A swap between two plans that the new report cannot tell apart
  // (within k combined standard errors) is noise, not a decision.
  const auto base_npv = plan_npvs(base_figures), next_npv = plan_npvs(next_figures);
  const std::string base_cheapest = cheapest_plan(base_plans, base_npv);
  const std::string next_cheapest = cheapest_plan(next_plans, next_npv);
  diff.figures_compared += 1;
  if (base_cheapest != next_cheapest) {
    FigureChange c{"cheapest plan", FigureUnit::plan, base_cheapest, next_cheapest, {}, {}, Verdict::decision_changed, ""};
    const auto old_in_next = next_npv.find(base_cheapest);
    if (old_in_next != next_npv.end() && !next_cheapest.empty()) {
      const PlanNpv& winner = next_npv.at(next_cheapest);
      const double noise = tolerance.noise_stderrs * combined_stderr(winner.stderr_, old_in_next->second.stderr_);
      if (old_in_next->second.mean - winner.mean <= noise && noise > 0.0) {
        c.verdict = Verdict::noise;
        c.note = fmt::format("tie within {:g} standard errors", tolerance.noise_stderrs);
      }
    }
    ranked.push_back({rank(c.verdict, FigureKind::decision), std::move(c)});
  }

  std::map<std::string, const Figure*> next_by_key;
  for (const Figure& f : next_figures) next_by_key[f.key] = &f;
  std::map<std::string, bool> seen;
  auto compare = [&](const Figure& a, const Figure& b) {
    diff.figures_compared += 1;
    if (same_value(a.value, b.value)) return;
    const Verdict v = verdict_for(a, b, tolerance);
    ranked.push_back({rank(v, a.kind), {a.label, a.unit, a.value, b.value, a.stderr_, b.stderr_, v, ""}});
  };
  for (const Figure& a : base_figures) {
    seen[a.key] = true;
    if (!a.owner.empty() && !contains(next_plans, a.owner)) continue;
    const auto it = next_by_key.find(a.key);
    Figure absent = a;
    absent.value = nullptr;
    absent.stderr_.reset();
    compare(a, it == next_by_key.end() ? absent : *it->second);
  }
  for (const Figure& b : next_figures) {
    if (seen.count(b.key) || (!b.owner.empty() && !contains(base_plans, b.owner))) continue;
    Figure absent = b;
    absent.value = nullptr;
    absent.stderr_.reset();
    compare(absent, b);
  }

  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& x, const Ranked& y) { return x.rank < y.rank; });
  for (Ranked& r : ranked) diff.changes.push_back(std::move(r.change));
  return diff;
}

std::string diff_table_header(bool with_scenario_column) {
  return with_scenario_column ? "| scenario | figure | base | new | change | verdict |\n|---|---|---:|---:|---:|---|\n"
                              : "| figure | base | new | change | verdict |\n|---|---:|---:|---:|---|\n";
}

std::string diff_table_rows(const ReportDiff& diff, const std::string& scenario_cell) {
  std::string out;
  for (const FigureChange& c : diff.changes) {
    const std::string prefix = scenario_cell.empty() ? "|" : "| " + md_escape(scenario_cell) + " |";
    out += fmt::format("{} {} | {} | {} | {} | {} |\n", prefix, md_escape(c.figure),
                       md_escape(format_figure(c.base, c.unit)), md_escape(format_figure(c.next, c.unit)),
                       md_escape(change_text(c)), verdict_cell(c, true));
  }
  return out;
}

std::string diff_table_note_row(const std::string& scenario_cell, const std::string& verdict) {
  return fmt::format("| {} | | | | | {} |\n", md_escape(scenario_cell), md_escape(verdict));
}

std::string diff_markdown(const ReportDiff& diff, const DiffTolerance& tolerance) {
  std::string md = fmt::format("## tcosim diff: {}\n\n", diff.scenario);
  for (const FigureChange& c : diff.changes)
    if (c.verdict == Verdict::decision_changed) md += "**Decision changed: " + md_escape(decision_sentence(c, "→")) + "**\n\n";
  if (!diff.no_change()) md += diff_table_header(false) + diff_table_rows(diff, "") + "\n";
  for (const std::string& note : diff.notes) md += "- " + note + "\n";
  if (!diff.notes.empty()) md += "\n";
  return md + summary_line(diff, tolerance) + "\n";
}

std::string diff_text(const ReportDiff& diff, const DiffTolerance& tolerance) {
  std::string out = fmt::format("tcosim diff: scenario {}\n", diff.scenario);
  for (const FigureChange& c : diff.changes)
    if (c.verdict == Verdict::decision_changed) out += "DECISION CHANGED: " + decision_sentence(c, "->") + "\n";
  if (!diff.no_change()) {
    std::vector<std::array<std::string, 5>> rows = {{"figure", "base", "new", "change", "verdict"}};
    for (const FigureChange& c : diff.changes)
      rows.push_back({c.figure, format_figure(c.base, c.unit), format_figure(c.next, c.unit), change_text(c),
                      verdict_cell(c, false)});
    std::array<std::size_t, 5> width{};
    for (const auto& row : rows)
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    for (const auto& row : rows)
      out += fmt::format("  {:<{}}  {:>{}}  {:>{}}  {:>{}}  {}\n", row[0], width[0], row[1], width[1], row[2], width[2],
                         row[3], width[3], row[4]);
  }
  for (const std::string& note : diff.notes) out += "note: " + note + "\n";
  return out + summary_line(diff, tolerance) + "\n";
}

Json diff_json(const ReportDiff& diff, const DiffTolerance& tolerance) {
  Json changes = Json::array();
  for (const FigureChange& c : diff.changes) {
    const bool numeric = c.base.is_number() && c.next.is_number();
    const double a = numeric ? c.base.get<double>() : 0.0;
    const double d = numeric ? c.next.get<double>() - a : 0.0;
    changes.push_back({{"figure", c.figure},
                       {"unit", unit_name(c.unit)},
                       {"base", c.base},
                       {"new", c.next},
                       {"change", numeric ? Json(d) : Json(nullptr)},
                       {"relative_change", numeric && a != 0.0 ? Json(d / std::fabs(a)) : Json(nullptr)},
                       {"base_stderr", c.base_stderr ? Json(*c.base_stderr) : Json(nullptr)},
                       {"new_stderr", c.next_stderr ? Json(*c.next_stderr) : Json(nullptr)},
                       {"verdict", verdict_text(c.verdict)},
                       {"note", c.note}});
  }
  const char* result = diff.no_change() ? "no change" : (diff.fails() ? "regression" : "within tolerance");
  return {{"schema_version", "tcosim.diff/1"},
          {"scenario", diff.scenario},
          {"result", result},
          {"exit_code", diff.fails() ? kExitCheckFailed : kExitOk},
          {"tolerance",
           {{"relative", tolerance.relative},
            {"absolute_usd", tolerance.absolute_usd},
            {"noise_stderrs", tolerance.noise_stderrs}}},
          {"figures_compared", diff.figures_compared},
          {"notes", diff.notes},
          {"changes", changes}};
}

}  // namespace tco
