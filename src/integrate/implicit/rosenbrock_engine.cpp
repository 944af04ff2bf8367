// The step loop of the Rosenbrock engine: reset, adaptive and fixed steps,
// singular matrices, acceptance and lane overwrites. The arithmetic of one
// step (stages, solves, error estimate) is in rosenbrock_stages.cpp.
#include "integrate/implicit/rosenbrock_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/finite_values.hpp"
#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {

namespace {
bool finite(double v) { return std::isfinite(v); }
}  // namespace

RosenbrockEngine::RosenbrockEngine(RosenbrockSystem& system, RosenbrockWorkspace& workspace,
                                   const RosenbrockSettings& settings,
                                   RosenbrockObserver* observer)
    : system_(system),
      workspace_(workspace),
      tableau_(workspace.tableau()),
      settings_(settings),
      observer_(observer),
      controller_(std::max(1, workspace.tableau().embedded_order), settings.controller),
      n_(workspace.n()),
      m_(workspace.lanes()),
      autonomous_(system.autonomous()) {
  validate();
}

void RosenbrockEngine::validate() const {
  settings_.tolerances.validate(n_);
  if (settings_.h_fixed && !(*settings_.h_fixed > 0 && finite(*settings_.h_fixed)))
    throw Error(Status::invalid_argument, "h_fixed must be finite and > 0");
  if (!(settings_.h0 >= 0 && finite(settings_.h0)))
    throw Error(Status::invalid_argument, "h0 must be finite and >= 0");
  if (!(settings_.h_max >= 0 && !std::isnan(settings_.h_max)))
    throw Error(Status::invalid_argument, "h_max must be >= 0");
  if (settings_.max_steps <= 0) throw Error(Status::invalid_argument, "max_steps must be > 0");
  const SparsityPattern* pattern = system_.jacobian_pattern();
  const std::size_t expected = pattern ? pattern->nnz() : n_ * n_;
  if ((pattern == nullptr) != (workspace_.jacobian_pattern() == nullptr) ||
      expected != workspace_.jacobian_size())
    throw Error(Status::invalid_argument,
                "the Rosenbrock workspace was built for another Jacobian layout (dense or "
                "sparse, nnz) than the system's");
}

void RosenbrockEngine::require_started(const char* what) const {
  if (!started_) throw Error(Status::invalid_argument, std::string(what) + " before reset()");
}

void RosenbrockEngine::require_between_steps(const char* what) const {
  require_started(what);
  if (observing_)
    throw Error(Status::invalid_argument,
                std::string(what) + " from an observer call: overwrite lanes after step() returns");
}

void RosenbrockEngine::reset(double t0, const double* x0, double t_end) {
  if (!finite(t0) || !finite(t_end) || t0 == t_end)
    throw Error(Status::invalid_argument, "reset needs finite t0 != t_end");
  const std::size_t size = workspace_.size();
  if (!all_finite(size, x0)) throw Error(Status::not_finite, "x0 has NaN or Inf values");
  std::copy(x0, x0 + size, workspace_.x());
  std::fill(workspace_.x_low(), workspace_.x_low() + size, 0.0);
  t_ = t_previous_ = t0;
  h_last_ = 0;
  direction_ = t_end > t0 ? 1.0 : -1.0;
  stats_ = RosenbrockStats{};
  budget_start_ = 0;
  controller_.reset();
  f_ready_ = dfdt_ready_ = jacobian_ready_ = false;
  started_ = true;

  const double h_max =
      settings_.h_max > 0 ? settings_.h_max : std::numeric_limits<double>::infinity();
  if (settings_.h_fixed) {
    h_next_ = direction_ * *settings_.h_fixed;
    return;
  }
  if (settings_.h0 > 0) {
    h_next_ = direction_ * std::min(settings_.h0, h_max);
    return;
  }
  // HNW I §II.4 with the method's order; its f(t0, x0) is the first step's.
  evaluate_rhs(t0, workspace_.x(), workspace_.f_start(), 0);
  f_ready_ = true;
  InitialStepInput in;
  in.n = n_;
  in.lanes = m_;
  in.t0 = t0;
  in.x0 = workspace_.x();
  in.f0 = workspace_.f_start();
  in.direction = direction_;
  in.order = tableau_.order;
  in.h_max = settings_.h_max;
  // Stage buffers are free before the first step.
  const InitialStepScratch scratch{workspace_.stage_value(), workspace_.stage_f(),
                                   workspace_.weights()};
  h_next_ = initial_step(settings_.tolerances, in,
                         [this](double t, const double* x, double* f) {
                           evaluate_rhs(t, x, f, 0);
                         },
                         scratch);
}

void RosenbrockEngine::take_step(double h) {
  require_between_steps("take_step");
  if (!(h != 0 && finite(h)) || (h > 0) != (direction_ > 0))
    throw Error(Status::invalid_argument,
                "take_step needs a finite h != 0 in the direction of t_end");
  if (stats_.steps - budget_start_ >= settings_.max_steps)
    throw Error(Status::too_much_work, "max_steps (" + std::to_string(settings_.max_steps) +
                                           ") reached at t = " + number_text(t_));
  prepare_step_start();
  ++stats_.steps;
  if (!factor_matrix(h)) throw_singular(h, "the step is fixed");
  compute_stages(h);
  accept(h, t_ + h);
}

void RosenbrockEngine::step(double t_limit) {
  require_between_steps("step");
  if (!(direction_ * (t_limit - t_) > 0))
    throw Error(Status::invalid_argument,
                "step: t_limit must lie ahead of t in the direction of t_end");
  const bool adaptive = !settings_.h_fixed;
  prepare_step_start();
  bool rejected = false;
  int singular_in_a_row = 0;
  for (;;) {
    const StepAttempt attempt = next_step_attempt(stats_.steps - budget_start_, settings_.max_steps, t_, t_limit,
                                                  direction_, h_next_, settings_.h_max, adaptive);
    const double h = attempt.h, h_proposed = attempt.h_proposed;
    const bool lands = attempt.lands;
    ++stats_.steps;

    if (!factor_matrix(h)) {
      if (!adaptive) throw_singular(h, "the step is fixed");
      if (++singular_in_a_row > max_singular_halvings)
        throw_singular(h, "also after halving h " + std::to_string(max_singular_halvings) +
                              " times");
      h_next_ = 0.5 * h;
      rejected = true;
      continue;
    }
    compute_stages(h);
    const double err = adaptive ? estimate_error(h) : 0.0;
    if (std::isnan(err))
      throw Error(Status::not_finite, "NaN in the error estimate at t = " + number_text(t_));
    if (err <= 1) {
      if (adaptive) {
        double h_new = h * controller_.factor_after_accept(err);
        // A step shortened to land on t_limit says nothing against the longer proposal.
        if (lands && !rejected)
          h_new = direction_ * std::max(std::fabs(h_new), std::fabs(h_proposed));
        h_next_ = h_new;
      }
      accept(h, lands ? t_limit : t_ + h);
      return;
    }
    ++stats_.rejected;
    rejected = true;
    if (observer_) {
      observing_ = true;
      observer_->on_step_rejected(t_, h, err);
      observing_ = false;
    }
    h_next_ = h * controller_.factor_after_reject(err);
  }
}

void RosenbrockEngine::integrate_to(double t_end) {
  while (t_ != t_end) step(t_end);
}

void RosenbrockEngine::accept(double h, double t_new) {
  if (observer_) {
    observing_ = true;
    observer_->on_step_accepted(t_, h, workspace_.x(), workspace_.x_candidate(),
                                workspace_.stages());
    observing_ = false;
  }
  std::swap(workspace_.x(), workspace_.x_candidate());
  std::swap(workspace_.x_low(), workspace_.x_low_candidate());
  t_previous_ = t_;
  t_ = t_new;
  h_last_ = h;
  ++stats_.accepted;
  // Everything evaluated at the old point is stale; a constant J is not.
  f_ready_ = dfdt_ready_ = false;
  if (!system_.constant_jacobian()) jacobian_ready_ = false;
}

void RosenbrockEngine::set_lane_state(std::size_t lane, const double* x_lane,
                                      const double* x_low_lane) {
  require_between_steps("set_lane_state");
  if (lane >= m_)
    throw Error(Status::invalid_argument, "set_lane_state: lane " + std::to_string(lane) +
                                              " of " + std::to_string(m_));
  if (!all_finite(n_, x_lane))
    throw Error(Status::not_finite, "set_lane_state: the state of lane " +
                                        std::to_string(lane) + " has NaN or Inf values");
  if (x_low_lane && !all_finite(n_, x_low_lane))
    throw Error(Status::not_finite, "set_lane_state: the low part of lane " +
                                        std::to_string(lane) + " has NaN or Inf values");
  double* x = workspace_.x();
  double* low = workspace_.x_low();
  for (std::size_t i = 0; i < n_; ++i) {
    x[i * m_ + lane] = x_lane[i];
    low[i * m_ + lane] = x_low_lane ? x_low_lane[i] : 0.0;
  }
  f_ready_ = dfdt_ready_ = false;
  if (lane == 0) jacobian_ready_ = false;
}

void RosenbrockEngine::set_state_low(const double* x_low) {
  require_between_steps("set_state_low");
  const std::size_t size = workspace_.size();
  if (!all_finite(size, x_low))
    throw Error(Status::not_finite, "set_state_low: NaN or Inf values");
  std::copy(x_low, x_low + size, workspace_.x_low());
}

void RosenbrockEngine::system_changed() {
  require_between_steps("system_changed");
  f_ready_ = dfdt_ready_ = jacobian_ready_ = false;
}

void RosenbrockEngine::copy_lane_state(std::size_t lane, double* out) const {
  if (lane >= m_)
    throw Error(Status::invalid_argument, "copy_lane_state: lane " + std::to_string(lane) +
                                              " of " + std::to_string(m_));
  const double* x = workspace_.x();
  for (std::size_t i = 0; i < n_; ++i) out[i] = x[i * m_ + lane];
}

void RosenbrockEngine::throw_singular(double h, const std::string& why) const {
  throw Error(Status::solver_failed, "I - h*gamma*J is singular at t = " + number_text(t_) +
                                         " for h = " + number_text(h) + " (" + why + ")");
}

}  // namespace odesens::integrate
