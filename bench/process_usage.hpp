// What a bench measures of its own process besides the wall clock: the CPU seconds of the
// calling thread (on a shared machine the wall clock counts the other users' work too, so rates
// are also given per CPU-second) and the peak resident memory.
#pragma once

#include <sys/resource.h>
#include <time.h>

namespace tco::bench {

inline double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Every thread's CPU seconds (a parallel stage's work, whatever the machine's other load).
inline double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

inline double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

}  // namespace tco::bench
