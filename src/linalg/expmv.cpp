#include "linalg/expmv.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "linalg/csc.hpp"
#include "odesens/status.hpp"

namespace odesens::linalg {
namespace {

// theta_m for the truncated Taylor series in double precision (tol 2^-53):
// m = 1..30 from Higham and Al-Mohy (2010), Table A.3; 35..55 from Al-Mohy
// and Higham (2011), Table 3.1.
struct Theta {
  int m;
  double theta;
};
constexpr Theta kTheta[] = {
    {1, 2.29e-16}, {2, 2.58e-8}, {3, 1.39e-5}, {4, 3.40e-4}, {5, 2.40e-3}, {6, 9.07e-3},
    {7, 2.38e-2},  {8, 5.00e-2}, {9, 8.96e-2}, {10, 1.44e-1}, {11, 2.14e-1}, {12, 3.00e-1},
    {13, 4.00e-1}, {14, 5.14e-1}, {15, 6.41e-1}, {16, 7.81e-1}, {17, 9.31e-1}, {18, 1.09},
    {19, 1.26},    {20, 1.44},   {21, 1.62},   {22, 1.82},   {23, 2.01},   {24, 2.22},
    {25, 2.43},    {26, 2.64},   {27, 2.86},   {28, 3.08},   {29, 3.31},   {30, 3.54},
    {35, 4.7},     {40, 6.0},    {45, 7.2},    {50, 8.5},    {55, 9.9}};

constexpr double kTolerance = 0x1.0p-53;

// (m*, s) minimising m*·s with t_norm / s <= theta_m*.
// Scaling counts past 1e18 are capped (apply() refuses anything past 1e9).
void degree_and_scaling(double t_norm, int& degree, double& scaling) {
  double best_cost = std::numeric_limits<double>::infinity();
  degree = 0;
  scaling = 1.0;
  for (const Theta& th : kTheta) {
    const double s = std::min(1e18, std::max(1.0, std::ceil(t_norm / th.theta)));
    const double cost = th.m * s;
    if (cost < best_cost) {
      best_cost = cost;
      degree = th.m;
      scaling = s;
    }
  }
}

// Largest absolute row sum of the n x m block [B; beta I] (beta I: the
// augmented part's bottom rows).
double inf_norm(const double* b, std::size_t n, std::size_t m, double beta,
                std::vector<double>& row_sums) {
  std::fill(row_sums.begin(), row_sums.end(), 0.0);
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t i = 0; i < n; ++i) row_sums[i] += std::fabs(b[i + k * n]);
  double norm = m > 0 ? std::fabs(beta) : 0.0;
  for (double r : row_sums) norm = std::max(norm, r);
  return norm;
}

}  // namespace

AugmentedExpmv::AugmentedExpmv(std::size_t n, std::size_t m)
    : n_(n), m_(m), term_(n * m), next_(n * m), row_sums_(n) {}

AugmentedExpmv::Norms AugmentedExpmv::norms(const SparsityPattern& a_pattern,
                                             const double* a_values,
                                             const SparsityPattern* c_pattern,
                                             const double* c_values, std::size_t n,
                                             std::size_t m) {
  Norms out;
  bool finite = true;
  for (std::size_t j = 0; j < n; ++j) {
    double sum = 0.0;
    for (auto q = a_pattern.col_ptr[j]; q < a_pattern.col_ptr[j + 1]; ++q)
      sum += std::fabs(a_values[q]);
    out.a = std::max(out.a, sum);
    finite = finite && std::isfinite(sum);
  }
  for (std::size_t j = 0; j < m; ++j) {
    double sum = 0.0;
    if (c_pattern) {
      for (auto q = c_pattern->col_ptr[j]; q < c_pattern->col_ptr[j + 1]; ++q)
        sum += std::fabs(c_values[q]);
    } else {
      for (std::size_t i = 0; i < n; ++i) sum += std::fabs(c_values[i + j * n]);
    }
    out.c = std::max(out.c, sum);
    finite = finite && std::isfinite(sum);
  }
  if (!finite) out.a = out.c = std::numeric_limits<double>::quiet_NaN();
  // [[A, C], [0, 0]] and [[A, sigma C], [0, 0]] act alike on [U; I] and
  // [U; I / sigma]: with sigma = |A| / |C| when |C| is larger, the step
  // count follows |A| alone (J_p may be far larger than J_x, e.g. where
  // the states are large).
  out.sigma = out.c > out.a && out.a > 0.0 ? out.a / out.c : 1.0;
  out.balanced = std::max(out.a, out.sigma * out.c);
  return out;
}

double AugmentedExpmv::products_for(double t_norm) {
  int degree = 0;
  double scaling = 1.0;
  degree_and_scaling(t_norm, degree, scaling);
  return degree * scaling;
}

void AugmentedExpmv::apply(const SparsityPattern& a_pattern, const double* a_values,
                           const SparsityPattern* c_pattern, const double* c_values, double t,
                           double* U, const double* dc_values) {
  last_products_ = 0;
  const std::size_t n = n_, m = m_;
  Norms norm = norms(a_pattern, a_values, c_pattern, c_values, n, m);
  if (dc_values) {  // the forcing's largest value over the interval sets the work
    const Norms ramp = norms(a_pattern, a_values, c_pattern, dc_values, n, m);
    if (ramp.c > norm.c || !std::isfinite(ramp.c)) norm = ramp;
  }
  const double t_norm = t * norm.balanced;
  const double bottom = 1.0 / norm.sigma;  // [U; I / sigma] of the balanced matrix
  if (!std::isfinite(t_norm))
    throw Error(Status::not_finite, "exponential action: J_x or J_p contains NaN or Inf");
  if (t_norm == 0.0 || m == 0) return;
  int degree = 0;
  double scaling = 1.0;
  degree_and_scaling(t_norm, degree, scaling);
  if (scaling > 1e9)
    throw Error(Status::too_much_work,
                "exponential action: |J dt|_1 = " + number_text(t_norm) +
                    " needs more than 1e9 Taylor steps (use updates=dense)");
  const auto s = static_cast<std::int64_t>(scaling);
  // next += beta * values (C or dC, sparse or dense).
  auto add_forcing = [&](const double* values, double beta) {
    if (beta == 0.0) return;
    if (c_pattern) {
      for (std::size_t k = 0; k < m; ++k)
        for (auto q = c_pattern->col_ptr[k]; q < c_pattern->col_ptr[k + 1]; ++q)
          next_[c_pattern->row_idx[q] + k * n] += beta * values[q];
    } else {
      for (std::size_t q = 0; q < n * m; ++q) next_[q] += beta * values[q];
    }
  };
  // F = [U; v; I] is the running sum; a term [B; beta_v; beta_w] (scalar
  // multiples of I in the bottom rows): beta_w = 1 for the first term of
  // each scaling step and 0 afterwards; the ramp's v = s/t at the step's
  // start, then (coefficient / t) for the second term, then 0.
  for (std::int64_t step = 0; step < s; ++step) {
    std::copy(U, U + n * m, term_.begin());
    double beta_w = 1.0;
    double beta_v = dc_values ? static_cast<double>(step) / scaling : 0.0;
    double c1 = inf_norm(term_.data(), n, m, bottom, row_sums_);
    for (int j = 1; j <= std::max(degree, dc_values ? 2 : 1); ++j) {
      const double coeff = t / (scaling * j);
      // next = coeff (A B + beta_v dC + beta_w C)
      csc_multiply(a_pattern, a_values, m, term_.data(), next_.data());
      ++last_products_;
      add_forcing(c_values, beta_w);
      if (dc_values) add_forcing(dc_values, beta_v);
      beta_v = dc_values ? coeff * beta_w / t : 0.0;
      beta_w = 0.0;
      for (std::size_t q = 0; q < n * m; ++q) {
        next_[q] *= coeff;
        U[q] += next_[q];
      }
      std::swap(term_, next_);
      const double c2 = inf_norm(term_.data(), n, m, 0.0, row_sums_);
      // Not before the ramp's last term (beta_v) has been added.
      if (beta_v == 0.0 && c1 + c2 <= kTolerance * inf_norm(U, n, m, bottom, row_sums_)) break;
      c1 = c2;
    }
  }
}

}  // namespace odesens::linalg
