// An index loop on OpenMP threads whose error does not depend on the thread count: every
// index runs (or is skipped after nothing), and when some throw, the exception of the lowest
// index is the one rethrown. Results written at their own index are thread-count independent.
#pragma once

#include <functional>

#include "core/progress/progress_counter.hpp"

namespace tco {

// Runs f(i) for i in [0, n) on `threads` threads (0: all cores); when some throw, the exception
// of the lowest i is rethrown, so the error does not depend on the thread count. Each finished i
// adds 1 to `progress` when it is not null (the caller begins the stage).
// The threads a loop runs on for a --threads value: `threads` when positive, else all cores.
int resolved_thread_count(int threads);

void parallel_for_index(long n, int threads, const std::function<void(long)>& f, ProgressCounter* progress = nullptr);

}  // namespace tco
