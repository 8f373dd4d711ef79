#include "core/parallel_for_index.hpp"

#include <exception>
#include <limits>
#include <mutex>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tco {

int resolved_thread_count(int threads) {
  if (threads > 0) return threads;
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void parallel_for_index(long n, int threads, const std::function<void(long)>& f, ProgressCounter* progress) {
  std::mutex error_mutex;
  long error_index = std::numeric_limits<long>::max();
  std::exception_ptr error;
#if defined(_OPENMP)
  const int team = resolved_thread_count(threads);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
#endif
  for (long i = 0; i < n; ++i) {
    if (progress_cancelled(progress)) continue;
    try {
      f(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (i < error_index) {
        error_index = i;
        error = std::current_exception();
      }
    }
    progress_add(progress);
  }
  throw_if_cancelled(progress);
  if (error) std::rethrow_exception(error);
}

}  // namespace tco
