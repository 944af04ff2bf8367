#include "methods/internal_diff/bundle_solution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "integrate/step_control.hpp"

namespace odesens::internal_diff {

BundleSolution::BundleSolution(BundleIntegrator& bundle, BundleRhs& rhs,
                               Perturbations* perturbations, bool rescale, double t_end)
    : bundle_(bundle),
      rhs_(rhs),
      perturbations_(perturbations),
      rescale_(rescale),
      t_end_(t_end),
      nx_(rhs.shape().nx),
      ns_(rhs.shape().ns),
      switches_(rhs.model().event_system(), rhs),
      y_(rhs.shape().size()),
      X_(rhs.shape().size()),
      X_low_(rhs.shape().size()),
      F_(rhs.shape().size()),
      y_moved_(rhs.shape().size()) {
  if (!bundle.has_dense_output()) {
    X_step_start_.resize(rhs.shape().size());
    X_low_step_start_.resize(rhs.shape().size());
  }
}

void BundleSolution::step(double t_limit) {
  if (!X_step_start_.empty()) {
    t_step_start_ = bundle_.t();
    std::copy(bundle_.x(), bundle_.x() + X_step_start_.size(), X_step_start_.begin());
    std::copy(bundle_.x_low(), bundle_.x_low() + X_step_start_.size(), X_low_step_start_.begin());
  }
  drift_to_ = -std::numeric_limits<double>::infinity();  // the last step was the drift
  if (drift_pending_ && drift(t_limit)) return;
  bundle_.step(t_limit);
}

bool BundleSolution::state_tolerances(const double* x, double* tol) const {
  if (!has_tolerances_) return false;
  for (std::size_t i = 0; i < nx_; ++i) tol[i] = tolerances_.of(i, x[i]);
  return true;
}

bool BundleSolution::retake(double t) {
  if (X_step_start_.empty() || !(t > t_step_start_) || !(t < bundle_.t())) return false;
  const long used = bundle_.budget_used();  // as in restart()
  bundle_.start(t_step_start_, X_step_start_.data(), X_low_step_start_.data(), t_end_);
  bundle_.carry_step_budget(used);
  // Within rounding of the step's start, no step: the instant takes the
  // state there.
  if (t - t_step_start_ <= 64.0 * std::numeric_limits<double>::epsilon() *
                               std::max(std::fabs(t), 1.0))
    return true;
  while (bundle_.t() < t) bundle_.step(t);
  return true;
}

void BundleSolution::to_solution(const double* X, const double* X_low, double* y) const {
  const std::size_t L = 1 + ns_;
  for (std::size_t i = 0; i < nx_; ++i) y[i] = X[i * L];
  if (perturbations_) perturbations_->directions_of(X, X_low, y + nx_);
}

const double* BundleSolution::x() const {
  to_solution(bundle_.x(), bundle_.x_low(), y_.data());
  return y_.data();
}

void BundleSolution::interpolate(double t, double* out) {
  if (t >= drift_from_ && t <= drift_to_) {  // on the drift's Euler line
    const double w = drift_to_ > drift_from_ ? (t - drift_from_) / (drift_to_ - drift_from_) : 1.0;
    for (std::size_t i = 0; i < y_.size(); ++i)
      out[i] = y_drift_from_[i] + w * (y_drift_to_[i] - y_drift_from_[i]);
    return;
  }
  bundle_.interpolate(t, X_.data());
  to_solution(X_.data(), nullptr, out);
}

void BundleSolution::seed(const double* y) {
  if (!perturbations_) {
    std::copy(y, y + nx_, X_.begin());
    std::fill(X_low_.begin(), X_low_.end(), 0.0);
    return;
  }
  perturbations_->set_sigma(y + nx_);
  perturbations_->seed(y, nullptr, nullptr, nullptr, X_.data(), X_low_.data());
}

void BundleSolution::restart(double t, const double* y) {
  if (perturbations_) {
    perturbations_->set_sigma(y + nx_);
    // The state jumped: ε by (12)–(13) at the new state (the parameters of
    // the perturbed trajectories follow).
    if (rescale_) perturbations_->rescale(y, false);
  }
  seed(y);
  drift_pending_ = perturbations_ && switches_.any() && !switches_.agree(t, X_.data());
  drift_origin_ = t;
  // max_steps bounds the steps between output times, events' restarts
  // included (an event every 0.1 ran on without end).
  const long used = bundle_.budget_used();
  bundle_.start(t, X_.data(), X_low_.data(), integrate::heading_from(t, t_end_));
  bundle_.carry_step_budget(used);
}

// The drift as the step to t_limit (an output time, a switch or an
// execution of the caller's: no step passes one): it ends where the
// trajectories agree, or at t_limit, from where the next step drifts on;
// false where none agree within 1e-5 |t| of the restart (warned), and the
// bundle steps on from where it stands.
bool BundleSolution::drift(double t_limit) {
  const double t = bundle_.t();
  drift_from_ = t;
  y_drift_from_.assign(x(), x() + y_.size());
  const Drift outcome = past_lane_switches(t, y_drift_from_.data(), t_limit);
  drift_pending_ = outcome == Drift::to_limit;
  if (outcome == Drift::none) return false;
  y_drift_to_ = y_;
  drift_to_ = drift_at_;
  const long used = bundle_.budget_used();
  bundle_.start(drift_at_, X_.data(), X_low_.data(), integrate::heading_from(drift_at_, t_end_));
  bundle_.carry_step_budget(used);
  return true;
}

BundleSolution::Drift BundleSolution::past_lane_switches(double t, const double* y,
                                                         double t_limit) {
  const std::size_t L = 1 + ns_;
  const double direction = t_end_ > t ? 1.0 : -1.0;
  const double scale = std::max(std::fabs(drift_origin_), 1.0);
  // The nominal's rate on its side: every trajectory drifts along it.
  seed(y);
  rhs_.evaluate(t, X_.data(), F_.data());
  for (double delta = 1e-12 * scale; delta <= 1e-5 * scale; delta *= 4.0) {
    double t_moved = drift_origin_ + direction * delta;
    if (direction * (t_moved - t) <= 0.0) continue;  // passed before t_limit stopped it
    const bool to_limit = direction * (t_moved - t_limit) >= 0.0;
    if (to_limit) t_moved = t_limit;
    if (direction * (t_end_ - t_moved) < 0.0) break;
    const double dt = t_moved - t;
    std::vector<double>& moved = y_moved_;  // the drifted bundle, then y there
    for (std::size_t i = 0; i < nx_; ++i)
      for (std::size_t l = 0; l < L; ++l) moved[i * L + l] = X_[i * L + l] + dt * F_[i * L];
    const bool agree = switches_.agree(t_moved, moved.data());
    if (!agree && !to_limit) continue;
    // One Euler step with the rates of every trajectory on the new side
    // (at t_limit, where they do not agree yet, with each one's own).
    rhs_.evaluate(t_moved, moved.data(), F_.data());
    for (std::size_t i = 0; i < nx_; ++i) moved[i] = y[i] + dt * F_[i * L];
    for (std::size_t j = 0; j < ns_; ++j) {
      const double h = dt / perturbations_->epsilon()[j];
      for (std::size_t i = 0; i < nx_; ++i)
        moved[nx_ + j * nx_ + i] = y[nx_ + j * nx_ + i] + h * (F_[i * L + j + 1] - F_[i * L]);
    }
    std::copy(moved.begin(), moved.end(), y_.begin());
    seed(y_.data());
    drift_at_ = t_moved;
    return agree ? Drift::agreed : Drift::to_limit;
  }
  if (warnings_.empty())  // the first such instant stands for all
    warnings_.push_back("after the instant at t = " + number_text(drift_origin_) +
                        " the perturbed trajectories stay on different sides of a switch of f: "
                        "the sensitivities after it may be inaccurate");
  seed(y);
  return Drift::none;
}

}  // namespace odesens::internal_diff
