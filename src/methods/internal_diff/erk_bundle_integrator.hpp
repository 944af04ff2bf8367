// The explicit RK engine (integrate/erk/) as a BundleIntegrator: dopri8s'
// engine, with dop853 (the paper's DOPRI8 is Prince & Dormand's 13-stage
// 8(7) pair; dop853 is its successor with 7th-order dense output and the
// err5/err3 estimate).
//
// The engine integrates the whole bundle as one system: its stage
// combinations are element-wise, so the bundle's nx·L values may be viewed
// as (nx·L/W) states × W lanes for the widest kernel W the CPU runs, padded
// with zeros to a multiple of W. Every value undergoes the same operations
// in the same order whatever W (lane_kernels.hpp), so W is a matter of
// speed only; the padding has f = 0 and stays 0. The starting step is
// guessed here, over the bundle as one trajectory (HNW I §II.4): to the
// engine's heuristic each of the W lanes would be a trajectory, and a lane
// of padding or of states that start at zero makes it fall back to 1e-6.
// Where the stiffness test runs, it also takes h·ρ(J) of the nominal from a
// power iteration (two evaluations of f every fourth step), which binds no
// step.
#pragma once

#include <memory>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_system.hpp"
#include "integrate/erk/stability_limit.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "methods/internal_diff/bundle_integrator.hpp"

namespace odesens::internal_diff {

class ErkBundleIntegrator final : public BundleIntegrator {
 public:
  ErkBundleIntegrator(const integrate::erk::Tableau& tableau, BundleRhs& rhs,
                      const BundleStepSettings& settings);

  void start(double t0, const double* X0, const double* X0_low, double t_end) override;
  void step(double t_limit) override { engine_.step(t_limit); }
  void begin_step_budget() override { engine_.begin_step_budget(); }
  long budget_used() const override { return engine_.budget_used(); }
  void carry_step_budget(long used) override { engine_.carry_step_budget(used); }
  void replace_states(const double* X, const double* X_low) override;
  double t() const override { return engine_.t(); }
  double t_previous() const override { return engine_.t_previous(); }
  const double* x() const override { return engine_.x(); }
  const double* x_low() const override { return engine_.x_low(); }
  bool has_dense_output() const override { return true; }
  // h·ρ(J) of the proposed step at most 2 (kDenseOutputLimit in the .cpp).
  bool dense_output_fits_next_step() const override;
  void interpolate(double t, double* X) override;
  BundleCounts counts() const override;
  std::size_t non_finite_trajectory() const override { return rhs_.non_finite_trajectory(); }

 private:
  // The bundle's f with zeros on the padding.
  class PaddedSystem final : public integrate::erk::ErkSystem {
   public:
    PaddedSystem(BundleRhs& rhs, std::size_t padded) : rhs_(rhs), padded_(padded) {}
    void rhs(double t, const double* X, double* F) override;

   private:
    BundleRhs& rhs_;
    std::size_t padded_;
  };

  double first_step(double t0, double t_end);

  std::size_t size_;  // nx·L
  BundleRhs& rhs_;
  BundleStepSettings settings_;
  integrate::Tolerances guess_tolerances_;  // TOL over the bundle (nx·L values)
  PaddedSystem system_;
  integrate::erk::ErkWorkspace workspace_;
  // h·ρ(J) at the nominal for the engine's stiffness test: the quotient of
  // Hairer's test alone misses stiffness on large bundles (stability_limit.hpp).
  integrate::erk::StabilityLimit stiffness_measure_;
  integrate::erk::ErkEngine engine_;
  std::vector<double> padded_;      // one bundle with its padding
  std::vector<double> padded_low_;  // its low part, for replace_states
  std::vector<double> guess_scratch_;  // f0, x1, f1, weights for first_step
  BundleCounts before_restart_;        // the engine's counts before its last start()
  bool started_ = false;
};

class ErkBundleIntegratorFactory final : public BundleIntegratorFactory {
 public:
  explicit ErkBundleIntegratorFactory(integrate::erk::TableauId id);
  std::unique_ptr<BundleIntegrator> make(BundleRhs& rhs,
                                         const BundleStepSettings& settings) const override;
  int order() const override { return tableau_.order; }

 private:
  const integrate::erk::Tableau& tableau_;
};

}  // namespace odesens::internal_diff
