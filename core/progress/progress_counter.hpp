// Work done so far, counted by the engine's parallel loops and read by a display thread
// (core/progress/progress_bar.hpp). A loop adds to an atomic with relaxed order and never reads it
// back, so counting changes neither the results (nothing computed reads it) nor, measurably, the
// speed. A command runs stages one after another (say, the paths of the replay, then the draws of
// the uncertain inputs): each stage restarts the count with its own total and unit.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace tco {

class ProgressCounter {
 public:
  // What the display shows of the current stage.
  struct Snapshot {
    std::string label;  // what the command is on (set by the command: "scenario 2/9 x.json")
    std::string stage;  // what the loop counts ("paths", "points x paths")
    std::int64_t done = 0;
    std::int64_t total = 0;
    std::int64_t done_at_start = 0;  // of the stage: the rate counts what was done since
    bool in_stage = false;  // false before the first stage and after a new label
    std::chrono::steady_clock::time_point stage_started;
  };

  // A new stage of `total` units named `unit`, `done` of them already done (a resumed sweep).
  void begin_stage(std::int64_t total, const std::string& unit, std::int64_t done = 0);
  // What the command is on now; it ends the current stage (the next one begins afresh).
  void set_label(const std::string& label);
  void add(std::int64_t units = 1) noexcept { done_.fetch_add(units, std::memory_order_relaxed); }
  Snapshot snapshot() const;
  // A caller that is not the engine (the Python module's Ctrl-C) asks the loops counting here to
  // stop: they skip the paths not yet begun and throw Cancelled when the loop ends.
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }

 private:
  mutable std::mutex mutex_;  // guards everything but the two counts
  std::string label_;
  std::string unit_;
  bool in_stage_ = false;
  std::chrono::steady_clock::time_point stage_started_;
  std::int64_t done_at_start_ = 0;
  std::atomic<std::int64_t> done_{0};
  std::atomic<std::int64_t> total_{0};
  std::atomic<bool> cancelled_{false};
};

// What a cancelled loop throws; nothing it computed is reported.
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

// The engine's loops take a ProgressCounter* that may be null (no display): these say so once.
inline void progress_begin(ProgressCounter* progress, std::int64_t total, const std::string& unit,
                           std::int64_t done = 0) {
  if (progress) progress->begin_stage(total, unit, done);
}
inline bool progress_cancelled(const ProgressCounter* progress) noexcept {
  return progress && progress->cancelled();
}
inline void throw_if_cancelled(const ProgressCounter* progress) {
  if (progress_cancelled(progress)) throw Cancelled();
}
inline void progress_add(ProgressCounter* progress, std::int64_t units = 1) noexcept {
  if (progress) progress->add(units);
}

}  // namespace tco
