// An index loop on OpenMP threads whose error does not depend on the thread count: every
// index runs (or is skipped after nothing), and when some throw, the exception of the lowest
// index is the one rethrown. Results written at their own index are thread-count independent.
#pragma once

#include <functional>

namespace tco {

// Runs f(i) for i in [0, n) on `threads` threads (0: all cores); when some throw, the exception
// of the lowest i is rethrown, so the error does not depend on the thread count.
void parallel_for_index(long n, int threads, const std::function<void(long)>& f);

}  // namespace tco
