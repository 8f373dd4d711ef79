// Random numbers as pure functions (SPEC §7, STYLE habit 2): a draw is Philox4x32-10
// (Random123) of the counter (path, source, entity, draw) under the key (seed), so the same
// bits come out on the CPU and the GPU, in any thread, in any order, and adding a source
// never shifts another. Non-uniform draws are our own quantile transforms of open-interval
// uniforms (no std::*_distribution: they differ between standard libraries).
//   uniform  u = (52 bits of two words + 0.5) / 2^52, strictly inside (0, 1)
//   exponential(rate)      = -ln(u) / rate
//   normal                 = Phi^-1(u) (Wichura's AS 241, relative error ~1e-16)
//   mean-one lognormal(s)  = exp(s z - s^2 / 2)
// Example: uniform(seed 0, path 0, source 1, entity 0, draw 0) is the same number on every
// machine and backend; tests/test_random.cpp pins it.
#pragma once

#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

#include "core/hd.hpp"

namespace tco {

// One id per random thing; never renumber (golden reports depend on them).
enum class RandomSource : std::uint32_t {
  arrival = 1,
  duration = 2,
  spot_availability = 3,
  preemption = 4,
  spot_price = 5,
  failure = 6,
  power_price = 7,
  ambient = 8,
  demand = 9,
  gpu_count = 10,
  bootstrap = 11,
  start_jitter = 12,
  trace_offset = 13,
  growth_clone = 14,
  uncertain_input = 15,
  repair = 16,
  delivery_slip = 17,
  price_process = 18,  // entity: the price kind (0 on-demand, 1 spot), draw: the month
  venue_availability = 19,  // entity: the venue's index in its plan, draw: the hour
  generation_arrival = 20,  // the next generation's arrival month (models/next_generation/arrival_draw.hpp)
  price_regime = 21,        // entity: the price kind (0 on-demand, 1 spot), draw: the month
  request_arrival = 22,     // the request replay: entity, draw = the request's index (high, low 32 bits)
  request_tokens = 23,      // the same request's output tokens
};

struct PhiloxWords {
  std::uint32_t v[4];
};

TCO_HD PhiloxWords philox4x32_10(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                                 std::uint32_t k0, std::uint32_t k1) {
  r123::Philox4x32 rng;
  r123::Philox4x32::ctr_type ctr = {{c0, c1, c2, c3}};
  r123::Philox4x32::key_type key = {{k0, k1}};
  const r123::Philox4x32::ctr_type out = rng(ctr, key);
  return {{out.v[0], out.v[1], out.v[2], out.v[3]}};
}

// Two uniforms in (0, 1) from one Philox block.
struct UniformPair {
  double first;
  double second;
};

TCO_HD double uniform_from_words(std::uint32_t hi, std::uint32_t lo) {
  // 52 bits, not 53: (2^53 - 1 + 0.5) / 2^53 would round to exactly 1.0.
  const std::uint64_t bits = (static_cast<std::uint64_t>(hi) << 20) ^ (static_cast<std::uint64_t>(lo) >> 12);
  return (static_cast<double>(bits & ((std::uint64_t{1} << 52) - 1)) + 0.5) * (1.0 / 4503599627370496.0);
}

TCO_HD UniformPair uniform_pair(std::uint64_t seed, std::uint32_t path, RandomSource source, std::uint32_t entity,
                                std::uint32_t draw) {
  const PhiloxWords w = philox4x32_10(path, static_cast<std::uint32_t>(source), entity, draw,
                                      static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
  return {uniform_from_words(w.v[0], w.v[1]), uniform_from_words(w.v[2], w.v[3])};
}

TCO_HD double uniform(std::uint64_t seed, std::uint32_t path, RandomSource source, std::uint32_t entity,
                      std::uint32_t draw) {
  return uniform_pair(seed, path, source, entity, draw).first;
}

TCO_HD double exponential_quantile(double u, double rate) { return -std::log(u) / rate; }

// Phi^-1(p), Wichura (1988) algorithm AS 241, PPND16, in two pieces so that a vector loop can
// run the central one on every draw and fix the tails after (engine/sweep/sweep_cpu.cpp); the
// pieces are the very expressions of the whole, so the bits are the same.
// The central region |q| <= 0.425, q = p - 0.5 (85 % of draws): one rational function, no branch.
TCO_HD double normal_quantile_central(double q) {
  const double r = 0.180625 - q * q;
  return q *
         (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
              45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
           133.14166789178437745) * r + 3.387132872796366608) /
         (((((((5226.495278852545925 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
              21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
           42.313330701600911252) * r + 1.0);
}

// The tails |p - 0.5| > 0.425.
TCO_HD double normal_quantile_tail(double p) {
  const double q = p - 0.5;
  double r = q < 0.0 ? p : 1.0 - p;
  r = std::sqrt(-std::log(r));
  double z;
  if (r <= 5.0) {
    r -= 1.6;
    z = (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
             1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
          4.6303378461565452959) * r + 1.42343711074968357734) /
        (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
             0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
          2.05319162663775882187) * r + 1.0);
  } else {
    r -= 5.0;
    z = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
             0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
          5.4637849111641143699) * r + 6.6579046435011037772) /
        (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
             7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
          0.59983220655588793769) * r + 1.0);
  }
  return q < 0.0 ? -z : z;
}

TCO_HD double normal_quantile(double p) {
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) return normal_quantile_central(q);
  return normal_quantile_tail(p);
}

TCO_HD double lognormal_mean_one(double u, double sigma) {
  return std::exp(sigma * normal_quantile(u) - 0.5 * sigma * sigma);
}

// Lognormal by median and sigma of the log (job durations).
TCO_HD double lognormal_quantile(double u, double median, double sigma) {
  return median * std::exp(sigma * normal_quantile(u));
}

}  // namespace tco
