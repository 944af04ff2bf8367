// What an integration engine provides to internal differences: stepping a
// bundle of L trajectories (trajectory_bundle.hpp) on one shared step-size
// sequence, judged by the caller's StepErrorNorm. Directions, rescaling,
// the error test (14), outputs and the Result are the engine-independent
// part (internal_diff_solve.hpp); a method plugs an engine in with a
// BundleIntegratorFactory: dopri8s the explicit RK engine with dop853
// (erk_bundle_integrator.hpp), grk4as a Rosenbrock engine.
//
// Contract of a BundleIntegrator:
//   - start(t0, X0, X0_low, t_end): X0 + X0_low is the bundle (nx·L values
//     each; X0_low null: zeros); t_end fixes the direction and feeds the
//     starting-step guess.
//   - step(t_limit): one accepted step towards t_limit, shortened to end
//     exactly on it if it would pass it. Every attempt is judged by
//     settings.error_norm (accepted iff <= 1; the step-size controller reads
//     it as the engine's own error, O(h^(q+1))), with the estimates of all
//     trajectories in one StepErrorEstimate (the bundle in its first nx·L
//     values; err_low only for engines that have a second estimate). With
//     h_fixed set, steps are of that size and unjudged. A rejection redoes
//     all trajectories from the same start. Failures throw Error:
//     too_much_work after max_steps attempts, solver_failed when h
//     collapses, not_finite for NaN/Inf in f or the solution.
//   - replace_states(X, X_low): between steps only, overwrites the bundle
//     at t() (re-perturbed trajectories) with X + X_low (X_low null: zeros);
//     the parameters behind the BundleRhs may have changed too. The
//     step-size controller keeps its memory.
//   - x(), x_low(): the bundle at t() as x + x_low. Engines accumulate the
//     states compensated, x_low holding the rounding errors (TwoSum), so
//     that σ = (x̂ − x)/ε is not swamped by rounding at the states' scale
//     magnified by 1/ε over many steps.
//   - interpolate(t, X): the bundle at t_previous() <= t <= t() from the
//     last step, before any replace_states. has_dense_output(): accurate
//     to the method's order and used for output times; without, the
//     caller lands steps on its output times and interpolate() serves only
//     to locate the roots of events (to a lower order).
//     dense_output_fits_next_step(): false when the next step should land
//     on an output time inside it rather than interpolate there.
//   - start() again later restarts the bundle (after an event); counts()
//     go on from the earlier parts.
//   - f is evaluated for all L trajectories at once, through the BundleRhs
//     or a system built from its model, workspace and parameters (which
//     the caller changes only between steps, before replace_states); the
//     step loop allocates nothing.
#pragma once

#include <memory>
#include <optional>

#include "integrate/step_control.hpp"
#include "methods/internal_diff/bundle_rhs.hpp"

namespace odesens::internal_diff {

struct BundleStepSettings {
  // TOL of the states: the starting-step guess reads it (the steps
  // themselves are judged by error_norm).
  integrate::Tolerances tolerances;
  integrate::StepErrorNorm* error_norm = nullptr;  // required unless h_fixed
  double h0 = 0;                                   // first step; 0: the engine's guess
  double h_max = 0;                                // bound on |h|; 0: none
  std::optional<double> h_fixed;                   // fixed steps without error control
  long max_steps = 100000;                         // step attempts after start
  bool detect_stiffness = true;                    // explicit engines: ErkSettings::detect_stiffness
};

// What an integrator did, for Result::stats.
struct BundleCounts {
  long steps = 0;           // attempts
  long accepted = 0;
  long rejected = 0;
  long rhs_calls = 0;       // evaluations of f for the whole bundle
  long jacobians = 0;       // evaluations of J_x (implicit engines)
  long factorizations = 0;  // of the iteration matrix (implicit engines)
};

class BundleIntegrator {
 public:
  virtual ~BundleIntegrator() = default;
  virtual void start(double t0, const double* X0, const double* X0_low, double t_end) = 0;
  virtual void step(double t_limit) = 0;
  // max_steps counts the attempts from here on (an output interval begins).
  virtual void begin_step_budget() = 0;
  // The attempts counted so far, and the same carried over a start() (a
  // restart after an event is not a new output interval).
  virtual long budget_used() const = 0;
  virtual void carry_step_budget(long used) = 0;
  virtual void replace_states(const double* X, const double* X_low) = 0;
  virtual double t() const = 0;
  virtual double t_previous() const = 0;
  virtual const double* x() const = 0;      // the bundle at t()
  virtual const double* x_low() const = 0;  // its low part
  virtual bool has_dense_output() const = 0;
  // Whether outputs inside the next step may come from the dense output.
  // An explicit engine whose steps reach h·ρ(J) of order one is stepping
  // on modes its dense output cannot follow (stiff ones, held by accuracy
  // below the stability limit): there it lands on the output times instead.
  virtual bool dense_output_fits_next_step() const { return has_dense_output(); }
  virtual void interpolate(double t, double* X) = 0;
  virtual BundleCounts counts() const = 0;
  // After a not_finite error of f: the first trajectory whose f was not
  // finite at the last evaluation (0 the nominal), or npos where none was.
  virtual std::size_t non_finite_trajectory() const = 0;
};

class BundleIntegratorFactory {
 public:
  virtual ~BundleIntegratorFactory() = default;
  // An integrator of the bundle rhs.shape() over `rhs` (which outlives it).
  virtual std::unique_ptr<BundleIntegrator> make(BundleRhs& rhs,
                                                 const BundleStepSettings& settings) const = 0;
  // Order p of the method (the error estimate's is lower).
  virtual int order() const = 0;
};

}  // namespace odesens::internal_diff
