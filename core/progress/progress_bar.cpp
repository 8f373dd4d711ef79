#include "core/progress/progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tco {

std::string progress_duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

std::string progress_line(const ProgressCounter::Snapshot& p, double stage_seconds, int columns) {
  const double fraction = p.total > 0 ? std::clamp(static_cast<double>(p.done) / static_cast<double>(p.total), 0.0, 1.0)
                                      : 0.0;
  constexpr int kBarWidth = 30;
  const int filled = static_cast<int>(fraction * kBarWidth);
  const double rate = stage_seconds > 0.0 ? static_cast<double>(p.done - p.done_at_start) / stage_seconds : 0.0;
  const double eta = rate > 0.0 ? static_cast<double>(p.total - p.done) / rate : NAN;
  std::string body = fmt::format("[{}{}] {:3.0f}%  {}/{} {}  {:.3g} {}/s  ETA {}", std::string(filled, '#'),
                                 std::string(kBarWidth - filled, '-'), 100.0 * fraction, p.done, p.total, p.stage, rate,
                                 p.stage, progress_duration_text(eta));
  if (p.label.empty()) return body.substr(0, static_cast<std::size_t>(columns));
  const int room = columns - static_cast<int>(body.size()) - 2;
  if (room < 4) return body.substr(0, static_cast<std::size_t>(columns));
  std::string label = p.label;
  if (static_cast<int>(label.size()) > room) label = label.substr(0, static_cast<std::size_t>(room - 3)) + "...";
  return label + "  " + body;
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::ostream& err, bool enabled) : err_(err) {
  if (enabled) thread_ = std::thread([this] { draw_loop(); });
}

ProgressBar::~ProgressBar() { stop(); }

void ProgressBar::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  // Erase the line: the command's own output follows on stdout or stderr.
  if (drawn_) err_ << "\r\x1b[2K" << std::flush;
}

void ProgressBar::draw_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kRedrawInterval, [this] { return stopping_; })) draw(std::chrono::steady_clock::now());
}

void ProgressBar::draw(std::chrono::steady_clock::time_point now) {
  const ProgressCounter::Snapshot s = counter_.snapshot();
  if (!s.in_stage && s.label.empty()) return;  // nothing to show yet
  if (!s.in_stage) {
    err_ << "\r\x1b[2K" << s.label.substr(0, 100) << std::flush;
    drawn_ = true;
    return;
  }
  const double seconds = std::chrono::duration<double>(now - s.stage_started).count();
  err_ << "\r\x1b[2K" << progress_line(s, seconds) << std::flush;
  drawn_ = true;
}

}  // namespace tco
