#include "methods/pbs/sensitivity_propagator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {

using linalg::gemm;
using linalg::Trans;

namespace {

// The matrix norm of the switching rule and the refinement count: the
// Frobenius norm, which is what the paper's Julia implementation takes
// (`norm` of a matrix).
double frobenius_norm(const std::vector<double>& a) {
  double sum = 0.0;
  for (double v : a) sum += v * v;
  return std::sqrt(sum);
}

// |b - a| / |a| in the Frobenius norm (0 when both vanish).
double relative_change(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, base = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q) {
    diff += (b[q] - a[q]) * (b[q] - a[q]);
    base += a[q] * a[q];
  }
  if (base == 0.0) return diff == 0.0 ? 0.0 : INFINITY;
  return std::sqrt(diff / base);
}

// Sparse updates for models with a J_x pattern and at least
// settings.sparse_threshold states (or when asked for).
bool use_sparse_updates(const Model& model, const Settings& settings) {
  if (settings.updates == Updates::dense) return false;
  const bool has_pattern = model.jac_x_pattern() != nullptr;
  if (settings.updates == Updates::sparse) {
    if (!has_pattern)
      throw Error(Status::unsupported,
                  "updates=sparse needs a model with a J_x sparsity pattern (this model has none)");
    return true;
  }
  return has_pattern && static_cast<std::int64_t>(model.nx()) >= settings.sparse_threshold;
}

// The sizes and patterns of a solve with this model and these settings.
PropagatorShape make_shape(const Model& model, const Settings& settings) {
  PropagatorShape shape;
  shape.nx = model.nx();
  shape.np = model.np();
  shape.sparse = use_sparse_updates(model, settings);
  shape.jx_pattern = shape.sparse ? model.jac_x_pattern() : nullptr;
  shape.jp_pattern = shape.sparse ? model.jac_p_pattern() : nullptr;
  return shape;
}

}  // namespace

SensitivityPropagator::SensitivityPropagator(const Model& model, const double* p,
                                             const Settings& settings)
    : model_(model),
      p_(p),
      settings_(settings),
      workspace_(model.make_workspace()),
      shape_(make_shape(model, settings)),
      nx_(shape_.nx),
      np_(shape_.np),
      sparse_(shape_.sparse),
      jx_pattern_(shape_.jx_pattern),
      jp_pattern_(shape_.jp_pattern),
      peano_baker_(shape_),
      augment_with_identity_(model.np() > model.nx()),
      ramp_(false),
      constant_jacobians_(model.has_constant_jacobians()) {
  ramp_ = settings.exp_jp == ExpJp::linear && !constant_jacobians_ && model.np() > 0;
  const std::size_t nm = nx_ * np_;
  // Dense updates hold J_x as an n x n matrix; sparse ones only J's values.
  const std::size_t jx_size = sparse_ ? jx_pattern_->nnz() : nx_ * nx_;
  const std::size_t jp_size = jp_pattern_ ? jp_pattern_->nnz() : nm;
  x_.resize(nx_);
  x_sub_.resize(nx_);
  for (Jacobians* j : {&left_, &right_, &sub_a_, &sub_b_, &mid_}) {
    j->jx.resize(jx_size);
    j->jp.resize(jp_size);
    j->f.resize(nx_);
  }
  s_.resize(nm);
  s_next_.resize(nm);
  s_saved_.resize(nm);
  x_saved_.resize(nx_);
  if (ramp_) jp_delta_.resize(jp_size);
  if (sparse_) {
    expmv_ = std::make_unique<linalg::AugmentedExpmv>(nx_, np_);
    return;
  }
  allocate_dense_exponential();
}

void SensitivityPropagator::evaluate(double t, const double* x, Jacobians& out, Parts parts) {
  if (parts != Parts::jp_only) {
    if (sparse_)
      model_.jac_x_values(t, x, p_, out.jx.data(), workspace_.get());
    else
      model_.jac_x(t, x, p_, out.jx.data(), workspace_.get());
    if (settings_.interpolation == StateInterpolation::hermite)
      model_.rhs(t, x, p_, out.f.data(), workspace_.get());
    out.norm = frobenius_norm(out.jx);
    ++counters_.jacobian_evals;
    if (!std::isfinite(out.norm))
      throw Error(Status::not_finite, "J_x contains NaN or Inf at t = " + number_text(t));
  }
  if (np_ > 0 && parts != Parts::jx_only) {
    if (jp_pattern_)
      model_.jac_p_values(t, x, p_, out.jp.data(), workspace_.get());
    else
      model_.jac_p(t, x, p_, out.jp.data(), workspace_.get());
    if (parts == Parts::jp_only) ++counters_.jac_p_evals;
  }
}

void SensitivityPropagator::start(double t0, const double* x0, const double* s0) {
  t_ = t0;
  std::copy(x0, x0 + nx_, x_.begin());
  std::copy(s0, s0 + nx_ * np_, s_.begin());
  evaluate(t0, x0, left_);
}

bool SensitivityPropagator::use_exponential(double dt, std::int64_t& n_int) const {
  const double steps = std::ceil(settings_.c * dt * left_.norm);
  n_int = steps < 1.0 ? 1 : (steps > 1e12 ? std::numeric_limits<std::int64_t>::max()
                                          : static_cast<std::int64_t>(steps));
  if (settings_.algorithm == Algorithm::exp) return true;
  if (settings_.force_pbs) return false;
  // Eq. 45, with the condition of Algorithm 1 that J_p be nearly constant
  // as well: the exponential update holds J_p at its left-end value, which
  // is badly wrong where J_p moves while J_x does not (Chua's circuit
  // leaving x = 0: J_x is flat, J_p grows from zero).
  const bool constant = relative_change(left_.jx, right_.jx) <= settings_.eps_tol &&
                        relative_change(left_.jp, right_.jp) <= settings_.eps_tol;
  return constant || n_int > settings_.n_max;
}

void SensitivityPropagator::advance(double t1, const double* x1, const double* x_mid) {
  const double dt = t1 - t_;
  if (!(dt > 0.0))
    throw Error(Status::invalid_argument, "trajectory times must be strictly increasing");
  const bool midpoint =
      x_mid && settings_.exp_jacobian == ExpJacobian::midpoint && !constant_jacobians_;
  // exp with midpoint Jacobians never reads those of the ends: evaluate
  // J at the midpoint instead, one pair per interval as before.
  const bool need_ends = !(midpoint && settings_.algorithm == Algorithm::exp);
  if (constant_jacobians_) {
    right_.jx = left_.jx;
    right_.jp = left_.jp;
    right_.norm = left_.norm;
    if (settings_.interpolation == StateInterpolation::hermite) model_.rhs(t1, x1, p_, right_.f.data(), workspace_.get());
  } else if (need_ends) {
    evaluate(t1, x1, right_);
  } else if (np_ > 0) {
    // J_x comes from the midpoint; J_p at the end for the ramp, or with a
    // frozen J_p for its lag indicator (Counters::frozen_jp_lag).
    evaluate(t1, x1, right_, Parts::jp_only);
  }
  const bool jp_ends = !constant_jacobians_ && (need_ends || np_ > 0);
  std::int64_t n_int = 1;
  if (!need_ends || use_exponential(dt, n_int)) {
    if (midpoint) evaluate(t_ + 0.5 * dt, x_mid, mid_, ramp_ ? Parts::jx_only : Parts::both);
    const bool mean = !midpoint && settings_.exp_jacobian == ExpJacobian::mean && !constant_jacobians_;
    if (mean) {
      for (std::size_t q = 0; q < mid_.jx.size(); ++q) mid_.jx[q] = 0.5 * (left_.jx[q] + right_.jx[q]);
      for (std::size_t q = 0; q < mid_.jp.size(); ++q) mid_.jp[q] = 0.5 * (left_.jp[q] + right_.jp[q]);
    }
    const Jacobians& at = midpoint || mean ? mid_ : left_;
    exponential_step(at, dt);
    ++counters_.exp_intervals;
    if (!ramp_ && jp_ends && dt * at.norm > 1.0)
      counters_.frozen_jp_lag =
          std::max(counters_.frozen_jp_lag, 0.5 * relative_change(left_.jp, right_.jp));
  } else {
    const std::int64_t limit = std::min(settings_.max_refinement, settings_.max_steps);
    if (n_int > limit)
      throw Error(Status::too_much_work,
                  "pbsr: refining the step [" + number_text(t_) + ", " + number_text(t1) +
                      "] needs " + (n_int == std::numeric_limits<std::int64_t>::max()
                                        ? std::string("more than 1e12")
                                        : std::to_string(n_int)) +
                      " sub-intervals (c * dt * |J_x|_F), but " +
                      (limit == settings_.max_steps ? "max_steps = " : "max_refinement = ") +
                      std::to_string(limit) + " allows at most " + std::to_string(limit) +
                      " (lower c, raise max_refinement, or let pbsr switch to the "
                      "exponential update: force_pbs=0)");
    refined_peano_baker(t1, x1, n_int);
    peano_baker_.apply_pending_steps(blocks());
    ++counters_.pbs_intervals;
  }
  t_ = t1;
  std::copy(x1, x1 + nx_, x_.begin());
  ends_swapped_ = need_ends || jp_ends;
  if (ends_swapped_) std::swap(left_, right_);
}

// Advances to (t, x), reads S, and puts everything back. After advance()
// right_ holds the Jacobians of the old left end if it swapped them, and no
// Peano-Baker steps are pending, so swapping back restores the state; the
// caches of the exponential and of the transition matrices are keyed by
// their inputs and stay valid. Only the Jacobian evaluations count.
void SensitivityPropagator::sensitivity_at(double t, const double* x, const double* x_mid,
                                           double* s_out) {
  const double t_saved = t_;
  const Counters counters_saved = counters_;
  std::copy(s_.begin(), s_.end(), s_saved_.begin());
  std::copy(x_.begin(), x_.end(), x_saved_.begin());
  advance(t, x, x_mid);
  std::copy(s_.begin(), s_.end(), s_out);
  std::swap(s_, s_saved_);
  std::swap(x_, x_saved_);
  if (ends_swapped_) std::swap(left_, right_);
  t_ = t_saved;
  const std::int64_t evals = counters_.jacobian_evals;
  counters_ = counters_saved;
  counters_.jacobian_evals = evals;
  ++counters_.output_updates;
}

// S <- e^{J dt} S + (int_0^dt e^{J s} ds) Jp, both factors from the
// exponential of [[J dt, Jp dt], [0, 0]] (no inverse of J, Eq. 18).
// With exp_jp=linear the forcing is J_p(s) = Jp_0 + (s/dt)(Jp_1 - Jp_0),
// from left_ and right_, instead of at's J_p.
void SensitivityPropagator::exponential_step(const Jacobians& at, double dt) {
  const Jacobians& p0 = ramp_ ? left_ : at;
  if (ramp_)
    for (std::size_t q = 0; q < jp_delta_.size(); ++q) jp_delta_[q] = right_.jp[q] - left_.jp[q];
  if (!sparse_) {
    dense_exponential_step(at.jx, p0.jp.data(), ramp_ ? right_.jp.data() : nullptr, dt);
    return;
  }
  if (sparse_exponential_is_cheaper(at, dt)) {
    // The action of the same exponential on [S; I], S in place.
    expmv_->apply(*jx_pattern_, at.jx.data(), jp_pattern_, p0.jp.data(), dt, s_.data(),
                  ramp_ ? jp_delta_.data() : nullptr);
    counters_.exponential_products += static_cast<std::int64_t>(expmv_->last_products());
    ++counters_.sparse_exponentials;
    return;
  }
  allocate_dense_exponential();
  linalg::csc_to_dense(*jx_pattern_, at.jx.data(), dense_jx_.data());
  dense_jp(shape_, p0, dense_jp_.data());
  if (ramp_) dense_jp(shape_, right_, dense_jp1_.data());
  const SparseForms forms{at.jx.data(), jp_pattern_ ? p0.jp.data() : nullptr,
                          jp_pattern_ && ramp_ ? jp_delta_.data() : nullptr};
  dense_exponential_step(dense_jx_, dense_jp_.data(), ramp_ ? dense_jp1_.data() : nullptr, dt,
                         &forms);
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
bool SensitivityPropagator::sparse_exponential_is_cheaper(const Jacobians& left, double dt) const {
  if (settings_.updates == Updates::sparse || nx_ > kDenseLimit) return true;
  const double n = static_cast<double>(nx_), np = static_cast<double>(np_);
  const double nnz = static_cast<double>(jx_pattern_->nnz());
  const double norm = dt * linalg::AugmentedExpmv::norms(*jx_pattern_, left.jx.data(), jp_pattern_,
                                                         left.jp.data(), nx_, np_)
                               .balanced;
  if (!std::isfinite(norm)) return true;  // the action reports it
  const double products = linalg::AugmentedExpmv::products_for(norm);
  const double sparse_flops = products * (2.0 * nnz + 4.0 * n) * np;
  const double m = augment_with_identity_ ? n : np;
  const double cols = n + (ramp_ ? 2.0 : 1.0) * m;  // a block's columns
  const double block_product = 2.0 * n * n * cols;
  const double powers =
      linalg::AugmentedExponential::sparse_products_pay(nx_, jx_pattern_->nnz())
          ? 2.0 * block_product + 6.0 * kSparseFlopCost * 2.0 * nnz * cols
          : 6.0 * block_product;
  const double squarings = std::max(0.0, std::ceil(std::log2(std::max(norm, 1e-300) / 5.37)));
  double forcing = 0.0;  // F = dt (phi1 Jp_0 + phi2 dJp)
  if (augment_with_identity_)
    forcing = (ramp_ ? 2.0 : 1.0) *
              (jp_pattern_ ? kSparseFlopCost * 2.0 * n * static_cast<double>(jp_pattern_->nnz())
                           : 2.0 * n * n * np);
  const double dense_flops =
      powers + (1.0 + squarings) * block_product + 2.0 * n * n * np + forcing;
  return kSparseFlopCost * sparse_flops < dense_flops;
}

void SensitivityPropagator::allocate_dense_exponential() {
  if (exponential_) return;  // once per solve
  const std::size_t nn = nx_ * nx_, nm = nx_ * np_;
  const std::size_t m = augment_with_identity_ ? nx_ : np_;
  exponential_ = ramp_ ? std::make_unique<linalg::AugmentedExponential>(
                             nx_, m, linalg::AugmentedExponential::WithRamp{})
                       : std::make_unique<linalg::AugmentedExponential>(nx_, m);
  if (sparse_ && linalg::AugmentedExponential::sparse_products_pay(nx_, jx_pattern_->nnz())) {
    exponential_->take_a_sparse(jx_pattern_);
    scaled_jx_values_.resize(jx_pattern_->nnz());
  }
  scaled_jx_.resize(nn);
  scaled_jp_.resize(augment_with_identity_ ? nn : nm);
  exp_integral_.resize(augment_with_identity_ ? nn : 0);
  if (ramp_) {
    scaled_jp1_.resize(augment_with_identity_ ? nn : nm);
    exp_phi2_.resize(augment_with_identity_ ? nn : 0);
    if (sparse_) dense_jp1_.resize(nm);
  }
  exp_e_.resize(nn);
  exp_f_.resize(nm);
  cached_jx_.resize(nn);
  cached_jp_.resize(nm);
  if (sparse_) {
    dense_jx_.resize(nn);
    dense_jp_.resize(nm);
  }
}

// min(1, |J|_1 / |J_p|_1) for dense J (nx x nx) and J_p (nx x np).
double SensitivityPropagator::balance_factor(const std::vector<double>& jx,
                                             const double* jp) const {
  const double a = linalg::norm1(nx_, nx_, jx.data()), c = linalg::norm1(nx_, np_, jp);
  return c > a && a > 0.0 ? a / c : 1.0;
}

// S <- e^{J dt} S + (int_0^dt e^{J s} ds) Jp, both factors from the
// exponential of [[J dt, Jp dt], [0, 0]] (no inverse of J, Eq. 18); with a
// ramp (jp1 given), S <- e^{J dt} S + dt phi1(J dt) Jp_0 + dt phi2(J dt)
// (Jp_1 - Jp_0) from the exponential of [[J dt, dJp dt, Jp_0 dt], [0, 0, I],
// [0, 0, 0]] (linalg/expm.hpp). jx, jp0 and jp1 dense; with sparse J_x
// and J_p (sparse updates) their values too, for sparse products.
void SensitivityPropagator::dense_exponential_step(const std::vector<double>& jx,
                                                   const double* jp0, const double* jp1,
                                                   double dt, const SparseForms* sparse) {
  const std::size_t nn = nx_ * nx_, nm = nx_ * np_;
  // With the identity augmentation the exponential depends on J dt alone;
  // otherwise on J_p too (a ramp's J_p changes every interval: no reuse).
  const bool reuse = dt == cached_dt_ && jx == cached_jx_ &&
                     (augment_with_identity_ ||
                      (!jp1 && std::equal(jp0, jp0 + nm, cached_jp_.begin())));
  if (!reuse) {
    // A sparse J goes in as its values (allocate_dense_exponential).
    const double* a = scaled_jx_.data();
    if (exponential_->sparse_products()) {
      if (!sparse)
        throw Error(Status::internal_error, "dense_exponential_step: sparse J_x values missing");
      for (std::size_t q = 0; q < scaled_jx_values_.size(); ++q)
        scaled_jx_values_[q] = sparse->jx[q] * dt;
      a = scaled_jx_values_.data();
    } else {
      for (std::size_t q = 0; q < nn; ++q) scaled_jx_[q] = jx[q] * dt;
    }
    if (augment_with_identity_) {
      // [[J dt, I], [0, 0]]: phi1(J dt); with a ramp [[J dt, I, 0], [0, 0,
      // I], [0, 0, 0]]: phi1 and phi2 (the b1 = I block gives both).
      std::fill(scaled_jp_.begin(), scaled_jp_.end(), 0.0);
      for (std::size_t i = 0; i < nx_; ++i) scaled_jp_[i + i * nx_] = 1.0;
      if (jp1) {
        std::fill(scaled_jp1_.begin(), scaled_jp1_.end(), 0.0);
        exponential_->compute(a, scaled_jp_.data(), scaled_jp1_.data(),
                              exp_e_.data(), exp_phi2_.data(), exp_integral_.data());
      } else {
        exponential_->compute(a, scaled_jp_.data(), exp_e_.data(),
                              exp_integral_.data());
      }
    } else {
      // F is linear in J_p: take the exponential with J_p scaled to J's
      // 1-norm and scale F back. Scaling and squaring follows the norm of
      // the whole [[J dt, J_p dt], [0, 0]]; a J_p far larger than J (large
      // states) would square a small matrix dozens of times and lose
      // digits (1e-4 relative at |J_p| / |J| = 1e12).
      if (jp1) {
        const double sigma = std::min(balance_factor(jx, jp0), balance_factor(jx, jp1));
        for (std::size_t q = 0; q < nm; ++q) {
          scaled_jp_[q] = sigma * jp0[q] * dt;
          scaled_jp1_[q] = sigma * (jp1[q] - jp0[q]) * dt;
        }
        exponential_->compute(a, scaled_jp1_.data(), scaled_jp_.data(),
                              exp_e_.data(), exp_f_.data());
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
    cached_dt_ = dt;
    std::copy(jx.begin(), jx.end(), cached_jx_.begin());
    std::copy(jp0, jp0 + nm, cached_jp_.begin());
  }
  if (augment_with_identity_ && sparse && sparse->jp0) {
    // The same F, by products with the sparse J_p: n nnz(J_p) instead of n^2 np.
    linalg::dense_times_csc(nx_, exp_integral_.data(), *jp_pattern_, sparse->jp0, exp_f_.data());
    if (jp1) {
      linalg::dense_times_csc(nx_, exp_phi2_.data(), *jp_pattern_, sparse->jp_delta,
                              s_next_.data());
      for (std::size_t q = 0; q < nm; ++q) exp_f_[q] += s_next_[q];
    }
    for (double& v : exp_f_) v *= dt;
  } else if (augment_with_identity_) {
    // F = dt phi1 Jp_0 (+ dt phi2 (Jp_1 - Jp_0))
    gemm(Trans::no, Trans::no, nx_, np_, nx_, dt, exp_integral_.data(), nx_, jp0, nx_, 0.0,
         exp_f_.data(), nx_);
    if (jp1) {
      for (std::size_t q = 0; q < nm; ++q) s_next_[q] = jp1[q] - jp0[q];
      gemm(Trans::no, Trans::no, nx_, np_, nx_, dt, exp_phi2_.data(), nx_, s_next_.data(), nx_,
           1.0, exp_f_.data(), nx_);
    }
  }
  std::copy(exp_f_.begin(), exp_f_.end(), s_next_.begin());
  gemm(Trans::no, Trans::no, nx_, np_, nx_, 1.0, exp_e_.data(), nx_, s_.data(), nx_, 1.0,
       s_next_.data(), nx_);
  std::swap(s_, s_next_);
}

// Algorithm 2's refinement: n_int equal sub-intervals, x interpolated
// linearly between the trajectory points, Jacobians at every sub-point.
void SensitivityPropagator::refined_peano_baker(double t1, const double* x1, std::int64_t n_int) {
  const double t0 = t_;
  const double dt = (t1 - t0) / static_cast<double>(n_int);
  if (constant_jacobians_) {  // n_int identical sub-steps
    peano_baker_.identical_steps(left_, dt, n_int, blocks());
    counters_.sub_intervals += n_int;
    return;
  }
  const Jacobians* a = &left_;
  for (std::int64_t h = 0; h < n_int; ++h) {
    const Jacobians* b = &right_;
    if (h + 1 < n_int) {
      const double w = static_cast<double>(h + 1) / static_cast<double>(n_int);
      interpolate(w, t1 - t0, x1, x_sub_.data());
      Jacobians& target = (a == &sub_b_) ? sub_a_ : sub_b_;
      evaluate(t0 + w * (t1 - t0), x_sub_.data(), target);
      b = &target;
    }
    peano_baker_.step(*a, *b, dt, blocks());
    ++counters_.sub_intervals;
    a = b;
  }
}

void SensitivityPropagator::interpolate(double w, double dt, const double* x1,
                                        double* out) const {
  if (settings_.interpolation == StateInterpolation::linear) {
    for (std::size_t i = 0; i < nx_; ++i) out[i] = x_[i] + w * (x1[i] - x_[i]);
    return;
  }
  const double w2 = w * w, w3 = w2 * w;
  const double h00 = 2 * w3 - 3 * w2 + 1, h10 = (w3 - 2 * w2 + w) * dt;
  const double h01 = -2 * w3 + 3 * w2, h11 = (w3 - w2) * dt;
  for (std::size_t i = 0; i < nx_; ++i)
    out[i] = h00 * x_[i] + h10 * left_.f[i] + h01 * x1[i] + h11 * right_.f[i];
}

double SensitivityPropagator::workspace_bytes() const {
  std::size_t doubles = 0;
  for (const std::vector<double>* v :
       {&x_, &x_sub_, &s_, &s_next_, &s_saved_, &x_saved_, &jp_delta_, &dense_jp1_,
        &scaled_jp1_, &exp_phi2_, &dense_jx_, &dense_jp_, &scaled_jx_, &scaled_jp_, &exp_e_,
        &exp_f_, &exp_integral_, &cached_jx_, &cached_jp_, &scaled_jx_values_})
    doubles += v->capacity();
  for (const Jacobians* j : {&left_, &right_, &sub_a_, &sub_b_, &mid_})
    doubles += j->jx.capacity() + j->jp.capacity() + j->f.capacity();
  double bytes = 8.0 * static_cast<double>(doubles) + peano_baker_.workspace_bytes();
  if (exponential_) bytes += static_cast<double>(exponential_->bytes());
  if (expmv_) bytes += static_cast<double>(expmv_->bytes());
  return bytes;
}

std::vector<double> sensitivities_on_grid(const Model& model, const std::vector<double>& p,
                                          const std::vector<double>& t,
                                          const std::vector<double>& x,
                                          const std::vector<double>& s0,
                                          const Settings& settings, Counters* counters) {
  const std::size_t nx = model.nx(), np = model.np(), n = t.size();
  if (p.size() != np || n == 0 || x.size() != n * nx || s0.size() != nx * np)
    throw Error(Status::invalid_argument,
                "sensitivities_on_grid: need np parameters, >= 1 time, nx states per time and "
                "an nx x np initial sensitivity");
  SensitivityPropagator propagator(model, p.data(), settings);
  propagator.start(t[0], x.data(), s0.data());
  std::vector<double> s(n * nx * np);
  std::copy(s0.begin(), s0.end(), s.begin());
  for (std::size_t k = 1; k < n; ++k) {
    propagator.advance(t[k], x.data() + k * nx);
    std::copy(propagator.s(), propagator.s() + nx * np, s.begin() + k * nx * np);
  }
  if (counters) *counters = propagator.counters();
  return s;
}

}  // namespace odesens::pbs
