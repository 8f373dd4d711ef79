// The progress bar of every long command: a thread redraws one line on a terminal's stderr four
// times a second from a ProgressCounter that the engine's loops count into: done and total in the
// unit of the work, the rate and the time left. The line is erased when the bar stops, so what the
// command prints next starts on a clean line. A disabled bar (stderr is not a terminal, or
// --quiet) starts no thread and hands the engine no counter, so nothing is counted.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "core/progress/progress_counter.hpp"

namespace tco {

// One line of the bar, at most `columns` wide, e.g. with 1000 paths after 10 s:
//   "[#########---------------------]  30%  300/1000 paths  30.0 paths/s  ETA 23s"
// (300 / 10 s = 30 paths/s; 700 left / 30 per s = 23.3 s). A label goes in front.
std::string progress_line(const ProgressCounter::Snapshot& snapshot, double stage_seconds, int columns = 100);
// "42s", "3m07s", "2h05m"; "?" when not finite or negative.
std::string progress_duration_text(double seconds);

class ProgressBar {
 public:
  static constexpr std::chrono::milliseconds kRedrawInterval{250};

  // Draws on `err` when `enabled`; otherwise does nothing at all.
  ProgressBar(std::ostream& err, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // What the engine counts into; null when the bar is disabled.
  ProgressCounter* counter() { return thread_.joinable() ? &counter_ : nullptr; }
  // Stops the thread and erases the line (also done by the destructor).
  void stop();

 private:
  void draw_loop();
  void draw(std::chrono::steady_clock::time_point now);

  std::ostream& err_;
  ProgressCounter counter_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

// True when standard error is a terminal: the commands show their bar only then.
bool stderr_is_terminal();

}  // namespace tco
