// An allocator for big arrays filled once and read often (a trace's columns): a block of 4 MiB
// or more is aligned to 2 MiB and marked MADV_HUGEPAGE, so that with transparent huge pages in
// "madvise" mode (Debian's default) the kernel backs it by 2 MiB pages and filling it costs one
// page fault per 2 MiB instead of one per 4 KiB (the faults, not the parsing, were most of the
// time a trace's columns took to fill on this VM: docs/performance.md "Trace ingest"). Smaller
// blocks, and systems without madvise, get plain memory.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tco {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
  static constexpr std::size_t kThresholdBytes = std::size_t{4} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kThresholdBytes) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: plain pages when refused
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kThresholdBytes) {
      ::operator delete(p);
    } else {
      std::free(p);
    }
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace tco
