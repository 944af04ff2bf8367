#include "linalg/expm.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "odesens/status.hpp"

namespace odesens::linalg {
namespace {

// Higham (2005), Table 2.3: largest 1-norm for which the degree-m Pade
// approximant reaches double precision.
constexpr double kTheta3 = 1.495585217958292e-2;
constexpr double kTheta5 = 2.539398330063230e-1;
constexpr double kTheta7 = 9.504178996162932e-1;
constexpr double kTheta9 = 2.097847961257068e0;
constexpr double kTheta13 = 5.371920351148152e0;

// Coefficients b_0..b_m of the degree-m diagonal Pade approximant of e^x.
constexpr double kPade3[] = {120, 60, 12, 1};
constexpr double kPade5[] = {30240, 15120, 3360, 420, 30, 1};
constexpr double kPade7[] = {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1};
constexpr double kPade9[] = {17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                             2162160., 110880., 3960., 90., 1.};
constexpr double kPade13[] = {64764752532480000., 32382376266240000., 7771770303897600.,
                              1187353796428800.,  129060195264000.,   10559470521600.,
                              670442572800.,      33522128640.,       1323241920.,
                              40840800.,          960960.,            16380.,
                              182.,               1.};

}  // namespace

AugmentedExponential::AugmentedExponential(std::size_t n, std::size_t m)
    : n_(n), m_(m), mb_(m), storage_(10 * (n * n + n * m)), pivots_(n) {
  for (Block* b : {&m_block_, &m2_, &m4_, &m6_, &m8_, &u_, &v_, &w_, &t1_, &t2_})
    *b = make_block();
}

AugmentedExponential::AugmentedExponential(std::size_t n, std::size_t m, WithRamp)
    : n_(n), m_(m), ramp_(true), mb_(2 * m), storage_(10 * (n * n + 2 * n * m)), pivots_(n) {
  for (Block* b : {&m_block_, &m2_, &m4_, &m6_, &m8_, &u_, &v_, &w_, &t1_, &t2_})
    *b = make_block();
}

AugmentedExponential::Block AugmentedExponential::make_block() {
  Block b{storage_.data() + used_, storage_.data() + used_ + n_ * n_, 0.0, 0.0};
  used_ += n_ * n_ + n_ * mb_;
  return b;
}

// [[xa, xb], [0, Cx]] [[ya, yb], [0, Cy]] = [[xa ya, xa yb + xb Cy], [0, Cx Cy]]
// with C = c I + d N: xb Cy = [c xb1, d xb1 + c xb2], Cx Cy = cc I + (cd + dc) N.
// A block's b follows its a in storage (make_block), so x.a [y.a y.b] is
// one product with n + mb columns: sparse when x is M and A is sparse.
void AugmentedExponential::multiply(const Block& x, const Block& y, Block& out) {
  if (&x == &m_block_ && sparse_products_)
    csc_multiply_transposed(at_pattern_, at_values_.data(), n_ + mb_, y.a, out.a);
  else
    gemm(Trans::no, Trans::no, n_, n_ + mb_, n_, 1.0, x.a, n_, y.a, n_, 0.0, out.a, n_);
  if (mb_ > 0) {
    if (y.c != 0.0)
      for (std::size_t q = 0; q < n_ * mb_; ++q) out.b[q] += y.c * x.b[q];
    if (ramp_ && y.d != 0.0)
      for (std::size_t q = 0; q < n_ * m_; ++q) out.b[n_ * m_ + q] += y.d * x.b[q];
  }
  out.c = x.c * y.c;
  out.d = x.c * y.d + x.d * y.c;
}

void AugmentedExponential::pade(int degree, const Block& m, Block& u, Block& v) {
  const std::size_t na = n_ * n_, nb = n_ * mb_;
  // out = identity_coefficient * I + sum of coefficient * block.
  auto combine = [&](Block& out, double identity,
                     std::initializer_list<std::pair<double, const Block*>> terms) {
    std::fill(out.a, out.a + na, 0.0);
    std::fill(out.b, out.b + nb, 0.0);
    out.c = identity;
    out.d = 0.0;
    for (std::size_t i = 0; i < n_; ++i) out.a[i + i * n_] = identity;
    for (const auto& [coef, blk] : terms) {
      for (std::size_t q = 0; q < na; ++q) out.a[q] += coef * blk->a[q];
      for (std::size_t q = 0; q < nb; ++q) out.b[q] += coef * blk->b[q];
      out.c += coef * blk->c;
      out.d += coef * blk->d;
    }
  };
  multiply(m, m, m2_);
  if (degree >= 5) times_m_squared(m2_, m4_);
  if (degree >= 7) times_m_squared(m4_, m6_);
  if (degree == 9) times_m_squared(m6_, m8_);
  switch (degree) {
    case 3:
      combine(w_, kPade3[1], {{kPade3[3], &m2_}});
      combine(v, kPade3[0], {{kPade3[2], &m2_}});
      break;
    case 5:
      combine(w_, kPade5[1], {{kPade5[3], &m2_}, {kPade5[5], &m4_}});
      combine(v, kPade5[0], {{kPade5[2], &m2_}, {kPade5[4], &m4_}});
      break;
    case 7:
      combine(w_, kPade7[1], {{kPade7[3], &m2_}, {kPade7[5], &m4_}, {kPade7[7], &m6_}});
      combine(v, kPade7[0], {{kPade7[2], &m2_}, {kPade7[4], &m4_}, {kPade7[6], &m6_}});
      break;
    case 9:
      combine(w_, kPade9[1],
              {{kPade9[3], &m2_}, {kPade9[5], &m4_}, {kPade9[7], &m6_}, {kPade9[9], &m8_}});
      combine(v, kPade9[0],
              {{kPade9[2], &m2_}, {kPade9[4], &m4_}, {kPade9[6], &m6_}, {kPade9[8], &m8_}});
      break;
    default: {  // 13, evaluated as in Higham (2005), eq. (2.2)
      const double* b = kPade13;
      combine(t1_, 0.0, {{b[13], &m6_}, {b[11], &m4_}, {b[9], &m2_}});
      multiply(m6_, t1_, t2_);
      combine(w_, b[1], {{1.0, &t2_}, {b[7], &m6_}, {b[5], &m4_}, {b[3], &m2_}});
      combine(t1_, 0.0, {{b[12], &m6_}, {b[10], &m4_}, {b[8], &m2_}});
      multiply(m6_, t1_, t2_);
      combine(v, b[0], {{1.0, &t2_}, {b[6], &m6_}, {b[4], &m4_}, {b[2], &m2_}});
    }
  }
  multiply(m, w_, u);  // u = m * (odd part / m)
}

// Powers of m commute: with a sparse A two sparse products (w_ is free
// until the Pade sums) are cheaper than one dense one.
void AugmentedExponential::times_m_squared(const Block& y, Block& out) {
  if (sparse_products_) {
    multiply(m_block_, y, w_);
    multiply(m_block_, w_, out);
  } else {
    multiply(y, m2_, out);
  }
}

// x = p^{-1} r for block-upper-triangular p and r; p is overwritten.
void AugmentedExponential::solve(Block& p, const Block& r, Block& x) {
  if (!lu_factor(n_, p.a, pivots_.data()))
    throw Error(Status::solver_failed, "matrix exponential: singular Pade denominator");
  // Lower-right: (c_p I + d_p N)(c_x I + d_x N) = c_r I + d_r N.
  x.c = r.c / p.c;
  x.d = (r.d - p.d * x.c) / p.c;
  std::copy(r.a, r.a + n_ * n_, x.a);
  // Top-right: p.a x.b = r.b - p.b (x.c I + x.d N).
  for (std::size_t q = 0; q < n_ * mb_; ++q) x.b[q] = r.b[q] - p.b[q] * x.c;
  if (ramp_)
    for (std::size_t q = 0; q < n_ * m_; ++q) x.b[n_ * m_ + q] -= p.b[q] * x.d;
  // x.b follows x.a: one solve with n + mb right-hand sides.
  lu_solve(n_, p.a, pivots_.data(), n_ + mb_, x.a);
}

void AugmentedExponential::take_a_sparse(const SparsityPattern* pattern) {
  if (pattern && (pattern->rows != n_ || pattern->cols != n_))
    throw Error(Status::internal_error, "AugmentedExponential: the pattern is not n x n");
  pattern_ = pattern;
  sparse_products_ = pattern && sparse_products_pay(n_, pattern->nnz());
  at_pattern_ = sparse_products_ ? transpose_pattern(*pattern, at_source_) : SparsityPattern{};
  at_values_.assign(at_pattern_.nnz(), 0.0);
}

// M's a block, dense always (the norm, the Pade sums), and A's values too
// when its products are sparse.
void AugmentedExponential::load_a(const double* a) {
  if (!pattern_) {
    std::copy(a, a + n_ * n_, m_block_.a);
    return;
  }
  csc_to_dense(*pattern_, a, m_block_.a);
  for (std::size_t q = 0; q < at_values_.size(); ++q) at_values_[q] = a[at_source_[q]];
}

int AugmentedExponential::compute(const double* a, const double* b, double* e, double* f) {
  if (ramp_)
    throw Error(Status::internal_error, "AugmentedExponential: the ramp form needs b1 and b2");
  load_a(a);
  if (m_ > 0 && b) std::copy(b, b + n_ * m_, m_block_.b);
  m_block_.c = 0.0;
  m_block_.d = 0.0;
  return run(e, f, nullptr);
}

int AugmentedExponential::compute(const double* a, const double* b1, const double* b2, double* e,
                                  double* f, double* f1) {
  if (!ramp_)
    throw Error(Status::internal_error, "AugmentedExponential: built without a ramp");
  load_a(a);
  std::copy(b1, b1 + n_ * m_, m_block_.b);
  std::copy(b2, b2 + n_ * m_, m_block_.b + n_ * m_);
  m_block_.c = 0.0;
  m_block_.d = 1.0;
  return run(e, f, f1);
}

// The 1-norm of a block matrix [[a, b], [0, c I + d N]]: the ramp's N adds
// |d| to the b2 columns.
double AugmentedExponential::block_norm(const Block& x) const {
  double best = norm1(n_, n_, x.a);
  for (std::size_t j = 0; j < mb_; ++j) {
    double sum = std::fabs(x.c) + (ramp_ && j >= m_ ? std::fabs(x.d) : 0.0);
    for (std::size_t i = 0; i < n_; ++i) sum += std::fabs(x.b[i + j * n_]);
    best = std::max(best, sum);
  }
  return best;
}

int AugmentedExponential::run(double* e, double* f, double* f1) {
  const double norm = block_norm(m_block_);
  if (!std::isfinite(norm))
    throw Error(Status::not_finite, "matrix exponential of a matrix with NaN or Inf");

  int degree = 13, squarings = 0;
  if (norm <= kTheta3) degree = 3;
  else if (norm <= kTheta5) degree = 5;
  else if (norm <= kTheta7) degree = 7;
  else if (norm <= kTheta9) degree = 9;
  else {
    squarings = std::max(0, static_cast<int>(std::ceil(std::log2(norm / kTheta13))));
    const double scale = std::ldexp(1.0, -squarings);
    for (std::size_t q = 0; q < n_ * n_; ++q) m_block_.a[q] *= scale;
    for (double& v : at_values_) v *= scale;
    for (std::size_t q = 0; q < n_ * mb_; ++q) m_block_.b[q] *= scale;
    m_block_.d *= scale;
  }
  pade(degree, m_block_, u_, v_);
  // p = v - u, r = v + u, x = p^{-1} r
  Block& p = t1_;
  Block& r = t2_;
  for (std::size_t q = 0; q < n_ * n_; ++q) {
    p.a[q] = v_.a[q] - u_.a[q];
    r.a[q] = v_.a[q] + u_.a[q];
  }
  for (std::size_t q = 0; q < n_ * mb_; ++q) {
    p.b[q] = v_.b[q] - u_.b[q];
    r.b[q] = v_.b[q] + u_.b[q];
  }
  p.c = v_.c - u_.c;
  r.c = v_.c + u_.c;
  p.d = v_.d - u_.d;
  r.d = v_.d + u_.d;
  Block* x = &w_;
  solve(p, r, *x);
  Block* spare = &u_;
  for (int k = 0; k < squarings; ++k) {
    multiply(*x, *x, *spare);
    std::swap(x, spare);
  }
  std::copy(x->a, x->a + n_ * n_, e);
  // F: the b2 column block with a ramp, else the only one.
  if (m_ > 0) std::copy(x->b + (ramp_ ? n_ * m_ : 0), x->b + (ramp_ ? 2 : 1) * n_ * m_, f);
  if (f1 && m_ > 0) std::copy(x->b, x->b + n_ * m_, f1);
  return squarings;
}

void expm(std::size_t n, const double* a, double* e) {
  AugmentedExponential exp(n, 0);
  exp.compute(a, nullptr, e, nullptr);
}

}  // namespace odesens::linalg
