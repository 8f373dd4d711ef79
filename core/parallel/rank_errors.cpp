#include "core/parallel/rank_errors.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parallel/index_shards.hpp"
#include "core/parallel/process_group.hpp"

namespace tco {

namespace {

bool error_shared = false;  // set once, by the thread that raises the shared error

}  // namespace

bool error_known_to_every_rank() { return error_shared; }
void mark_error_known_to_every_rank() { error_shared = true; }

int exit_code_of_current_error() {
  try {
    throw;
  } catch (const PeerFailed& e) {
    return e.exit_code();
  } catch (const InputError&) {
    return kExitBadInput;
  } catch (const ModelError&) {
    return kExitBadInput;
  } catch (...) {
    return kExitInternal;
  }
}

std::string root_computes(const std::function<std::string()>& work, bool split) {
  // A shard computes the root's inputs-only step itself; a merge is the root.
  if (!split || process_count() == 1 || shard_role() != ShardRole::none) return work();
  std::string bytes;
  if (is_root_process()) {
    try {
      bytes = work();
    } catch (...) {
      broadcast_int(exit_code_of_current_error());
      mark_error_known_to_every_rank();
      throw;
    }
  }
  broadcast_root_status(kExitOk);
  broadcast_bytes(bytes);
  return bytes;
}

void root_does(const std::function<void()>& step, bool split) {
  root_computes(
      [&] {
        step();
        return std::string();
      },
      split);
}

void broadcast_root_status(int exit_code) {
  if (shard_role() != ShardRole::none) return;  // one process: its own error is already raised
  const int code = broadcast_int(is_root_process() ? exit_code : kExitOk);
  if (!is_root_process() && code != kExitOk) {
    mark_error_known_to_every_rank();
    throw PeerFailed(code);
  }
}

namespace {

// A failed rank's error as text: "CODE KIND\n", then for an InputError its file, pointer and
// message, each as "LENGTH\nTEXT", else what().
std::string error_text() {
  const int code = exit_code_of_current_error();
  try {
    throw;
  } catch (const InputError& e) {
    return fmt::format("{} input\n{}\n{}{}\n{}{}\n{}", code, e.file().size(), e.file(), e.where().size(),
                       e.where(), e.message().size(), e.message());
  } catch (const std::exception& e) {
    return fmt::format("{} other\n{}", code, e.what());
  } catch (...) {
    return fmt::format("{} other\nunknown error", code);
  }
}

// Raises the error of error_text() as the original's type: the same message, the same exit code.
[[noreturn]] void raise_error_text(const std::string& text) {
  std::size_t at = text.find('\n');
  const std::string head = text.substr(0, at);
  const int code = std::stoi(head);
  ++at;
  if (head.ends_with(" input")) {
    const auto field = [&] {
      const std::size_t line = text.find('\n', at);
      const std::size_t size = std::stoul(text.substr(at, line - at));
      std::string value = text.substr(line + 1, size);
      at = line + 1 + size;
      return value;
    };
    std::string file = field();
    std::string where = field();
    std::string message = field();
    throw InputError(file, where, message);
  }
  const std::string what = text.substr(at);
  if (code == kExitBadInput) throw ModelError(what);
  throw std::runtime_error(what);
}

// A test hook: with TCO_TEST_FAIL_RANK_IN_GATHER=R in the environment, rank R's work fails with
// an InputError, as a grid point or a path found invalid on that rank would (tests/check_mpi.py).
void fail_if_test_asks() {
  const char* v = std::getenv("TCO_TEST_FAIL_RANK_IN_GATHER");
  if (v != nullptr && std::to_string(process_rank()) == v)
    throw InputError("TCO_TEST_FAIL_RANK_IN_GATHER", "", fmt::format("rank {} failed on purpose", process_rank()));
}

}  // namespace

std::vector<std::string> gather_results(const std::function<std::string()>& work, bool split) {
  if (!split || !processes_split()) return {work()};
  // A shard's own error ends it (it has no root to report to); its bytes carry the '+' a rank sends.
  if (shard_role() == ShardRole::shard) {
    std::string mine(1, '+');
    mine += work();
    gather_bytes(mine);
    return {};
  }
  // Each rank sends one status byte ('+' done, '!' failed), then its bytes or its error_text().
  std::string mine(1, '+');
  try {
    fail_if_test_asks();
    mine += work();
  } catch (...) {
    mine.assign(1, '!');
    mine += error_text();
  }
  std::vector<std::size_t> sizes;
  const std::string all = gather_bytes(mine, &sizes);
  int code = kExitOk;
  std::string failure;
  std::vector<std::string> pieces;
  if (is_root_process()) {
    std::size_t at = 0;
    for (const std::size_t size : sizes) {
      std::string piece = all.substr(at, size);
      at += size;
      if (code == kExitOk && !piece.empty() && piece.front() == '!') {
        failure = piece.substr(1);
        code = std::max(1, std::stoi(failure));
      }
      pieces.push_back(piece.empty() ? std::string() : piece.substr(1));
    }
  }
  broadcast_root_status(code);
  if (code != kExitOk) {
    mark_error_known_to_every_rank();
    raise_error_text(failure);
  }
  return pieces;
}

}  // namespace tco
