#include "methods/internal_diff/rosenbrock_bundle_integrator.hpp"

#include <algorithm>

#include "odesens/status.hpp"

namespace odesens::internal_diff {
namespace {

integrate::RosenbrockSettings engine_settings(const BundleStepSettings& s,
                                              integrate::RosenbrockJacobian jacobian) {
  if (!s.h_fixed && !s.error_norm)
    throw Error(Status::internal_error, "an adaptive bundle needs its error norm");
  integrate::RosenbrockSettings e;
  // TOL of the states: the engine's starting-step guess reads it per lane;
  // the steps themselves are judged by the method's error norm (14).
  e.tolerances = s.tolerances;
  e.error_norm = s.error_norm;
  e.h0 = s.h0;
  e.h_max = s.h_max;
  e.h_fixed = s.h_fixed;
  e.max_steps = s.max_steps;
  e.jacobian = jacobian;
  return e;
}

}  // namespace

RosenbrockBundleIntegrator::RosenbrockBundleIntegrator(
    const integrate::RosenbrockTableau& tableau, BundleRhs& rhs,
    const BundleStepSettings& settings, integrate::RosenbrockJacobian jacobian,
    const integrate::NewtonMatrixOptions& newton)
    : rhs_(rhs),
      nx_(rhs.shape().nx),
      lanes_(rhs.shape().trajectories()),
      // params(l) = params(0) + l·np: the BundleRhs's np × L block.
      system_(rhs.model(), lanes_, rhs.params(0), rhs.workspace()),
      workspace_(tableau, nx_, lanes_, system_.jacobian_pattern(), newton),
      engine_(system_, workspace_, engine_settings(settings, jacobian)),
      lane_(nx_),
      lane_low_(nx_),
      x_start_(nx_ * lanes_),
      f_start_(nx_ * lanes_),
      f_end_(nx_ * lanes_) {}

void RosenbrockBundleIntegrator::copy_params() {
  for (std::size_t l = 0; l < lanes_; ++l) system_.set_lane_params(l, rhs_.params(l));
}

void RosenbrockBundleIntegrator::start(double t0, const double* X0, const double* X0_low,
                                       double t_end) {
  copy_params();  // the perturbations of t0 may differ from those at construction
  if (started_) {  // a restart (after an event): the engine's counts start again
    const auto& s = engine_.stats();
    before_restart_.steps += s.steps;
    before_restart_.accepted += s.accepted;
    before_restart_.rejected += s.rejected;
    before_restart_.rhs_calls += s.rhs_evaluations;
    before_restart_.jacobians += s.jacobian_evaluations;
  }
  started_ = true;
  hermite_ready_ = false;
  engine_.reset(t0, X0, t_end);
  if (X0_low) engine_.set_state_low(X0_low);
}

void RosenbrockBundleIntegrator::replace_states(const double* X, const double* X_low) {
  // Parameters first: set_lane_state drops what the engine evaluated at
  // t(), so f, ∂f/∂t and J are recomputed with the new parameters.
  copy_params();
  for (std::size_t l = 0; l < lanes_; ++l) {
    for (std::size_t i = 0; i < nx_; ++i) lane_[i] = X[i * lanes_ + l];
    if (X_low)
      for (std::size_t i = 0; i < nx_; ++i) lane_low_[i] = X_low[i * lanes_ + l];
    engine_.set_lane_state(l, lane_.data(), X_low ? lane_low_.data() : nullptr);
  }
}

void RosenbrockBundleIntegrator::step(double t_limit) {
  t_start_ = engine_.t();
  std::copy(engine_.x(), engine_.x() + x_start_.size(), x_start_.begin());
  hermite_ready_ = false;
  engine_.step(t_limit);
}

void RosenbrockBundleIntegrator::interpolate(double t, double* X) {
  const double t_end = engine_.t(), h = t_end - t_start_;
  const double* x_end = engine_.x();
  if (h == 0.0) {
    std::copy(x_end, x_end + x_start_.size(), X);
    return;
  }
  if (!hermite_ready_) {
    rhs_.evaluate(t_start_, x_start_.data(), f_start_.data());
    rhs_.evaluate(t_end, x_end, f_end_.data());
    hermite_calls_ += 2;
    hermite_ready_ = true;
  }
  const double s = (t - t_start_) / h, s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * h, h01 = 3 * s2 - 2 * s3,
               h11 = (s3 - s2) * h;
  for (std::size_t q = 0; q < x_start_.size(); ++q)
    X[q] = h00 * x_start_[q] + h10 * f_start_[q] + h01 * x_end[q] + h11 * f_end_[q];
}

BundleCounts RosenbrockBundleIntegrator::counts() const {
  const auto& s = engine_.stats();
  const auto& n = engine_.newton_stats();
  BundleCounts c;
  c.steps = before_restart_.steps + s.steps;
  c.accepted = before_restart_.accepted + s.accepted;
  c.rejected = before_restart_.rejected + s.rejected;
  // Each for the whole bundle; interpolate()'s included.
  c.rhs_calls = before_restart_.rhs_calls + s.rhs_evaluations + hermite_calls_;
  c.jacobians = before_restart_.jacobians + s.jacobian_evaluations;
  // Numeric factorizations of I − hγJ: fresh ones and KLU's refactorizations
  // on the old pivot order (a fallback counts in both: two factorizations).
  c.factorizations = static_cast<long>(n.factorizations + n.refactorizations);
  return c;
}

RosenbrockBundleIntegratorFactory::RosenbrockBundleIntegratorFactory(
    const integrate::RosenbrockTableau& tableau, integrate::RosenbrockJacobian jacobian,
    const integrate::NewtonMatrixOptions& newton)
    : tableau_(tableau), jacobian_(jacobian), newton_(newton) {}

std::unique_ptr<BundleIntegrator> RosenbrockBundleIntegratorFactory::make(
    BundleRhs& rhs, const BundleStepSettings& settings) const {
  return std::make_unique<RosenbrockBundleIntegrator>(tableau_, rhs, settings, jacobian_,
                                                      newton_);
}

}  // namespace odesens::internal_diff
