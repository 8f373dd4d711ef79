#include "core/parallel/test_abort_hook.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/parallel/process_group.hpp"

namespace tco {

void abort_if_test_asks_after_block() {
  const char* v = std::getenv("TCO_TEST_ABORT_RANK_AFTER_BLOCK");
  if (v == nullptr || *v == '\0') return;
  if (std::to_string(process_rank()) == v) std::_Exit(70);
}

void fail_alone_if_test_asks() {
  const char* v = std::getenv("TCO_TEST_FAIL_RANK_ALONE");
  if (v == nullptr || *v == '\0' || std::to_string(process_rank()) != v) return;
  throw InputError("TCO_TEST_FAIL_RANK_ALONE", "", "rank " + std::to_string(process_rank()) + " failed on purpose");
}

}  // namespace tco
