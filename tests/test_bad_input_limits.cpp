// Issue 20, the input side: each class of bad input it found (deep nesting, duplicate keys,
// absurd magnitudes, catalogs that validate and run judged differently, integer overflows,
// shards with NaN, money past 9.2e18) is an exit-2 error naming the file and a pointer or line,
// never a crash, an internal error or a quiet wrong number.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/io/abridged_echo.hpp"
#include "core/io/sha256.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/sweep/sweep_size.hpp"
#include "models/site/cooling.hpp"
#include "core/io/finite_figures.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "des_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;
namespace fs = std::filesystem;

namespace {

using tco::test::write_text;

using tco::test::contains;

// A copy of the fixture catalog in `dir`/catalog, for a test to break.
fs::path copy_fixture_catalog(const fs::path& dir) {
  const fs::path catalog = dir / "catalog";
  fs::create_directories(catalog);
  for (const auto& entry : fs::directory_iterator(fixture_catalog_dir()))
    fs::copy_file(entry.path(), catalog / entry.path().filename());
  return catalog;
}

// Runs the base scenario against `catalog`; validates the catalog folder too.
struct CatalogVerdict {
  CliResult run;
  CliResult validate;
  bool report_written = false;
};

CatalogVerdict judge_catalog(const fs::path& dir, const fs::path& catalog) {
  Json doc = base_scenario_json();
  doc["catalog_dir"] = catalog.string();
  const std::string scenario = write_json_file(dir / "scenario.json", doc);
  const fs::path report = dir / "report.json";
  CatalogVerdict v;
  v.run = run_cli({"run", scenario, "--out", report.string(), "--quiet"});
  v.report_written = fs::exists(report);
  v.validate = run_cli({"validate", catalog.string()});
  return v;
}

Json read_json(const fs::path& path) { return Json::parse(read_text_file(path)); }

}  // namespace

TEST_CASE("limits: JSON nested 50,000 deep is exit 2 in every command that reads JSON, never a crash") {
  const auto dir = scratch_dir("limits-deep");
  const std::string deep = write_text(dir / "deep.json", std::string(50000, '[') + std::string(50000, ']'));
  const std::string scenario = write_json_file(dir / "scenario.json", base_scenario_json());
  const std::string out = (dir / "out.json").string();
  const std::vector<std::vector<std::string>> commands = {
      {"run", deep, "--out", out},
      {"validate", deep},
      {"report", deep, "--md", (dir / "s.md").string()},
      {"diff", deep, deep},
      {"calibrate", deep},
      {"optimize", deep, "--nodes", "0:2"},
      {"sensitivity", deep},
      {"sweep", scenario, "--grid", deep, "--paths", "1", "--backend", "cpu", "--out", out},
      {"merge", deep, "--out", out},
      {"trace", "import", "--format", "philly", deep, "-o", (dir / "t.csv").string()},
  };
  for (const auto& args : commands) {
    const CliResult r = run_cli(args);
    INFO(args[0] << " " << args[1] << ": " << r.err << r.out);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err + r.out, "deep.json"));
    CHECK(contains(r.err + r.out, "nested deeper than 64 levels"));
  }
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("limits: the JSON reader takes 64 levels, not 65, and bounds file size and strings") {
  const auto dir = scratch_dir("limits-reader");
  const std::string ok = write_text(dir / "ok.json", std::string(64, '[') + std::string(64, ']'));
  CHECK(read_json_file(ok).is_array());
  const std::string bad = write_text(dir / "bad.json", std::string(65, '[') + std::string(65, ']'));
  try {
    read_json_file(bad);
    FAIL("65 levels were accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == bad);
    std::string pointer;  // the 65th array is element 0 of the 64th
    for (int i = 0; i < 64; ++i) pointer += "/0";
    CHECK(e.where() == pointer);
  }

  JsonLimits small;
  small.max_file_bytes = 10;
  const std::string big = write_text(dir / "big.json", R"({"name": "more than ten bytes"})");
  CHECK_THROWS_WITH_AS(read_json_file(big, small), doctest::Contains("larger than 10 bytes"), InputError);

  small = JsonLimits{};
  small.max_string_bytes = 4;
  CHECK_THROWS_WITH_AS(parse_json_text(R"({"a": {"key": "12345"}})", "s.json", small),
                       doctest::Contains("s.json: /a/key: a string of 5 bytes"), InputError);
  CHECK_THROWS_WITH_AS(parse_json_text(R"({"a": {"longkey": 1}})", "s.json", small),
                       doctest::Contains("s.json: /a/longkey: a string of 7 bytes"), InputError);
  // Syntax errors keep their line and column; a number past a double too (1e999).
  CHECK_THROWS_WITH_AS(parse_json_text("{\n  \"a\": 1e999\n}", "n.json"), doctest::Contains("n.json: line 2"),
                       InputError);
}

TEST_CASE("limits: a duplicate key is an error naming its pointer and both members") {
  try {
    parse_json_text(R"({"plans": [{"name": "a", "kind": "cloud", "name": "b"}]})", "dup.json");
    FAIL("a duplicate key was accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == "dup.json");
    CHECK(e.where() == "/plans/0/name");
    CHECK(e.message() ==
          "duplicate key \"name\": /plans/0/name is member 1 of /plans/0 and again member 3 (JSON keeps only one of "
          "them; remove the other)");
  }
  // The same key in two objects is fine.
  CHECK(parse_json_text(R"([{"a": 1}, {"a": 2}])", "ok.json").size() == 2);

  const auto dir = scratch_dir("limits-dup-run");
  std::string text = base_scenario_json().dump(2);
  text.insert(text.find("\"name\""), "\"horizon_months\": 24,\n  ");
  const std::string scenario = write_text(dir / "scenario.json", text);
  const CliResult run = run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--quiet"});
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, scenario + ": /horizon_months: duplicate key"));
  CHECK(run_cli({"validate", scenario}).exit_code == 2);
}

TEST_CASE("limits: absurd magnitudes are exit 2 naming the field, in run and validate alike") {
  const auto dir = scratch_dir("limits-magnitudes");
  struct Case {
    const char* name;
    Json patch;  // merged into the base scenario
    const char* pointer;
  };
  const Case cases[] = {
      {"pue", Json::parse(R"({"onprem": {"cooling": {"id": "test-air", "pue": 1.8e19}}})"), "/onprem/cooling/pue"},
      {"staff", Json::parse(R"({"onprem": {"staff": {"fixed_fte": 1.8e19}}})"), "/onprem/staff/fixed_fte"},
      {"price", Json::parse(R"({"cloud": {"offer": {"id": "test/gpu8/region-a", "on_demand_usd_per_hour": 1.6e13}}})"),
       "/cloud/offer/on_demand_usd_per_hour"},
      {"gpus", Json::parse(R"({"workload": {"profiles": [{"type": "steady", "gpus": 1e300}]}})"),
       "/workload/profiles/0/gpus"},
  };
  for (const Case& c : cases) {
    Json doc = base_scenario_json();
    doc.merge_patch(c.patch);
    const std::string scenario = write_json_file(dir / (std::string(c.name) + ".json"), doc);
    const fs::path report = dir / (std::string(c.name) + ".report.json");
    const CliResult run = run_cli({"run", scenario, "--out", report.string(), "--quiet"});
    const CliResult validate = run_cli({"validate", scenario});
    INFO(c.name << ": " << run.err << " / " << validate.out);
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, scenario));
    CHECK(contains(run.err, c.pointer));
    CHECK(contains(run.err, "expected a number in ["));
    CHECK_FALSE(fs::exists(report));
    CHECK(validate.exit_code == 2);
    CHECK(contains(validate.out, c.pointer));
  }
}

TEST_CASE("limits: a catalog price of 1e308 is an error naming the catalog file and record pointer") {
  const auto dir = scratch_dir("limits-catalog-price");
  const fs::path catalog = copy_fixture_catalog(dir);
  Json offers = read_json(catalog / "cloud_offers.json");
  offers["records"][0]["on_demand_usd_per_hour"] = 1e308;
  write_json_file(catalog / "cloud_offers.json", offers);
  const CatalogVerdict v = judge_catalog(dir, catalog);
  INFO(v.run.err << " / " << v.validate.out);
  CHECK(v.run.exit_code == 2);
  CHECK(contains(v.run.err, (catalog / "cloud_offers.json").string() + ": /records/0/on_demand_usd_per_hour"));
  CHECK(contains(v.run.err, "expected a number in [0, 100000]"));
  CHECK_FALSE(v.report_written);
  CHECK(v.validate.exit_code == 2);
  CHECK(contains(v.validate.out, "/records/0/on_demand_usd_per_hour"));
}

TEST_CASE("limits: a catalog folder is judged as a whole, the same way by validate and run") {
  const char* broken_files[] = {"null", "42", "[]", R"({"records": []})"};
  int n = 0;
  for (const char* text : broken_files) {
    const auto dir = scratch_dir("limits-catalog-file-" + std::to_string(n++));
    const fs::path catalog = copy_fixture_catalog(dir);
    write_text(catalog / "zz_broken.json", text);
    const CatalogVerdict v = judge_catalog(dir, catalog);
    INFO(text << ": " << v.run.err << " / " << v.validate.out);
    CHECK(v.run.exit_code == 2);
    CHECK(contains(v.run.err, "zz_broken.json"));
    CHECK(v.validate.exit_code == 2);
    CHECK(contains(v.validate.out, "error: " + (catalog / "zz_broken.json").string()));
  }

  // A broken record that the scenario does not reference still stops the run.
  const auto dir = scratch_dir("limits-catalog-unreferenced");
  const fs::path catalog = copy_fixture_catalog(dir);
  Json gpus = read_json(catalog / "gpus.json");
  gpus["records"][0]["tdp_w"] = "lots";
  write_json_file(catalog / "gpus.json", gpus);
  const CatalogVerdict v = judge_catalog(dir, catalog);
  CHECK(v.run.exit_code == 2);
  CHECK(contains(v.run.err, (catalog / "gpus.json").string() + ": /records/0/tdp_w"));
  CHECK(v.validate.exit_code == 2);
}

TEST_CASE("limits: a referenced record's error names the catalog file and the scenario's pointer") {
  const auto dir = scratch_dir("limits-record-blame");
  // A record invalid on its own: the catalog's mistake, named with the scenario that uses it.
  const fs::path catalog = copy_fixture_catalog(dir);
  Json servers = read_json(catalog / "servers.json");
  REQUIRE(servers["records"][0]["id"] == "test-node-8");
  servers["records"][0]["peak_kw"] = -1;
  write_json_file(catalog / "servers.json", servers);
  Json doc = base_scenario_json();
  doc["catalog_dir"] = catalog.string();
  const std::string scenario = write_json_file(dir / "scenario.json", doc);
  const CliResult r = run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--quiet"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, (catalog / "servers.json").string() + ": /records/0/peak_kw: expected a number in (0, 1000]"));
  CHECK(contains(r.err, "(catalog record \"test-node-8\", used by " + scenario + " at "));
  CHECK(contains(r.err, "/onprem/server)"));

  // A valid record made invalid by the scenario's override (idle_kw 20 > the catalog's peak_kw
  // 10, or peak_kw 1 < its idle_kw 2): the scenario's mistake.
  doc = base_scenario_json();
  for (const Json& server : {Json{{"id", "test-node-8"}, {"idle_kw", 20}}, Json{{"id", "test-node-8"}, {"peak_kw", 1}}}) {
    doc["onprem"]["server"] = server;
    write_json_file(dir / "scenario.json", doc);
    const CliResult o = run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--quiet"});
    INFO(o.err);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, scenario + ": "));
    CHECK(contains(o.err, "/onprem/server/idle_kw: expected idle_kw <= peak_kw"));
    CHECK_FALSE(contains(o.err, "servers.json"));
  }
}

TEST_CASE("limits: the rack count cannot overflow an int") {
  // 22,000,000,000 kW / 10.2 kW is 2.2e9 nodes, above INT_MAX: capped, never "cannot go in".
  CHECK(nodes_per_rack(22e9, 10.2) == 1000000);
  CHECK(nodes_per_rack(40.0, 10.0) == 4);
  CHECK_THROWS_AS(nodes_per_rack(8.0, 10.2), ModelError);
}

TEST_CASE("limits: optimize --nodes parses whole numbers only and is bounded") {
  const IntRange r = parse_int_range("0:64:4", "--nodes");
  CHECK(r.from == 0);
  CHECK(r.to == 64);
  CHECK(r.step == 4);
  CHECK(parse_int_range("2:3", "--nodes").step == 1);
  for (const char* bad : {"0:1e9", "0:1.5", "0:", ":4", "1:2:3:4", "0:64x", "-1:4", "0:100001", "4:2", "0:4:0"})
    CHECK_THROWS_WITH_AS(parse_int_range(bad, "--nodes"), doctest::Contains("--nodes"), InputError);

  const auto dir = scratch_dir("limits-optimize");
  const std::string scenario = write_json_file(dir / "scenario.json", base_scenario_json());
  const CliResult cli = run_cli({"optimize", scenario, "--nodes", "0:1e9", "--paths", "1"});
  CHECK(cli.exit_code == 2);
  CHECK(contains(cli.err, "\"0:1e9\""));
}

TEST_CASE("limits: trace import --format openb rejects counts and times its reader would reject, by line") {
  const auto dir = scratch_dir("limits-openb");
  const std::string header = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                             "deletion_time,scheduled_time\n";
  const std::string good = "p0,1000,1024,1,1000,,LS,Running,0,3600,0\n";
  struct Case {
    const char* name;
    const char* row;
    const char* expected;
  };
  const Case cases[] = {
      {"gpus", "p1,1000,1024,1e10,1000,,LS,Running,0,3600,0\n", "line 3"},
      {"int-min", "p1,1000,1024,2147483648,1000,,LS,Running,0,3600,0\n", "line 3"},
      {"duration", "p1,1000,1024,1,1000,,LS,Running,0,1e308,0\n", "line 3"},
      {"long-run", "p1,1000,1024,1,1000,,LS,Running,0,3.7e9,0\n", "line 3"},
      // Found by the 30-minute fuzz run of session 18: a negative time wrote submit_h -270.4,
      // which `trace stats` then rejected (the trace's clock starts at 0).
      {"scheduled-before-start", "p1,1000,1024,1,1000,,LS,Running,9973579,9973962,-973579\n",
       "line 3, column 11: scheduled_time: expected seconds since the trace's start (>= 0)"},
      {"created-before-start", "p1,1000,1024,1,1000,,LS,Running,-5,3600,0\n", "creation_time: expected seconds"},
  };
  for (const Case& c : cases) {
    const std::string in = write_text(dir / (std::string(c.name) + ".csv"), header + good + c.row);
    const fs::path out = dir / (std::string(c.name) + ".out.csv");
    const CliResult r = run_cli({"trace", "import", "--format", "openb", in, "-o", out.string()});
    INFO(c.name << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, in));
    CHECK(contains(r.err, c.expected));
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("limits: merge rejects null, [] and shards with NaN strings or nulls, naming file and pointer") {
  const auto dir = scratch_dir("limits-merge");
  const std::string out = (dir / "merged.json").string();
  for (const char* text : {"null", "[]", "7"}) {
    const std::string file = write_text(dir / "shard.json", text);
    const CliResult r = run_cli({"merge", file, "--out", out});
    INFO(text << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, file + ": expected a sweep shard"));
  }

  // Two real shards of a two-point sweep, then a figure of the first replaced.
  const std::string scenario = write_json_file(dir / "scenario.json", base_scenario_json());
  const std::string grid = write_json_file(
      dir / "grid.json", Json::parse(R"({"fields": [{"pointer": "/plans/1/onprem_nodes", "values": [1, 2]}]})"));
  std::vector<std::string> shards;
  for (const char* k : {"1/2", "2/2"}) {
    shards.push_back((dir / ("shard" + std::string(1, k[0]) + ".json")).string());
    const CliResult made = run_cli({"sweep", scenario, "--grid", grid, "--paths", "1", "--backend", "cpu", "--shard", k,
                                    "--out", shards.back(), "--quiet"});
    REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  }
  CHECK(run_cli({"merge", shards[0], shards[1], "--out", out, "--quiet"}).exit_code == 0);
  for (const Json& bad : {Json("NaN"), Json(nullptr), Json("1e999")}) {
    Json doc = read_json(shards[0]);
    doc["points"][0]["plans"][0]["npv_usd"]["mean"] = bad;
    const std::string file = write_json_file(dir / "bad-shard.json", doc);
    fs::remove(out);
    const CliResult r = run_cli({"merge", file, shards[1], "--out", out});
    INFO(bad.dump() << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, file + ": /points/0/plans/0/npv_usd/mean: expected a finite number"));
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("limits: sweep validates every grid point before running and leaves no OUT.parts on error") {
  const auto dir = scratch_dir("limits-sweep-points");
  const std::string scenario = write_json_file(dir / "scenario.json", base_scenario_json());
  // The last point's discount rate (5) is out of range; the first four are fine.
  const std::string grid = write_json_file(
      dir / "grid.json", Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "values": [0, 0.1, 0.2, 0.3, 5]}]})"));
  const std::string out = (dir / "sweep.json").string();
  const CliResult r = run_cli({"sweep", scenario, "--grid", grid, "--paths", "1", "--backend", "cpu", "--block-points",
                               "1", "--out", out, "--quiet"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "grid point 4"));
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(out + ".parts"));

  // validate checks a grid NAME.grid.json with NAME.json, as sweep does.
  fs::copy_file(scenario, dir / "s.json");
  fs::copy_file(grid, dir / "s.grid.json");
  const CliResult v = run_cli({"validate", (dir / "s.grid.json").string()});
  CHECK(v.exit_code == 2);
  CHECK(contains(v.out, "grid point 4"));
  write_json_file(dir / "s.grid.json",
                  Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "values": [0, 0.1]}]})"));
  CHECK(run_cli({"validate", (dir / "s.grid.json").string()}).exit_code == 0);
  CHECK(run_cli({"validate", grid}).exit_code == 2);  // grid.json: no scenario of the same name
}

TEST_CASE("limits: a sweep past its size caps is refused before any point is prepared, with the estimate") {
  const auto dir = scratch_dir("limits-sweep-size");
  const std::string scenario = write_json_file(dir / "scenario.json", base_scenario_json());
  const std::string grid = write_json_file(
      dir / "grid.json",
      Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "range": {"from": 0, "to": 0.2, "step": 1e-4}},
                                 {"pointer": "/horizon_months", "range": {"from": 1, "to": 600, "step": 1}}]})"));
  const std::string out = (dir / "sweep.json").string();
  const CliResult r =
      run_cli({"sweep", scenario, "--grid", grid, "--paths", "1", "--backend", "cpu", "--out", out, "--quiet"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, grid + ": /fields: the grid has more than 1000000 points (1200600 with the fields up to /fields/1)"));
  CHECK_FALSE(fs::exists(out + ".parts"));

  // The memory estimate: 5,000 points of 1.25 MB at 1 path, 3 plans, in default blocks.
  const long block = default_block_points(26280.0, 1.25e6);
  CHECK(block == 858);  // 2 GiB / (2 x 1.25 MB) = 858.99
  const SweepSize s = estimate_sweep_size(5000, 1, 3, 26280, block, 1.25e6);
  CHECK(s.path_hours == doctest::Approx(5000.0 * 26280.0).epsilon(1e-12));
  // 858 x 2 x 1.25e6 + 858 x 1 x 3 x 16 + 5000 x 3 x 1024 = 2,145,000,000 + 41,184 + 15,360,000
  CHECK(s.memory_bytes == doctest::Approx(2160401184.0).epsilon(1e-12));
  CHECK_NOTHROW(check_sweep_size(s, "g.json"));
  const SweepSize huge = estimate_sweep_size(5000, 1, 3, 26280, 5000, 1.25e6);  // 12.5 GB + ...
  CHECK_NOTHROW(check_sweep_size(huge, "g.json"));
  const SweepSize too_big = estimate_sweep_size(8000, 1, 3, 26280, 8000, 1.25e6);  // 20 GB
  CHECK_THROWS_WITH_AS(check_sweep_size(too_big, "g.json"), doctest::Contains("more than 17 GB of memory"), InputError);
}

TEST_CASE("limits: money formats at any size, never through a fixed-width integer") {
  CHECK(format_usd(0.0) == "$0");
  CHECK(format_usd(-0.4) == "$0");
  CHECK(format_usd(-2.5) == "-$3");  // half away from zero, as llround did
  CHECK(format_usd(1234567.5) == "$1,234,568");
  CHECK(format_usd(999999999999999.0) == "$999,999,999,999,999");
  CHECK(format_usd(1e15) == "$1.000e+15");
  CHECK(format_usd(9.3e18) == "$9.300e+18");  // printed "$0" through llround
  CHECK(format_usd(-1.7976931348623157e308) == "-$1.798e+308");
  CHECK(format_usd(std::numeric_limits<double>::infinity()) == "n/a");
  CHECK(format_usd(Json(nullptr)) == "n/a");
}

TEST_CASE("limits: a non-finite figure is exit 2 naming the input, or an internal error when nothing is to blame") {
  Json doc = {{"plans", {{{"npv_usd", 1.0}}, {{"npv_usd", std::numeric_limits<double>::infinity()}}}}};
  CHECK_THROWS_WITH_AS(require_finite_figures(doc, "s.json"), doctest::Contains("s.json: the computed figure at /plans/1/npv_usd of the output is inf"),
                       InputError);
  CHECK_THROWS_AS(require_finite_figures(doc, ""), std::logic_error);
  doc["plans"][1]["npv_usd"] = 2.0;
  CHECK_NOTHROW(require_finite_figures(doc, "s.json"));
}

namespace {

// Issue 43 item 4: a valid scenario with a long list (a price schedule of many points) is echoed
// in the report by the list's size and digest, not in full (core/io/abridged_echo.hpp).

// base_scenario_json() with a cloud on-demand schedule of `n` monthly points from 1900-01, each
// a factor of 1 (the catalog's price): {"date": "1900-01-01", "factor": 1.0}, ... (36 bytes each).
Json scenario_with_schedule(std::size_t n) {
  Json doc = base_scenario_json();
  Json points = Json::array();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string month = std::to_string(i % 12 + 1);
    points.push_back({{"date", std::to_string(1900 + i / 12) + "-" + (month.size() == 1 ? "0" : "") + month + "-01"},
                      {"factor", 1.0}});
  }
  doc["cloud"]["price_schedule"] = {{"on_demand", {{"points", points}}}};
  return doc;
}

}  // namespace

TEST_CASE("abridged echo: a list over the limit becomes its item count, byte count and SHA-256") {
  // [1,2,3] is 7 bytes; `printf '[1,2,3]' | sha256sum` gives a615eeae...54f4.
  const Json out = abridged_echo(Json::parse(R"({"a": [1, 2, 3], "b": [[1, 2], "x"]})"), 2);
  CHECK(out["a"] == Json::parse(R"({"abridged_array": {"items": 3, "bytes": 7, "digest_sha256":
        "a615eeaee21de5179de080de8c3052c8da901138406ba71c38c032845f7d54f4"}})"));
  CHECK(out["b"] == Json::parse(R"([[1, 2], "x"])"));  // at the limit: kept as written
}

TEST_CASE("large inputs: a price schedule of 20,000 points is echoed by size and digest, the report stays small") {
  const auto dir = scratch_dir("large-input-echo");
  const Json doc = scenario_with_schedule(20000);
  const Json& points = doc["cloud"]["price_schedule"]["on_demand"]["points"];
  const std::string scenario = write_text(dir / "scenario.json", doc.dump());
  const std::string report = (dir / "report.json").string();
  const CliResult run = run_cli({"run", scenario, "--out", report, "--quiet"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  // The schedule's text is 20,000 x 36 = 720,000 bytes; echoed in full by both plans, the report was
  // over 1.4 MB. Abridged, it is the size of the same scenario's report without a schedule (~34 KB).
  CHECK(std::filesystem::file_size(report) < 64 * 1024);
  const Json r = Json::parse(read_text_file(report));
  for (const Json& plan : r.at("inputs").at("plans")) {
    const Json& echoed = plan.at("cloud").at("price_schedule").at("on_demand").at("points").at("abridged_array");
    CHECK(echoed.at("items") == 20000);
    CHECK(echoed.at("bytes") == points.dump().size());
    CHECK(echoed.at("digest_sha256") == sha256_hex(points.dump()));
  }

  // 1,000 points (kMaxEchoedItems) are still echoed as written.
  const std::string short_scenario = write_text(dir / "short.json", scenario_with_schedule(kMaxEchoedItems).dump());
  const std::string short_report = (dir / "short-report.json").string();
  REQUIRE(run_cli({"run", short_scenario, "--out", short_report, "--quiet"}).exit_code == 0);
  const Json s = Json::parse(read_text_file(short_report));
  CHECK(s.at("inputs").at("plans").at(0).at("cloud").at("price_schedule").at("on_demand").at("points").size() == 1000);
}

namespace {

// des_scenario_json() reading `trace_csv` (written beside it as jobs.csv); `onprem_only`: one
// onprem plan of 2 test-node-8 (16 GPUs) instead of the cloud and hybrid plans.
struct TraceRun {
  CliResult run;
  std::string trace;
  std::string scenario;
};
TraceRun run_trace(const std::string& name, const std::string& trace_csv, bool onprem_only = false) {
  const auto dir = scratch_dir(name);
  const std::string trace = write_text(dir / "jobs.csv", trace_csv);
  Json doc = des_scenario_json({{"trace", trace}});
  if (onprem_only) {
    doc["plans"] = Json::parse(R"([{"name": "own-2", "kind": "onprem", "onprem_nodes": 2}])");
    doc["baseline"] = "own-2";
  }
  const std::string scenario = write_text(dir / "scenario.json", doc.dump());
  return {run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--paths", "1", "--quiet"}), trace, scenario};
}

std::string jobs_lines(int n, const std::string& gpus, const std::string& duration_h) {
  std::string out = "submit_h,gpus,duration_h\n";
  for (int i = 0; i < n; ++i) out += std::to_string(i) + "," + gpus + "," + duration_h + "\n";
  return out;
}

}  // namespace

// Issue 43 item 4: a trace of 50 jobs of 1e6 GPUs for 1e6 hours gave an NPV of 1.35e14 with exit 0.
TEST_CASE("trace limits: the reproducer's 1e6-hour jobs are refused at their line") {
  const TraceRun t = run_trace("trace-limits-reproducer", jobs_lines(50, "1000000", "1000000"));
  CHECK(t.run.exit_code == 2);
  CHECK(contains(t.run.err, t.trace + ": line 2, column 3: duration_h: expected hours in (0, 100000]"));
}

TEST_CASE("trace limits: GPUs busy on average over the trace's span above 10 million are no fleet") {
  // 50 jobs of 1e6 GPUs for 1,000 h submitted in hours 0..49: 5e10 GPU-hours over the span 0 to
  // 49 + 1,000 = 1,049 h, an average of 4.77e7 GPUs (> 1e7). The first job is the largest.
  const TraceRun t = run_trace("trace-limits-fleet", jobs_lines(50, "1000000", "1000"));
  CHECK(t.run.exit_code == 2);
  CHECK(contains(t.run.err, t.trace + ": line 2: the trace keeps 4.77e+07 GPUs busy on average over its 1049 hours"));
  // 9 jobs of 1e6 GPUs for 1,000 h in hours 0..8: 9e9 / 1,008 h = 8.9e6 GPUs, within the ceiling.
  CHECK(run_trace("trace-limits-fleet-ok", jobs_lines(9, "1000000", "1000")).run.err.find("no fleet") == std::string::npos);
}

TEST_CASE("trace limits: a job longer than the horizon is refused with its line, past a # start: line") {
  // 12 months x 730 h = 8,760 h; the job on line 4 (after the start line and the header, line 3
  // holds the first job) runs 9,000 h.
  const TraceRun t = run_trace("trace-limits-horizon", "# start: 2026-01-05T00:00:00+00:00 UTC\nsubmit_h,gpus,duration_h\n0,8,2\n1,8,9000\n");
  CHECK(t.run.exit_code == 2);
  CHECK(contains(t.run.err, t.trace + ": line 4: expected a job of at most the horizon's 8760 hours"));
  CHECK(run_trace("trace-limits-horizon-ok", "submit_h,gpus,duration_h\n0,8,2\n1,8,8760\n").run.exit_code == 0);
}

// Issue 43: `validate` accepts exactly what `run` accepts, the trace included (it read only the
// scenario: a trace that `run` refuses passed with 0 errors).
TEST_CASE("trace limits: validate refuses the trace run refuses, at the same file and line") {
  // The job on line 4 runs 9,000 h > 12 x 730 = 8,760 h; on line 3 of the other, -1 is no duration.
  const TraceRun t = run_trace("trace-limits-validate", "# start: 2026-01-05T00:00:00+00:00 UTC\nsubmit_h,gpus,duration_h\n0,8,2\n1,8,9000\n");
  const std::string where = t.trace + ": line 4: expected a job of at most the horizon's 8760 hours";
  CHECK(t.run.exit_code == 2);
  CHECK(contains(t.run.err, where));
  const CliResult v = run_cli({"validate", t.scenario});
  INFO(v.out);
  CHECK(v.exit_code == 2);
  CHECK(contains(v.out, "error: " + where));
  CHECK(contains(v.out, "[invalid-trace]"));
  // A folder of scenarios is checked the same way.
  CHECK(run_cli({"validate", fs::path(t.scenario).parent_path().string()}).exit_code == 2);
  const TraceRun parse = run_trace("trace-limits-validate-parse", "submit_h,gpus,duration_h\n0,8,2\n1,8,-1\n");
  CHECK(parse.run.exit_code == 2);
  const CliResult vp = run_cli({"validate", parse.scenario});
  CHECK(vp.exit_code == 2);
  CHECK(contains(parse.run.err, parse.trace + ": line 3, column 3: duration_h"));
  CHECK(contains(vp.out, "error: " + parse.trace + ": line 3, column 3: duration_h"));
  // A trace run accepts, validate accepts.
  const TraceRun good = run_trace("trace-limits-validate-ok", "submit_h,gpus,duration_h\n0,8,2\n1,8,8760\n");
  CHECK(good.run.exit_code == 0);
  const CliResult vg = run_cli({"validate", good.scenario});
  CHECK(vg.exit_code == 0);
  CHECK(contains(vg.out, "0 errors"));
}

TEST_CASE("trace limits: a job larger than every plan's fleet, where no plan rents, is refused") {
  // One onprem plan of 2 nodes x 8 GPUs = 16 GPUs: a 24-GPU job could never start; 16 fits.
  const TraceRun t = run_trace("trace-limits-gpus", "submit_h,gpus,duration_h\n0,8,2\n1,24,5\n", true);
  CHECK(t.run.exit_code == 2);
  CHECK(contains(t.run.err, t.trace + ": line 3: expected a job of at most 16 GPUs"));
  CHECK(run_trace("trace-limits-gpus-ok", "submit_h,gpus,duration_h\n0,8,2\n1,16,5\n", true).run.exit_code == 0);
  // With a plan that rents, the cloud takes it.
  CHECK(run_trace("trace-limits-gpus-cloud", "submit_h,gpus,duration_h\n0,8,2\n1,24,5\n").run.exit_code == 0);
}
