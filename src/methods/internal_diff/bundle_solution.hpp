// A bundle of trajectories (trajectory_bundle.hpp) seen as the solution
// y = [x, σ_1, ..., σ_ns] (nx x (1 + ns), column-major) that the output
// grid and the events of the model (integrate/events/) work with: x is the
// nominal η (trajectory 0) and σ_j = (η̂_j − η)/ε_j by (11), S·R's column j.
//
// Restarting from y (after an event: x and S·R have jumped) re-perturbs
// the trajectories around the new state, η̂_j = x + ε_j σ_j, with ε_j
// renewed by (12)–(13). Where a switch of f sits at the restart, the
// perturbed trajectories may be on its other side (lane_switches.hpp): the
// next step is then a drift to the first t + δ (δ from 1e-12 |t|, growing)
// where they all agree, one Euler step whose differences are taken on the
// new side, x(t+δ) = x + δ f_0, σ_j(t+δ) = σ_j + δ (f_j − f_0)/ε_j, an
// error O(δ²); a drift that would pass the step's t_limit (an output time)
// ends there, and the next step drifts on.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "integrate/output_grid.hpp"
#include "methods/internal_diff/bundle_integrator.hpp"
#include "methods/internal_diff/lane_switches.hpp"
#include "methods/internal_diff/perturbations.hpp"

namespace odesens::internal_diff {

class BundleSolution final : public integrate::RestartableSolution {
 public:
  // perturbations: those of the bundle, or null for a single trajectory
  // (then y = x). rescale: renew ε at a restart. t_end: the end of the
  // solve (direction and first-step guess after a restart).
  BundleSolution(BundleIntegrator& bundle, BundleRhs& rhs, Perturbations* perturbations,
                 bool rescale, double t_end);

  std::size_t size() const override { return y_.size(); }
  double t() const override { return bundle_.t(); }
  const double* x() const override;  // with the low parts of the states
  void step(double t_limit) override;
  void begin_output_interval() override { bundle_.begin_step_budget(); }
  void interpolate(double t, double* out) override;
  void restart(double t, const double* y) override;
  // Without dense output for outputs (grk4as): the step again from its
  // start, in as many steps as it takes to end at t: its interpolant (for
  // locating roots only) is less accurate than a step, and does not see a
  // switch of f inside the step. With dense output (dopri8s): false,
  // outputs inside the step still read it.
  bool retake(double t) override;
  // The states' tolerances (RestartableSolution::state_tolerances), for
  // the nominal trajectory.
  void set_state_tolerances(const integrate::Tolerances& tolerances) {
    tolerances_ = tolerances;
    has_tolerances_ = true;
  }
  bool state_tolerances(const double* x, double* tol) const override;

  BundleIntegrator& bundle() { return bundle_; }
  // Dense output fit for output times (else steps land on them).
  bool dense() const { return bundle_.has_dense_output(); }
  // Restarts after which the trajectories stayed on different sides of a switch.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // y from the bundle X (+ X_low, or null).
  void to_solution(const double* X, const double* X_low, double* y) const;
  // The bundle at t from y into X_, X_low_.
  void seed(const double* y);
  // After a restart whose trajectories disagree on a switch of f: the drift
  // as the step to t_limit; false where none was found.
  bool drift(double t_limit);
  enum class Drift { agreed, to_limit, none };
  // Where the bundle seeded from y at t drifts so that its trajectories
  // agree on every switch of f (δ from the restart), or t_limit where that
  // comes first: drift_at_, y_ and X_, X_low_ seeded there.
  Drift past_lane_switches(double t, const double* y, double t_limit);

  BundleIntegrator& bundle_;
  BundleRhs& rhs_;
  Perturbations* perturbations_;
  bool rescale_;
  double t_end_;
  std::size_t nx_, ns_;
  LaneSwitches switches_;
  mutable std::vector<double> y_;
  std::vector<double> X_, X_low_, F_, y_moved_;
  double t_step_start_ = 0.0;  // the last step's start and the bundle there
  std::vector<double> X_step_start_, X_low_step_start_;
  std::vector<std::string> warnings_;
  integrate::Tolerances tolerances_;
  bool has_tolerances_ = false;
  // The drift after a restart: pending (to be the next step), from the
  // restart's time; the last one's span and y at its ends (its outputs and
  // roots lie on that line).
  bool drift_pending_ = false;
  double drift_origin_ = 0.0, drift_at_ = 0.0;
  double drift_from_ = std::numeric_limits<double>::infinity();
  double drift_to_ = -std::numeric_limits<double>::infinity();
  std::vector<double> y_drift_from_, y_drift_to_;
};

}  // namespace odesens::internal_diff
