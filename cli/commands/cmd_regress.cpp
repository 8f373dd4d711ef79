// tcosim regress SCENARIOS_DIR --baselines DIR [--update] [--catalog DIR] [--md OUT.md]
//                [--tolerance 0.5%] [--abs-tolerance-usd 1000] [--threads T]
// Runs every scenario (*.json with "plans") in the folder as `tcosim run` would (with the
// scenario's own paths and seed), diffs each report against DIR/<scenario file name> (a
// report without its "run" block), and prints one Markdown table for the whole set. Exit 1
// on any regression or missing baseline, 2 on bad input, else 0. --update rewrites the
// baselines on purpose (atomically; exit 0). Each scenario runs on the `today` its baseline
// records (pricing.today), so its as-of warnings do not move as the calendar does; --today
// pins another day for all, and a scenario without a dated baseline runs on the system date.
// A scenario whose input data is missing outside the project (e.g. ../shared/data, which
// ships beside some checkouts only) is skipped with a note; a missing path inside the project
// (the folder holding SCENARIOS_DIR) is a mistake and fails as bad input. Under `mpirun -n K`,
// the scenarios split in contiguous blocks over the K ranks (docs/cluster.md).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/options.hpp"
#include "cli/report_pipeline.hpp"
#include "cli/root_first.hpp"
#include "core/io/utf8_text.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_bar.hpp"
#include "core/error.hpp"
#include "core/parallel/split_items.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/output_set.hpp"
#include "reports/diff/report_diff.hpp"
#include "reports/reader/report_reader.hpp"

namespace tco::cli {

namespace fs = std::filesystem;

struct RegressOptions {
  std::string scenarios;
  std::string baselines;
  bool update = false;
  std::string catalog;
  std::string md;
  std::string tolerance = "0.5%";
  double abs_tolerance_usd = 1000.0;
  int threads = 0;
  TodayOptions today;
};

namespace {

// The paths an InputError names: its file, and every quoted string in its message that looks
// like a path (has a '/').
std::vector<fs::path> named_paths(const InputError& e) {
  std::vector<fs::path> out;
  if (!e.file().empty()) out.emplace_back(e.file());
  const std::string text = e.what();
  for (std::size_t open = text.find('"'); open != std::string::npos;) {
    const std::size_t close = text.find('"', open + 1);
    if (close == std::string::npos) break;
    const std::string quoted = text.substr(open + 1, close - open - 1);
    if (quoted.find('/') != std::string::npos) out.emplace_back(quoted);
    open = text.find('"', close + 1);
  }
  return out;
}

bool is_inside(const fs::path& path, const fs::path& root) {
  const fs::path rel = fs::weakly_canonical(fs::absolute(path)).lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// The reason to skip a scenario whose loading failed with `e`, or nullopt when the failure is
// the scenario's own mistake: skipped only when the error names missing paths and every one of
// them lies outside the project.
std::optional<std::string> skip_reason(const InputError& e, const fs::path& project_root) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (const fs::path& p : named_paths(e))
    if (!fs::exists(p, ec)) missing.push_back(p);
  if (missing.empty()) return std::nullopt;
  for (const fs::path& p : missing)
    if (is_inside(p, project_root)) return std::nullopt;
  return fmt::format("input data outside the project is absent ({})", missing.back().lexically_normal().string());
}

enum class Outcome { compared, updated, skipped, missing_baseline, failed_baseline, bad_input };

struct ScenarioResult {
  std::string name;  // the scenario file's name without .json (= the baseline's)
  Outcome outcome = Outcome::compared;
  std::optional<ReportDiff> diff;
  std::string message;
};

// A scenario's report without its "run" block, or the outcome that replaces it (skipped, bad
// input) with its message; under mpirun, gathered to rank 0 as JSON text (numbers round-trip
// exactly: the same report bytes).
struct ComputedReport {
  Outcome outcome = Outcome::compared;
  std::string message;
  Json report;
};

std::string computed_reports_text(const std::vector<ComputedReport>& computed) {
  Json list = Json::array();
  for (const ComputedReport& c : computed)
    list.push_back({{"outcome", static_cast<int>(c.outcome)}, {"message", c.message}, {"report", c.report}});
  return list.dump();
}

std::vector<ComputedReport> computed_reports_from_text(const std::string& text) {
  std::vector<ComputedReport> out;
  for (Json& c : parse_json_text(text, "the gathered reports"))
    out.push_back({static_cast<Outcome>(c.at("outcome").get<int>()), c.at("message").get<std::string>(),
                   std::move(c.at("report"))});
  return out;
}

class Regression {
 public:
  Regression(const RegressOptions& o, CommandContext& ctx)
      : o_(o), ctx_(ctx), tolerance_{parse_relative_tolerance(o.tolerance), o.abs_tolerance_usd}, outputs_(ctx.out) {
    std::error_code ec;
    if (!fs::is_directory(o.scenarios, ec))
      throw InputError(o.scenarios, "", "expected a folder of scenario files, found no such folder");
    if (!o.catalog.empty() && !fs::is_directory(o.catalog, ec))
      throw InputError(o.catalog, "", "--catalog expects a catalog folder, found no such folder");
    if (!o.update && !fs::is_directory(o.baselines, ec))
      throw InputError(o.baselines, "", "expected the baselines folder, found no such folder (create it with --update)");
    project_root_ = fs::weakly_canonical(fs::absolute(o.scenarios)).parent_path();
    outputs_.add_file("--md", o.md);
    if (o.update) outputs_.add_folder("--baselines", o.baselines);
    else outputs_.add_input_folder("a baseline", o.baselines);
    outputs_.add_input_folder("a scenario", o.scenarios);
    outputs_.add_input_folder("a catalog file", o.catalog);
  }

  int run() {
    // Rank 0 lists the scenarios; every rank makes the reports of its contiguous block of them
    // (its OpenMP threads inside each), and rank 0 gathers them in file order and compares and
    // writes alone (docs/cluster.md).
    const bool split = process_count() > 1;
    const std::vector<fs::path> files = root_first_files();
    ProgressBar bar(ctx_.err, progress_wanted(ctx_, false));
    std::vector<ComputedReport> computed;
    const std::vector<std::string> pieces =
        gather_item_blocks(static_cast<long>(files.size()), split, [&](IndexBlock mine) {
          for (long i = mine.begin; i < mine.end; ++i) {
            if (ProgressCounter* progress = bar.counter())
              progress->set_label(fmt::format("scenario {}/{} {}", i + 1, files.size(), files[i].filename().string()));
            computed.push_back(compute_report(files[i], bar.counter()));
          }
          return split ? computed_reports_text(computed) : std::string();
        });
    bar.stop();
    if (!is_root_process()) return kExitOk;
    if (split) {
      computed.clear();
      for (const std::string& piece : pieces)
        for (ComputedReport& c : computed_reports_from_text(piece)) computed.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < files.size(); ++i) results_.push_back(regress_one(files[i], std::move(computed[i])));
    note_orphan_baselines(files);
    const std::string md = markdown();
    ctx_.out << md;
    // Bad input writes nothing: neither the table nor any baseline.
    if (any(Outcome::bad_input)) return kExitBadInput;
    if (!o_.md.empty()) outputs_.stage(o_.md, md);
    outputs_.commit();
    if (o_.update) return kExitOk;
    const bool failed = any(Outcome::missing_baseline) || any(Outcome::failed_baseline) ||
                        std::any_of(results_.begin(), results_.end(),
                                    [](const ScenarioResult& r) { return r.diff && r.diff->fails(); });
    return failed ? kExitCheckFailed : kExitOk;
  }

 private:
  // *.json in the folder that are scenarios (objects with "plans"), by file name.
  std::vector<fs::path> scenario_files() {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(o_.scenarios)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      try {
        const Json doc = read_json_file(entry.path().string());
        if (doc.is_object() && doc.contains("plans")) out.push_back(entry.path());
        else ctx_.out << "note: " << escaped_text(entry.path().string()) << " is not a scenario (no \"plans\"): not run\n";
      } catch (const InputError& e) {
        out.push_back(entry.path());  // regress_one reports the parse error
      }
    }
    std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    return out;
  }

  fs::path baseline_path(const std::string& name) const { return fs::path(o_.baselines) / (name + ".json"); }

  // rank 0's scenario files, on every rank.
  std::vector<fs::path> root_first_files() {
    const std::string text = root_computes(
        [&] {
          Json names = Json::array();
          for (const fs::path& f : scenario_files()) names.push_back(f.string());
          return names.dump();
        },
        process_count() > 1);
    std::vector<fs::path> files;
    for (const Json& n : parse_json_text(text, "the scenario list")) files.emplace_back(n.get<std::string>());
    return files;
  }

  // The day a scenario's figures are aged on: --today, else the day its baseline records, else
  // the system date (a new baseline, or one written before reports recorded the day).
  std::string today_of(const std::string& name) const {
    if (!o_.today.today.empty()) return resolved_today(o_.today.today);
    std::error_code ec;
    if (fs::is_regular_file(baseline_path(name), ec)) {
      try {
        const Json baseline = read_report_file(baseline_path(name).string());
        const Json* today = baseline.contains("pricing") ? &baseline.at("pricing") : nullptr;
        if (today && today->contains("today") && today->at("today").is_string())
          return resolved_today(today->at("today").get<std::string>());
      } catch (const InputError&) {
        // regress_one reports an unreadable baseline
      }
    }
    return resolved_today("");
  }

  // A scenario's report as `tcosim run` makes it, or why there is none.
  ComputedReport compute_report(const fs::path& file, ProgressCounter* progress) {
    ComputedReport c;
    try {
      MonteCarloOptions mc;
      mc.threads = resolved_thread_count(o_.threads);
      mc.progress = progress;
      RunMetadata meta{"regress", mc.threads};
      meta.today = today_of(file.stem().string());
      meta.max_age_days = o_.today.max_age_days;
      c.report = make_report(file.string(), o_.catalog, mc, meta);
      c.report.erase("run");  // what may differ between runs is not part of a baseline
    } catch (const InputError& e) {
      if (const auto reason = skip_reason(e, project_root_)) {
        c.outcome = Outcome::skipped;
        c.message = *reason;
      } else {
        c.outcome = Outcome::bad_input;
        c.message = e.what();
      }
    } catch (const ModelError& e) {
      c.outcome = Outcome::bad_input;
      c.message = std::string(file.string()) + ": " + e.what();
    } catch (const TargetNotReached& e) {
      c.outcome = Outcome::bad_input;
      c.message = std::string(file.string()) + ": " + e.what();
    }
    return c;
  }

  ScenarioResult regress_one(const fs::path& file, ComputedReport computed) {
    ScenarioResult r;
    r.name = file.stem().string();
    if (computed.outcome == Outcome::skipped) {
      ctx_.out << "note: skipped " << escaped_text(file.string()) << ": " << escaped_text(computed.message) << "\n";
      return {r.name, Outcome::skipped, std::nullopt, "skipped: " + computed.message};
    }
    if (computed.outcome == Outcome::bad_input) return {r.name, Outcome::bad_input, std::nullopt, computed.message};
    const Json report = std::move(computed.report);
    const fs::path baseline = baseline_path(r.name);
    std::error_code ec;
    const bool has_baseline = fs::is_regular_file(baseline, ec);
    if (!has_baseline && !o_.update)
      return {r.name, Outcome::missing_baseline, std::nullopt,
              fmt::format("no {}: run `{}` to create it", baseline.string(), update_command())};
    if (has_baseline) {
      try {
        r.diff = diff_reports(read_report_file(baseline.string()), report, tolerance_, baseline.string(), file.string());
      } catch (const InputError& e) {
        if (!o_.update)
          return {r.name, Outcome::failed_baseline, std::nullopt,
                  fmt::format("{}; run `{}` if this is on purpose", e.what(), update_command())};
      }
    }
    if (!o_.update) return r;
    const std::string text = report_text(report);
    if (!has_baseline || read_text(baseline) != text) {
      outputs_.stage_in_folder(o_.baselines, baseline.filename().string(), text);
      r.message = has_baseline ? "baseline updated" : "baseline created";
    } else {
      r.message = "baseline unchanged";
    }
    r.outcome = Outcome::updated;
    return r;
  }

  static std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  void note_orphan_baselines(const std::vector<fs::path>& files) {
    std::error_code ec;
    if (!fs::is_directory(o_.baselines, ec)) return;
    std::vector<std::string> orphans;
    for (const auto& entry : fs::directory_iterator(o_.baselines)) {
      if (entry.path().extension() != ".json") continue;
      const bool has_scenario = std::any_of(files.begin(), files.end(),
                                            [&](const fs::path& f) { return f.stem() == entry.path().stem(); });
      if (!has_scenario) orphans.push_back(entry.path().string());
    }
    std::sort(orphans.begin(), orphans.end());
    for (const std::string& o : orphans) notes_.push_back("baseline without a scenario (delete it if the scenario is gone): " + o);
  }

  std::string update_command() const {
    std::string cmd = fmt::format("tcosim regress {} --baselines {}", o_.scenarios, o_.baselines);
    if (!o_.catalog.empty()) cmd += " --catalog " + o_.catalog;
    return cmd + " --update";
  }

  bool any(Outcome outcome) const {
    return std::any_of(results_.begin(), results_.end(), [&](const ScenarioResult& r) { return r.outcome == outcome; });
  }

  std::string rows(const ScenarioResult& r) const {
    switch (r.outcome) {
      case Outcome::skipped: return diff_table_note_row(r.name, r.message);
      case Outcome::missing_baseline: return diff_table_note_row(r.name, "**missing baseline**: " + r.message);
      case Outcome::failed_baseline: return diff_table_note_row(r.name, "**baseline not comparable**: " + r.message);
      case Outcome::bad_input: return diff_table_note_row(r.name, "**bad input**: " + r.message);
      case Outcome::compared:
      case Outcome::updated: break;
    }
    std::string out;
    if (r.diff && !r.diff->no_change()) out += diff_table_rows(*r.diff, r.name);
    if (r.outcome == Outcome::updated) out += diff_table_note_row(r.name, r.message);
    else if (r.diff->no_change()) out += diff_table_note_row(r.name, "no change");
    return out;
  }

  std::string markdown() const {
    std::string md = fmt::format("## tcosim regress: {} vs {}\n\n", o_.scenarios, o_.baselines);
    if (results_.empty()) {
      md += "No scenario files.\n";
    } else {
      md += diff_table_header(true);
      for (const ScenarioResult& r : results_) md += rows(r);
    }
    md += "\n";
    for (const std::string& note : notes_) md += "- " + note + "\n";
    if (!notes_.empty()) md += "\n";
    return md + summary() + "\n";
  }

  std::string summary() const {
    int regressed = 0, moved = 0, unchanged = 0;
    for (const ScenarioResult& r : results_) {
      if (r.outcome != Outcome::compared) continue;
      if (r.diff->fails()) ++regressed;
      else if (!r.diff->no_change()) ++moved;
      else ++unchanged;
    }
    auto n = [&](Outcome o) {
      return std::count_if(results_.begin(), results_.end(), [&](const ScenarioResult& r) { return r.outcome == o; });
    };
    std::string verdict;
    if (any(Outcome::bad_input)) verdict = "BAD INPUT";
    else if (o_.update) verdict = "UPDATED";
    else if (regressed > 0 || any(Outcome::missing_baseline) || any(Outcome::failed_baseline)) verdict = "REGRESSION";
    else verdict = "OK";
    std::string line = fmt::format("**{}**: {} scenario{}", verdict, results_.size(), results_.size() == 1 ? "" : "s");
    if (o_.update) line += fmt::format(", {} baselines written", std::count_if(results_.begin(), results_.end(), [](const ScenarioResult& r) {
                                         return r.outcome == Outcome::updated && r.message != "baseline unchanged";
                                       }));
    else line += fmt::format(": {} regressed, {} moved within tolerance, {} unchanged", regressed, moved, unchanged);
    if (n(Outcome::missing_baseline)) line += fmt::format(", {} without a baseline", n(Outcome::missing_baseline));
    if (n(Outcome::failed_baseline)) line += fmt::format(", {} with an incomparable baseline", n(Outcome::failed_baseline));
    if (n(Outcome::skipped)) line += fmt::format(", {} skipped", n(Outcome::skipped));
    if (n(Outcome::bad_input)) line += fmt::format(", {} with bad input", n(Outcome::bad_input));
    line += fmt::format(". Tolerance: {}.", describe_tolerance(tolerance_));
    if (!o_.update && verdict == "REGRESSION")
      line += fmt::format("\n\nIf the change is intended, update the baselines on purpose: `{}`", update_command());
    return line;
  }

  const RegressOptions& o_;
  CommandContext& ctx_;
  DiffTolerance tolerance_;
  OutputSet outputs_;
  fs::path project_root_;
  std::vector<ScenarioResult> results_;
  std::vector<std::string> notes_;
};

}  // namespace

// Under mpirun, rank 0 checks the folders and options first (root_first).
static int run_regress(const RegressOptions& o, CommandContext& ctx) {
  return root_first([&] { return std::make_unique<Regression>(o, ctx); })->run();
}

void setup_regress(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<RegressOptions>();
  CLI::App* cmd = app.add_subcommand(
      "regress",
      "Run every scenario in a folder and diff each report against its baseline (BASELINES/<scenario file name>, "
      "a report without its \"run\" block); print one Markdown table for the whole set. Exit 1 on any regression "
      "(see `tcosim diff`) or missing baseline, 2 on bad input, else 0. A scenario whose input data outside the "
      "project (e.g. ../shared/data) is absent is skipped with a note. --update rewrites the baselines on purpose.");
  cmd->add_option("scenarios", opts->scenarios, "Folder of scenario files (*.json with \"plans\")")->required();
  cmd->add_option("--baselines", opts->baselines, "Folder of baseline reports, one per scenario")->required();
  cmd->add_flag("--update", opts->update,
                "Write each scenario's report as its new baseline (atomically), after showing what moved; exit 0");
  cmd->add_option("--catalog", opts->catalog, "Pricing catalog folder, replacing every scenario's catalog_dir");
  cmd->add_option("--md", opts->md, "Also write the Markdown table here (for a pull-request comment)");
  cmd->add_option("--today", opts->today.today,
                  "Run every scenario on this day, YYYY-MM-DD (default: the day its baseline records, so the "
                  "figures' as-of warnings do not move with the calendar; the system date for a new baseline)");
  cmd->add_option("--max-age-days", opts->today.max_age_days,
                  "Warn when a figure used is more than this many days old on that day (default 365)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--tolerance", opts->tolerance, "Relative tolerance: \"0.5%\" or \"0.005\" (default 0.5%)");
  cmd->add_option("--abs-tolerance-usd", opts->abs_tolerance_usd,
                  "Absolute tolerance for USD figures (default 1000); a move must exceed both to count")
      ->check(CLI::NonNegativeNumber);
  add_threads_option(*cmd, opts->threads);
  cmd->callback([opts, &ctx] { ctx.exit_code = run_regress(*opts, ctx); });
}

}  // namespace tco::cli
