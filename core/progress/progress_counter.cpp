#include "core/progress/progress_counter.hpp"

namespace tco {

void ProgressCounter::begin_stage(std::int64_t total, const std::string& unit, std::int64_t done) {
  std::lock_guard<std::mutex> lock(mutex_);
  unit_ = unit;
  in_stage_ = true;
  stage_started_ = std::chrono::steady_clock::now();
  total_.store(total, std::memory_order_relaxed);
  done_at_start_ = done;
  done_.store(done, std::memory_order_relaxed);
}

void ProgressCounter::set_label(const std::string& label) {
  std::lock_guard<std::mutex> lock(mutex_);
  label_ = label;
  in_stage_ = false;
}

ProgressCounter::Snapshot ProgressCounter::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot s;
  s.label = label_;
  s.stage = unit_;
  s.in_stage = in_stage_;
  s.stage_started = stage_started_;
  s.done_at_start = done_at_start_;
  s.total = total_.load(std::memory_order_relaxed);
  s.done = done_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace tco
