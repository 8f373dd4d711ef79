// Philox4x32-10 for many counters at once: the same words as philox4x32_10 (core/random/random.hpp)
// counter by counter, but held lane by lane (one array per word) so that each round is one
// vector loop over 16 lanes. Words sit in 64-bit lanes (high halves zero): the 32 x 32 -> 64-bit
// multiply (vpmuludq) then needs no widening or narrowing shuffles.
// Callers compile it inside their own target clones (engine/des/batch_draws.cpp,
// core/random/ambient_draws.cpp). Nanoseconds per block measured on this project's machine (AMD
// EPYC with AVX-512), against Random123's block-at-a-time code in the same clone: AVX-512 3.1
// against 3.9, AVX2 6.7 against 10.2. The baseline x86-64 clone is slower this way (13.9
// against 9.9), but only CPUs without AVX2 (before 2013) run it.
// tests/test_random.cpp checks it against Random123's known answers, lane by lane.
//   round: (c0, c1, c2, c3) -> (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^ c3 ^ k1, lo(M0 c0)),
//   then the key is bumped by (W0, W1); ten rounds.
#pragma once

#include <bit>
#include <cstdint>

#include "core/random/random.hpp"

namespace tco {

inline constexpr int kPhiloxLanes = 16;

struct PhiloxLanes {
  std::uint64_t c0[kPhiloxLanes];
  std::uint64_t c1[kPhiloxLanes];
  std::uint64_t c2[kPhiloxLanes];
  std::uint64_t c3[kPhiloxLanes];
};

// Counters in, Philox words out, in place (each below 2^32).
inline void philox4x32_10_lanes(PhiloxLanes& x, std::uint32_t k0, std::uint32_t k1) {
  constexpr std::uint64_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
#pragma GCC unroll 10
  for (int round = 0; round < 10; ++round) {
    for (int j = 0; j < kPhiloxLanes; ++j) {
      const std::uint64_t p0 = kM0 * (x.c0[j] & 0xffffffffu);
      const std::uint64_t p1 = kM1 * (x.c2[j] & 0xffffffffu);
      x.c0[j] = (p1 >> 32) ^ x.c1[j] ^ k0;
      x.c2[j] = (p0 >> 32) ^ x.c3[j] ^ k1;
      x.c1[j] = p1 & 0xffffffffu;
      x.c3[j] = p0 & 0xffffffffu;
    }
    k0 += kW0;
    k1 += kW1;
  }
}

// uniform_from_words(hi, lo) to the bit, in a form that vectorises: AVX2 has no conversion of
// 64-bit integers to doubles, so the 52 bits are placed in the mantissa of 2^52 and 2^52 is
// taken off again (both steps exact, as is the cast they replace).
inline double uniform_from_words_in_lanes(std::uint64_t hi, std::uint64_t lo) {
  const std::uint64_t bits = (hi << 20) ^ (lo >> 12);
  const std::uint64_t two52_plus_bits = (bits & ((std::uint64_t{1} << 52) - 1)) | 0x4330000000000000u;
  return (std::bit_cast<double>(two52_plus_bits) - 4503599627370496.0 + 0.5) * (1.0 / 4503599627370496.0);
}

// first[i], second[i] = uniform_pair(seed, path, source, entity_of(i), draw_of(i)), i < n;
// second may be null when only the first uniforms are wanted. The last block's spare lanes
// repeat counter n - 1, so entity_of and draw_of are only asked for i < n.
template <class EntityOf, class DrawOf>
inline void uniform_pairs_in_lanes(std::uint64_t seed, std::uint32_t path, RandomSource source, int n,
                                   EntityOf entity_of, DrawOf draw_of, double* __restrict first,
                                   double* __restrict second) {
  const auto k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  PhiloxLanes x;
  for (int base = 0; base < n; base += kPhiloxLanes) {
    for (int j = 0; j < kPhiloxLanes; ++j) {
      const int i = base + j < n ? base + j : n - 1;
      x.c0[j] = path;
      x.c1[j] = static_cast<std::uint32_t>(source);
      x.c2[j] = entity_of(i);
      x.c3[j] = draw_of(i);
    }
    philox4x32_10_lanes(x, k0, k1);
    const int lanes = n - base < kPhiloxLanes ? n - base : kPhiloxLanes;
    for (int j = 0; j < lanes; ++j) first[base + j] = uniform_from_words_in_lanes(x.c0[j], x.c1[j]);
    if (second)
      for (int j = 0; j < lanes; ++j) second[base + j] = uniform_from_words_in_lanes(x.c2[j], x.c3[j]);
  }
}

}  // namespace tco
