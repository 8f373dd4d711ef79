// The progress bar (core/progress/): its line, hand-computed; the counter from many threads; the
// bar's thread drawing and erasing; and the engine's loops counting every unit of work without
// changing a single result (the same per-path NPVs with and without a counter).
#include <sstream>
#include <thread>

#include <doctest/doctest.h>

#include "core/parallel_for_index.hpp"
#include "core/progress/progress_bar.hpp"
#include "des_support.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "test_sweep_support.hpp"

namespace tco {

namespace {

ProgressCounter::Snapshot stage(std::int64_t done, std::int64_t total, const std::string& unit,
                                const std::string& label = "") {
  ProgressCounter::Snapshot s;
  s.label = label;
  s.stage = unit;
  s.done = done;
  s.total = total;
  s.in_stage = true;
  return s;
}

}  // namespace

TEST_CASE("progress: the line shows done/total in the work's unit, the rate and the time left") {
  // 300 of 1000 paths after 10 s: 30% fills 0.3 x 30 = 9 of the 30 cells; 300 / 10 s = 30
  // paths/s; 700 left / 30 per s = 23.3 s, shown as 23s.
  CHECK(progress_line(stage(300, 1000, "paths"), 10.0) ==
        "[#########---------------------]  30%  300/1000 paths  30 paths/s  ETA 23s");
  // Nothing done yet: no rate, so no time left.
  CHECK(progress_line(stage(0, 8000, "points x paths"), 0.5) ==
        "[------------------------------]   0%  0/8000 points x paths  0 points x paths/s  ETA ?");
  // A resumed stage counts its rate from what it found done: (600 - 500) / 4 s = 25 a second;
  // 400 left / 25 = 16 s.
  ProgressCounter::Snapshot resumed = stage(600, 1000, "points x paths");
  resumed.done_at_start = 500;
  CHECK(progress_line(resumed, 4.0) ==
        "[##################------------]  60%  600/1000 points x paths  25 points x paths/s  ETA 16s");
}

TEST_CASE("progress: a long label is shortened so that the line fits its columns") {
  const std::string label(200, 'x');
  const std::string line = progress_line(stage(1, 2, "paths", label), 1.0, 100);
  CHECK(line.size() == 100);
  CHECK(line.find("...  [") != std::string::npos);
  CHECK(line.substr(line.size() - 6) == "ETA 1s");  // 1 left at 1 a second
  CHECK(progress_line(stage(1, 2, "paths", "scenario 2/9 a.json"), 1.0).rfind("scenario 2/9 a.json  [", 0) == 0);
}

TEST_CASE("progress: durations read as seconds, minutes or hours") {
  CHECK(progress_duration_text(42.4) == "42s");
  CHECK(progress_duration_text(187.0) == "3m07s");   // 3 x 60 + 7
  CHECK(progress_duration_text(7500.0) == "2h05m");  // 2 x 3600 + 5 x 60
  CHECK(progress_duration_text(-1.0) == "?");
}

TEST_CASE("progress: the counter adds every index of a parallel loop, and a new label ends the stage") {
  ProgressCounter counter;
  counter.begin_stage(10000, "paths");
  parallel_for_index(10000, 4, [](long) {}, &counter);
  ProgressCounter::Snapshot s = counter.snapshot();
  CHECK(s.done == 10000);
  CHECK(s.total == 10000);
  CHECK(s.stage == "paths");
  CHECK(s.in_stage);
  counter.set_label("scenario 2/9");
  s = counter.snapshot();
  CHECK_FALSE(s.in_stage);
  CHECK(s.label == "scenario 2/9");
}

TEST_CASE("progress: an enabled bar draws from its own thread and erases its line, a disabled one does nothing") {
  std::ostringstream err;
  {
    ProgressBar bar(err, true);
    REQUIRE(bar.counter() != nullptr);
    bar.counter()->begin_stage(1000, "paths");
    bar.counter()->add(250);
    std::this_thread::sleep_for(3 * ProgressBar::kRedrawInterval);
    bar.stop();
  }
  const std::string drawn = err.str();
  CHECK(drawn.find(" 250/1000 paths ") != std::string::npos);
  CHECK(drawn.substr(drawn.size() - 5) == "\r\x1b[2K");  // the last thing it does is erase the line

  std::ostringstream quiet;
  ProgressBar off(quiet, false);
  CHECK(off.counter() == nullptr);
  std::this_thread::sleep_for(2 * ProgressBar::kRedrawInterval);
  off.stop();
  CHECK(quiet.str().empty());
}

TEST_CASE("progress: the replay counts its paths and its numbers do not change") {
  const Scenario s = load_scenario(test::source_path("tests/fixtures/des/mc_small.json"));
  MonteCarloOptions o;
  o.threads = 2;
  const MonteCarloRun plain = run_monte_carlo(s, o);
  ProgressCounter counter;
  o.progress = &counter;
  const MonteCarloRun counted = run_monte_carlo(s, o);
  CHECK(counter.snapshot().done == 8);  // the fixture's 8 paths
  CHECK(counter.snapshot().total == 8);
  CHECK(counted.npv_by_path == plain.npv_by_path);
}

TEST_CASE("progress: the fluid Monte Carlo counts its paths and its numbers do not change") {
  const Scenario s = test::load_sweep_scenario(test::random_sweep_json());
  ProgressCounter counter;
  const FluidMonteCarloRun counted = run_fluid_monte_carlo(s, 24, 7, 2, &counter);
  CHECK(counter.snapshot().done == 24);
  CHECK(counter.snapshot().total == 24);
  CHECK(counted.npv_by_path == run_fluid_monte_carlo(s, 24, 7, 2).npv_by_path);
}

}  // namespace tco
