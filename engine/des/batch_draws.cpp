#include "engine/des/batch_draws.hpp"

// Flattened so that Philox is inlined and the loop vectorised.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TCO_DRAW_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten, noinline))
#else
#define TCO_DRAW_CLONES
#endif

namespace tco::des {

TCO_DRAW_CLONES void uniform_pairs_by_draw(std::uint64_t seed, std::uint32_t path, RandomSource source,
                                           std::uint32_t entity, const std::uint32_t* __restrict draw, int n,
                                           double* __restrict first, double* __restrict second) {
  for (int i = 0; i < n; ++i) {
    const UniformPair u = uniform_pair(seed, path, source, entity, draw[i]);
    first[i] = u.first;
    second[i] = u.second;
  }
}

TCO_DRAW_CLONES void uniform_pairs_by_entity(std::uint64_t seed, std::uint32_t path, RandomSource source,
                                             std::uint32_t first_entity, int n, double* __restrict first,
                                             double* __restrict second) {
  for (int i = 0; i < n; ++i) {
    const UniformPair u = uniform_pair(seed, path, source, first_entity + static_cast<std::uint32_t>(i), 0u);
    first[i] = u.first;
    second[i] = u.second;
  }
}

}  // namespace tco::des
