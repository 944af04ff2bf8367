// The step loop of the ERK engine: reset, adaptive and fixed steps,
// acceptance. Stage evaluation, error estimation and dense output are in
// erk_stages.cpp.
#include "integrate/erk/erk_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate::erk {

namespace {
bool finite(double v) { return std::isfinite(v); }

}  // namespace

ErkEngine::ErkEngine(ErkSystem& system, ErkWorkspace& workspace, const ErkSettings& settings,
                     ErkObserver* observer)
    : system_(system),
      workspace_(workspace),
      tableau_(workspace.tableau()),
      settings_(settings),
      observer_(observer),
      kernels_(erk_lane_kernels(workspace.lanes())),
      controller_(std::max(1, workspace.tableau().error_order), settings.controller),
      stiffness_(workspace.tableau(), settings.stiffness_period),
      n_(workspace.n()) {
  validate_settings();
}

void ErkEngine::validate_settings() const {
  settings_.tolerances.validate(n_);
  if (!kernels_) throw Error(Status::invalid_argument, "lane width must be 1, 4 or 8");
  if (settings_.h_fixed && !(*settings_.h_fixed > 0 && finite(*settings_.h_fixed)))
    throw Error(Status::invalid_argument, "h_fixed must be finite and > 0");
  if (!settings_.h_fixed && tableau_.fixed_step_only)
    throw Error(Status::invalid_argument, std::string(tableau_.name) +
                                              " has no error estimate: it needs h_fixed");
  if (!(settings_.h0 >= 0 && finite(settings_.h0)))
    throw Error(Status::invalid_argument, "h0 must be finite and >= 0");
  if (!(settings_.h_max >= 0 && !std::isnan(settings_.h_max)))
    throw Error(Status::invalid_argument, "h_max must be >= 0");
  if (settings_.max_steps <= 0) throw Error(Status::invalid_argument, "max_steps must be > 0");
}

void ErkEngine::require_started(const char* what) const {
  if (!started_) throw Error(Status::invalid_argument, std::string(what) + " before reset()");
}

void ErkEngine::reset(double t0, const double* x0, double t_end, double h_first) {
  if (!finite(t0) || !finite(t_end) || t0 == t_end)
    throw Error(Status::invalid_argument, "reset needs finite t0 != t_end");
  if (!(h_first >= 0 && finite(h_first)))
    throw Error(Status::invalid_argument, "reset: the first step must be finite and >= 0");
  if (!kernels_->all_finite(n_, x0)) throw Error(Status::not_finite, "x0 has NaN or Inf values");
  std::copy(x0, x0 + size(), workspace_.x());
  std::fill(workspace_.x_low(), workspace_.x_low() + size(), 0.0);
  t_ = t_previous_ = t0;
  h_last_ = 0;
  direction_ = t_end > t0 ? 1.0 : -1.0;
  stats_ = ErkStats{};
  budget_start_ = 0;
  controller_.reset();
  stiffness_.reset();
  has_step_ = dense_ready_ = fsal_pending_ = false;
  started_ = true;

  double** k = workspace_.stages();
  evaluate(0, t0, workspace_.x(), k[0]);
  first_stage_ready_ = true;

  const double h_max = settings_.h_max > 0 ? settings_.h_max : std::numeric_limits<double>::infinity();
  if (settings_.h_fixed) {
    h_next_ = direction_ * *settings_.h_fixed;
  } else if (h_first > 0 || settings_.h0 > 0) {
    h_next_ = direction_ * std::min(h_first > 0 ? h_first : settings_.h0, h_max);
  } else {
    InitialStepInput in;
    in.n = n_;
    in.lanes = static_cast<std::size_t>(workspace_.lanes());
    in.t0 = t0;
    in.x0 = workspace_.x();
    in.f0 = k[0];
    in.direction = direction_;
    in.order = tableau_.order;
    in.h_max = settings_.h_max;
    // k_1 is free before the first step: it holds the Euler-step derivative.
    const InitialStepScratch scratch{workspace_.stage_value(), k[1], workspace_.weights()};
    h_next_ = initial_step(settings_.tolerances, in,
                           [this](double t, const double* x, double* f) {
                             system_.rhs(t, x, f);
                             ++stats_.rhs_evaluations;
                           },
                           scratch);
  }
}

void ErkEngine::take_step(double h) {
  require_started("take_step");
  if (!(h != 0 && finite(h)) || (h > 0) != (direction_ > 0))
    throw Error(Status::invalid_argument, "take_step needs a finite h != 0 in the direction of t_end");
  if (stats_.steps - budget_start_ >= settings_.max_steps)
    throw Error(Status::too_much_work, "max_steps (" + std::to_string(settings_.max_steps) +
                                           ") reached at t = " + number_text(t_));
  prepare_first_stage();
  ++stats_.steps;
  compute_stages(h, /*defer_fsal=*/true);
  accept(h, t_ + h, /*fsal_deferred=*/true);
}

void ErkEngine::step(double t_limit) {
  require_started("step");
  if (!(direction_ * (t_limit - t_) > 0))
    throw Error(Status::invalid_argument, "step: t_limit must lie ahead of t in the direction of t_end");
  const bool adaptive = !settings_.h_fixed;
  prepare_first_stage();
  double h_max = settings_.h_max;
  if (adaptive && settings_.step_limit) {
    const double limit = settings_.step_limit->largest_step(t_, workspace_.x());
    if (limit > 0 && limit < (h_max > 0 ? h_max : std::numeric_limits<double>::infinity())) h_max = limit;
  }
  bool rejected = false;
  for (;;) {
    const StepAttempt attempt = next_step_attempt(stats_.steps - budget_start_, settings_.max_steps, t_, t_limit,
                                                  direction_, h_next_, h_max, adaptive);
    const double h = attempt.h, h_proposed = attempt.h_proposed;
    const bool lands = attempt.lands;
    ++stats_.steps;

    const bool defer_fsal = !adaptive || !fsal_stage_needed_by_error();
    compute_stages(h, defer_fsal);
    const double err = adaptive ? estimate_error(h) : 0.0;
    if (std::isnan(err)) throw Error(Status::not_finite, "NaN in the error estimate at t = " + number_text(t_));
    if (err <= 1) {
      if (adaptive) {
        double h_new = h * controller_.factor_after_accept(err);
        // A step shortened to land on t_limit says nothing against the longer proposal.
        if (lands && !rejected) h_new = direction_ * std::max(std::fabs(h_new), std::fabs(h_proposed));
        h_next_ = h_new;
      }
      accept(h, lands ? t_limit : t_ + h, defer_fsal);
      if (adaptive && settings_.detect_stiffness) test_stiffness();
      return;
    }
    ++stats_.rejected;
    rejected = true;
    if (observer_) observer_->on_step_rejected(t_, h, err);
    h_next_ = h * controller_.factor_after_reject(err);
  }
}

// Right after accept(): k_{s-1} = f(t, x) at the new state, while the
// stage value buffer and k_j still hold the last explicit stage, c_j = 1.
void ErkEngine::test_stiffness() {
  if (!stiffness_.due(stats_.accepted)) return;
  double** k = workspace_.stages();
  const int j = stiffness_.stage();
  const double quotient = stiffness_quotient(size(), h_last_, workspace_.x(),
                                             workspace_.stage_value(), k[tableau_.stages - 1], k[j]);
  const double measured = settings_.step_limit ? settings_.step_limit->h_lambda(h_last_) : 0.0;
  if (!stiffness_.record(quotient, measured)) return;
  const double h_lambda = stiffness_.last_h_lambda();
  throw Error(Status::stiff,
              "the problem became stiff near t = " + number_text(t_) + ": for " +
                  std::to_string(StiffnessTest::run) + " tests the step size stayed at the edge of " +
                  tableau_.name + "'s stability region (h|lambda| = " + rounded_number_text(h_lambda) +
                  ", boundary " + rounded_number_text(stiffness_.boundary()) +
                  "), so an explicit method needs far more steps here than an implicit one");
}

void ErkEngine::integrate_to(double t_end) {
  while (t_ != t_end) step(t_end);
}

void ErkEngine::replace_state(const double* x, const double* x_low) {
  require_started("replace_state");
  if (!kernels_->all_finite(n_, x))
    throw Error(Status::not_finite, "the replaced state has NaN or Inf values at t = " + number_text(t_));
  if (x_low && !kernels_->all_finite(n_, x_low))
    throw Error(Status::not_finite, "the replaced state's low part has NaN or Inf values");
  std::copy(x, x + size(), workspace_.x());
  if (x_low && settings_.compensated)
    std::copy(x_low, x_low + size(), workspace_.x_low());
  else
    std::fill(workspace_.x_low(), workspace_.x_low() + size(), 0.0);
  // k_0 (from reset, the FSAL stage or a dense stage) belongs to the old state.
  first_stage_ready_ = fsal_pending_ = dense_ready_ = false;
  has_step_ = false;
}

void ErkEngine::set_state_low(const double* x_low) {
  require_started("set_state_low");
  if (!settings_.compensated)
    throw Error(Status::invalid_argument, "set_state_low needs ErkSettings::compensated");
  if (!kernels_->all_finite(n_, x_low))
    throw Error(Status::not_finite, "the state's low part has NaN or Inf values");
  std::copy(x_low, x_low + size(), workspace_.x_low());
}

void ErkEngine::accept(double h, double t_new, bool fsal_deferred) {
  double** k = workspace_.stages();
  const int s = tableau_.stages;
  if (tableau_.fsal && fsal_deferred) evaluate(s - 1, t_ + h, workspace_.x_candidate(), k[s - 1]);
  if (observer_) observer_->on_step_accepted(t_, h, workspace_.x(), workspace_.x_candidate(), k);
  // Rotate the state buffers: x_n becomes x_previous, the candidate becomes x.
  double* old_previous = workspace_.x_previous();
  workspace_.x_previous() = workspace_.x();
  workspace_.x() = workspace_.x_candidate();
  workspace_.x_candidate() = old_previous;
  double* old_low_previous = workspace_.x_low_previous();
  workspace_.x_low_previous() = workspace_.x_low();
  workspace_.x_low() = workspace_.x_low_candidate();
  workspace_.x_low_candidate() = old_low_previous;
  t_previous_ = t_;
  t_ = t_new;
  h_last_ = h;
  ++stats_.accepted;
  has_step_ = true;
  dense_ready_ = false;
  first_stage_ready_ = false;
  fsal_pending_ = tableau_.fsal;
}

}  // namespace odesens::integrate::erk
