#include "methods/pbs/sensitivity_propagator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {

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
      constant_jacobians_(model.has_constant_jacobians()),
      peano_baker_(shape_),
      exponential_(shape_, settings, constant_jacobians_) {
  const std::size_t nm = nx_ * np_;
  // Dense updates hold J_x as an n x n matrix; sparse ones only J's values.
  const std::size_t jx_size = shape_.sparse ? shape_.jx_pattern->nnz() : nx_ * nx_;
  const std::size_t jp_size = shape_.jp_pattern ? shape_.jp_pattern->nnz() : nm;
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
}

// Names the first entry of J_x (dense, or in its pattern's order) that is
// NaN or Inf: "J_x contains NaN or Inf" alone left the user to find it.
void SensitivityPropagator::throw_not_finite_jx(double t, const std::vector<double>& jx) const {
  const SparsityPattern* pattern = shape_.sparse ? shape_.jx_pattern : nullptr;
  const auto& names = model_.state_names();
  std::string entry;
  for (std::size_t c = 0; c < nx_ && entry.empty(); ++c) {
    const auto begin = pattern ? static_cast<std::size_t>(pattern->col_ptr[c]) : c * nx_;
    const auto end = pattern ? static_cast<std::size_t>(pattern->col_ptr[c + 1]) : begin + nx_;
    for (std::size_t k = begin; k < end && entry.empty(); ++k)
      if (!std::isfinite(jx[k])) {
        const auto row = pattern ? static_cast<std::size_t>(pattern->row_idx[k]) : k - begin;
        entry = ", first d(f of '" + names[row] + "')/d('" + names[c] + "')";
      }
  }
  throw Error(Status::not_finite,
              "J_x contains NaN or Inf at t = " + number_text(t) + entry +
                  ": a derivative of f is not finite at the states the solver reached (a root, "
                  "power below 1 or logarithm of a state at or below 0?); cvodes_fsa says "
                  "where its S fails, and tighter tolerances may keep the states off that point");
}

void SensitivityPropagator::evaluate(double t, const double* x, Jacobians& out, Parts parts) {
  if (parts != Parts::jp_only) {
    if (shape_.sparse)
      model_.jac_x_values(t, x, p_, out.jx.data(), workspace_.get());
    else
      model_.jac_x(t, x, p_, out.jx.data(), workspace_.get());
    if (settings_.interpolation == StateInterpolation::hermite)
      model_.rhs(t, x, p_, out.f.data(), workspace_.get());
    out.norm = frobenius_norm(out.jx);
    ++counters_.jacobian_evals;
    if (!std::isfinite(out.norm)) throw_not_finite_jx(t, out.jx);
  }
  if (np_ > 0 && parts != Parts::jx_only) {
    if (shape_.jp_pattern)
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
  if (spectral_) spectral_->forget();
  exponential_until_ = -INFINITY;
}

bool SensitivityPropagator::use_exponential(double dt, std::int64_t& n_int) const {
  const double steps = std::ceil(settings_.c * dt * left_.norm);
  n_int = steps < 1.0 ? 1 : (steps > 1e12 ? std::numeric_limits<std::int64_t>::max()
                                          : static_cast<std::int64_t>(steps));
  if (settings_.algorithm == Algorithm::exp) return true;
  if (settings_.force_pbs) return false;
  if (t_ < exponential_until_) return true;  // plan()'s choice for this step
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
    throw Error(Status::internal_error, "trajectory times must be strictly increasing (" +
                                            number_text(t_) + " to " + number_text(t1) + ")");
  const bool midpoint =
      x_mid && settings_.exp_jacobian == ExpJacobian::midpoint && !constant_jacobians_;
  // exp with midpoint Jacobians never reads those of the ends: evaluate
  // J at the midpoint instead, one pair per interval as before.
  // With error control every step needs J at both ends for its estimate,
  // and so does the change of J_x (Settings::exp_jx).
  const bool need_ends = !(midpoint && settings_.algorithm == Algorithm::exp) || error_ ||
                         exponential_.jx_change();
  const bool use_plan = planned_ && t1 == planned_t_;
  if (!use_plan) evaluate_right_end(t1, x1, need_ends);
  const bool jp_ends = !constant_jacobians_ && (need_ends || np_ > 0);
  std::int64_t n_int = 1;
  if (!need_ends || use_exponential(dt, n_int))
    exponential_interval(dt, x_mid, midpoint, jp_ends, use_plan, need_ends);
  else
    peano_baker_interval(t1, x1, n_int);
  planned_ = false;
  t_ = t1;
  std::copy(x1, x1 + nx_, x_.begin());
  ends_swapped_ = need_ends || jp_ends;
  if (ends_swapped_) std::swap(left_, right_);
}

void SensitivityPropagator::evaluate_right_end(double t1, const double* x1, bool need_ends) {
  if (constant_jacobians_) {
    right_.jx = left_.jx;
    right_.jp = left_.jp;
    right_.norm = left_.norm;
    if (settings_.interpolation == StateInterpolation::hermite)
      model_.rhs(t1, x1, p_, right_.f.data(), workspace_.get());
  } else if (need_ends) {
    evaluate(t1, x1, right_);
  } else if (np_ > 0) {
    // J_x comes from the midpoint; J_p at the end for the ramp, or with a
    // frozen J_p for its lag indicator (Counters::frozen_jp_lag).
    evaluate(t1, x1, right_, Parts::jp_only);
  }
}

void SensitivityPropagator::exponential_interval(double dt, const double* x_mid, bool midpoint,
                                                 bool jp_ends, bool mid_ready, bool ends_jx) {
  const bool ramp = exponential_.ramp();
  // J_p at the midpoint too where the ramp of J_p starts from it
  // (ExponentialUpdate::ramp_start: J_x frozen at the midpoint, its ends known).
  if (midpoint && !mid_ready)
    evaluate(t_ + 0.5 * dt, x_mid, mid_, ramp && !ends_jx ? Parts::jx_only : Parts::both);
  const bool mean =
      !midpoint && settings_.exp_jacobian == ExpJacobian::mean && !constant_jacobians_;
  if (mean) {
    for (std::size_t q = 0; q < mid_.jx.size(); ++q)
      mid_.jx[q] = 0.5 * (left_.jx[q] + right_.jx[q]);
    for (std::size_t q = 0; q < mid_.jp.size(); ++q)
      mid_.jp[q] = 0.5 * (left_.jp[q] + right_.jp[q]);
  }
  const Jacobians& at = midpoint || mean ? mid_ : left_;
  using Frozen = ExponentialUpdate::Frozen;
  const Frozen frozen = !ends_jx ? Frozen::ends_unknown
                        : midpoint ? Frozen::at_midpoint
                                   : Frozen::elsewhere;
  exponential_.step(at, left_, right_, dt, blocks(), counters_, frozen);
  ++counters_.exp_intervals;
  if (!ramp && jp_ends && dt * at.norm > 1.0)
    counters_.frozen_jp_lag =
        std::max(counters_.frozen_jp_lag, 0.5 * relative_change(left_.jp, right_.jp));
}

void SensitivityPropagator::peano_baker_interval(double t1, const double* x1, std::int64_t n_int) {
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

// Advances to (t, x), reads S, and puts everything back. After advance()
// right_ holds the Jacobians of the old left end if it swapped them, and no
// Peano-Baker steps are pending, so swapping back restores the state; the
// caches of the exponential and of the transition matrices are keyed by
// their inputs and stay valid. Only the Jacobian evaluations count.
void SensitivityPropagator::sensitivity_at(double t, const double* x, const double* x_mid,
                                           double* s_out) {
  const double t_saved = t_;
  const bool plan_kept = planned_ && t == planned_t_;
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
  // Swapped back, right_ and mid_ are the plan's again when t is its end.
  planned_ = plan_kept;
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
  for (const std::vector<double>* v : {&x_, &x_sub_, &s_, &s_next_, &s_saved_, &x_saved_})
    doubles += v->capacity();
  for (const Jacobians* j : {&left_, &right_, &sub_a_, &sub_b_, &mid_})
    doubles += j->jx.capacity() + j->jp.capacity() + j->f.capacity();
  for (const std::vector<double>* v : {&saved_x_, &saved_s_, &saved_left_.jx, &saved_left_.jp,
                                       &saved_left_.f})
    doubles += v->capacity();
  return 8.0 * static_cast<double>(doubles) + peano_baker_.workspace_bytes() +
         exponential_.workspace_bytes() + (error_ ? error_->workspace_bytes() : 0.0) +
         (spectral_ ? spectral_->workspace_bytes() : 0.0);
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
