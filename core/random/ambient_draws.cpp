#include "core/random/ambient_draws.hpp"

#include <cmath>

#include "core/random/philox_lanes.hpp"
#include "core/random/random.hpp"

// Vector clones for AVX-512 and AVX2 machines, chosen at run time (GCC on x86-64); flattened so
// that Philox is inlined and the loops vectorised.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TCO_AMBIENT_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define TCO_AMBIENT_CLONES
#endif

namespace tco {

TCO_AMBIENT_CLONES void ambient_z(std::uint64_t seed, std::uint32_t path, long h0, int n, double* __restrict u,
                                  double* __restrict z, int* __restrict tails) {
  uniform_pairs_in_lanes(
      seed, path, RandomSource::ambient, n, [h0](int j) { return static_cast<std::uint32_t>(h0 + j); },
      [](int) { return 0u; }, u, nullptr);
  for (int j = 0; j < n; ++j) z[j] = normal_quantile_central(u[j] - 0.5);
  int count = 0;
  for (int j = 0; j < n; ++j) {
    tails[count] = j;
    count += std::fabs(u[j] - 0.5) > 0.425 ? 1 : 0;
  }
  for (int k = 0; k < count; ++k) z[tails[k]] = normal_quantile_tail(u[tails[k]]);
}

}  // namespace tco
