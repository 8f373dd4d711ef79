// Nothing left behind (issue 43, item 3): a SIGTERM or SIGINT removes the staged files of the
// process before it ends, and a command writing into a folder removes the staging files there of
// processes that no longer exist (a SIGKILL's), keeping those of running ones.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/io/output_set.hpp"
#include "core/io/staging_files.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace tco {

namespace {

void touch(const fs::path& path) { std::ofstream(path) << "partial"; }

// A PID that no process has: a child that has ended and been waited for.
pid_t ended_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

}  // namespace

TEST_CASE("staging files: the name is .NAME.tcosim-PID-N.tmp") {
  CHECK(staging_file_name("report.json", 4242, 3) == ".report.json.tcosim-4242-3.tmp");
}

TEST_CASE("staging files: a dead process's are removed, a live one's and other files kept") {
  const auto dir = test::scratch_dir("staging-abandoned");
  const pid_t dead = ended_pid();
  const fs::path abandoned = dir / staging_file_name("report.json", dead, 0);
  const fs::path live = dir / staging_file_name("report.json", ::getpid(), 7);
  const fs::path parent_live = dir / staging_file_name("r.html", ::getppid(), 0);
  const fs::path look_alike = dir / ".report.json.tcosim-x-0.tmp";  // no PID: not a staging file
  const fs::path report = dir / "report.json";
  for (const fs::path& p : {abandoned, live, parent_live, look_alike, report}) touch(p);

  CHECK(remove_abandoned_staging_files(dir) == 1);
  CHECK(!fs::exists(abandoned));
  CHECK(fs::exists(live));
  CHECK(fs::exists(parent_live));
  CHECK(fs::exists(look_alike));
  CHECK(fs::exists(report));

  // The next command that writes into the folder does it: run --out, before it computes.
  touch(abandoned);
  const test::CliResult r = test::run_cli({"run", test::source_path("tests/fixtures/scenarios/simple.json"), "--out",
                                           report.string(), "--quiet"});
  CHECK(r.exit_code == 0);
  CHECK(!fs::exists(abandoned));
  CHECK(fs::exists(live));
}

TEST_CASE("staging files: a SIGTERM or SIGINT removes the staged files, then ends the process by the signal") {
  for (const int signal_number : {SIGTERM, SIGINT}) {
    CAPTURE(signal_number);
    const auto dir = test::scratch_dir("staging-signal-" + std::to_string(signal_number));
    const fs::path target = dir / "report.json";
    const pid_t child = ::fork();
    if (child == 0) {
      // The child stages two outputs (written, not committed) and is stopped by the signal. The
      // signal's disposition is the default one first (not doctest's crash report).
      ::signal(signal_number, SIG_DFL);
      OutputSet outputs;
      outputs.add_file("--out", target.string());
      outputs.add_file("--html", (dir / "report.html").string());
      outputs.stage(target.string(), "{}");
      outputs.stage((dir / "report.html").string(), "<html>");
      ::kill(::getpid(), signal_number);
      ::_exit(0);  // not reached
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal_number);
    int left = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
      INFO(entry.path().string());
      ++left;
    }
    CHECK(left == 0);
  }
}

}  // namespace tco
