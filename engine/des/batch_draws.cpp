#include "engine/des/batch_draws.hpp"

#include "core/random/philox_lanes.hpp"

// Flattened so that the lane loops are inlined and vectorised in each clone.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TCO_DRAW_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten, noinline))
#else
#define TCO_DRAW_CLONES
#endif

namespace tco::des {

TCO_DRAW_CLONES void uniform_pairs_by_draw(std::uint64_t seed, std::uint32_t path, RandomSource source,
                                           std::uint32_t entity, const std::uint32_t* __restrict draw, int n,
                                           double* __restrict first, double* __restrict second) {
  uniform_pairs_in_lanes(
      seed, path, source, n, [entity](int) { return entity; }, [draw](int i) { return draw[i]; }, first, second);
}

TCO_DRAW_CLONES void uniform_pairs_by_entity(std::uint64_t seed, std::uint32_t path, RandomSource source,
                                             std::uint32_t first_entity, int n, double* __restrict first,
                                             double* __restrict second) {
  uniform_pairs_in_lanes(
      seed, path, source, n, [first_entity](int i) { return first_entity + static_cast<std::uint32_t>(i); },
      [](int) { return 0u; }, first, second);
}

}  // namespace tco::des
