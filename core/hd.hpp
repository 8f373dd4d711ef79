// TCO_HD marks the small inline functions that the hot loop calls on the host and, under
// nvcc, on the device: one source for both backends (STYLE habit 3).
#pragma once

#if defined(__CUDACC__)
#define TCO_HD __host__ __device__ inline
#else
#define TCO_HD inline
#endif
