// Mutation test (issue 20): the shipped and fixture scenarios, catalogs, grids and hourly series,
// each changed in one random way (a key deleted, a value of the wrong type, an extreme number,
// a number x1e12, a truncated file, a duplicate key, garbage bytes), through the in-process
// command line. For every mutant:
//   - exit 0 with a report whose figures are all finite, or exit 2 with a message that names an
//     input file and a JSON pointer or a line;
//   - `validate` agrees with `run` (with `sweep` for a grid);
//   - a failed command leaves no file in its output folder.
// The seed is fixed, so a failure names a mutant that reproduces; deterministic paths only
// (--paths 1) and hourly scenarios (a mutated job rate could ask the replay for 1e10 jobs).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/io/utf8_text.hpp"
#include "mutation_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kSeed = 20;

Json read_json(const fs::path& path) { return Json::parse(read_text_file(path)); }

using tco::test::write_text;

// A scenario made movable: its catalog folder and series files as absolute paths. `shown_as`
// (when given) is the file's path the paths are written from, in place of its own.
Json movable_scenario(const fs::path& file, const std::string& catalog_dir = "", const fs::path& shown_as = {}) {
  Json doc = read_json(file);
  const fs::path dir = (shown_as.empty() ? file : shown_as).parent_path();
  doc["catalog_dir"] = catalog_dir.empty()
                           ? (dir / doc.value("catalog_dir", std::string("../pricing-data"))).lexically_normal().string()
                           : catalog_dir;
  std::vector<Json*> stack = {&doc};
  while (!stack.empty()) {
    Json* v = stack.back();
    stack.pop_back();
    if (!v->is_structured()) continue;
    for (auto it = v->begin(); it != v->end(); ++it) {
      if (v->is_object() && it.key() == "file" && it->is_string())
        *it = (dir / it->get<std::string>()).lexically_normal().string();
      stack.push_back(&*it);
    }
  }
  return doc;
}

bool all_finite(const Json& v) {
  if (v.is_number_float()) return std::isfinite(v.get<double>());
  if (v.is_structured())
    for (const auto& child : v)
      if (!all_finite(child)) return false;
  return true;
}

bool folder_empty(const fs::path& dir) { return fs::is_empty(dir); }

struct Tally {
  int mutants = 0;
  int accepted = 0;
  int rejected = 0;
};

// The assertions every mutant shares. `inputs`: the files the message may name.
void check_outcome(const CliResult& r, const std::vector<std::string>& inputs, const fs::path& out_dir,
                   const std::string& report, Tally& tally) {
  ++tally.mutants;
  INFO("stderr: " << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 2));
  if (r.exit_code == 0) {
    ++tally.accepted;
    REQUIRE(fs::exists(report));
    const Json doc = Json::parse(read_text_file(report));
    CHECK(all_finite(doc));
    return;
  }
  ++tally.rejected;
  bool names_input = false;
  for (const auto& file : inputs) names_input = names_input || r.err.find(file) != std::string::npos;
  CHECK_MESSAGE(names_input, "the message names no input file");
  const bool names_place = r.err.find(": /") != std::string::npos || r.err.find(": line ") != std::string::npos;
  CHECK_MESSAGE(names_place, "the message names no JSON pointer or line");
  CHECK_MESSAGE(folder_empty(out_dir), "a failed command left a file behind");
}

// Runs the scenario (and validates it): exit codes agree, outcome checked.
// `paths`: 1, or more for a scenario with correlated uncertain inputs (which need more paths
// than inputs).
void run_and_validate(const std::string& scenario, const std::vector<std::string>& inputs, const fs::path& out_dir,
                      Tally& tally, const std::string& paths = "1") {
  const std::string report = (out_dir / "report.json").string();
  const CliResult run = run_cli({"run", scenario, "--out", report, "--md", (out_dir / "summary.md").string(), "--paths",
                                 paths, "--quiet"});
  check_outcome(run, inputs, out_dir, report, tally);
  if (run.exit_code == 0) {
    const std::string md = read_text_file(out_dir / "summary.md");
    // As words: "maintenance per year" (a tornado row) holds "nan", "infrastructure" would hold "inf".
    CHECK_FALSE(std::regex_search(md, std::regex(R"(\b-?(inf|nan)\b)")));
  }
  const CliResult validate = run_cli({"validate", scenario});
  INFO("validate: " << validate.out);
  CHECK_MESSAGE((validate.exit_code == 0) == (run.exit_code == 0), "validate and run disagree");
}

struct Case {
  fs::path in;   // the mutated inputs
  fs::path out;  // outputs only
};

Case fresh_case(const fs::path& root, int n) {
  Case c{root / ("m" + std::to_string(n)) / "in", root / ("m" + std::to_string(n)) / "out"};
  fs::create_directories(c.in);
  fs::create_directories(c.out);
  return c;
}

std::string describe(const std::string& source, const std::string& what) { return source + ": " + what; }

// One mutant of a scenario file, drawn always (so the mutants after it stay the same) and run and
// validated when `run` is true (under the sanitizers every other one).
void check_scenario_mutant(Mutator& m, const fs::path& root, int& n, const std::string& source, bool run,
                           Tally& tally, const std::string& paths = "1") {
  const Case c = fresh_case(root, n++);
  std::string what;
  const std::string text = m.mutate_json(movable_scenario(source_path(source)), what);
  if (!run) return;
  const std::string scenario = (c.in / "scenario.json").string();
  write_text(scenario, text);
  INFO(describe(source, what));
  run_and_validate(scenario, {scenario}, c.out, tally, paths);
}

// The scenarios both scenario campaigns mutate: the hourly shipped ones and the fixtures.
const std::vector<std::string> kMutatedScenarios = {
    "scenarios/base-load-and-burst.json",        "scenarios/air-vs-liquid-40kw.json",
    "scenarios/electricity-100-nodes.json",      "scenarios/base-load-and-burst-uncertain.json",
    "tests/fixtures/scenarios/simple.json",      "tests/fixtures/scenarios/cloud_venues.json",
    "tests/fixtures/scenarios/lease.json",       "tests/fixtures/scenarios/loan.json",
    "tests/fixtures/scenarios/payback.json",     "tests/fixtures/scenarios/power_tariffs.json",
    "tests/fixtures/scenarios/purchase_month3.json", "tests/fixtures/scenarios/reference_energy.json",
    "tests/fixtures/scenarios/reference_spot.json",  "tests/fixtures/scenarios/unserved.json",
    "tests/fixtures/scenarios/hourly_series.json", "tests/fixtures/scenarios/savings_plan_venues.json",
    "tests/fixtures/scenarios/savings_plan_two_venues.json", "tests/fixtures/scenarios/tokens.json"};

// The token fixtures beside them in both campaigns (issue 46): the API plan, an hourly token
// series, and an API whose rate-limited tokens burst to venues. In the schema campaign since the schema requires an inline serving profile's fields
// (schema/sync_schema_limits.py reads them from parse_serving_profile).
const std::vector<std::string> kMutatedTokenScenarios = {"tests/fixtures/scenarios/api.json",
                                                         "tests/fixtures/scenarios/tokens_series.json",
                                                         "tests/fixtures/scenarios/api_venues.json"};

// The inputs added since (issue 43): price indices (points, and one following another at a
// basis) with a reserved term priced by reserved_usd_per_hour_by_term_months, shipped (the Lambda
// offer of pricing-data/) and written inline in an override, and the request replay's venue terms
// (workload.requests.venues, with a plan's venue to take the requests).
const std::vector<std::string> kMutatedNewKindScenarios = {"scenarios/h100-indices-and-terms.json",
                                                           "tests/fixtures/scenarios/indices_terms.json",
                                                           "tests/fixtures/scenarios/latency/request_venues.json"};

}  // namespace

TEST_CASE("mutation: 500+ mutants of shipped scenarios, catalogs, grids and series, exit 0 or a named exit 2") {
  const fs::path root = scratch_dir("mutation");
  Mutator m(kSeed);
  Tally tally;
  int n = 0;
  // Under the sanitizers every other mutant runs (all are drawn, so the others are the Release
  // pass's): the 540 took about 69 s of that pass's ctest on an idle machine.
  const int stride = kUnderSanitizers ? 2 : 1;

  // Scenarios: the hourly shipped ones and the fixtures, against their pristine catalogs; then 40
  // of the token fixtures.
  std::vector<std::string> scenarios = kMutatedScenarios;
  for (int i = 0; i < 340; ++i) {
    if (i == 300) scenarios = kMutatedTokenScenarios;
    const std::string source = scenarios[static_cast<std::size_t>(i) % scenarios.size()];
    check_scenario_mutant(m, root, n, source, i % stride == 0, tally,
                          source.find("uncertain") != std::string::npos ? "12" : "1");
  }

  // Catalog files: one file of a copied catalog mutated; a scenario that uses the catalog.
  const std::vector<std::pair<std::string, std::string>> catalogs = {
      {"tests/fixtures/catalog", "tests/fixtures/scenarios/simple.json"},
      {"pricing-data", "scenarios/base-load-and-burst.json"}};
  for (int i = 0; i < 120; ++i) {
    const auto& [catalog_source, scenario_source] = catalogs[static_cast<std::size_t>(i) % catalogs.size()];
    const Case c = fresh_case(root, n++);
    const fs::path catalog = c.in / "catalog";
    fs::create_directories(catalog);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(source_path(catalog_source)))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) fs::copy_file(f, catalog / f.filename());
    const fs::path victim = catalog / files[m.below(files.size())].filename();
    std::string what;
    write_text(victim, m.mutate_json(read_json(victim), what));
    if (i % stride != 0) continue;
    const std::string scenario = (c.in / "scenario.json").string();
    write_text(scenario, movable_scenario(source_path(scenario_source), catalog.string()).dump(2));
    INFO(describe(victim.filename().string(), what));
    run_and_validate(scenario, {scenario, victim.string()}, c.out, tally);
  }

  // Hourly series: the fixture price series mutated under hourly_series.json.
  for (int i = 0; i < 60; ++i) {
    const Case c = fresh_case(root, n++);
    const fs::path series = c.in / "prices.csv";
    std::string what;
    write_text(series, m.mutate_csv(read_text_file(source_path("tests/fixtures/series/prices_alternating_week.csv")), what));
    if (i % stride != 0) continue;
    Json doc = movable_scenario(source_path("tests/fixtures/scenarios/hourly_series.json"));
    doc["plans"][0]["onprem"]["power"]["tariff"]["file"] = series.string();
    const std::string scenario = (c.in / "scenario.json").string();
    write_text(scenario, doc.dump(2));
    INFO(describe("prices_alternating_week.csv", what));
    run_and_validate(scenario, {scenario, series.string()}, c.out, tally);
  }

  // Token series: the hourly tokens.csv of tokens_series.json (workload.tokens.series) mutated.
  for (int i = 0; i < 30; ++i) {
    const Case c = fresh_case(root, n++);
    const fs::path series = c.in / "tokens.csv";
    std::string what;
    write_text(series, m.mutate_csv(read_text_file(source_path("tests/fixtures/series/tokens_hourly.csv")), what));
    Json doc = movable_scenario(source_path("tests/fixtures/scenarios/tokens_series.json"));
    doc["workload"]["tokens"]["series"]["file"] = series.string();
    const std::string scenario = (c.in / "scenario.json").string();
    write_text(scenario, doc.dump(2));
    INFO(describe("tokens_hourly.csv", what));
    run_and_validate(scenario, {scenario, series.string()}, c.out, tally);
  }

  // Grids: the shipped and fixture grids mutated; sweep at one path. A mutant of more than 100
  // points is not run (it may be valid, and then slow to prepare) and not counted.
  const std::vector<std::pair<std::string, std::string>> grids = {
      {"scenarios/sweeps/hybrid-uncertain.grid.json", "scenarios/sweeps/hybrid-uncertain.json"},
      {"tests/fixtures/sweep/grid.json", "tests/fixtures/sweep/rich.json"}};
  int grid_mutants = 0;
  for (int i = 0; grid_mutants < 60 && i < 600; ++i) {
    // Named references, not a structured binding: clang 14 (the sanitizer build) cannot capture
    // one in INFO's lambda.
    const auto& grid_and_scenario = grids[static_cast<std::size_t>(i) % grids.size()];
    const auto& grid_source = grid_and_scenario.first;
    const auto& scenario_source = grid_and_scenario.second;
    std::string what;
    const std::string text = m.mutate_json(read_json(source_path(grid_source)), what);
    long points = 1;
    try {
      const Json g = Json::parse(text);
      for (const auto& f : g.at("fields")) {
        if (f.contains("values") && f.at("values").is_array()) points *= static_cast<long>(f.at("values").size());
        if (f.contains("range") && f.at("range").is_object()) {
          const Json& r = f.at("range");
          if (r.value("from", Json()).is_number() && r.value("to", Json()).is_number() && r.value("step", Json()).is_number() &&
              r["step"].get<double>() > 0) {
            // A mutant's range may run backwards or overflow to -inf (from 1e308 to -1e308): such a
            // range counts no point (it is run, and refused), and no value outside a long is cast.
            const double count = (r["to"].get<double>() - r["from"].get<double>()) / r["step"].get<double>() + 1;
            points *= count >= 1.0 ? static_cast<long>(std::min(1e9, count)) : 0;
          }
        }
      }
    } catch (const std::exception&) {
    }
    if (points > 100) continue;
    ++grid_mutants;
    if (grid_mutants % stride != 0) continue;
    const Case c = fresh_case(root, n++);
    const std::string grid = (c.in / "sweep.grid.json").string();  // validate pairs it with sweep.json
    write_text(grid, text);
    const std::string scenario = (c.in / "sweep.json").string();
    write_text(scenario, movable_scenario(source_path(scenario_source)).dump(2));
    const std::string out = (c.out / "sweep.json").string();
    INFO(describe(grid_source, what));
    const CliResult r = run_cli({"sweep", scenario, "--grid", grid, "--paths", "1", "--backend", "cpu", "--threads", "1",
                                 "--out", out, "--csv", (c.out / "sweep.csv").string(), "--quiet"});
    check_outcome(r, {grid, scenario}, c.out, out, tally);
    if (r.exit_code == 0) CHECK(read_text_file(c.out / "sweep.csv").find("nan") == std::string::npos);
    const CliResult validate = run_cli({"validate", grid});
    INFO("validate: " << validate.out);
    CHECK_MESSAGE((validate.exit_code == 0) == (r.exit_code == 0), "validate and sweep disagree");
  }

  // Then 30 of the newer inputs' scenarios (after the others, so that their mutants stay the same).
  for (int i = 0; i < 30; ++i) {
    const std::string source = kMutatedNewKindScenarios[static_cast<std::size_t>(i) % kMutatedNewKindScenarios.size()];
    check_scenario_mutant(m, root, n, source, i % stride == 0, tally);
  }

  MESSAGE("mutants: " << tally.mutants << ", accepted " << tally.accepted << ", rejected " << tally.rejected);
  CHECK(tally.mutants >= 500 / stride);
  // Most mutants are errors, but not all: a test that rejects everything would prove nothing.
  CHECK(tally.accepted >= 30 / stride);
  CHECK(tally.rejected >= 250 / stride);
  fs::remove_all(root);
}

// The schema's bounds and nulls are generated from the reader's (schema/sync_schema_limits.py reads
// models/input_limits.hpp and the parsers' calls): they cannot drift from what `validate` enforces.
TEST_CASE("schema: the scenario schema's bounds are the ones validate reads with") {
  if (std::system("/usr/bin/python3 -c 'import json' 2>/dev/null") != 0) {
    MESSAGE("skipped: no python3");
    return;
  }
  const std::string command = "/usr/bin/python3 '" + source_path("schema/sync_schema_limits.py") + "' '" +
                              source_path("") + "' --check";
  CHECK_MESSAGE(std::system(command.c_str()) == 0, "run schema/sync_schema_limits.py . --write");
}

// The schema shipped for editors and `validate` (issue 43, item 8): the scenario mutants of the
// test above (the same seed, and as many again), each judged by `tcosim validate` and by
// schema/scenario.schema.json under python3-jsonschema (tests/check_json_schema.py, a strict
// JSON reader as tcosim's). The schema never refuses what validate accepts (an editor's false
// error), and every mutant it takes that validate refuses is in a class JSON Schema cannot
// express (kInexpressible, the list of docs/scenario.md "The JSON Schema").
namespace {

struct InexpressibleClass {
  const char* what;
  const char* validate_says;  // a regular expression on validate's message
  const char* mutant_says;    // and on the mutation (empty: any)
};

// JSON Schema compares no value with another part of the document, reads no other file and does
// no arithmetic across fields. The classes of docs/scenario.md "The JSON Schema", each by the
// messages of `validate` that fall in it.
const InexpressibleClass kInexpressible[] = {
    {"a name that must match another value",
     "/baseline: expected the name of one of the plans|expected the name of one of the scenario's price_indices|"
     "expected the name of a series|names the on-demand venue whose usage it covers|expected the name of a venue of a "
     "plan|does not exist in the scenario: an uncertain input|is not a numeric field of the scenario",
     ""},
    {"what the catalog holds",
     ": unknown [a-z_]+ id |/catalog_dir: expected a folder of catalog files|at least one instance's GPUs \\(\\d+\\) of "
     "the offer|has no spot price|expected a term the offer .* has a reserved price for|the cooling's PUE depends on "
     "ambient temperature|a savings-plan rate at or below the (venue's|offer's) on-demand|kW node cannot go in a .* kW "
     "rack|expected idle_kw <= peak_kw",
     ""},
    {"what a file holds", "expected a row for every hour|not found: \"|found no file at", ""},
    {"arithmetic across fields",
     "expected a symmetric matrix|expected a basis that keeps every price in|expected a mode in \\[low, high\\]|"
     "expected low <= high|makes /\\S+ invalid: expected|expected a row of \\d+ numbers|expected a \\d+ x \\d+ "
     "matrix|expected a number <= every_days|has no interactivity \\(TPOT\\) at concurrency|_month: expected an "
     "integer in \\[0, \\d+\\]",
     ""},
    // A plan's section is a merge patch of the scenario's: null or {} in place of a catalog id
    // removes what the id brought, and whether the merged record lacks a field depends on that
    // record.
    {"a merge through an id", ": (/plans/\\d+)?/(onprem|cloud)/\\S+: expected a value, found nothing",
     "/plans/\\d+/(onprem|cloud)/"},
};

}  // namespace

TEST_CASE("mutation: the scenario schema and validate agree on the scenario mutants") {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null") != 0) {
    MESSAGE("skipped: no python3-jsonschema");
    return;
  }
  // Issue 43 asks for 0.99. Measured (session 35): 709 of 720 (0.985): 591 of the first 600, 60 of
  // the 60 token mutants (651 of 660, as in session 34) and 58 of the 60 of the newer inputs
  // (joined in session 35). The 11 left are all the schema taking what validate refuses, in
  // kInexpressible: 4 baselines naming no plan, 2 ids the catalog does not hold (an offer "x", a
  // GPU "ref-gr pu", both of the fixture catalog), 2 catalog folders that are not there (a garbled
  // path; indices_terms.json without its catalog_dir, whose default ../pricing-data is not beside
  // the mutant), 1 asymmetric rank correlation matrix, 1 series file too short once its "repeat"
  // is gone, 1 basis that takes the followed index's point (1e-320) below $0. 0.99 (at most 7 of
  // 720) would need the schema to refuse valid scenarios, so the test holds each group's count and
  // asks that every disagreement be explained: a new one fails it. Fresh samples
  // (TCO_SCHEMA_MUTANT_SEED, session 37): 16 seeds, 11,322 of 11,520 (0.983), each disagreement in
  // kInexpressible, none the schema refusing an accepted file. The mutants' paths are written
  // from a fixed-length stand-in for the checkout (kCheckout), put back after the mutation, so
  // where "garbage inserted at byte N" lands does not move with the checkout's path.
  constexpr int kMaxDisagreementsScenarios = 9;  // of the first 600
  constexpr int kMaxDisagreementsTokens = 0;     // of the 60 token mutants
  constexpr int kMaxDisagreementsNewer = 2;      // of the 60 of the newer inputs
  const std::string kCheckout = "/tcosim-checkout";
  const std::string checkout = fs::path(source_path("")).lexically_normal().string();
  const std::string checkout_dir = checkout.back() == '/' ? checkout.substr(0, checkout.size() - 1) : checkout;
  const fs::path root = scratch_dir("mutation-schema");
  // TCO_SCHEMA_MUTANT_SEED draws another 720 (a fresh sample): the group caps then do not apply,
  // every disagreement must still be in kInexpressible.
  const char* other_seed = std::getenv("TCO_SCHEMA_MUTANT_SEED");
  const bool fixed_sample = other_seed == nullptr;
  Mutator m(fixed_sample ? kSeed : std::stoull(other_seed));
  // 600 mutants of the scenarios of the campaign above, then 60 of its token fixtures
  // (workload.tokens with an inline serving profile, the api section and plan kind, an hourly
  // token series, an API bursting to venues), then 60 of its newer inputs' scenarios (price
  // indices with a basis, a reserved term structure, workload.requests.venues): each group's
  // mutants are those measured before the next joined.
  const std::vector<std::string>& scenarios = kMutatedScenarios;
  const std::vector<std::string>& token_scenarios = kMutatedTokenScenarios;
  struct Mutant {
    std::string file, what, validate_message;
    bool validate_accepts = false;
  };
  std::vector<Mutant> mutants;
  std::string list;
  for (int i = 0; i < 720; ++i) {
    const std::string source =
        i < 600   ? scenarios[static_cast<std::size_t>(i) % scenarios.size()]
        : i < 660 ? token_scenarios[static_cast<std::size_t>(i - 600) % token_scenarios.size()]
                  : kMutatedNewKindScenarios[static_cast<std::size_t>(i - 660) % kMutatedNewKindScenarios.size()];
    Mutant mu;
    mu.file = (root / ("m" + std::to_string(i) + ".json")).string();
    std::string text = m.mutate_json(movable_scenario(source_path(source), "", kCheckout + "/" + source), mu.what);
    for (std::size_t at = text.find(kCheckout); at != std::string::npos; at = text.find(kCheckout, at + checkout_dir.size()))
      text.replace(at, kCheckout.size(), checkout_dir);
    write_text(mu.file, text);
    mu.what = describe(source, mu.what);
    const CliResult v = run_cli({"validate", mu.file});
    INFO(mu.what << "\n  validate: " << v.out << v.err);
    REQUIRE((v.exit_code == 0 || v.exit_code == 2));
    mu.validate_accepts = v.exit_code == 0;
    mu.validate_message = v.out + v.err;
    list += mu.file + "\n";
    mutants.push_back(std::move(mu));
  }
  write_text(root / "list.txt", list);
  const std::string verdicts = (root / "verdicts.txt").string();
  const std::string command = "/usr/bin/python3 '" + source_path("tests/check_json_schema.py") + "' --verdicts '" +
                              source_path("schema/scenario.schema.json") + "' '" + (root / "list.txt").string() +
                              "' > '" + verdicts + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  std::map<std::string, std::string> schema_verdict;  // file -> "accept" or "reject\tWHY"
  {
    std::istringstream lines(read_text_file(verdicts));
    for (std::string line; std::getline(lines, line);) {
      const std::size_t space = line.find(' '), tab = line.find('\t');
      const std::string file = line.substr(space + 1, tab == std::string::npos ? std::string::npos : tab - space - 1);
      schema_verdict[file] = line.substr(0, space) + (tab == std::string::npos ? "" : line.substr(tab));
    }
  }
  int agree = 0, schema_too_strict = 0, unexplained = 0;
  int agree_by_group[3] = {0, 0, 0};  // the first 600, the 60 token mutants, the 60 newer
  const auto group_of = [](std::size_t i) { return i < 600 ? 0 : i < 660 ? 1 : 2; };
  std::map<std::string, int> by_class;
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const Mutant& mu = mutants[i];
    REQUIRE(schema_verdict.count(mu.file) == 1);
    const std::string& sv = schema_verdict[mu.file];
    const bool schema_accepts = sv.rfind("accept", 0) == 0;
    if (schema_accepts == mu.validate_accepts) {
      ++agree;
      ++agree_by_group[group_of(i)];
      continue;
    }
    const InexpressibleClass* known = nullptr;
    for (const InexpressibleClass& c : kInexpressible)
      if (schema_accepts && std::regex_search(mu.validate_message, std::regex(c.validate_says)) &&
          std::regex_search(mu.what, std::regex(c.mutant_says)))
        known = &c;
    schema_too_strict += schema_accepts ? 0 : 1;
    unexplained += known ? 0 : 1;
    if (known) ++by_class[known->what];
    MESSAGE((schema_accepts ? "schema accepts, validate rejects" : "schema rejects, validate accepts")
            << (known ? std::string(" (") + known->what + ")" : std::string(" (no class JSON Schema cannot express)"))
            << ": " << mu.what << (schema_accepts ? "\n  validate: " + mu.validate_message : "\n  schema: " + sv));
  }
  const double agreement = static_cast<double>(agree) / static_cast<double>(mutants.size());
  MESSAGE("schema and validate agree on " << agree << " of " << mutants.size() << " scenario mutants (" << agreement
                                          << "): " << agree_by_group[0] << " of the first 600, " << agree_by_group[1]
                                          << " of the 60 token mutants, " << agree_by_group[2]
                                          << " of the 60 of the newer inputs");
  for (const auto& entry : by_class) MESSAGE("  " << entry.second << " x " << entry.first);
  CHECK_MESSAGE(schema_too_strict == 0, "the schema refuses scenarios that validate accepts");
  CHECK_MESSAGE(unexplained == 0, "a disagreement outside the classes JSON Schema cannot express");
  REQUIRE(mutants.size() == 720);
  if (!fixed_sample) {
    fs::remove_all(root);
    return;
  }
  CHECK(600 - agree_by_group[0] <= kMaxDisagreementsScenarios);
  CHECK(60 - agree_by_group[1] <= kMaxDisagreementsTokens);
  CHECK(60 - agree_by_group[2] <= kMaxDisagreementsNewer);
  fs::remove_all(root);
}

// The own-history importers (issue 23): the fixtures of tests/fixtures/own-history mutated and
// imported. Exit 0 with an output that its reader accepts, or exit 2 naming the input and a line
// or JSON pointer, with nothing left in the output folder.
TEST_CASE("mutation: 200 mutants of the sacct, pods, Prometheus and OpenCost fixtures, exit 0 or a named exit 2") {
  const fs::path root = scratch_dir("mutation-own-history");
  Mutator m(kSeed + 23);
  Tally tally;
  struct Source {
    const char* command;
    const char* format;
    const char* fixture;
    bool json;
  };
  const std::vector<Source> sources = {{"trace", "slurm", "sacct.txt", false},
                                       {"trace", "k8s-pods", "pods.json", true},
                                       {"demand", "prometheus", "prometheus.json", true},
                                       {"demand", "opencost", "opencost.json", true}};
  for (int i = 0; i < 200; ++i) {
    const Source& s = sources[static_cast<std::size_t>(i) % sources.size()];
    const Case c = fresh_case(root, i);
    const std::string fixture = source_path(std::string("tests/fixtures/own-history/") + s.fixture);
    std::string what;
    const std::string text = s.json ? m.mutate_json(read_json(fixture), what) : m.mutate_csv(read_text_file(fixture), what);
    const std::string input = (c.in / s.fixture).string();
    write_text(input, text);
    const std::string out = (c.out / "out.csv").string();
    INFO(describe(s.fixture, what));
    const CliResult r = run_cli({s.command, "import", "--format", s.format, input, "-o", out});
    INFO("stderr: " << r.err);
    ++tally.mutants;
    REQUIRE((r.exit_code == 0 || r.exit_code == 2));
    CHECK_MESSAGE(escaped_text(r.err, LineBreaks::keep) == r.err, "a message echoes bytes that are not text");
    if (r.exit_code == 0) {
      ++tally.accepted;
      const bool trace = std::string(s.command) == "trace";
      const CliResult back = trace ? run_cli({"trace", "stats", out}) : run_cli({"demand", "stats", out});
      CHECK_MESSAGE(back.exit_code == 0, "the import wrote a file its reader rejects: " << back.err);
      CHECK(read_text_file(out).find("nan") == std::string::npos);
      continue;
    }
    ++tally.rejected;
    CHECK_MESSAGE(r.err.find(input) != std::string::npos, "the message names no input file");
    const bool names_place = r.err.find(": /") != std::string::npos || r.err.find(": line ") != std::string::npos;
    CHECK_MESSAGE(names_place, "the message names no JSON pointer or line");
    CHECK_MESSAGE(folder_empty(c.out), "a failed import left a file behind");
  }
  MESSAGE("own-history mutants: " << tally.mutants << ", accepted " << tally.accepted << ", rejected " << tally.rejected);
  CHECK(tally.accepted >= 20);
  CHECK(tally.rejected >= 50);
  fs::remove_all(root);
}

// A FOCUS billing export (issue 48, tests/fixtures/own-history/focus.csv) mutated and imported as
// demand: exit 0 with a series `demand stats` reads, or exit 2 naming the file and a line, nothing written.
TEST_CASE("mutation: 60 mutants of a FOCUS billing export, exit 0 or a named exit 2") {
  const fs::path root = scratch_dir("mutation-focus");
  Mutator m(kSeed + 48);
  Tally tally;
  const std::string fixture = source_path("tests/fixtures/own-history/focus.csv");
  for (int i = 0; i < 60; ++i) {
    const Case c = fresh_case(root, i);
    std::string what;
    const std::string input = (c.in / "focus.csv").string();
    write_text(input, m.mutate_csv(read_text_file(fixture), what));
    const std::string out = (c.out / "out.csv").string();
    INFO(describe("focus.csv", what));
    const CliResult r =
        run_cli({"demand", "import", "--format", "focus", input, "-o", out, "--gpus-per-instance", "p5.48xlarge=8"});
    INFO("stderr: " << r.err);
    ++tally.mutants;
    REQUIRE((r.exit_code == 0 || r.exit_code == 2));
    CHECK_MESSAGE(escaped_text(r.err, LineBreaks::keep) == r.err, "a message echoes bytes that are not text");
    if (r.exit_code == 0) {
      ++tally.accepted;
      const CliResult back = run_cli({"demand", "stats", out});
      CHECK_MESSAGE(back.exit_code == 0, "the import wrote a file its reader rejects: " << back.err);
      CHECK(read_text_file(out).find("nan") == std::string::npos);
      continue;
    }
    ++tally.rejected;
    CHECK_MESSAGE(r.err.find(input + ": line") != std::string::npos, "the message names no file and line");
    CHECK_MESSAGE(folder_empty(c.out), "a failed import left a file behind");
  }
  MESSAGE("FOCUS mutants: " << tally.mutants << ", accepted " << tally.accepted << ", rejected " << tally.rejected);
  CHECK(tally.accepted >= 10);
  CHECK(tally.rejected >= 10);
  fs::remove_all(root);
}

TEST_CASE("mutation: 90 mutants of a canonical trace and its # start: line, exit 0 or a named exit 2") {
  const fs::path root = scratch_dir("mutation-start-line");
  Mutator m(kSeed + 43);
  Tally tally;
  const std::string fixture = read_text_file(source_path("tests/fixtures/own-history/jobs.csv"));
  const std::string start_line = fixture.substr(0, fixture.find('\n'));
  for (int i = 0; i < 90; ++i) {
    const Case c = fresh_case(root, i);
    std::string what, text;
    if (i % 2 == 0) {
      text = m.mutate_csv(fixture, what);
    } else {
      // One byte of the start line replaced: a digit, a sign, a separator, a letter, a byte
      // that is not UTF-8, a NUL.
      static const std::string kBytes("09+-:TZ /aX\xff\xc3", 14);
      std::string line = start_line;
      const std::size_t at = m.below(line.size());
      line[at] = kBytes[m.below(kBytes.size())];
      text = line + fixture.substr(start_line.size());
      what = "start line byte " + std::to_string(at) + " replaced";
    }
    const std::string input = (c.in / "jobs.csv").string();
    write_text(input, text);
    INFO(describe("jobs.csv", what));
    const CliResult r = run_cli({"trace", "stats", input});
    INFO("stderr: " << r.err);
    ++tally.mutants;
    REQUIRE((r.exit_code == 0 || r.exit_code == 2));
    CHECK_MESSAGE(escaped_text(r.err, LineBreaks::keep) == r.err, "a message echoes bytes that are not text");
    if (r.exit_code == 0) {
      ++tally.accepted;
      continue;
    }
    ++tally.rejected;
    CHECK_MESSAGE(r.err.find(input) != std::string::npos, "the message names no input file");
    CHECK_MESSAGE(r.err.find(": line ") != std::string::npos, "the message names no line");
  }
  MESSAGE("trace mutants: " << tally.mutants << ", accepted " << tally.accepted << ", rejected " << tally.rejected);
  CHECK(tally.accepted >= 5);
  CHECK(tally.rejected >= 30);
  fs::remove_all(root);
}

// Issue 43 item 4: a canonical trace's mutants run in a scenario (engine/des/trace_limits.hpp):
// half mutated as the CSV mutants above, half with a job's duration_h or gpus set around the
// scenario's limits (a 1-month horizon of 730 h; one onprem plan of 16 GPUs for odd mutants, where
// no plan rents). Exit 0 with finite figures, or exit 2 naming the trace or the scenario and a line.
TEST_CASE("mutation: 60 mutants of a trace run against the scenario's limits, exit 0 or a named exit 2") {
  const fs::path root = scratch_dir("mutation-trace-limits");
  Mutator m(kSeed + 44);
  Tally tally;
  const std::string fixture = read_text_file(source_path("tests/fixtures/own-history/jobs.csv"));
  for (int i = 0; i < 60; ++i) {
    const Case c = fresh_case(root, i);
    std::string what, text;
    if (i % 3 == 0) {
      text = m.mutate_csv(fixture, what);
    } else {
      // Line 3 onwards hold jobs: submit_h,gpus,duration_h,...
      static const char* kDurations[] = {"730", "731", "9000", "100000", "0.5"};
      static const char* kGpus[] = {"16", "17", "1000000", "8"};
      std::vector<std::string> lines;
      for (std::size_t from = 0; from < fixture.size();) {
        const std::size_t end = std::min(fixture.find('\n', from), fixture.size());
        lines.push_back(fixture.substr(from, end - from));
        from = end + 1;
      }
      const std::size_t line = 2 + m.below(lines.size() - 2);
      const bool duration = m.below(2) == 0;
      const std::size_t first = lines[line].find(','), second = lines[line].find(',', first + 1),
                        third = lines[line].find(',', second + 1);
      const std::string value = duration ? kDurations[m.below(std::size(kDurations))] : kGpus[m.below(std::size(kGpus))];
      lines[line] = duration ? lines[line].substr(0, second + 1) + value + lines[line].substr(third)
                             : lines[line].substr(0, first + 1) + value + lines[line].substr(second);
      for (const auto& l : lines) text += l + "\n";
      what = "line " + std::to_string(line + 1) + (duration ? " duration_h = " : " gpus = ") + value;
    }
    const std::string trace = (c.in / "jobs.csv").string();
    write_text(trace, text);
    Json doc = base_scenario_json();
    doc.erase("workload");
    doc["horizon_months"] = 1;
    doc["jobs"] = {{"trace", trace}};
    if (i % 2 == 1) {
      doc["plans"] = Json::parse(R"([{"name": "own-2", "kind": "onprem", "onprem_nodes": 2}])");
      doc["baseline"] = "own-2";
    }
    const std::string scenario = (c.in / "scenario.json").string();
    write_text(scenario, doc.dump(2));
    INFO(describe("jobs.csv", what));
    const std::string report = (c.out / "report.json").string();
    const CliResult r = run_cli({"run", scenario, "--out", report, "--paths", "1", "--quiet"});
    check_outcome(r, {trace, scenario}, c.out, report, tally);
  }
  MESSAGE("trace-in-scenario mutants: " << tally.mutants << ", accepted " << tally.accepted << ", rejected "
                                        << tally.rejected);
  CHECK(tally.accepted >= 10);
  CHECK(tally.rejected >= 10);
  fs::remove_all(root);
}

// The token-serving importers (issue 46): the fixtures of tests/fixtures/serving mutated and
// imported. Exit 0 with an output its reader accepts (`validate` for the serving profiles), or
// exit 2 naming the input and a line or JSON pointer, with nothing left in the output folder.
TEST_CASE("mutation: 200 mutants of the serving importers' fixtures, exit 0 or a named exit 2") {
  const fs::path root = scratch_dir("mutation-serving");
  Mutator m(kSeed + 46);
  Tally tally;
  struct Source {
    std::vector<std::string> command;  // before the input
    const char* fixture;
    bool json;
  };
  const std::string catalog = source_path("pricing-data");
  const std::vector<Source> sources = {
      {{"throughput", "import", "--format", "inferencex", "--catalog", catalog, "--drop-unknown-gpus"},
       "inferencex_rows.json", true},
      {{"throughput", "import", "--format", "vllm-bench", "--catalog", catalog, "--gpu", "h100-sxm-80gb",
        "--gpus-per-replica", "8", "--precision", "fp8"},
       "vllm_bench.json", true},
      {{"demand", "import", "--format", "azure-llm"}, "azure_llm_trace.csv", false},
      {{"throughput", "import", "--format", "mlperf", "--catalog", catalog, "--drop-unknown-gpus", "--sequence-lengths",
        "llama2-70b=1000:250", "--sequence-lengths", "deepseek-r1=800:3600"},
       "mlperf_rows.json", true}};
  for (int i = 0; i < 200; ++i) {
    const Source& s = sources[static_cast<std::size_t>(i) % sources.size()];
    const Case c = fresh_case(root, i);
    const std::string fixture = source_path(std::string("tests/fixtures/serving/") + s.fixture);
    std::string what;
    const std::string text = s.json ? m.mutate_json(read_json(fixture), what) : m.mutate_csv(read_text_file(fixture), what);
    const std::string input = (c.in / s.fixture).string();
    write_text(input, text);
    const std::string out = (c.out / (s.json ? "out.json" : "out.csv")).string();
    INFO(describe(s.fixture, what));
    std::vector<std::string> args = s.command;
    args.insert(args.end(), {input, "-o", out});
    const CliResult r = run_cli(args);
    INFO("stderr: " << r.err);
    ++tally.mutants;
    REQUIRE((r.exit_code == 0 || r.exit_code == 2));
    CHECK_MESSAGE(escaped_text(r.err, LineBreaks::keep) == r.err, "a message echoes bytes that are not text");
    if (r.exit_code == 0) {
      ++tally.accepted;
      if (s.json) {
        const CliResult back = run_cli({"validate", out});
        CHECK_MESSAGE(back.exit_code == 0, "the import wrote profiles validate rejects: " << back.out << back.err);
      }
      CHECK(read_text_file(out).find("nan") == std::string::npos);
      continue;
    }
    ++tally.rejected;
    const bool names_input = r.err.find(input) != std::string::npos || r.err.find("no serving profile") != std::string::npos;
    CHECK_MESSAGE(names_input, "the message names no input file");
    CHECK_MESSAGE(folder_empty(c.out), "a failed import left a file behind");
  }
  MESSAGE("serving mutants: " << tally.mutants << ", accepted " << tally.accepted << ", rejected " << tally.rejected);
  CHECK(tally.accepted >= 10);
  CHECK(tally.rejected >= 20);
  fs::remove_all(root);
}
