// Uniforms of the replay's random sources drawn many at a time, so that their Philox blocks run in
// vector loops (x86-64 clones for AVX-512 and AVX2, chosen at run time); the same bits as
// uniform_pair(seed, path, source, entity, draw) one by one (core/random/random.hpp).
#pragma once

#include <cstdint>

#include "core/random/random.hpp"

namespace tco::des {

// One entity, draws draw[i]: first[i], second[i] = uniform_pair(..., entity, draw[i]), i < n.
void uniform_pairs_by_draw(std::uint64_t seed, std::uint32_t path, RandomSource source, std::uint32_t entity,
                           const std::uint32_t* __restrict draw, int n, double* __restrict first,
                           double* __restrict second);

// Entities first_entity + i, draw 0: first[i], second[i] = uniform_pair(..., first_entity + i, 0), i < n.
void uniform_pairs_by_entity(std::uint64_t seed, std::uint32_t path, RandomSource source, std::uint32_t first_entity,
                             int n, double* __restrict first, double* __restrict second);

}  // namespace tco::des
