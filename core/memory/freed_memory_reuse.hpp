// Keeps memory the engine frees for its next allocations instead of handing it back to the
// kernel at once. A sweep point's preparation and a path's replay allocate and free series of a
// few hundred kilobytes to a few megabytes, over and over; with glibc's defaults much of that is
// mapped and unmapped (or trimmed off the heap) each time, and every reuse then pays one page
// fault per 4 KiB again. On this VM a fault costs several microseconds, and they were a third of
// a sweep's setup (docs/performance.md "Allocator").
//   - blocks under 4 MiB come from the heap (glibc starts at 128 KiB and moves up as blocks are
//     freed, so the first few of each size are mapped and unmapped);
//   - up to 64 MiB of free memory at the heap's top is kept instead of trimmed.
// Blocks of 4 MiB and more (a trace's columns) are still mapped and returned when freed. Without
// glibc this does nothing.
#pragma once

namespace tco {

void keep_freed_memory_for_reuse();

}  // namespace tco
