#include "methods/odesd/odesd_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "integrate/step_control.hpp"
#include "methods/odesd/error_estimate.hpp"
#include "methods/odesd/hermite_quintic.hpp"
#include "methods/odesd/predictor.hpp"
#include "methods/odesd/second_derivative_rule.hpp"
#include "core/finite_values.hpp"
#include "core/number_text.hpp"
#include "methods/odesd/sensitivity_step.hpp"

namespace odesens::odesd {

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();
// Refinements of one Eq. 15 solve; a residual still above the tolerance
// after them is left to the error estimate.
constexpr int max_sensitivity_refinements = 3;

bool sparse_storage(const Model& model, const Settings& s) {
  using integrate::NewtonBackendKind;
  if (s.linear_solver.backend == NewtonBackendKind::klu) return true;
  if (s.linear_solver.backend == NewtonBackendKind::dense_lu) return false;
  return model.nx() >= s.linear_solver.sparse_threshold && model.jac_x_pattern() != nullptr;
}

// Eq. 12 (label inferred): the paper aims the next step at half the
// tolerance, h_new = h (τ/(2ε))^(1/5), τ = 1 in our weighted norm.
double step_factor(double err, const Settings& s) {
  if (err <= 0.0) return s.factor_max;
  return std::clamp(std::pow(0.5 / err, 0.2), s.factor_min, s.factor_max);
}

}  // namespace

OdesdStepper::OdesdStepper(const Model& model, const double* p, Workspace* ws,
                           const Settings& settings, double t0, const double* x0,
                           const double* S0, double t_end)
    : settings_(settings),
      d_(model, p, ws, sparse_storage(model, settings), S0 != nullptr),
      N_(model.nx(), {d_.j_pattern(), d_.ja_pattern()}, settings.linear_solver),
      n_(model.nx()),
      np_(S0 ? model.np() : 0),
      len_(n_ * (1 + np_)),
      t_(t0) {
  for (auto* v : {&ym1_, &ydm1_, &yddm1_, &y0_, &yd0_, &ydd0_, &y1_, &yd1_, &ydd1_, &err_})
    v->assign(len_, 0.0);
  for (auto* v : {&weights_, &delta_, &adot0_, &j_diagonal0_, &j_diagonal1_}) v->assign(n_, 0.0);

  std::copy(x0, x0 + n_, y0_.begin());
  if (S0) std::copy(S0, S0 + n_ * np_, y0_.begin() + static_cast<std::ptrdiff_t>(n_));
  begin(t_end);
}

bool OdesdStepper::state_tolerances(const double* x, double* tol) const {
  for (std::size_t i = 0; i < n_; ++i) tol[i] = settings_.tolerances.of(i, x[i]);
  return true;
}

void OdesdStepper::restart(double t, const double* y) {
  t_ = t;
  std::copy(y, y + len_, y0_.begin());
  has_previous_ = false;  // the predictor and g5 start afresh (first-step forms)
  restart_from_x0_ = false;
  refresh_jacobians_ = false;
  saw_non_finite_ = false;
  factored_h_ = 0.0;
  begin(t_end_);
}

// The derivatives at (t_, y0_) and the first step: at t0 and after a restart.
void OdesdStepper::begin(double t_end) {
  t_end_ = t_end;
  d_.f(t_, y0_.data(), yd0_.data());
  d_.a(t_, y0_.data(), ydd0_.data());
  if (!all_finite(n_, yd0_.data()) || !all_finite(n_, ydd0_.data()))
    throw Error(Status::not_finite,
                "odesd: f or its time derivative a = J f + df/dt is not finite at t=" +
                    number_text(t_) + " (check x0 and the parameters)");
  // The Jacobian set at x0: Ṡ0 and S̈0 (Eq. 13), the first step's ȧ0, and
  // with sensitivities the first Newton matrix.
  d_.evaluate_jacobians(t_, y0_.data());
  jacobians_at_x0_ = true;
  if (np_ > 0)
    sensitivity_derivatives(d_, y0_.data() + n_, yd0_.data() + n_, ydd0_.data() + n_);
  d_.multiply_ja(1, yd0_.data(), adot0_.data());  // ȧ0 = J_a f0 + ∂a/∂t
  d_.a_dt(t_, y0_.data(), delta_.data());
  for (std::size_t i = 0; i < n_; ++i) adot0_[i] += delta_[i];
  h_ = settings_.fixed_step > 0.0 ? settings_.fixed_step : initial_step(t_end);
}

// Our starting step (the paper gives none): the step whose Taylor terms
// h‖f0‖ and h²‖a0‖/2 stay near 1% of the tolerance, in the style of HNW I
// §II.4, bounded by the span and h_max.
double OdesdStepper::initial_step(double t_end) {
  double h = settings_.h0;
  if (h <= 0.0) {
    integrate::error_weights(settings_.tolerances, n_, 1, y0_.data(), nullptr, weights_.data());
    const double d0 = integrate::weighted_rms_norm(n_, 1, y0_.data(), weights_.data());
    const double d1 = integrate::weighted_rms_norm(n_, 1, yd0_.data(), weights_.data());
    const double d2 = integrate::weighted_rms_norm(n_, 1, ydd0_.data(), weights_.data());
    const double h_f = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    const double h_order = std::pow(0.01 / std::max({d1, std::sqrt(d2), 1e-15}), 0.2);
    h = std::min(100.0 * h_f, h_order);
    if (d1 <= 1e-15 && d2 <= 1e-15) h = 1e-3 * std::fabs(t_end - t_);
  }
  if (settings_.h_max > 0.0) h = std::min(h, settings_.h_max);
  const double span = std::fabs(t_end - t_);
  if (span > 0.0) h = std::min(h, span);
  return h > 0.0 ? h : 1e-6;
}

void OdesdStepper::step(double t_limit) {
  while (attempt(t_limit) == Attempt::retry) {
  }
}

[[noreturn]] void OdesdStepper::fail(Status status, const std::string& why, double h) const {
  throw Error(status, "odesd: " + why + " at t=" + number_text(t_) +
                          " (step size h=" + number_text(h) + ")");
}

// M = I − h/2 J + h²/12 J_a with the held Jacobian set; false when singular.
bool OdesdStepper::set_and_factor(double h) {
  const std::uint64_t v = d_.version();
  N_.set(1.0, {{-0.5 * h, d_.j_values(), v}, {h * h / 12.0, d_.ja_values(), v}});
  factored_h_ = 0.0;
  if (!N_.factor()) {
    ++stats_.singular_matrices;
    return false;
  }
  factored_h_ = h;
  factored_version_ = v;
  return true;
}

void OdesdStepper::predict(double h, double* x1) const {
  if (restart_from_x0_)
    std::copy(y0_.begin(), y0_.begin() + static_cast<std::ptrdiff_t>(n_), x1);
  else if (settings_.predictor == PredictorKind::quintic && has_previous_)
    quintic_predictor(n_, h_prev_, h, ym1_.data(), ydm1_.data(), yddm1_.data(), y0_.data(),
                      yd0_.data(), ydd0_.data(), x1);
  else
    taylor_predictor(n_, h, y0_.data(), yd0_.data(), ydd0_.data(), x1);
}

// ‖M⁻¹(g5 − x1)‖ over the states (Eq. 11) with the LU Newton used.
double OdesdStepper::state_error(double h) {
  if (has_previous_)
    g5_minus_x1(n_, g5_coefficients(h_prev_ / h), h, ym1_.data(), y0_.data(), yd0_.data(),
                ydd0_.data(), y1_.data(), yd1_.data(), ydd1_.data(), err_.data());
  else
    first_step_g5_minus_x1(n_, h, y0_.data(), yd0_.data(), ydd0_.data(), adot0_.data(),
                           y1_.data(), yd1_.data(), ydd1_.data(), err_.data());
  N_.solve(1, err_.data());
  return integrate::weighted_rms_norm(n_, 1, err_.data(), weights_.data());
}

// The same estimate for S, with the LU of Eq. 15, in sensitivity_norm.
// There is no S₋₁ on the first step: S is not tested there.
//
// The rounding of the terms Eq. 15 sums into S1, eps (h/2)(|J||S| + |F_p|)
// + eps (h²/12)(|J_a||S| + |A_p|), is part of the step's error and is not
// forgiven: it shrinks with h, and where it passes the test S keeps it. On
// a chain of fast reversible reactions (rates 1e5, 20 species, rtol 1e-8)
// S came out 1.2e-4 off with every step accepted when the test's weights
// were raised by that rounding; judged as any other error it is 1.6e-7
// (10 000 steps instead of 335). Laske_PLOSComputBiol2019 at rtol 1e-8
// takes 1.9 times the steps it took with the raised weights over its span
// (3.5 times over [10, 100]), at the same error (7e-9 against cvodes_fsa at
// rtol 1e-11), and Lang_PLOSComputBiol2024 at the defaults 3.4 times (164
// s); the other shared and held-back models take the same steps.
double OdesdStepper::sensitivity_error(double h) {
  if (!has_previous_ || np_ == 0) return 0.0;
  const std::size_t len = n_ * np_, off = n_;
  g5_minus_x1(len, g5_coefficients(h_prev_ / h), h, ym1_.data() + off, y0_.data() + off,
              yd0_.data() + off, ydd0_.data() + off, y1_.data() + off, yd1_.data() + off,
              ydd1_.data() + off, err_.data() + off);
  N_.solve(np_, err_.data() + off);
  return sensitivity_norm(err_.data() + off);
}

// e (n x np) in cvodes_fsa's norm for S: weights 1/(atol_i/p̄_j + rtol |S_ij|)
// with |S_ij| the larger at the two ends of the step, the largest RMS over
// the columns.
double OdesdStepper::sensitivity_norm(const double* e) const {
  const double rtol = settings_.tolerances.rtol;
  double worst = 0.0;
  for (std::size_t j = 0; j < np_; ++j) {
    const double scale = settings_.param_scale[j];
    double sum = 0.0;
    for (std::size_t i = 0; i < n_; ++i) {
      const std::size_t q = n_ + i + j * n_;
      const double w = settings_.tolerances.atol_of(i) / scale +
                       rtol * std::max(std::fabs(y0_[q]), std::fabs(y1_[q]));
      const double ratio = e[i + j * n_] / w;
      sum += ratio * ratio;
    }
    worst = std::max(worst, std::sqrt(sum / static_cast<double>(n_)));
  }
  return worst;
}

// Eq. 15 for S1, refined while its residual is above the Newton tolerance
// in S's error norm. A badly scaled M (rows of stiff components, where
// h²/12 J_a reaches 1e10 and more, beside rows of order 1) lets the LU solve
// leave a residual far above the tolerance of the small entries of S; the g5
// estimate then measures that residual, not the local error, and drives h
// down (Laske_PLOSComputBiol2019: 130 000 steps instead of 2 000). Iterative
// refinement, with the residual formed from Ṡ1 and S̈1, removes it. It stops
// once a refinement no longer halves the residual: what is left is rounding
// in Ṡ1 and S̈1 themselves (on Lang_PLOSComputBiol2024, S̈ = J_a S + A_p is a
// difference of terms 1e12 times larger), which no solve can remove; it
// enters the estimate and costs steps, as it should, since S carries it.
// Where the LU solve is accurate the check costs O(n·np).
void OdesdStepper::solve_sensitivities(double h) {
  const std::size_t off = n_;
  const double* S0 = y0_.data() + off;
  const double* Sd0 = yd0_.data() + off;
  const double* Sdd0 = ydd0_.data() + off;
  double* S1 = y1_.data() + off;
  double* Sd1 = yd1_.data() + off;
  double* Sdd1 = ydd1_.data() + off;
  double* r = err_.data() + off;  // free until sensitivity_error
  sensitivity_step(d_, N_, h, S0, Sd0, Sdd0, S1, Sd1, Sdd1);
  double last = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= max_sensitivity_refinements; ++k) {
    sensitivity_residual(n_ * np_, h, S0, Sd0, Sdd0, S1, Sd1, Sdd1, r);
    const double norm = sensitivity_norm(r);
    if (!(norm > settings_.newton_tolerance) || !(norm < 0.5 * last) ||
        k == max_sensitivity_refinements)
      return;
    last = norm;
    refine_sensitivities(d_, N_, r, S1, Sd1, Sdd1);
    ++stats_.sensitivity_refinements;
  }
}

// Accepted steps that set Newton's Jacobians at x0 after the predictor's
// made Newton fail (states only). Where stiff components are large, the
// predictor (built from f and a = J f) carries them far from the solution,
// and Jacobians there, of mass action with rates of 5e5, are far from the
// ones Newton needs: on Brannmark_JBC2010 every step failed once with them
// and was retried from x0 (3286 steps, 8296 Jacobian sets, 13.6 ms). With
// the x0 set after such a failure: 396 steps, 2.0 ms. Always at x0 is worse
// elsewhere (Laske_PLOSComputBiol2019: 2893 steps against 660), so the
// predictor's set is tried again after these steps (Laske: 677).
constexpr long kX0JacobianSteps = 50;

// A failed Newton iteration, or a root refused: retry the same h once more
// from x0 itself with a Jacobian set at x0 (predictors built from f and a
// amplify stiff components: a = J f is large where the rule, with
// |R(-inf)| = 1, leaves them undamped), then shrink h.
OdesdStepper::Attempt OdesdStepper::after_newton_failure(double h, bool not_finite) {
  ++stats_.newton_failures;
  if (np_ == 0 && settings_.jacobian_update == JacobianUpdate::every_step && !restart_from_x0_ &&
      x0_jacobian_steps_ == 0)
    predictor_jacobians_failed_ = true;
  saw_non_finite_ = saw_non_finite_ || not_finite;
  const bool retry_same_h = !not_finite && (!jacobians_at_x0_ || !restart_from_x0_);
  if (!jacobians_at_x0_) {
    d_.evaluate_jacobians(t_, y0_.data());
    jacobians_at_x0_ = true;
  }
  if (retry_same_h) {
    restart_from_x0_ = true;
    return Attempt::retry;
  }
  shrink_after_failure(h, not_finite ? "f or a became NaN or Inf in the Newton iteration"
                                     : "the Newton iteration did not converge");
  return Attempt::retry;
}

// True when a component that was not growing at x0 (J_ii <= 0) grows at
// the candidate x1 faster than the step resolves (h J_ii > 6). Such an x1
// is a spurious root of the rule: with f and a large enough, Eq. 7 has roots
// far from x0, and Eq. 11 cannot see them, since M⁻¹ = (1 − z/2 + z²/12)⁻¹
// shrinks the estimate of a component with |z| = |h J_ii| > 6 whatever the
// sign of z. On Laske_PLOSComputBiol2019 at rtol 1e-6 Newton converged to
// the mirror image of two stiff species (P_B1 = P_B2 = 0.2139 became
// -0.2138, h J_ii = -1288 at x0 and +1288 at x1), and the estimate passed it.
// A growing component with h J_ii > 6 is never resolved (its growth over
// the step exceeds e^6), so no accurate step is refused.
bool OdesdStepper::turned_to_unresolved_growth(double h) {
  d_.j_diagonal(j_diagonal1_.data());
  for (std::size_t i = 0; i < n_; ++i)
    if (j_diagonal0_[i] <= 0.0 && h * j_diagonal1_[i] > 6.0) return true;
  return false;
}

void OdesdStepper::shrink_after_failure(double h, const char* why) {
  if (settings_.fixed_step > 0.0)
    fail(saw_non_finite_ ? Status::not_finite : Status::solver_failed,
         std::string(why) + " on fixed steps", h);
  h_ = 0.25 * h;
  restart_from_x0_ = true;
}

void OdesdStepper::reject(double h, double err) {
  ++stats_.error_test_failures;
  h_ = h * std::min(1.0, step_factor(err, settings_));
}

void OdesdStepper::accept(double t1, double h, double err) {
  ++stats_.steps;
  std::swap(ym1_, y0_);
  std::swap(ydm1_, yd0_);
  std::swap(yddm1_, ydd0_);
  std::swap(y0_, y1_);
  std::swap(yd0_, yd1_);
  std::swap(ydd0_, ydd1_);
  t_prev_ = t_;
  t_ = t1;
  h_prev_ = h;
  has_previous_ = true;
  restart_from_x0_ = false;
  saw_non_finite_ = false;
  if (predictor_jacobians_failed_) x0_jacobian_steps_ = kX0JacobianSteps;
  else if (x0_jacobian_steps_ > 0) --x0_jacobian_steps_;
  predictor_jacobians_failed_ = false;
  // With S the set was just evaluated at the new x0; states only it was at
  // the predictor of the step now behind.
  jacobians_at_x0_ = np_ > 0;
  if (settings_.fixed_step > 0.0) {
    h_ = settings_.fixed_step;
    return;
  }
  h_ = h * step_factor(err, settings_);
  if (settings_.h_max > 0.0) h_ = std::min(h_, settings_.h_max);
}

// max_steps since the last output time, max_total_steps over the solve.
void OdesdStepper::check_budgets(double t_limit) const {
  if (static_cast<long>(stats_.attempts - budget_start_) >= settings_.max_attempts)
    throw Error(Status::too_much_work,
                "odesd: max_steps (" + std::to_string(settings_.max_attempts) +
                    ") step attempts since the last output time, at t = " + number_text(t_) +
                    " before t = " + number_text(t_limit));
  if (settings_.max_total_attempts > 0 &&
      static_cast<long>(stats_.attempts) >= settings_.max_total_attempts)
    throw Error(Status::too_much_work,
                "odesd: max_total_steps (" + std::to_string(settings_.max_total_attempts) +
                    ") step attempts over the solve, at t = " + number_text(t_) +
                    " before t = " + number_text(t_limit));
}

void OdesdStepper::refuse_collapsed_step(double h) const {
  if (saw_non_finite_)
    fail(Status::not_finite, "step size collapsed while f or a was NaN or Inf", h);
  // Steps still accepted within 100x of the collapsed h: Newton and the
  // error test kept passing while h shrank step by step, as h tracks the
  // distance to a pole (x' = x^2, or a neighbouring trajectory of an
  // ill-conditioned model that blows up), not a failing iteration.
  if (has_previous_ && h_prev_ <= 100.0 * h) {
    double largest = 0.0;
    for (std::size_t i = 0; i < n_; ++i) largest = std::max(largest, std::fabs(y0_[i]));
    fail(Status::solver_failed,
         "step size collapsed, the solution may blow up (steps kept passing Newton and the "
         "error test down to h=" + number_text(h_prev_) + ", |x| up to " +
             number_text(largest) + ")",
         h);
  }
  fail(Status::solver_failed, "step size collapsed (Newton or error test kept failing)", h);
}

// Newton's matrix for the step to t1: with S the set held at x0; states
// only at the predictor y1_, or at x0 for a while after the predictor's set
// made Newton fail. False when it is singular (the step is to be retried).
bool OdesdStepper::newton_matrix_for(double h, double t1) {
  const bool states_only = np_ == 0;
  const bool lazy = settings_.jacobian_update == JacobianUpdate::lazy && states_only;
  if (states_only && (!lazy || refresh_jacobians_)) {
    if (!lazy && x0_jacobian_steps_ > 0 && !restart_from_x0_) {
      if (!jacobians_at_x0_) d_.evaluate_jacobians(t_, y0_.data());
    } else {
      d_.evaluate_jacobians(t1, y1_.data());
    }
    refresh_jacobians_ = false;
    jacobians_at_x0_ = true;  // current for this step
  }
  // lazy: the LU of an h within 30% of this one still makes Newton contract
  // (CVODES' rule for its own matrix); else M is rebuilt for this h.
  const bool keep_lu = lazy && factored_version_ == d_.version() && factored_h_ > 0.0 &&
                       std::fabs(h / factored_h_ - 1.0) <= 0.3;
  if (keep_lu || set_and_factor(h)) return true;
  shrink_after_failure(h, "the Newton matrix I - h/2 J + h^2/12 J_a is singular");
  return false;
}

// S over the step whose states passed (Eq. 15), and its error test when
// asked; err is the step's error so far, raised by S's.
OdesdStepper::Attempt OdesdStepper::sensitivities_over_step(double h, double t1, double& err) {
  const bool controlled = settings_.fixed_step <= 0.0;
  // The paper's reuse: the set at x1 serves Eq. 15 now and Newton next step.
  const bool held_at_x0 = jacobians_at_x0_;
  if (held_at_x0) d_.j_diagonal(j_diagonal0_.data());
  d_.evaluate_jacobians(t1, y1_.data());
  jacobians_at_x0_ = false;  // at the candidate, not yet the accepted x0
  if (controlled && held_at_x0 && turned_to_unresolved_growth(h)) {
    ++stats_.spurious_roots;
    return after_newton_failure(h, false);
  }
  if (!set_and_factor(h)) {
    shrink_after_failure(h, "the sensitivity matrix I - h/2 J + h^2/12 J_a is singular");
    return Attempt::retry;
  }
  solve_sensitivities(h);
  if (!all_finite(n_ * np_, y1_.data() + n_)) {
    saw_non_finite_ = true;
    shrink_after_failure(h, "S became NaN or Inf");
    return Attempt::retry;
  }
  if (!controlled || !settings_.sens_error_control) return Attempt::accepted;
  double err_s = sensitivity_error(h);
  if (!std::isfinite(err_s)) err_s = 1e10;
  err = std::max(err, err_s);
  if (err <= 1.0) return Attempt::accepted;
  reject(h, err);
  return Attempt::retry;
}

OdesdStepper::Attempt OdesdStepper::attempt(double t_limit) {
  check_budgets(t_limit);
  ++stats_.attempts;
  double h = h_;
  // The step ends on t_limit when it would pass it or stop just short.
  const bool last = t_limit - t_ <= 1.01 * h;
  if (last) h = t_limit - t_;
  const bool below_resolution = !(h > 16.0 * eps * std::max(std::fabs(t_), std::fabs(h)));
  if (last && below_resolution && h > 0.0) return step_within_rounding(t_limit);
  if (below_resolution) refuse_collapsed_step(h);
  const double t1 = last ? t_limit : t_ + h;

  predict(h, y1_.data());
  if (!newton_matrix_for(h, t1)) return Attempt::retry;
  integrate::error_weights(settings_.tolerances, n_, 1, y0_.data(), nullptr, weights_.data());
  NewtonControl control{settings_.newton_max_iterations, settings_.newton_tolerance, rate_};
  const RuleStep rule{t1, h, y0_.data(), yd0_.data(), ydd0_.data(), weights_.data(),
                      y1_.data(), yd1_.data(), ydd1_.data(), delta_.data(), err_.data()};
  const NewtonOutcome newton = solve_rule(d_, N_, rule, control);
  stats_.newton_iterations += static_cast<std::size_t>(newton.iterations);
  if (newton.iterations > 1) rate_ = newton.rate;
  if (!newton.converged) return after_newton_failure(h, newton.not_finite);
  const bool lazy = settings_.jacobian_update == JacobianUpdate::lazy && np_ == 0;
  if (lazy && newton.iterations > 1 && newton.rate > 0.3) refresh_jacobians_ = true;

  const bool controlled = settings_.fixed_step <= 0.0;
  integrate::error_weights(settings_.tolerances, n_, 1, y0_.data(), y1_.data(), weights_.data());
  double err = controlled ? state_error(h) : 0.0;
  if (!std::isfinite(err)) err = 1e10;
  if (err > 1.0) {
    reject(h, err);
    return Attempt::retry;
  }
  if (np_ > 0 && sensitivities_over_step(h, t1, err) == Attempt::retry) return Attempt::retry;
  accept(t1, h, err);
  return Attempt::accepted;
}

// t_limit a few ulps of t ahead (an output just after a switch where the
// solver restarted, `t <= 0.3 - 1e-15` before the output 0.3): no step of
// the rule resolves it, and x, S move by the Taylor terms h f + h^2/2 a.
OdesdStepper::Attempt OdesdStepper::step_within_rounding(double t_limit) {
  const double h = t_limit - t_;
  for (std::size_t i = 0; i < len_; ++i) y0_[i] += h * (yd0_[i] + 0.5 * h * ydd0_[i]);
  t_ = t_limit;
  return Attempt::accepted;
}

void OdesdStepper::interpolate(double t, double* out) {
  if (!has_previous_) {
    std::copy(y0_.begin(), y0_.end(), out);
    return;
  }
  quintic_hermite(len_, (t - t_prev_) / h_prev_, h_prev_, ym1_.data(), ydm1_.data(),
                  yddm1_.data(), y0_.data(), yd0_.data(), ydd0_.data(), out);
}

}  // namespace odesens::odesd
