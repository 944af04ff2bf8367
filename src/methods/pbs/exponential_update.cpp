#include "methods/pbs/exponential_update.hpp"

#include <algorithm>
#include <cmath>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {

using linalg::gemm;
using linalg::Trans;

ExponentialUpdate::ExponentialUpdate(const PropagatorShape& shape, const Settings& settings,
                                     bool constant_jacobians)
    : shape_(shape),
      updates_(settings.updates),
      ramp_(settings.exp_jp == ExpJp::linear && !constant_jacobians && shape.np > 0),
      jx_change_(ramp_ && settings.exp_jx == ExpJx::linear) {
  // The change of J_x needs phi1 and phi2 as matrices from a dense
  // exponential: the identity augmentation gives them (its squarings cost
  // 2 nx^3 flops instead of nx^3 + nx^2 np: at most twice, where np < nx).
  augment_with_identity_ = shape.np > shape.nx || jx_change_;
  if (jx_change_) {
    s0_.resize(shape_.nm());
    jx_delta_.resize(shape_.sparse ? shape_.jx_pattern->nnz() : shape_.nx * shape_.nx);
    d0_.resize(shape_.nm());
    d1_.resize(shape_.nm());
    if (shape_.sparse) ds_.resize(shape_.nm());
  }
  const std::size_t jp_size = shape_.jp_pattern ? shape_.jp_pattern->nnz() : shape_.nm();
  if (ramp_) {
    jp_delta_.resize(jp_size);
    ramp_start_.jp.resize(jp_size);
  }
  if (shape_.sparse) {
    expmv_ = std::make_unique<linalg::AugmentedExpmv>(shape_.nx, shape_.np);
    return;
  }
  allocate_dense_exponential();
}

// S <- e^{J dt} S + (int_0^dt e^{J s} ds) Jp, both factors from the
// exponential of [[J dt, Jp dt], [0, 0]] (no inverse of J, Eq. 18).
// With exp_jp=linear the forcing is J_p(s) = Jp_0 + (s/dt)(Jp_1 - Jp_0),
// from left and right, instead of at's J_p.
void ExponentialUpdate::step(const Jacobians& at, const Jacobians& left, const Jacobians& right,
                             double dt, SensitivityBlocks s, Counters& counters, Frozen frozen) {
  const bool jx_change = jx_change_ && frozen != Frozen::ends_unknown;
  const bool midpoint = frozen == Frozen::at_midpoint;
  const Jacobians& p0 = !ramp_ ? at : midpoint ? ramp_start(left, at, right) : left;
  if (ramp_)
    for (std::size_t q = 0; q < jp_delta_.size(); ++q) jp_delta_[q] = right.jp[q] - p0.jp[q];
  if (jx_change) std::copy(s.s.begin(), s.s.end(), s0_.begin());
  if (!shape_.sparse) {
    dense_exponential_step(at.jx, p0.jp.data(), ramp_ ? right.jp.data() : nullptr, dt, s);
    if (jx_change) add_jx_change(at, left, right, dt, midpoint, s.s);
    return;
  }
  const bool action = sparse_step(at, p0, right, dt, s, counters);
  if (jx_change) add_sparse_jx_change(at, left, right, dt, midpoint, action, s.s);
}

// J_p's ramp ends at Jp_1, where stiff components of S settle at the
// step's end. From Jp_0 (the trapezoid's integral dt (Jp_0 + Jp_1) / 2)
// its O(dt^3) error where J dt is small would be twice that of J_p frozen
// at the midpoint, and of the other sign (Chen_MSB2009: S 1.1e-3 off,
// against 7e-4 with J_p frozen); started at A = (Jp_0 + 4 Jp_m - 2 Jp_1) / 3
// it integrates dt (Jp_0 + 4 Jp_m + Jp_1) / 6, Simpson's rule, as the
// change of J_x does (ramp_of_change).
const Jacobians& ExponentialUpdate::ramp_start(const Jacobians& left, const Jacobians& mid,
                                               const Jacobians& right) {
  std::vector<double>& a = ramp_start_.jp;
  for (std::size_t q = 0; q < a.size(); ++q)
    a[q] = (left.jp[q] + 4.0 * mid.jp[q] - 2.0 * right.jp[q]) / 3.0;
  return ramp_start_;
}

bool ExponentialUpdate::sparse_step(const Jacobians& at, const Jacobians& p0,
                                    const Jacobians& right, double dt, SensitivityBlocks s,
                                    Counters& counters) {
  const SparsityPattern* jp_pattern = shape_.jp_pattern;
  if (sparse_exponential_is_cheaper(at, dt)) {
    // The action of the same exponential on [S; I], S in place.
    expmv_->apply(*shape_.jx_pattern, at.jx.data(), jp_pattern, p0.jp.data(), dt, s.s.data(),
                  ramp_ ? jp_delta_.data() : nullptr);
    counters.exponential_products += static_cast<std::int64_t>(expmv_->last_products());
    ++counters.sparse_exponentials;
    return true;
  }
  allocate_dense_exponential();
  linalg::csc_to_dense(*shape_.jx_pattern, at.jx.data(), dense_jx_.data());
  dense_jp(shape_, p0, dense_jp_.data());
  if (ramp_) dense_jp(shape_, right, dense_jp1_.data());
  const SparseForms forms{at.jx.data(), jp_pattern ? p0.jp.data() : nullptr,
                          jp_pattern && ramp_ ? jp_delta_.data() : nullptr};
  dense_exponential_step(dense_jx_, dense_jp_.data(), ramp_ ? dense_jp1_.data() : nullptr, dt, s,
                         &forms);
  return false;
}

// A flop of a sparse-times-dense product costs about this many of a dense
// BLAS-3 product (measured on network:100 and network:300: the choice is
// flat between 4 and 16).
constexpr double kSparseFlopCost = 8.0;

// The sparse action costs about (products) x (2 nnz np) flops. The dense
// exponential of degree 13: the powers M^2, M^4, M^6 and the odd part's
// product with M (each power two sparse products when J is sparse enough,
// linalg/expm.hpp), two more dense block products, the LU solve (about one
// block product) and the squarings, one block product each; then E S and
// F's products with J_p (sparse with a J_p pattern). Only with
// updates=auto, and the dense one only up to kDenseLimit states (its
// memory is O(nx^2)).
bool ExponentialUpdate::sparse_exponential_is_cheaper(const Jacobians& left, double dt) const {
  const std::size_t nx = shape_.nx, np_count = shape_.np;
  const SparsityPattern& jx_pattern = *shape_.jx_pattern;
  const SparsityPattern* jp_pattern = shape_.jp_pattern;
  if (updates_ == Updates::sparse || nx > kDenseLimit) return true;
  const double n = static_cast<double>(nx), np = static_cast<double>(np_count);
  const double nnz = static_cast<double>(jx_pattern.nnz());
  const double norm = dt * linalg::AugmentedExpmv::norms(jx_pattern, left.jx.data(), jp_pattern,
                                                         left.jp.data(), nx, np_count)
                               .balanced;
  if (!std::isfinite(norm)) return true;  // the action reports it
  const double products = linalg::AugmentedExpmv::products_for(norm);
  const double sparse_flops = products * (2.0 * nnz + 4.0 * n) * np;
  const double m = augment_with_identity_ ? n : np;
  const double cols = n + (ramp_ ? 2.0 : 1.0) * m;  // a block's columns
  const double block_product = 2.0 * n * n * cols;
  const double powers =
      linalg::AugmentedExponential::sparse_products_pay(nx, jx_pattern.nnz())
          ? 2.0 * block_product + 6.0 * kSparseFlopCost * 2.0 * nnz * cols
          : 6.0 * block_product;
  const double squarings = std::max(0.0, std::ceil(std::log2(std::max(norm, 1e-300) / 5.37)));
  double forcing = 0.0;  // F = dt (phi1 Jp_0 + phi2 dJp)
  if (augment_with_identity_)
    forcing = (ramp_ ? 2.0 : 1.0) *
              (jp_pattern ? kSparseFlopCost * 2.0 * n * static_cast<double>(jp_pattern->nnz())
                          : 2.0 * n * n * np);
  const double dense_flops =
      powers + (1.0 + squarings) * block_product + 2.0 * n * n * np + forcing;
  return kSparseFlopCost * sparse_flops < dense_flops;
}

void ExponentialUpdate::allocate_dense_exponential() {
  if (exponential_) return;  // once per solve
  const std::size_t nx = shape_.nx, nn = nx * nx, nm = shape_.nm();
  const bool sparse = shape_.sparse;
  const std::size_t m = augment_with_identity_ ? nx : shape_.np;
  exponential_ = ramp_ ? std::make_unique<linalg::AugmentedExponential>(
                             nx, m, linalg::AugmentedExponential::WithRamp{})
                       : std::make_unique<linalg::AugmentedExponential>(nx, m);
  if (sparse && linalg::AugmentedExponential::sparse_products_pay(nx, shape_.jx_pattern->nnz())) {
    exponential_->take_a_sparse(shape_.jx_pattern);
    scaled_jx_values_.resize(shape_.jx_pattern->nnz());
  }
  scaled_jx_.resize(nn);
  scaled_jp_.resize(augment_with_identity_ ? nn : nm);
  exp_integral_.resize(augment_with_identity_ ? nn : 0);
  if (ramp_) {
    scaled_jp1_.resize(augment_with_identity_ ? nn : nm);
    exp_phi2_.resize(augment_with_identity_ ? nn : 0);
    if (sparse) dense_jp1_.resize(nm);
  }
  exp_e_.resize(nn);
  exp_f_.resize(nm);
  cached_jx_.resize(nn);
  cached_jp_.resize(nm);
  if (sparse) {
    dense_jx_.resize(nn);
    dense_jp_.resize(nm);
  }
}

// min(1, |J|_1 / |J_p|_1) for dense J (nx x nx) and J_p (nx x np).
double ExponentialUpdate::balance_factor(const std::vector<double>& jx, const double* jp) const {
  const std::size_t nx = shape_.nx;
  const double a = linalg::norm1(nx, nx, jx.data()), c = linalg::norm1(nx, shape_.np, jp);
  return c > a && a > 0.0 ? a / c : 1.0;
}

// S <- e^{J dt} S + (int_0^dt e^{J s} ds) Jp, both factors from the
// exponential of [[J dt, Jp dt], [0, 0]] (no inverse of J, Eq. 18); with a
// ramp (jp1 given), S <- e^{J dt} S + dt phi1(J dt) Jp_0 + dt phi2(J dt)
// (Jp_1 - Jp_0) from the exponential of [[J dt, dJp dt, Jp_0 dt], [0, 0, I],
// [0, 0, 0]] (linalg/expm.hpp). jx, jp0 and jp1 dense; with sparse J_x
// and J_p (sparse updates) their values too, for sparse products.
void ExponentialUpdate::dense_exponential_step(const std::vector<double>& jx, const double* jp0,
                                               const double* jp1, double dt, SensitivityBlocks s,
                                               const SparseForms* sparse) {
  const std::size_t nx = shape_.nx, np = shape_.np;
  if (!exponential_is_cached(jx, jp0, jp1, dt)) compute_exponential(jx, jp0, jp1, dt, sparse);
  if (augment_with_identity_) forcing_from_phi(jp0, jp1, dt, sparse, s.next);
  std::copy(exp_f_.begin(), exp_f_.end(), s.next.begin());
  gemm(Trans::no, Trans::no, nx, np, nx, 1.0, exp_e_.data(), nx, s.s.data(), nx, 1.0,
       s.next.data(), nx);
  std::swap(s.s, s.next);
}

// With the identity augmentation the exponential depends on J dt alone;
// otherwise on J_p too (a ramp's J_p changes every interval: no reuse).
bool ExponentialUpdate::exponential_is_cached(const std::vector<double>& jx, const double* jp0,
                                              const double* jp1, double dt) const {
  const std::size_t nm = shape_.nm();
  return dt == cached_dt_ && jx == cached_jx_ &&
         (augment_with_identity_ || (!jp1 && std::equal(jp0, jp0 + nm, cached_jp_.begin())));
}

void ExponentialUpdate::compute_exponential(const std::vector<double>& jx, const double* jp0,
                                            const double* jp1, double dt,
                                            const SparseForms* sparse) {
  const std::size_t nx = shape_.nx, nm = shape_.nm();
  const double* a = scaled_jx(jx, dt, sparse);
  if (augment_with_identity_) {
    // [[J dt, I], [0, 0]]: phi1(J dt); with a ramp [[J dt, I, 0], [0, 0,
    // I], [0, 0, 0]]: phi1 and phi2 (the b1 = I block gives both).
    std::fill(scaled_jp_.begin(), scaled_jp_.end(), 0.0);
    for (std::size_t i = 0; i < nx; ++i) scaled_jp_[i + i * nx] = 1.0;
    if (jp1) {
      std::fill(scaled_jp1_.begin(), scaled_jp1_.end(), 0.0);
      exponential_->compute(a, scaled_jp_.data(), scaled_jp1_.data(), exp_e_.data(),
                            exp_phi2_.data(), exp_integral_.data());
    } else {
      exponential_->compute(a, scaled_jp_.data(), exp_e_.data(), exp_integral_.data());
    }
  } else {
    compute_balanced(a, jx, jp0, jp1, dt);
  }
  cached_dt_ = dt;
  std::copy(jx.begin(), jx.end(), cached_jx_.begin());
  std::copy(jp0, jp0 + nm, cached_jp_.begin());
}

// A sparse J goes in as its values (allocate_dense_exponential).
const double* ExponentialUpdate::scaled_jx(const std::vector<double>& jx, double dt,
                                           const SparseForms* sparse) {
  if (exponential_->sparse_products()) {
    if (!sparse)
      throw Error(Status::internal_error, "dense_exponential_step: sparse J_x values missing");
    for (std::size_t q = 0; q < scaled_jx_values_.size(); ++q)
      scaled_jx_values_[q] = sparse->jx[q] * dt;
    return scaled_jx_values_.data();
  }
  const std::size_t nn = shape_.nx * shape_.nx;
  for (std::size_t q = 0; q < nn; ++q) scaled_jx_[q] = jx[q] * dt;
  return scaled_jx_.data();
}

// F is linear in J_p: take the exponential with J_p scaled to J's
// 1-norm and scale F back. Scaling and squaring follows the norm of
// the whole [[J dt, J_p dt], [0, 0]]; a J_p far larger than J (large
// states) would square a small matrix dozens of times and lose
// digits (1e-4 relative at |J_p| / |J| = 1e12).
void ExponentialUpdate::compute_balanced(const double* a, const std::vector<double>& jx,
                                         const double* jp0, const double* jp1, double dt) {
  const std::size_t nm = shape_.nm();
  if (jp1) {
    const double sigma = std::min(balance_factor(jx, jp0), balance_factor(jx, jp1));
    for (std::size_t q = 0; q < nm; ++q) {
      scaled_jp_[q] = sigma * jp0[q] * dt;
      scaled_jp1_[q] = sigma * (jp1[q] - jp0[q]) * dt;
    }
    exponential_->compute(a, scaled_jp1_.data(), scaled_jp_.data(), exp_e_.data(), exp_f_.data());
    if (sigma != 1.0)
      for (double& v : exp_f_) v /= sigma;
  } else {
    const double sigma = balance_factor(jx, jp0);
    for (std::size_t q = 0; q < nm; ++q) scaled_jp_[q] = sigma * jp0[q] * dt;
    exponential_->compute(a, scaled_jp_.data(), exp_e_.data(), exp_f_.data());
    if (sigma != 1.0)
      for (double& v : exp_f_) v /= sigma;
  }
}

// scratch: an n x np block free for use (S's next value, written after).
void ExponentialUpdate::forcing_from_phi(const double* jp0, const double* jp1, double dt,
                                         const SparseForms* sparse,
                                         std::vector<double>& scratch) {
  const std::size_t nx = shape_.nx, np = shape_.np, nm = shape_.nm();
  if (sparse && sparse->jp0) {
    // The same F, by products with the sparse J_p: n nnz(J_p) instead of n^2 np.
    const SparsityPattern& jp_pattern = *shape_.jp_pattern;
    linalg::dense_times_csc(nx, exp_integral_.data(), jp_pattern, sparse->jp0, exp_f_.data());
    if (jp1) {
      linalg::dense_times_csc(nx, exp_phi2_.data(), jp_pattern, sparse->jp_delta,
                              scratch.data());
      for (std::size_t q = 0; q < nm; ++q) exp_f_[q] += scratch[q];
    }
    for (double& v : exp_f_) v *= dt;
    return;
  }
  // F = dt phi1 Jp_0 (+ dt phi2 (Jp_1 - Jp_0))
  gemm(Trans::no, Trans::no, nx, np, nx, dt, exp_integral_.data(), nx, jp0, nx, 0.0,
       exp_f_.data(), nx);
  if (jp1) {
    for (std::size_t q = 0; q < nm; ++q) scratch[q] = jp1[q] - jp0[q];
    gemm(Trans::no, Trans::no, nx, np, nx, dt, exp_phi2_.data(), nx, scratch.data(), nx, 1.0,
         exp_f_.data(), nx);
  }
}

// The frozen update solves S' = J_m S + Jp(t); the exact S' = J(t) S +
// Jp(t) differs by the forcing D(t) = (J(t) - J_m) S(t) (S_1 from the
// frozen update: D_1's error is then (J_1 - J_m) times that update's,
// second order). Forced by a ramp from A to B, the solution from 0 is
// dt phi1 A + dt phi2 (B - A), as for the ramp of J_p.
void ExponentialUpdate::add_jx_change(const Jacobians& at, const Jacobians& left,
                                      const Jacobians& right, double dt, bool midpoint,
                                      std::vector<double>& s) {
  const std::size_t nx = shape_.nx, np = shape_.np, nn = nx * nx;
  for (std::size_t q = 0; q < nn; ++q) jx_delta_[q] = left.jx[q] - at.jx[q];
  gemm(Trans::no, Trans::no, nx, np, nx, 1.0, jx_delta_.data(), nx, s0_.data(), nx, 0.0,
       d0_.data(), nx);
  for (std::size_t q = 0; q < nn; ++q) jx_delta_[q] = right.jx[q] - at.jx[q];
  gemm(Trans::no, Trans::no, nx, np, nx, 1.0, jx_delta_.data(), nx, s.data(), nx, 0.0,
       d1_.data(), nx);
  ramp_of_change(midpoint);
  add_ramp_by_phi(dt, s);
}

// S += dt phi1 A + dt phi2 (B - A), A and B - A in d0_ and d1_, by the
// dense exponential's phi1 and phi2.
void ExponentialUpdate::add_ramp_by_phi(double dt, std::vector<double>& s) const {
  const std::size_t nx = shape_.nx, np = shape_.np;
  gemm(Trans::no, Trans::no, nx, np, nx, dt, exp_integral_.data(), nx, d0_.data(), nx, 1.0,
       s.data(), nx);
  gemm(Trans::no, Trans::no, nx, np, nx, dt, exp_phi2_.data(), nx, d1_.data(), nx, 1.0, s.data(),
       nx);
}

// The ramp ends at B = D_1: stiff components settle at -J_m^{-1} B, and
// with D_1 they end where J_1 puts them. Its start A: D_0, or, where J_m
// is J at the midpoint (D(t_m) = 0, so D is about quadratic through 0
// there), A = (D_0 - 2 D_1) / 3, which gives the ramp Simpson's integral
// dt (D_0 + D_1) / 6 where J dt is small (the ramp from D_0 would give
// dt (D_0 + D_1) / 2: three times the change's O(dt^3) effect).
void ExponentialUpdate::ramp_of_change(bool midpoint) {
  for (std::size_t q = 0; q < d1_.size(); ++q) {
    const double a = midpoint ? (d0_[q] - 2.0 * d1_[q]) / 3.0 : d0_[q];
    d1_[q] -= a;
    d0_[q] = a;
  }
}

// The same with sparse J_x: D from the differences of J's values (one
// pattern), applied by the dense exponential's phi1 and phi2 where the step
// took it (action = false), else by a second action with D as its
// (dense) forcing, from zero.
void ExponentialUpdate::add_sparse_jx_change(const Jacobians& at, const Jacobians& left,
                                             const Jacobians& right, double dt, bool midpoint,
                                             bool action, std::vector<double>& s) {
  const std::size_t np = shape_.np, nnz = jx_delta_.size();
  const SparsityPattern& pattern = *shape_.jx_pattern;
  for (std::size_t q = 0; q < nnz; ++q) jx_delta_[q] = left.jx[q] - at.jx[q];
  linalg::csc_multiply(pattern, jx_delta_.data(), np, s0_.data(), d0_.data());
  for (std::size_t q = 0; q < nnz; ++q) jx_delta_[q] = right.jx[q] - at.jx[q];
  linalg::csc_multiply(pattern, jx_delta_.data(), np, s.data(), d1_.data());
  ramp_of_change(midpoint);
  if (!action) {
    add_ramp_by_phi(dt, s);
    return;
  }
  std::fill(ds_.begin(), ds_.end(), 0.0);
  expmv_->apply(pattern, at.jx.data(), nullptr, d0_.data(), dt, ds_.data(), d1_.data());
  for (std::size_t q = 0; q < ds_.size(); ++q) s[q] += ds_[q];
}

double ExponentialUpdate::workspace_bytes() const {
  std::size_t doubles = 0;
  for (const std::vector<double>* v :
       {&jp_delta_, &dense_jp1_, &scaled_jp1_, &exp_phi2_, &dense_jx_, &dense_jp_, &scaled_jx_,
        &scaled_jp_, &exp_e_, &exp_f_, &exp_integral_, &cached_jx_, &cached_jp_,
        &scaled_jx_values_, &s0_, &jx_delta_, &d0_, &d1_, &ds_, &ramp_start_.jp})
    doubles += v->capacity();
  double bytes = 8.0 * static_cast<double>(doubles);
  if (exponential_) bytes += static_cast<double>(exponential_->bytes());
  if (expmv_) bytes += static_cast<double>(expmv_->bytes());
  return bytes;
}

}  // namespace odesens::pbs
