#include "core/stats/rank_correlation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/random/random.hpp"

namespace tco {

namespace {

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  double mean_a = 0.0, mean_b = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    mean_a += a[i];
    mean_b += b[i];
  }
  mean_a /= n;
  mean_b /= n;
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += (a[i] - mean_a) * (b[i] - mean_b);
    aa += (a[i] - mean_a) * (a[i] - mean_a);
    bb += (b[i] - mean_b) * (b[i] - mean_b);
  }
  return aa > 0.0 && bb > 0.0 ? ab / std::sqrt(aa * bb) : 0.0;
}

}  // namespace

std::vector<long> ranks_of(const std::vector<double>& values) {
  std::vector<long> order(values.size());
  std::iota(order.begin(), order.end(), 0L);
  std::stable_sort(order.begin(), order.end(), [&](long a, long b) { return values[a] < values[b]; });
  std::vector<long> rank(values.size());
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<long>(r);
  return rank;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const std::vector<long> ra = ranks_of(a), rb = ranks_of(b);
  return pearson(std::vector<double>(ra.begin(), ra.end()), std::vector<double>(rb.begin(), rb.end()));
}

std::vector<std::vector<double>> iman_conover(const std::vector<std::vector<double>>& columns,
                                              const std::vector<std::vector<double>>& target) {
  const long k = static_cast<long>(columns.size());
  if (k < 2) return columns;
  const long n = static_cast<long>(columns.front().size());
  if (n <= k)
    throw InputError("--paths", "", fmt::format("a rank correlation between {} inputs needs more than {} paths, found {}", k, k, n));

  std::vector<double> scores(n);
  for (long r = 0; r < n; ++r) scores[r] = normal_quantile(static_cast<double>(r + 1) / static_cast<double>(n + 1));
  std::vector<std::vector<long>> rank(k);
  Eigen::MatrixXd m(n, k);
  for (long j = 0; j < k; ++j) {
    rank[j] = ranks_of(columns[j]);
    for (long p = 0; p < n; ++p) m(p, j) = scores[rank[j][p]];
  }
  // Sample correlation of the scores (their mean is 0 by symmetry; subtract it anyway).
  Eigen::MatrixXd centred = m.rowwise() - m.colwise().mean();
  Eigen::MatrixXd e = centred.transpose() * centred;
  const Eigen::VectorXd scale = e.diagonal().cwiseSqrt().cwiseInverse();
  e = scale.asDiagonal() * e * scale.asDiagonal();
  Eigen::MatrixXd c(k, k);
  for (long i = 0; i < k; ++i)
    for (long j = 0; j < k; ++j) c(i, j) = target[i][j];
  const Eigen::LLT<Eigen::MatrixXd> llt_c(c), llt_e(e);
  if (llt_c.info() != Eigen::Success || llt_e.info() != Eigen::Success)
    throw ModelError("the rank correlation could not be induced: a correlation matrix is not positive definite");
  const Eigen::MatrixXd p_mat = llt_c.matrixL();
  const Eigen::MatrixXd f_mat = llt_e.matrixL();
  // T = P F^-1, so M* = M T^T; F is lower triangular: solve instead of inverting.
  const Eigen::MatrixXd t = f_mat.transpose().triangularView<Eigen::Upper>().solve(p_mat.transpose()).transpose();
  const Eigen::MatrixXd m_star = m * t.transpose();

  std::vector<std::vector<double>> out(k, std::vector<double>(n));
  for (long j = 0; j < k; ++j) {
    std::vector<double> sorted = columns[j];
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> target_column(n);
    for (long p = 0; p < n; ++p) target_column[p] = m_star(p, j);
    const std::vector<long> target_rank = ranks_of(target_column);
    for (long p = 0; p < n; ++p) out[j][p] = sorted[target_rank[p]];
  }
  return out;
}

}  // namespace tco
