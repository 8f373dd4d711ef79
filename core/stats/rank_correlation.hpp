// Rank correlation between sampled inputs: Iman & Conover (1982), "A distribution-free
// approach to inducing rank correlation among input variables".
// Given n draws of k independent inputs (columns of X) and a target rank correlation C:
//   1. scores   a_r = Phi^-1(r / (n + 1)), r = 1..n (van der Waerden); column j of M holds the
//               score of each draw's rank in column j of X (so M's columns are independent)
//   2. Cholesky C = P P^T and E = F F^T, E = the sample correlation of M (Eigen LLT)
//   3. M* = M (P F^-1)^T: its sample correlation is exactly C
//   4. column j of X is reordered so that its ranks are those of column j of M*: the marginal
//      samples are unchanged, only which draw goes with which path
// The rank correlation of the result is C up to sampling noise (~1/sqrt(n); a test checks 0.03
// at n = 2,000). No random numbers beyond X are used, so the result is a pure function of X.
// Example: n = 3 draws: the scores are Phi^-1(1/4, 2/4, 3/4) = (-0.674, 0, 0.674); with 2,000
// draws of two inputs and C = [[1, 0.7], [0.7, 1]], Spearman's rho of the result is 0.70 +/- 0.02.
#pragma once

#include <vector>

namespace tco {

// X as columns [input][draw]; C as [input][input] (symmetric, positive definite, unit diagonal:
// the scenario loader checks it). Returns the reordered columns. Throws ModelError when the
// scores' sample correlation is singular (n <= k).
std::vector<std::vector<double>> iman_conover(const std::vector<std::vector<double>>& columns,
                                              const std::vector<std::vector<double>>& target_rank_correlation);

// Ranks 0..n-1 of the values (ties broken by position, so the ranks are a permutation).
std::vector<long> ranks_of(const std::vector<double>& values);

// Spearman's rank correlation (Pearson's on the ranks; ties by position).
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace tco
