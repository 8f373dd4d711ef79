// Bytes that are not UTF-8 (issue 43, item 2): refused with their position where they are data
// (a trace's class, a Slurm field copied into the trace, a scenario's or a catalog's strings),
// escaped as \xNN where they are only echoed (a file name, a parse error). core/io/utf8_text.hpp
// does both.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "core/io/utf8_text.hpp"
#include "import_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco {

namespace {

using tco::test::contains;

// No byte of `text` is outside UTF-8, and none is a control byte but '\n' and '\t'.
bool printable(const std::string& text) { return escaped_text(text, LineBreaks::keep) == text; }

// The verdict of schema/scenario.schema.json on a scenario file, through tests/check_json_schema.py
// (python3-jsonschema): "accept", "reject", or "" when python3-jsonschema is not there.
std::string schema_verdict(const std::filesystem::path& scenario) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null") != 0) return "";
  const std::filesystem::path list = scenario.parent_path() / "list.txt", verdicts = scenario.parent_path() / "verdicts.txt";
  test::write_text(list, scenario.string() + "\n");
  const std::string command = "/usr/bin/python3 '" + test::source_path("tests/check_json_schema.py") + "' --verdicts '" +
                              test::source_path("schema/scenario.schema.json") + "' '" + list.string() + "' > '" +
                              verdicts.string() + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string line = test::read_text_file(verdicts);
  return line.substr(0, line.find(' '));
}

}  // namespace

TEST_CASE("utf8 text: well-formed sequences pass, each other byte is found and escaped as \\xNN") {
  CHECK(first_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == std::string::npos);  // é, €, 😀
  CHECK(first_invalid_utf8("ab\xFF") == 2);
  CHECK(first_invalid_utf8("\xC0\xAF") == 0);          // an overlong '/'
  CHECK(first_invalid_utf8("x\xED\xA0\x80") == 1);     // a surrogate, U+D800
  CHECK(first_invalid_utf8("\xF4\x90\x80\x80") == 0);  // above U+10FFFF
  CHECK(first_invalid_utf8("\xE2\x82") == 0);          // cut short
  CHECK(first_invalid_utf8(std::string("a\0b", 3)) == std::string::npos);  // NUL is UTF-8...
  CHECK(first_unprintable_byte(std::string("a\0b", 3)) == 1);             // ...but a control byte
  CHECK(first_unprintable_byte("tab\there") == 3);
  CHECK(first_unprintable_byte("del\x7F") == 3);

  CHECK(escaped_text("a\xFF" "b\n") == "a\\xFFb\\x0A");
  CHECK(escaped_text("a\xFF" "b\n", LineBreaks::keep) == "a\\xFFb\n");
  CHECK(escaped_text(std::string("\0\x1B[31m", 6)) == "\\x00\\x1B[31m");  // no terminal escape gets through
  CHECK(escaped_text("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(escaped_text(escaped_text("\xFE\xFF")) == "\\xFE\\xFF");  // escaping twice changes nothing
}

TEST_CASE("utf8 text: an error message escapes the file name and the quoted value on the terminal") {
  const auto dir = test::scratch_dir("utf8-message");
  // A trace named with a Latin-1 byte whose gpus field holds a NUL and an ANSI escape.
  const std::string trace = test::write_file(dir, "tr\xE1" "ce.csv",
                                             std::string("submit_h,gpus,duration_h\n0,1\0\x1B[2J,1\n", 36));
  const test::CliResult r = test::run_cli({"trace", "stats", trace});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "tr\\xE1ce.csv: line 2, column 2: gpus: expected an integer number of GPUs, 1..1000000, "
                        "found \"1\\x00\\x1B[2J\""));
  CHECK(printable(r.err));
}

TEST_CASE("utf8 text: a trace whose class holds invalid UTF-8 is exit 2 at its line and column") {
  const auto dir = test::scratch_dir("utf8-trace");
  const std::string trace = test::write_file(dir, "t.csv",
                                             "submit_h,gpus,duration_h,class\n"
                                             "0,1,1,train\n"
                                             "1,1,1,tr\xFF\xFE" "in\n");
  const test::CliResult r = test::run_cli({"trace", "stats", trace});
  CHECK(r.exit_code == 2);
  // Line 3, field 4; the field's third byte is 0xFF, echoed escaped.
  CHECK(contains(r.err, trace + ": line 3, column 4: class: expected UTF-8 text without control characters "
                                "(byte 3 of the field is \\xFF), found \"tr\\xFF\\xFEin\""));
  CHECK(printable(r.err));
  // A control byte (an ANSI escape) in gpu_type is refused the same way.
  const std::string escape = test::write_file(dir, "e.csv", "submit_h,gpus,duration_h,gpu_type\n0,1,1,\x1B[2J\n");
  const test::CliResult e = test::run_cli({"trace", "stats", escape});
  CHECK(e.exit_code == 2);
  CHECK(contains(e.err, "line 2, column 4: gpu_type: expected UTF-8 text without control characters (byte 1 of the "
                        "field is \\x1B)"));
  CHECK(printable(e.err));
}

TEST_CASE("utf8 text: the Slurm importer refuses a class or AllocTRES that is not UTF-8, and writes nothing") {
  const auto dir = test::scratch_dir("utf8-slurm");
  const std::string header =
      "JobID|JobIDRaw|State|Submit|Start|End|Elapsed|NNodes|AllocTRES|ReqTRES|Partition|QOS|Account\n";
  const std::string row_start = "1|1|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T01:00:00|01:00:00|1|";
  test::check_rejected("trace", "slurm", "s.txt", {
      // --class partition (the default): the Partition field, column 11.
      {"class not UTF-8", header + row_start + "gres/gpu=1||gp\xC3u|normal|a\n", "line 2, column 11"},
      {"class with NUL", header + row_start + "gres/gpu=1||gpu" + std::string(1, '\0') + "|normal|a\n",
       "line 2, column 11"},
      {"GPU type not UTF-8", header + row_start + "gres/gpu:h\xFF=1||gpu|normal|a\n", "line 2, column 9"},
  }, dir);
  const test::CliResult r = test::run_cli({"trace", "import", "--format", "slurm",
                                           test::write_file(dir, "s.txt", header + row_start + "gres/gpu=1||gp\xC3u|normal|a\n"),
                                           "-o", (dir / "o.csv").string()});
  CHECK(contains(r.err, "Partition: expected UTF-8 text without control characters (byte 3 of the field is \\xC3), "
                        "found \"gp\\xC3u\""));
}

TEST_CASE("utf8 text: a scenario whose file name is not UTF-8 runs, and its name is escaped in messages") {
  const auto dir = test::scratch_dir("utf8-file-name");
  const std::filesystem::path scenario = dir / "sc\xE9nario.json";  // Latin-1 'é'
  Json doc = Json::parse(test::read_text_file(test::source_path("tests/fixtures/scenarios/simple.json")));
  doc["catalog_dir"] = test::fixture_catalog_dir();
  test::write_json_file(scenario, doc);
  for (const char* command : {"run", "optimize"}) {
    CAPTURE(command);
    const std::string out = (dir / (std::string(command) + ".json")).string();
    const test::CliResult r = test::run_cli({command, scenario.string(), "--out", out, "--quiet"});
    INFO(r.err);
    CHECK(r.exit_code != 3);
    CHECK(printable(r.out));
    CHECK(printable(r.err));
  }
  const test::CliResult run = test::run_cli({"run", scenario.string(), "--out", "-"});
  CHECK(run.exit_code == 0);
  CHECK(printable(run.out));
  CHECK(contains(run.out, "\"file\": \"" + dir.string() + "/sc\\\\xE9nario.json\""));  // JSON escapes the backslash
  // A missing file of that name: exit 2, the name escaped.
  const test::CliResult missing = test::run_cli({"validate", (dir / "n\xE9" "ant.json").string()});
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.out + missing.err, "n\\xE9ant.json"));
  CHECK(printable(missing.out + missing.err));
}

// Issue 43: regress printed a file name raw in its notes.
TEST_CASE("utf8 text: regress escapes a file name that is not UTF-8 in its notes") {
  const auto dir = test::scratch_dir("utf8-regress");
  std::filesystem::create_directories(dir / "scenarios");
  std::filesystem::create_directories(dir / "baselines");
  test::write_text(dir / "scenarios" / "n\xE9" "ant.json", R"({"x": 1})");  // no "plans": not a scenario
  const test::CliResult r = test::run_cli({"regress", (dir / "scenarios").string(), "--baselines", (dir / "baselines").string()});
  INFO(r.out << r.err);
  CHECK(printable(r.out));
  CHECK(contains(r.out, "note: " + (dir / "scenarios").string() + "/n\\xE9ant.json is not a scenario"));
}

TEST_CASE("utf8 text: a parse error does not echo the invalid bytes raw") {
  const auto dir = test::scratch_dir("utf8-parse");
  const std::string bad = test::write_file(dir, "bad.json", "{\"name\": \"a\xFF\x1B[2Jb\"}");
  const test::CliResult r = test::run_cli({"validate", bad});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.out + r.err, "line 1, column"));
  CHECK(printable(r.out + r.err));
  CHECK(!contains(r.out + r.err, "\x1B"));
}

// Issue 43, item 8: the schema's mutant m468 (scenarios/base-load-and-burst.json, garbage "\r"
// inserted at byte 688) names the cooling "rear-doo\rr". validate refused it as an unknown id and
// the schema took it. A control character in any string of a scenario is now exit 2 at its pointer
// in run and validate (a plan's name with one was written raw into the markdown and CSV cells),
// and the schema refuses it too ($defs/text, generated on every string).
TEST_CASE("utf8 text: a control character in a scenario's string is exit 2 at its pointer, and the schema refuses it") {
  const auto dir = test::scratch_dir("utf8-scenario-control");
  Json doc = Json::parse(test::read_text_file(test::source_path("scenarios/base-load-and-burst.json")));
  doc["catalog_dir"] = test::source_path("pricing-data");
  const std::filesystem::path good = dir / "good" / "scenario.json";
  std::filesystem::create_directories(good.parent_path());
  test::write_json_file(good, doc);
  CHECK(test::run_cli({"validate", good.string()}).exit_code == 0);

  doc["onprem"]["cooling"] = "rear-doo\rr";  // the mutant: "rear-door" with "\r" before its last 'r'
  const std::filesystem::path mutant = dir / "mutant" / "scenario.json";
  std::filesystem::create_directories(mutant.parent_path());
  test::write_json_file(mutant, doc);
  const std::string report = (dir / "report.json").string(), md = (dir / "summary.md").string();
  const test::CliResult run = test::run_cli({"run", mutant.string(), "--out", report, "--md", md, "--quiet"});
  INFO(run.err);
  CHECK(run.exit_code == 2);
  // "rear-doo" is 8 bytes: the CR is byte 9, shown escaped.
  CHECK(contains(run.err, mutant.string() + ": /onprem/cooling: expected text without control characters, found "
                          "\"rear-doo\\x0Dr\" (byte 9 is \\x0D)"));
  CHECK(printable(run.err));
  CHECK_FALSE(std::filesystem::exists(report));
  CHECK_FALSE(std::filesystem::exists(md));
  const test::CliResult validate = test::run_cli({"validate", mutant.string()});
  CHECK(validate.exit_code == 2);
  CHECK(contains(validate.out + validate.err, "/onprem/cooling: expected text without control characters"));

  // A plan's name: before, exit 0 with the raw bytes in summary.md and the CSV cells.
  doc["onprem"]["cooling"] = "rear-door";
  doc["plans"][4]["name"] = "buy-4\x01" "burst";  // split: "\x01b" would be one escape
  test::write_json_file(mutant, doc);
  const test::CliResult named = test::run_cli({"run", mutant.string(), "--out", report, "--md", md, "--quiet"});
  CHECK(named.exit_code == 2);
  CHECK(contains(named.err, "/plans/4/name: expected text without control characters, found \"buy-4\\x01burst\" "
                            "(byte 6 is \\x01)"));
  CHECK_FALSE(std::filesystem::exists(md));

  const std::string schema_on_good = schema_verdict(good);
  if (schema_on_good.empty()) {
    MESSAGE("schema verdicts skipped: no python3-jsonschema");
    return;
  }
  CHECK(schema_on_good == "accept");
  doc["plans"][4]["name"] = "buy-4-burst";
  doc["onprem"]["cooling"] = "rear-doo\rr";
  test::write_json_file(mutant, doc);
  CHECK(schema_verdict(mutant) == "reject");
  // A date with a final line feed: validate refused it, and the schema's date pattern took it
  // (Python's `$` matches before a final "\n"); the text rule refuses it in both.
  doc["onprem"]["cooling"] = "rear-door";
  doc["start"] = "2026-01-05\n";
  test::write_json_file(mutant, doc);
  CHECK(test::run_cli({"validate", mutant.string()}).exit_code == 2);
  CHECK(schema_verdict(mutant) == "reject");
}

TEST_CASE("utf8 text: a catalog record whose id holds a control character is exit 2 at its pointer") {
  const auto dir = test::scratch_dir("utf8-catalog-control");
  const std::filesystem::path catalog = dir / "catalog";
  std::filesystem::copy(test::fixture_catalog_dir(), catalog, std::filesystem::copy_options::recursive);
  Json cooling = Json::parse(test::read_text_file(catalog / "cooling.json"));
  const std::string id = cooling["records"][0]["id"].get<std::string>();
  cooling["records"][0]["id"] = id + "\t";
  test::write_json_file(catalog / "cooling.json", cooling);
  const test::CliResult r = test::run_cli({"validate", catalog.string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.out + r.err, (catalog / "cooling.json").string() + ": /records/0/id: expected text without control "
                                "characters, found \"" + id + "\\x09\" (byte " + std::to_string(id.size() + 1) +
                                " is \\x09)"));
  CHECK(printable(r.out + r.err));
}

}  // namespace tco
