// The output-path rules (core/io/output_set.hpp), on the component and through the commands:
// all files of a command or none, no output that is an input or another output, never a folder
// or a device, "-" for the standard output, no stale errno in the messages.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "core/io/output_set.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using tco::InputError;
using tco::OutputSet;
using tco::test::run_cli;
using tco::test::scratch_dir;

namespace {

using tco::test::write_text;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The message of the InputError that `f` throws ("" when it throws none).
template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool is_character_device(const char* path) {
  struct stat s {};
  return ::stat(path, &s) == 0 && S_ISCHR(s.st_mode);
}

std::string fixture_scenario() { return tco::test::source_path("tests/fixtures/scenarios/simple.json"); }

}  // namespace

TEST_CASE("output set: nothing changes before commit, commit writes every file") {
  const fs::path dir = scratch_dir("output-set-commit");
  write_text(dir / "old.json", "old");
  const auto owner_read_write_group_read = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read;
  fs::permissions(dir / "old.json", owner_read_write_group_read);
  {
    OutputSet outputs;
    outputs.add_file("--out", (dir / "old.json").string());
    outputs.add_file("--md", (dir / "new.md").string());
    outputs.add_folder("--csv", (dir / "tables").string());
    outputs.stage((dir / "old.json").string(), "new");
    outputs.stage((dir / "new.md").string(), "# md");
    outputs.stage_in_folder((dir / "tables").string(), "plans.csv", "a,b\n");
    CHECK(read_text(dir / "old.json") == "old");
    CHECK_FALSE(fs::exists(dir / "new.md"));
    outputs.commit();
  }
  CHECK(read_text(dir / "old.json") == "new");
  CHECK(fs::status(dir / "old.json").permissions() == owner_read_write_group_read);  // a replaced file keeps them
  CHECK(read_text(dir / "new.md") == "# md");
  CHECK(read_text(dir / "tables" / "plans.csv") == "a,b\n");
  CHECK(names_in(dir) == std::vector<std::string>{"new.md", "old.json", "tables"});
}

TEST_CASE("output set: without commit, no new or changed file and no temporary is left") {
  const fs::path dir = scratch_dir("output-set-discard");
  write_text(dir / "old.json", "old");
  {
    OutputSet outputs;
    outputs.add_file("--out", (dir / "old.json").string());
    outputs.add_folder("--csv", (dir / "new" / "tables").string());
    outputs.stage((dir / "old.json").string(), "new");
    outputs.stage_in_folder((dir / "new" / "tables").string(), "plans.csv", "a,b\n");
    CHECK(fs::is_directory(dir / "new" / "tables"));
  }  // a failed command: the set goes out of scope without commit()
  CHECK(read_text(dir / "old.json") == "old");
  CHECK(names_in(dir) == std::vector<std::string>{"old.json"});
}

TEST_CASE("output set: an output may not be an input, however it is spelled") {
  const fs::path dir = scratch_dir("output-set-input");
  fs::create_directories(dir / "sub");
  write_text(dir / "scenario.json", "{}");
  fs::create_symlink(dir / "scenario.json", dir / "link.json");
  fs::create_hard_link(dir / "scenario.json", dir / "hard.json");
  for (const fs::path& spelling :
       {dir / "scenario.json", dir / "sub" / ".." / "scenario.json", dir / "link.json", dir / "hard.json"}) {
    CAPTURE(spelling);
    OutputSet outputs;
    outputs.add_input("the scenario", (dir / "scenario.json").string());
    const std::string message = input_error_of([&] { outputs.add_file("--out", spelling.string()); });
    CHECK(message.find("--out: is the same file as the scenario") == 0);
  }
  // Declared in the other order (inputs are often known only once the scenario is loaded).
  OutputSet outputs;
  outputs.add_file("--html", (dir / "scenario.json").string());
  const std::string message = input_error_of([&] { outputs.add_input("the scenario", (dir / "scenario.json").string()); });
  CHECK(message.find("--html: is the same file as the scenario") == 0);
  // Every file of an input folder (a catalog) is an input.
  OutputSet catalog_outputs;
  catalog_outputs.add_input_folder("a catalog file", dir.string());
  CHECK(input_error_of([&] { catalog_outputs.add_file("--md", (dir / "hard.json").string()); })
            .find("--md: is the same file as a catalog file") == 0);
}

TEST_CASE("output set: two outputs may not be the same file") {
  const fs::path dir = scratch_dir("output-set-twice");
  OutputSet outputs;
  outputs.add_file("--out", (dir / "r.json").string());
  CHECK(input_error_of([&] { outputs.add_file("--html", (dir / "." / "r.json").string()); })
            .find("--html: is the same file as --out") == 0);
  // A CSV table inside --csv that is --out.
  OutputSet tables;
  tables.add_file("--out", (dir / "plans.csv").string());
  tables.add_folder("--csv", dir.string());
  CHECK(input_error_of([&] { tables.stage_in_folder(dir.string(), "plans.csv", "x"); })
            .find("--csv: is the same file as --out") == 0);
}

TEST_CASE("output set: a folder, a FIFO or a device is never an output, and the message has no stale errno") {
  const fs::path dir = scratch_dir("output-set-kinds");
  fs::create_directories(dir / "folder");
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  const auto refused = [](const std::string& path) {
    OutputSet outputs;
    return input_error_of([&] { outputs.add_file("--out", path); });
  };
  const std::string folder = refused((dir / "folder").string());
  CHECK(folder.find("--out: ") == 0);
  CHECK(folder.find("is a folder, not a file") != std::string::npos);
  CHECK(folder.find("Success") == std::string::npos);
  CHECK(refused((dir / "fifo").string()).find("is a FIFO, not a file") != std::string::npos);
  CHECK(refused("/dev/null").find("is a device, not a file") != std::string::npos);
  CHECK(refused((dir / "missing" / "r.json").string()).find("does not exist") != std::string::npos);
  // --csv names a folder: a file there is refused.
  write_text(dir / "file.csv", "x");
  OutputSet outputs;
  CHECK(input_error_of([&] { outputs.add_folder("--csv", (dir / "file.csv").string()); })
            .find("--csv: ") == 0);
}

TEST_CASE("output set: /dev/full is never replaced, as root or not") {
  REQUIRE(is_character_device("/dev/full"));
  {
    OutputSet outputs;
    CHECK(input_error_of([&] { outputs.add_file("--out", "/dev/full"); }).find("is a device") != std::string::npos);
  }
  const tco::test::CliResult r = run_cli({"run", fixture_scenario(), "--out", "/dev/full", "--quiet"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--out: /dev/full is a device") != std::string::npos);
  CHECK(is_character_device("/dev/full"));
  if (::geteuid() == 0) MESSAGE("ran as root: /dev/full is still a character device");
}

TEST_CASE("output set: \"-\" is the standard output, for the options that allow it") {
  std::ostringstream out;
  {
    OutputSet outputs(out);
    outputs.add_file("--out", "-", true);
    CHECK(input_error_of([&] { outputs.add_file("--md", "-", true); }).find("--md: is the same file as --out") == 0);
    outputs.stage("-", "{}\n");
    CHECK(out.str().empty());
    outputs.commit();
  }
  CHECK(out.str() == "{}\n");
  OutputSet outputs(out);
  CHECK(input_error_of([&] { outputs.add_file("--html", "-"); }).find("--html: ") == 0);
}

TEST_CASE("run: a failed run leaves no new or changed file") {
  const fs::path dir = scratch_dir("output-set-run");
  write_text(dir / "taken", "not a folder");
  const tco::test::CliResult r =
      run_cli({"run", fixture_scenario(), "--out", (dir / "r.json").string(), "--csv", (dir / "taken").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--csv: ") != std::string::npos);
  CHECK(names_in(dir) == std::vector<std::string>{"taken"});
  CHECK(read_text(dir / "taken") == "not a folder");
}

TEST_CASE("run: --out may not be the scenario, nor --html the report") {
  const fs::path dir = scratch_dir("output-set-run-input");
  fs::copy_file(fixture_scenario(), dir / "s.json");
  // The copy's catalog_dir ("../catalog") does not resolve here: point --catalog at the fixture's.
  const std::string catalog = tco::test::source_path("tests/fixtures/catalog");
  const std::string before = read_text(dir / "s.json");
  tco::test::CliResult r = run_cli({"run", (dir / "s.json").string(), "--catalog", catalog, "--out", (dir / "s.json").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--out: is the same file as the scenario") != std::string::npos);
  CHECK(read_text(dir / "s.json") == before);
  r = run_cli({"run", (dir / "s.json").string(), "--catalog", catalog, "--out", (dir / "r.json").string(), "--html",
               (dir / "r.json").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--html: is the same file as --out") != std::string::npos);
  CHECK(names_in(dir) == std::vector<std::string>{"s.json"});
}

TEST_CASE("run: --out - writes the report to the standard output, the same bytes as a file") {
  const fs::path dir = scratch_dir("output-set-run-stdout");
  const tco::test::CliResult to_file = run_cli({"run", fixture_scenario(), "--out", (dir / "r.json").string(), "--quiet"});
  REQUIRE(to_file.exit_code == 0);
  const tco::test::CliResult to_stdout = run_cli({"run", fixture_scenario(), "--out", "-"});
  REQUIRE(to_stdout.exit_code == 0);
  // Only the "run" block (the command line) differs.
  tco::Json a = tco::Json::parse(read_text(dir / "r.json")), b = tco::Json::parse(to_stdout.out);
  a.erase("run");
  b.erase("run");
  CHECK(a == b);
}

TEST_CASE("merge and regress: an output that is an input is refused, and nothing is written") {
  const fs::path dir = scratch_dir("output-set-merge");
  write_text(dir / "shard.json", "{}");
  tco::test::CliResult r =
      run_cli({"merge", (dir / "shard.json").string(), "--out", (dir / "shard.json").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--out: is the same file as a shard") != std::string::npos);
  CHECK(read_text(dir / "shard.json") == "{}");
  const std::string scenarios = tco::test::source_path("scenarios");
  r = run_cli({"regress", scenarios, "--baselines", tco::test::source_path("tests/baselines"), "--md",
               tco::test::source_path("scenarios/base-load-and-burst.json")});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--md: is the same file as a scenario") != std::string::npos);
}
