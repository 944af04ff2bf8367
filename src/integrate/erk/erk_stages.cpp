// The arithmetic of one ERK step: stages, the new state, the error estimate
// and the lazy dense-output stages. All stage combinations go through the
// lane kernels, so every lane width computes the same numbers.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "integrate/erk/dense_output.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate::erk {

namespace {
const double* a_row(const Tableau& tab, int i) { return tab.a + i * (i - 1) / 2; }
}  // namespace

void ErkEngine::evaluate(int i, double t_i, const double* Y, double* k) {
  system_.rhs(t_i, Y, k);
  ++stats_.rhs_evaluations;
  if (!kernels_->all_finite(n_, k))
    throw Error(Status::not_finite,
                "f returned NaN or Inf at t = " + number_text(t_i) + " (stage " +
                    std::to_string(i) +
                    " of an explicit step): the stage's states left where f has a value; on a "
                    "stiff model a step this long overshoots (cvodes_fsa, odesd or grk4as suit "
                    "it), else f is undefined there (a root or logarithm of a negative state)");
}

// k_0 = f(t_n, x_n): reused from the last step when the method is FSAL or
// when dense output already evaluated f(t_n, x_n) as an extra stage.
void ErkEngine::prepare_first_stage() {
  if (first_stage_ready_) return;
  double** k = workspace_.stages();
  if (fsal_pending_) {
    std::swap(k[0], k[tableau_.stages - 1]);
  } else if (dense_ready_ && tableau_.new_f_stage >= tableau_.stages) {
    std::swap(k[0], k[tableau_.new_f_stage]);
  } else {
    evaluate(0, t_, workspace_.x(), k[0]);
  }
  first_stage_ready_ = true;
  fsal_pending_ = false;
  dense_ready_ = false;  // the swap may have moved a dense stage away
}

// dopri5 and bs3 use the FSAL stage in their error estimate; dop853 does not,
// so it is evaluated only once the step is accepted (as in Hairer's dop853.f).
bool ErkEngine::fsal_stage_needed_by_error() const {
  if (!tableau_.fsal) return false;
  const int last = tableau_.stages - 1;
  return (tableau_.e && tableau_.e[last] != 0) || (tableau_.e3 && tableau_.e3[last] != 0);
}

// Stages 1 .. s-1 (the FSAL stage possibly deferred) and x_{n+1} = x_n + h Σ b_j k_j.
void ErkEngine::compute_stages(double h, bool defer_fsal) {
  double** k = workspace_.stages();
  const double* x = workspace_.x();
  double* Y = workspace_.stage_value();
  const int s = tableau_.stages;
  const int explicit_stages = tableau_.fsal ? s - 1 : s;
  if (observer_) observer_->on_stage(0, t_, x, k[0]);
  for (int i = 1; i < explicit_stages; ++i) {
    kernels_->combine(n_, x, h, a_row(tableau_, i), k, i, Y);
    const double t_i = t_ + tableau_.c[i] * h;
    evaluate(i, t_i, Y, k[i]);
    if (observer_) observer_->on_stage(i, t_i, Y, k[i]);
  }
  // The FSAL row of A equals b (b_{s-1} = 0), so Y_{s-1} is exactly x_{n+1}.
  double* x_new = workspace_.x_candidate();
  if (settings_.compensated)
    kernels_->combine_compensated(n_, x, workspace_.x_low(), h, tableau_.b, k, s, x_new,
                                  workspace_.x_low_candidate());
  else
    kernels_->combine(n_, x, h, tableau_.b, k, s, x_new);
  if (!kernels_->all_finite(n_, x_new))
    throw Error(Status::not_finite, "the solution became NaN or Inf after t = " + number_text(t_));
  if (tableau_.fsal && !defer_fsal) {
    evaluate(s - 1, t_ + h, x_new, k[s - 1]);
    if (observer_) observer_->on_stage(s - 1, t_ + h, x_new, k[s - 1]);
  }
}

// Error of the step in the weighted RMS norm (largest over lanes); <= 1 accepts.
double ErkEngine::estimate_error(double h) {
  double** k = workspace_.stages();
  const int s = tableau_.stages;
  const std::size_t lanes = static_cast<std::size_t>(workspace_.lanes());
  double* w = workspace_.weights();
  double* e = workspace_.error();
  kernels_->combine(n_, nullptr, h, tableau_.e, k, s, e);
  if (settings_.error_norm) {
    StepErrorEstimate estimate;
    estimate.n = n_;
    estimate.lanes = lanes;
    estimate.t = t_;
    estimate.h = h;
    estimate.x_old = workspace_.x();
    estimate.x_new = workspace_.x_candidate();
    estimate.err = e;
    if (tableau_.estimator == ErrorEstimator::dop853) {
      kernels_->combine(n_, nullptr, h, tableau_.e3, k, s, workspace_.error3());
      estimate.err_low = workspace_.error3();
    }
    return settings_.error_norm->norm(estimate);
  }
  error_weights(settings_.tolerances, n_, lanes, workspace_.x(), workspace_.x_candidate(), w);
  if (tableau_.estimator != ErrorEstimator::dop853) return weighted_rms_norm(n_, lanes, e, w);

  // dop853 (HNW I §II.10; DP86CO): err = err5^2 / sqrt(N (err5^2 + 0.01 err3^2))
  // with err5, err3 the weighted sums of squares of the 5th- and 3rd-order
  // estimates; behaves like O(h^8) and stays reliable when err3 dominates.
  double* e3 = workspace_.error3();
  kernels_->combine(n_, nullptr, h, tableau_.e3, k, s, e3);
  double* sums = workspace_.lane_sums();
  weighted_sum_squares(n_, lanes, e, w, sums);
  weighted_sum_squares(n_, lanes, e3, w, sums + lanes);
  double err = 0;
  for (std::size_t l = 0; l < lanes; ++l) {
    const double deno = sums[l] + 0.01 * sums[lanes + l];
    const double lane_err = deno > 0 ? sums[l] / std::sqrt(static_cast<double>(n_) * deno) : 0.0;
    if (!(lane_err <= err)) err = lane_err;  // NaN wins
  }
  return err;
}

// Stages tableau.stages .. dense_stages-1 of the last accepted step, once.
void ErkEngine::ensure_dense_stages() {
  if (dense_ready_) return;
  double** k = workspace_.stages();
  double* Y = workspace_.stage_value();
  for (int i = tableau_.stages; i < tableau_.dense_stages; ++i) {
    kernels_->combine(n_, workspace_.x_previous(), h_last_, a_row(tableau_, i), k, i, Y);
    const double t_i = t_previous_ + tableau_.c[i] * h_last_;
    evaluate(i, t_i, Y, k[i]);
    ++stats_.dense_evaluations;
    if (observer_) observer_->on_stage(i, t_i, Y, k[i]);
  }
  dense_ready_ = true;
}

void ErkEngine::interpolate(double t, double* out) {
  if (!has_step_)
    throw Error(Status::invalid_argument,
                "interpolate needs an accepted step (none since reset or replace_state)");
  const std::size_t count = size();
  if (t == t_) {
    std::copy(workspace_.x(), workspace_.x() + count, out);
    return;
  }
  if (t == t_previous_) {
    std::copy(workspace_.x_previous(), workspace_.x_previous() + count, out);
    return;
  }
  const double theta = (t - t_previous_) / h_last_;
  if (!(theta >= 0 && theta <= 1))
    throw Error(Status::invalid_argument, "interpolate: t = " + number_text(t) +
                                              " lies outside the last step");
  // The first stage of the next step must not have replaced k_0 yet.
  if (first_stage_ready_)
    throw Error(Status::internal_error, "interpolate after the next step began");
  ensure_dense_stages();
  double* w = workspace_.coefficients();
  workspace_.dense_weights().at(theta, w);
  kernels_->combine(n_, workspace_.x_previous(), h_last_, w, workspace_.stages(),
                    tableau_.dense_stages, out);
}

}  // namespace odesens::integrate::erk
