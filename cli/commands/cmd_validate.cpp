// tcosim validate PATH... [--catalog DIR] [--today YYYY-MM-DD] [--max-age-days N] [--against OLD_DIR]
//                         [--warnings-as-errors]
// Accepts exactly what `run` accepts. A folder: its catalog files (JSON with "kind") are
// validated together as one catalog (as `run` loads a catalog folder), its scenarios (JSON with
// "plans") and grids (JSON with "fields", with the scenario of the same name) one by one, each
// with --catalog in place of its catalog_dir as `run --catalog` and `sweep --catalog` read it. A
// file: a scenario, a grid, or a catalog file, checked on its own: the file alone as a catalog,
// or with --catalog, as one more file of that catalog (only its own findings shown). The files
// beside it are not read: two importer outputs in one folder are two catalogs until a folder
// holds them both.
#include <algorithm>
#include <filesystem>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "engine/des/trace_limits.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "models/scenario.hpp"

namespace tco::cli {

namespace fs = std::filesystem;

struct ValidateOptions {
  std::vector<std::string> paths;
  std::string catalog;
  std::string today;
  int max_age_days = 365;
  std::string against;
  bool warnings_as_errors = false;
};

namespace {

enum class FileKind { catalog, scenario, grid, other, unreadable };

struct Classified {
  FileKind kind = FileKind::other;
  Finding problem;  // for unreadable files
};

Classified classify(const std::string& path) {
  try {
    const Json document = read_json_file(path);
    if (document.is_object() && document.contains("kind")) return {FileKind::catalog, {}};
    if (document.is_object() && document.contains("plans")) return {FileKind::scenario, {}};
    if (document.is_object() && document.contains("fields")) return {FileKind::grid, {}};
    return {FileKind::other, {}};
  } catch (const InputError& e) {
    return {FileKind::unreadable, {Finding::Severity::error, "invalid-file", path, e.where(), bare_error_message(e)}};
  } catch (const Json::exception& e) {
    // e.g. 1e999: nlohmann reports a number overflow as out_of_range, not as a parse error.
    return {FileKind::unreadable, {Finding::Severity::error, "invalid-file", path, "", std::string("invalid JSON: ") + e.what()}};
  }
}

// A grid NAME.grid.json is checked with the scenario NAME.json beside it, as `tcosim sweep`
// checks it before its first path: every point's scenario built and valid, the size capped.
std::vector<Finding> validate_grid_file(const std::string& path, const std::string& catalog) {
  const std::string suffix = ".grid.json";
  const bool named = path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  const std::string scenario = named ? path.substr(0, path.size() - suffix.size()) + ".json" : std::string();
  std::error_code ec;
  if (!named || !fs::is_regular_file(scenario, ec))
    return {{Finding::Severity::error, "invalid-grid", path, "",
             "a grid is validated with its scenario beside it: expected a file NAME.grid.json and NAME.json"}};
  SweepOptions options;
  options.scenario_file = scenario;
  options.grid_file = path;
  options.catalog_dir = catalog;
  try {
    check_sweep(options);
    return {};
  } catch (const InputError& e) {
    return {{Finding::Severity::error, "invalid-grid", e.file(), e.where(), e.what()}};
  } catch (const ModelError& e) {
    return {{Finding::Severity::error, "invalid-grid", path, "", e.what()}};
  }
}

void append(std::vector<Finding>& to, std::vector<Finding> from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// Every catalog file of `dir` (JSON with "kind"), in the order `run` reads them.
std::vector<std::string> catalog_files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const std::string& path : catalog_file_paths(dir))
    if (classify(path).kind == FileKind::catalog) out.push_back(path);
  return out;
}

// A folder with a catalog file in it is a catalog folder: `run` loads every JSON file in it as
// a catalog file, so every one is checked as such (a `null`, a scenario, a file without "kind"
// is an error). Any other folder is a folder of scenarios.
std::vector<Finding> validate_folder(const std::string& dir, const ValidationOptions& options,
                                     const std::string& catalog) {
  std::vector<Finding> findings;
  std::vector<std::string> paths = catalog_file_paths(dir);
  std::vector<Classified> kinds;
  for (const std::string& path : paths) kinds.push_back(classify(path));
  if (std::any_of(kinds.begin(), kinds.end(), [](const Classified& c) { return c.kind == FileKind::catalog; }))
    return validate_catalog_files(paths, options);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    switch (kinds[i].kind) {
      case FileKind::scenario: append(findings, des::validate_scenario_and_trace(paths[i], catalog)); break;
      case FileKind::grid: append(findings, validate_grid_file(paths[i], catalog)); break;
      case FileKind::unreadable: findings.push_back(std::move(kinds[i].problem)); break;
      case FileKind::other:
        findings.push_back({Finding::Severity::warning, "not-validated", paths[i], "",
                            "neither a catalog file (no \"kind\") nor a scenario (no \"plans\"): not checked"});
        break;
      case FileKind::catalog: break;
    }
  }
  return findings;
}

// A catalog file on its own, or (catalog not empty) as one more file of that catalog folder:
// duplicates against it and its gpu ids count, and only the file's own findings are shown.
std::vector<Finding> validate_catalog_file(const std::string& path, const ValidationOptions& options,
                                           const std::string& catalog) {
  std::error_code ec;
  std::vector<std::string> paths;
  if (!catalog.empty())
    for (std::string& p : catalog_files_in(catalog))
      if (!fs::equivalent(p, path, ec)) paths.push_back(std::move(p));
  paths.push_back(path);
  std::vector<Finding> own;
  for (Finding& f : validate_catalog_files(paths, options)) {
    if (fs::equivalent(f.file, path, ec)) {
      f.file = path;
      own.push_back(std::move(f));
    }
  }
  return own;
}

std::vector<Finding> validate_path(const std::string& path, const ValidationOptions& options,
                                   const std::string& catalog) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return validate_folder(path, options, catalog);
  if (!fs::is_regular_file(path, ec))
    return {{Finding::Severity::error, "invalid-file", path, "", "no such file or folder"}};
  Classified c = classify(path);
  switch (c.kind) {
    case FileKind::scenario: return des::validate_scenario_and_trace(path, catalog);
    case FileKind::grid: return validate_grid_file(path, catalog);
    case FileKind::unreadable: return {std::move(c.problem)};
    case FileKind::other:
      return {{Finding::Severity::error, "invalid-file", path, "",
               "expected a catalog file (with \"kind\"), a scenario (with \"plans\") or a grid (with \"fields\")"}};
    case FileKind::catalog: break;
  }
  return validate_catalog_file(path, options, catalog);
}

}  // namespace

static int run_validate(const ValidateOptions& o, CommandContext& ctx) {
  const ValidationOptions options{o.today, o.max_age_days, o.against};
  if (!o.against.empty() && !fs::is_directory(o.against))
    throw InputError(o.against, "", "--against expects the folder of a previous catalog, found no such folder");
  if (!o.catalog.empty() && !fs::is_directory(o.catalog))
    throw InputError(o.catalog, "", "--catalog expects a catalog folder, found no such folder");
  std::vector<Finding> findings;
  for (const std::string& path : o.paths) append(findings, validate_path(path, options, o.catalog));

  int errors = 0, warnings = 0;
  for (const Finding& f : findings) {
    (f.severity == Finding::Severity::error ? errors : warnings) += 1;
    ctx.out << format_finding(f) << "\n";
  }
  ctx.out << errors << (errors == 1 ? " error, " : " errors, ") << warnings
          << (warnings == 1 ? " warning" : " warnings") << "\n";
  if (errors > 0) return kExitBadInput;
  return o.warnings_as_errors && warnings > 0 ? kExitCheckFailed : kExitOk;
}

void setup_validate(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Check pricing catalogs and scenarios without running anything. Catalog files are parsed strictly "
      "(types, units, ranges, idle <= peak, PUE >= 1) and checked for missing source/as_of, duplicate ids, zero "
      "prices, spot above on-demand, unit slips (a monthly price typed as hourly, per-GPU vs per-instance), "
      "GPU counts of known instance types, unknown gpu ids, and dates. Prints one line per finding, "
      "\"error|warning: file: pointer: message [code]\", then a count. Exit 2 when there is an error, 1 when there "
      "are warnings and --warnings-as-errors is given, else 0.");
  cmd->add_option("paths", opts->paths,
                  "Folders or files. A folder: its JSON files with \"kind\" are one catalog, those with \"plans\" "
                  "scenarios. A file is checked on its own (a catalog file alone, or with --catalog as one more "
                  "file of that catalog): the files beside it are not read.")
      ->required();
  cmd->add_option("--catalog", opts->catalog,
                  "Pricing catalog folder: a scenario or grid is checked with it in place of its catalog_dir, as "
                  "run, optimize and sweep --catalog read it; a catalog file is checked as one more file of it "
                  "(duplicate ids and gpu ids against it)");
  cmd->add_option("--today", opts->today,
                  "Today's date, YYYY-MM-DD, for the date checks: as_of after it is an error, older than "
                  "--max-age-days a warning. Without it, dates are not checked against a clock (runs stay "
                  "reproducible).");
  cmd->add_option("--max-age-days", opts->max_age_days,
                  "With --today: warn when a record's as_of is more than this many days old (default 365)");
  cmd->add_option("--against", opts->against,
                  "Folder of the previous catalog version: warn for every id it has that the validated folders "
                  "lack (scenarios naming it would stop loading). Applies to folders, not single files.");
  cmd->add_flag("--warnings-as-errors", opts->warnings_as_errors,
                "Exit 1 when there is a warning (and no error): for a CI job that must not let a stale date or a "
                "unit slip land");
  cmd->callback([opts, &ctx] { ctx.exit_code = run_validate(*opts, ctx); });
}

}  // namespace tco::cli
