#include "core/io/staging_files.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

namespace tco {

namespace {

constexpr int kSlots = 256;
enum SlotState : int { kFree = 0, kFilling = 1, kStaged = 2 };

// Written by StagedPath, read by the handler: a slot's path is read only when its state is kStaged.
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
std::array<Slot, kSlots> g_slots;

constexpr std::array<int, 3> kSignals = {SIGTERM, SIGINT, SIGHUP};
std::array<struct sigaction, kSignals.size()> g_previous;

extern "C" void remove_staged_then_resignal(int signal_number) {
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kStaged) ::unlink(slot.path);
  // The signal's own ending (the exit status a shell reports as 128 + N), or the handler that was
  // there before.
  for (std::size_t i = 0; i < kSignals.size(); ++i)
    if (kSignals[i] == signal_number) ::sigaction(signal_number, &g_previous[i], nullptr);
  ::raise(signal_number);
}

// Installs the handler where another disposition replaced it (a test framework's, restored after
// each test), keeping that one to pass the signal on to; an ignored signal stays ignored (SIGHUP
// under nohup).
void ensure_handlers() {
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    struct sigaction current {};
    ::sigaction(kSignals[i], nullptr, &current);
    if (current.sa_handler == SIG_IGN || current.sa_handler == remove_staged_then_resignal) continue;
    g_previous[i] = current;
    struct sigaction action {};
    action.sa_handler = remove_staged_then_resignal;
    sigemptyset(&action.sa_mask);
    for (int s : kSignals) sigaddset(&action.sa_mask, s);  // one handler at a time
    action.sa_flags = SA_RESTART;
    ::sigaction(kSignals[i], &action, nullptr);
  }
}

}  // namespace

StagedPath::StagedPath(const std::string& path) {
  ensure_handlers();
  if (path.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kStaged, std::memory_order_release);
    slot_ = i;
    return;
  }
}

StagedPath::~StagedPath() {
  if (slot_ >= 0) g_slots[slot_].state.store(kFree, std::memory_order_release);
}

std::string staging_file_name(const std::string& target_name, long pid, long n) {
  return fmt::format(".{}.tcosim-{}-{}.tmp", target_name, pid, n);
}

namespace {

// The PID of a staging file's name ".NAME.tcosim-PID-N.tmp", or 0 when the name is not one.
long staging_pid(std::string_view name) {
  constexpr std::string_view suffix = ".tmp", marker = ".tcosim-";
  if (name.size() < 2 || name.front() != '.' || name.size() < suffix.size() ||
      name.substr(name.size() - suffix.size()) != suffix)
    return 0;
  name.remove_suffix(suffix.size());
  const std::size_t at = name.rfind(marker);
  if (at == std::string_view::npos || at == 0) return 0;
  const std::string_view numbers = name.substr(at + marker.size());  // "PID-N"
  const std::size_t dash = numbers.find('-');
  if (dash == std::string_view::npos) return 0;
  long pid = 0, n = 0;
  const auto digits = [](std::string_view text, long& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size() && out >= 0;
  };
  if (!digits(numbers.substr(0, dash), pid) || !digits(numbers.substr(dash + 1), n) || pid <= 0) return 0;
  return pid;
}

}  // namespace

int remove_abandoned_staging_files(const std::filesystem::path& folder) {
  int removed = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const long pid = staging_pid(it->path().filename().string());
    if (pid <= 0 || pid > INT_MAX) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to know
    std::error_code ignored;
    std::error_code type_error;
    if (!it->is_regular_file(type_error)) continue;
    if (std::filesystem::remove(it->path(), ignored)) ++removed;
  }
  return removed;
}

}  // namespace tco
