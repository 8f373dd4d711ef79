#include <doctest/doctest.h>

#include <boost/math/distributions/normal.hpp>

#include <cmath>
#include <vector>

#include "core/random/ambient_draws.hpp"
#include "engine/des/batch_draws.hpp"
#include "core/random/philox_lanes.hpp"
#include "core/random/random.hpp"

using namespace tco;

TEST_CASE("random: Philox4x32-10 known-answer vectors (Random123 kat_vectors)") {
  // Random123's kat_vectors file, lines "philox4x32 10 <ctr x4> <key x2> <expected x4>".
  auto check = [](PhiloxWords w, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    CHECK(w.v[0] == a);
    CHECK(w.v[1] == b);
    CHECK(w.v[2] == c);
    CHECK(w.v[3] == d);
  };
  check(philox4x32_10(0, 0, 0, 0, 0, 0), 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u);
  check(philox4x32_10(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu), 0x408f276du,
        0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu);
  check(philox4x32_10(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u), 0xd16cfe09u,
        0x94fdccebu, 0x5001e420u, 0x24126ea1u);
}

TEST_CASE("random: Philox in lanes gives the known answers in every lane") {
  // The same kat_vectors lines as above, each counter in all 16 lanes but one, which holds the
  // counter + 1 in its last word (so a lane mix-up would show).
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  constexpr int kOdd = 5;
  for (const Kat& k : kats) {
    PhiloxLanes x;
    for (int j = 0; j < kPhiloxLanes; ++j) {
      x.c0[j] = k.ctr[0];
      x.c1[j] = k.ctr[1];
      x.c2[j] = k.ctr[2];
      x.c3[j] = j == kOdd ? k.ctr[3] + 1u : k.ctr[3];
    }
    philox4x32_10_lanes(x, k.key[0], k.key[1]);
    const PhiloxWords odd = philox4x32_10(k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3] + 1u, k.key[0], k.key[1]);
    for (int j = 0; j < kPhiloxLanes; ++j) {
      const std::uint32_t* want = j == kOdd ? odd.v : k.out;
      CHECK(x.c0[j] == want[0]);
      CHECK(x.c1[j] == want[1]);
      CHECK(x.c2[j] == want[2]);
      CHECK(x.c3[j] == want[3]);
    }
  }
}

TEST_CASE("random: the lanes' word-to-uniform conversion is uniform_from_words to the bit") {
  // 52 bits b = (hi << 20) ^ (lo >> 12) give (b + 0.5) / 2^52. The lanes put b in the mantissa
  // of 2^52 and take 2^52 off: exact for every b, the extremes included.
  //   b = 0:          0.5 / 2^52 = 2^-53
  //   b = 2^52 - 1:   (2^52 - 0.5) / 2^52 = 1 - 2^-53
  //   hi = 1, lo = 0: b = 2^20, (2^20 + 0.5) / 2^52
  CHECK(uniform_from_words_in_lanes(0, 0) == std::ldexp(1.0, -53));
  CHECK(uniform_from_words_in_lanes(0xffffffffu, 0xffffffffu) == 1.0 - std::ldexp(1.0, -53));
  CHECK(uniform_from_words_in_lanes(1, 0) == (std::ldexp(1.0, 20) + 0.5) * std::ldexp(1.0, -52));
  const std::uint32_t words[] = {0, 1, 0xfffu, 0x1000u, 0x9e3779b9u, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  for (std::uint32_t hi : words)
    for (std::uint32_t lo : words) CHECK(uniform_from_words_in_lanes(hi, lo) == uniform_from_words(hi, lo));
}

TEST_CASE("random: uniforms are open-interval, pure functions of the counter") {
  const double a = uniform(7, 3, RandomSource::preemption, 11, 0);
  CHECK(a == uniform(7, 3, RandomSource::preemption, 11, 0));
  CHECK(a != uniform(7, 3, RandomSource::preemption, 11, 1));
  CHECK(a != uniform(7, 4, RandomSource::preemption, 11, 0));
  CHECK(a != uniform(8, 3, RandomSource::preemption, 11, 0));
  // Extremes of the words map strictly inside (0, 1).
  CHECK(uniform_from_words(0, 0) == 0.5 / 4503599627370496.0);  // 0.5 / 2^52
  CHECK(uniform_from_words(0xffffffffu, 0xffffffffu) == 1.0 - 0.5 / 4503599627370496.0);  // (2^52 - 0.5) / 2^52
  // Mean of 100,000 uniforms is 0.5 within 4 standard errors (sd 1/sqrt(12) / sqrt(n) = 0.000913).
  double sum = 0.0;
  for (std::uint32_t i = 0; i < 100000; ++i) sum += uniform(1, 0, RandomSource::arrival, 0, i);
  CHECK(std::fabs(sum / 100000 - 0.5) < 4 * 0.000913);
}

TEST_CASE("random: our normal quantile matches Boost.Math on the host") {
  const boost::math::normal_distribution<double> standard;
  for (double p : {1e-300, 1e-12, 1e-6, 0.001, 0.025, 0.2, 0.5, 0.7, 0.975, 0.999, 1 - 1e-12}) {
    const double expected = boost::math::quantile(standard, p);
    CHECK(normal_quantile(p) == doctest::Approx(expected).epsilon(1e-14));
  }
}

TEST_CASE("random: transforms") {
  // exponential: -ln(0.5) / 2 = 0.34657359...
  CHECK(exponential_quantile(0.5, 2.0) == doctest::Approx(0.34657359027997264).epsilon(1e-15));
  // mean-one lognormal at the median (z = 0): exp(-s^2/2) = exp(-0.02) for s = 0.2.
  CHECK(lognormal_mean_one(0.5, 0.2) == doctest::Approx(std::exp(-0.02)).epsilon(1e-15));
  CHECK(lognormal_quantile(0.5, 3.0, 1.0) == doctest::Approx(3.0).epsilon(1e-15));
  // Monte Carlo mean of the mean-one lognormal is 1 within 4 standard errors
  // (sd = sqrt(exp(s^2) - 1) = 0.2020 for s = 0.2, / sqrt(n) = 0.000639 for n = 100,000).
  double sum = 0.0;
  for (std::uint32_t i = 0; i < 100000; ++i) sum += lognormal_mean_one(uniform(5, 0, RandomSource::power_price, 0, i), 0.2);
  CHECK(std::fabs(sum / 100000 - 1.0) < 4 * 0.000639);
}

TEST_CASE("random: the vector draws give the scalar draws' bits on this machine's clone") {
  // ambient_z and the batch draws run in AVX-512 or AVX2 clones where the CPU has them; without
  // FMA contraction they round exactly as the baseline code does (normal_quantile's polynomials
  // would change in the last bits under contraction, and a report with them).
  constexpr int kHours = 20000;  // about 3,000 tail hours (|u - 0.5| > 0.425)
  std::vector<double> u(kHours), z(kHours);
  std::vector<int> tails(kHours);
  ambient_z(2026, 5, 100, kHours, u.data(), z.data(), tails.data());
  int mismatches = 0, tail_hours = 0;
  for (int j = 0; j < kHours; ++j) {
    const double uj = uniform(2026, 5, RandomSource::ambient, static_cast<std::uint32_t>(100 + j), 0u);
    tail_hours += std::fabs(uj - 0.5) > 0.425 ? 1 : 0;
    mismatches += z[j] == normal_quantile(uj) ? 0 : 1;
  }
  CHECK(tail_hours > 2000);
  CHECK(mismatches == 0);

  std::vector<std::uint32_t> draws = {0, 1, 7, 1000, 0xffffffffu};
  std::vector<double> first(draws.size()), second(draws.size());
  des::uniform_pairs_by_draw(9, 2, RandomSource::preemption, 42, draws.data(), static_cast<int>(draws.size()),
                             first.data(), second.data());
  for (std::size_t i = 0; i < draws.size(); ++i) {
    const UniformPair p = uniform_pair(9, 2, RandomSource::preemption, 42, draws[i]);
    CHECK(first[i] == p.first);
    CHECK(second[i] == p.second);
  }
  constexpr int kEntities = 70;  // more than one vector block
  std::vector<double> by_entity_first(kEntities), by_entity_second(kEntities);
  des::uniform_pairs_by_entity(9, 2, RandomSource::spot_availability, 500, kEntities, by_entity_first.data(),
                               by_entity_second.data());
  for (int i = 0; i < kEntities; ++i) {
    const UniformPair p = uniform_pair(9, 2, RandomSource::spot_availability, 500 + i, 0);
    CHECK(by_entity_first[i] == p.first);
    CHECK(by_entity_second[i] == p.second);
  }
}
