#include "integrate/step_control.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {

namespace {
bool finite_non_negative(double v) { return std::isfinite(v) && v >= 0; }
}  // namespace

void Tolerances::validate(std::size_t n) const {
  if (!finite_non_negative(rtol))
    throw Error(Status::invalid_argument, "rtol must be finite and >= 0");
  if (!atol_per_state.empty() && atol_per_state.size() != n)
    throw Error(Status::invalid_argument, "atol has " + std::to_string(atol_per_state.size()) +
                                              " values for " + std::to_string(n) + " states");
  bool any_atol_zero = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!finite_non_negative(atol_of(i)))
      throw Error(Status::invalid_argument, "atol must be finite and >= 0");
    any_atol_zero = any_atol_zero || atol_of(i) == 0;
  }
  if (rtol == 0 && any_atol_zero)
    throw Error(Status::invalid_argument, "rtol and atol must not both be zero");
}

void error_weights(const Tolerances& tol, std::size_t n, std::size_t lanes, const double* x_old,
                   const double* x_new, double* w) {
  for (std::size_t i = 0; i < n; ++i) {
    const double atol = tol.atol_of(i);
    for (std::size_t l = 0; l < lanes; ++l) {
      const std::size_t k = i * lanes + l;
      const double scale = x_new ? std::max(std::fabs(x_old[k]), std::fabs(x_new[k]))
                                 : std::fabs(x_old[k]);
      w[k] = 1.0 / (atol + tol.rtol * scale);
    }
  }
}

void weighted_sum_squares(std::size_t n, std::size_t lanes, const double* e, const double* w,
                          double* sums) {
  for (std::size_t l = 0; l < lanes; ++l) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = e[i * lanes + l] * w[i * lanes + l];
      s += v * v;
    }
    sums[l] = s;
  }
}

double weighted_rms_norm(std::size_t n, std::size_t lanes, const double* e, const double* w) {
  double norm = 0;
  for (std::size_t l = 0; l < lanes; ++l) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = e[i * lanes + l] * w[i * lanes + l];
      s += v * v;
    }
    const double lane_norm = n ? std::sqrt(s / static_cast<double>(n)) : 0.0;
    // NaN must win, so that a non-finite error is never mistaken for a small one.
    if (!(lane_norm <= norm)) norm = lane_norm;
  }
  return norm;
}

PiController::PiController(int p_hat, PiSettings settings)
    : settings_(settings),
      p_hat_(p_hat),
      alpha_(settings.alpha_gain / (p_hat + 1)),
      beta_(settings.beta_gain / (p_hat + 1)) {
  if (p_hat < 1) throw Error(Status::invalid_argument, "PI controller needs an error order >= 1");
  if (!(settings.factor_min > 0 && settings.factor_min <= 1 && settings.factor_max >= 1 &&
        settings.safety > 0 && settings.safety <= 1))
    throw Error(Status::invalid_argument,
                "PI controller needs 0 < factor_min <= 1 <= factor_max and 0 < safety <= 1");
}

double PiController::factor_after_accept(double err) {
  // A zero error (e.g. f constant) would ask for an infinite step: the clamp decides.
  const double e = std::max(err, 1e-10);
  double factor = settings_.safety * std::pow(e, -alpha_) * std::pow(err_previous_, beta_);
  factor = std::clamp(factor, settings_.factor_min, settings_.factor_max);
  if (rejected_last_) factor = std::min(factor, 1.0);
  // Floor of the memory as in Hairer's dopri5/dop853 (FACOLD = max(ERR, 1e-4)).
  err_previous_ = std::max(err, 1e-4);
  rejected_last_ = false;
  return factor;
}

double PiController::factor_after_reject(double err) {
  double factor = settings_.safety * std::pow(err, -1.0 / (p_hat_ + 1));
  factor = std::clamp(factor, settings_.factor_min, 1.0);
  rejected_last_ = true;
  return factor;
}

void PiController::reset() {
  err_previous_ = 1.0;
  rejected_last_ = false;
}

namespace {
// Per-trajectory weighted RMS norm (weights w) of v for lane l.
double lane_norm(std::size_t n, std::size_t lanes, std::size_t l, const double* v,
                 const double* w) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double q = v[i * lanes + l] * w[i * lanes + l];
    s += q * q;
  }
  return std::sqrt(s / static_cast<double>(n));
}
}  // namespace

double initial_step(const Tolerances& tol, const InitialStepInput& in, const RhsCallback& rhs,
                    const InitialStepScratch& scratch) {
  const std::size_t n = in.n, lanes = in.lanes, size = n * lanes;
  const double h_max = in.h_max > 0 ? in.h_max : std::numeric_limits<double>::infinity();
  // (a) sc_i = atol_i + rtol*|x0_i|, d0 = ||x0||, d1 = ||f0||; (b) h0 = 0.01 d0/d1,
  // or 1e-6 when either is tiny. One h0 serves all trajectories: the smallest.
  error_weights(tol, n, lanes, in.x0, nullptr, scratch.weights);
  double h0 = h_max, d1_max = 0;
  for (std::size_t l = 0; l < lanes; ++l) {
    const double d0 = lane_norm(n, lanes, l, in.x0, scratch.weights);
    const double d1 = lane_norm(n, lanes, l, in.f0, scratch.weights);
    const double h0_lane = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    h0 = std::min(h0, h0_lane);
    d1_max = std::max(d1_max, d1);
  }
  // (c) one explicit Euler step and f at its end.
  const double h0_signed = in.direction * h0;
  for (std::size_t k = 0; k < size; ++k) scratch.x1[k] = in.x0[k] + h0_signed * in.f0[k];
  rhs(in.t0 + h0_signed, scratch.x1, scratch.f1);
  // (d) d2 = ||f1 - f0|| / h0, an estimate of the second derivative (x1 is free now).
  for (std::size_t k = 0; k < size; ++k) scratch.x1[k] = scratch.f1[k] - in.f0[k];
  double d12_max = d1_max;
  for (std::size_t l = 0; l < lanes; ++l)
    d12_max = std::max(d12_max, lane_norm(n, lanes, l, scratch.x1, scratch.weights) / h0);
  // (e) h1 from h1^(p+1) * max(d1, d2) = 0.01; (f) h = min(100 h0, h1, h_max).
  const double h1 = d12_max <= 1e-15 ? std::max(1e-6, h0 * 1e-3)
                                     : std::pow(0.01 / d12_max, 1.0 / (in.order + 1));
  return in.direction * std::min({100 * h0, h1, h_max});
}

StepAttempt next_step_attempt(long attempts, long max_steps, double t, double t_limit,
                              double direction, double h_next, double h_max, bool adaptive) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  constexpr double stretch = 1e-6;
  if (attempts >= max_steps)
    throw Error(Status::too_much_work, "max_steps (" + std::to_string(max_steps) +
                                           ") reached at t = " + number_text(t));
  StepAttempt a;
  const double bound = h_max > 0 ? h_max : std::numeric_limits<double>::infinity();
  a.h_proposed = direction * std::min(std::fabs(h_next), bound);
  if (adaptive && !(std::fabs(a.h_proposed) > 16 * eps * std::fabs(t)))
    throw Error(Status::solver_failed, "step size " + number_text(a.h_proposed) +
                                           " below 16 eps |t| at t = " + number_text(t) +
                                           " (the solution may blow up there)");
  a.h = a.h_proposed;
  a.lands = direction * (t + a.h * (1 + stretch) - t_limit) >= 0;
  if (a.lands) a.h = t_limit - t;
  return a;
}

}  // namespace odesens::integrate
