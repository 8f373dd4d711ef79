// TCO_HD marks the small inline functions that the hot loop calls on the host and, under
// nvcc, on the device: one source for both backends (STYLE habit 3).
#pragma once

#if defined(__CUDACC__)
#define TCO_HD __host__ __device__ inline
#else
#define TCO_HD inline
#endif

// TCO_HD_STEP marks the hour's step and bill, which every loop over hours must inline: the CPU
// backend's lanes vectorise only when the whole hour is in the loop's body, and a compiler left to
// choose keeps them out of line once they have callers enough (issue 46: a sweep 1.2-1.3x slower).
#if defined(__CUDACC__)
#define TCO_HD_STEP __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define TCO_HD_STEP inline __attribute__((always_inline))
#else
#define TCO_HD_STEP inline
#endif
