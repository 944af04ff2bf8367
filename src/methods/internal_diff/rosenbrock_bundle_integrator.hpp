// The Rosenbrock engine (integrate/implicit/) as a BundleIntegrator:
// grk4as' engine, with GRK4A (Kaps & Rentrop; the paper's ref. [8]).
//
// Trajectory l of the bundle is lane l of the engine (lane 0 the nominal),
// so the bundle's nx × L interleaved layout is the engine's own and no copy
// is needed. The engine forms J_x of the nominal and one LU of
// I − hγJ (the paper's (15)) per step attempt and solves every perturbed
// trajectory's stages with it (§2.5): a `jacobian` mode of `frozen` is the
// paper's GRK4AS, `corrected` adds the lanes' own Jacobian products so that
// σ keeps order 4 (rosenbrock_engine.hpp).
//
// The lanes' f goes through a ModelRosenbrockSystem of the BundleRhs's
// model and workspace (one batched call for all lanes, as BundleRhs does,
// so nominal and perturbed trajectories see the same arithmetic); it holds
// its own copy of each lane's parameters, refreshed from the BundleRhs at
// start() and replace_states(). GRK4A has no dense output: the framework
// lands steps on the output times. interpolate() gives the cubic Hermite
// polynomial through the states and f at both ends of the last step
// (O(h^4), two more f evaluations of the bundle when first asked in a
// step): enough to locate the roots of events and switches, not to give
// outputs at the method's order.
#pragma once

#include <memory>
#include <vector>

#include "integrate/implicit/model_rosenbrock_system.hpp"
#include "integrate/implicit/newton_matrix.hpp"
#include "integrate/implicit/rosenbrock_engine.hpp"
#include "integrate/implicit/rosenbrock_workspace.hpp"
#include "methods/internal_diff/bundle_integrator.hpp"

namespace odesens::internal_diff {

class RosenbrockBundleIntegrator final : public BundleIntegrator {
 public:
  RosenbrockBundleIntegrator(const integrate::RosenbrockTableau& tableau, BundleRhs& rhs,
                             const BundleStepSettings& settings,
                             integrate::RosenbrockJacobian jacobian,
                             const integrate::NewtonMatrixOptions& newton);

  void start(double t0, const double* X0, const double* X0_low, double t_end) override;
  void step(double t_limit) override;
  void begin_step_budget() override { engine_.begin_step_budget(); }
  long budget_used() const override { return engine_.budget_used(); }
  void carry_step_budget(long used) override { engine_.carry_step_budget(used); }
  void replace_states(const double* X, const double* X_low) override;
  double t() const override { return engine_.t(); }
  double t_previous() const override { return engine_.t_previous(); }
  const double* x() const override { return engine_.x(); }
  const double* x_low() const override { return engine_.x_low(); }
  bool has_dense_output() const override { return false; }
  void interpolate(double t, double* X) override;
  BundleCounts counts() const override;
  // The engine's stages first, then the step ends' f for the dense output.
  std::size_t non_finite_trajectory() const override {
    const std::size_t lane = system_.non_finite_lane();
    return lane != static_cast<std::size_t>(-1) ? lane : rhs_.non_finite_trajectory();
  }

 private:
  void copy_params();  // the BundleRhs's lane parameters into system_

  BundleRhs& rhs_;
  std::size_t nx_, lanes_;
  integrate::ModelRosenbrockSystem system_;
  integrate::RosenbrockWorkspace workspace_;
  integrate::RosenbrockEngine engine_;
  std::vector<double> lane_;      // one trajectory's state (nx values)
  std::vector<double> lane_low_;  // and its low part
  // The last step's ends for interpolate(): states at its start, f at both
  // ends once asked for.
  double t_start_ = 0.0;
  std::vector<double> x_start_, f_start_, f_end_;
  bool hermite_ready_ = false;
  long hermite_calls_ = 0;         // f of the bundle for interpolate()
  BundleCounts before_restart_;    // the engine's counts before its last start()
  bool started_ = false;
};

class RosenbrockBundleIntegratorFactory final : public BundleIntegratorFactory {
 public:
  RosenbrockBundleIntegratorFactory(const integrate::RosenbrockTableau& tableau,
                                    integrate::RosenbrockJacobian jacobian,
                                    const integrate::NewtonMatrixOptions& newton);
  std::unique_ptr<BundleIntegrator> make(BundleRhs& rhs,
                                         const BundleStepSettings& settings) const override;
  int order() const override { return tableau_.order; }

 private:
  const integrate::RosenbrockTableau& tableau_;
  integrate::RosenbrockJacobian jacobian_;
  integrate::NewtonMatrixOptions newton_;
};

}  // namespace odesens::internal_diff
