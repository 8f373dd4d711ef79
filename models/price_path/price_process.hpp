// A stochastic price process of one price kind of a cloud offer (docs/model.md §4 "Price
// processes"): a mean-one multiplier M_m on the deterministic price (the constant rate or the
// dated schedule) in ledger month m of a Monte Carlo path. Lognormal with Poisson jumps:
//   M_0 = 1,  M_m = M_{m-1} exp(r_m),
//   r_m = s z_m + J N_m - s^2 / 2 - lambda (e^J - 1)
//   s = volatility_per_year / sqrt(12), lambda = jumps_per_year / 12, J = jump_log_size,
//   z_m = Phi^-1(u1), N_m ~ Poisson(lambda) by inversion of u2, (u1, u2) = the uniform pair of
//   Philox(path, price_process, kind, m) (kind 0 on-demand, 1 spot)
// The last two terms compensate: E[exp(r_m)] = 1, the r_m are independent, so E[M_m] = 1 in
// every month, and Var[M_m] = exp(m (s^2 + lambda (e^J - 1)^2)) - 1. Prices are linear in M
// and the hourly routing does not read prices, so the deterministic run (M = 1) is the
// Monte Carlo's expectation. Zero volatility and no jumps: M = 1 exactly on every path.
// Example: volatility 0.3 a year, no jumps: s = 0.0866, after 12 months ln M ~ N(-0.045, 0.3^2),
// sd of M = sqrt(e^{0.09} - 1) = 0.307; one jump a year of J = ln 0.7: each month's compensator
// adds (1/12) x 0.3 = 0.025 to ln M, so with no jump in a year M = e^{0.3} = 1.35.
// Two regimes (Markov switching, glut g and shortage s): R_0 ~ the stationary law, then from
// glut to shortage with probability a a month, from shortage to glut with b:
//   pi_s = a / (a + b),  pi_g = b / (a + b),  mean = pi_g L_g + pi_s L_s
//   M_m = L_{R_m} / mean     (the levels L as written, normalised: E[M_m] = 1 in every month)
//   Var[M_m] = pi_g pi_s (M_s - M_g)^2,  Corr(M_m, M_{m+k}) = (1 - a - b)^k
//   R_0: shortage iff u < pi_s; R_m: leaves its regime iff u < a (glut) or b (shortage), u the
//   first uniform of Philox(path, price_regime, kind, m)
// Example: L_g 0.8, L_s 1.4, a 0.05, b 0.15: pi_s = 0.25, mean 0.95, M_g = 0.8421, M_s = 1.4737,
// Var = 0.1875 x 0.6316^2 = 0.07479 (sd 0.2735). Equal levels: M = 1 exactly on every path.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hd.hpp"
#include "core/random/random.hpp"

namespace tco {

// Poisson(lambda) inverted up to this many jumps in one month (lambda <= 1: P(N > 32) < 1e-36).
inline constexpr int kPriceProcessMaxJumps = 32;

enum PriceProcessKind : std::uint32_t { kPriceKindOnDemand = 0, kPriceKindSpot = 1 };

// Plain numbers for host and device. All zero: no process (M = 1).
struct PriceProcessParams {
  double sigma_per_month = 0.0;
  double jumps_per_month = 0.0;
  double jump_log_size = 0.0;
  double compensator_per_month = 0.0;  // -s^2 / 2 - lambda (e^J - 1)
  // The two-regime process (when two_regime is 1): normalised multipliers and switching odds.
  int two_regime = 0;
  double glut_multiplier = 1.0;                // M_g
  double shortage_multiplier = 1.0;            // M_s
  double glut_to_shortage_per_month = 0.0;     // a
  double shortage_to_glut_per_month = 0.0;     // b

  bool operator==(const PriceProcessParams&) const = default;
};

TCO_HD bool price_process_active(const PriceProcessParams& p) {
  if (p.two_regime) return p.glut_multiplier != p.shortage_multiplier;
  return p.sigma_per_month > 0.0 || (p.jumps_per_month > 0.0 && p.jump_log_size != 0.0);
}

// pi_s of the opening comment.
TCO_HD double shortage_share(const PriceProcessParams& p) {
  return p.glut_to_shortage_per_month / (p.glut_to_shortage_per_month + p.shortage_to_glut_per_month);
}

// R_m of the opening comment (0 glut, 1 shortage) given R_{m-1} (ignored in month 0).
TCO_HD int price_regime_step(const PriceProcessParams& p, std::uint64_t seed, std::uint32_t path, std::uint32_t kind,
                             int month, int previous) {
  const double u = uniform(seed, path, RandomSource::price_regime, kind, static_cast<std::uint32_t>(month));
  if (month == 0) return u < shortage_share(p) ? 1 : 0;
  const double leave = previous == 1 ? p.shortage_to_glut_per_month : p.glut_to_shortage_per_month;
  return u < leave ? 1 - previous : previous;
}

// N ~ Poisson(lambda) by inversion of u: the smallest n with P(N <= n) >= u.
TCO_HD int poisson_by_inversion(double u, double lambda) {
  double term = std::exp(-lambda);
  double cdf = term;
  int n = 0;
  while (u > cdf && n < kPriceProcessMaxJumps) {
    ++n;
    term *= lambda / n;
    cdf += term;
  }
  return n;
}

// r_m of the opening comment (month m >= 1).
TCO_HD double price_process_log_return(const PriceProcessParams& p, std::uint64_t seed, std::uint32_t path,
                                       std::uint32_t kind, int month) {
  const UniformPair u = uniform_pair(seed, path, RandomSource::price_process, kind, static_cast<std::uint32_t>(month));
  const int jumps = p.jumps_per_month > 0.0 ? poisson_by_inversion(u.second, p.jumps_per_month) : 0;
  return p.sigma_per_month * normal_quantile(u.first) + p.jump_log_size * jumps + p.compensator_per_month;
}

// M_m given the path's state in `log_multiplier` (0 before month 0), which it advances: ln M_{m-1}
// for lognormal jumps, R_{m-1} for two regimes. Called once per month in order 0, 1, 2, ...; 1
// exactly when the process is inactive.
TCO_HD double price_process_step(const PriceProcessParams& p, std::uint64_t seed, std::uint32_t path,
                                 std::uint32_t kind, int month, double& log_multiplier) {
  if (!price_process_active(p)) return 1.0;
  if (p.two_regime) {
    const int regime = price_regime_step(p, seed, path, kind, month, static_cast<int>(log_multiplier));
    log_multiplier = regime;
    return regime == 1 ? p.shortage_multiplier : p.glut_multiplier;
  }
  if (month > 0) log_multiplier += price_process_log_return(p, seed, path, kind, month);
  return std::exp(log_multiplier);
}

}  // namespace tco
