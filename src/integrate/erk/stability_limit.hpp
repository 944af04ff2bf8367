// Explicit steps kept inside the tableau's stability region (erk_adjoint's
// forward pass; the stiffness probe of the automatic method choice).
//
// Where the solution rests (an input at 0, a species at equilibrium) the
// error estimate of an explicit step is ~0 and the controller lets h grow
// to the whole span, while h·ρ(J) may be in the thousands. The states stay
// exact, but the derivative of such a step, R(hJ), amplifies every
// perturbation, and the discrete adjoint carries R(hJ)ᵀ back: it overflowed
// on Lucarelli_CellSystems2018 and Schwen_PONE2014 (NaN gradients). This
// bound keeps |h| ≤ 0.9 · boundary / ρ(J(t, x)), ρ estimated by a power
// iteration on J·v (Model::jvp) every fourth step, its vector carried from
// step to step. Steps it holds count as steps at the stability limit in the
// engine's stiffness test, so a problem that needs many of them ends as
// stiff instead of running on.
//
// As a measure only (Role::measure), it bounds no step and gives the
// stiffness test h·ρ(J): dopri8s' bundle, whose stiff directions the
// quotient of Hairer's test misses on large models (Lang_PLOSComputBiol2024:
// h·ρ at dop853's boundary 6.4, the quotient 0.06–0.6, so the test never
// fired and the solve ran for minutes). J·v is then a difference quotient
// of f (two evaluations): a measure needs no exact product, and a model
// without a cheap J·v (a callback model without a pattern) would build a
// dense nx × nx Jacobian for it.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "odesens/model.hpp"

namespace odesens::integrate::erk {

class StabilityLimit final : public StepLimit {
 public:
  enum class Role { bound, measure };
  // x of the engine holds the model's state at x[i * stride] (a bundle of
  // trajectories interleaved state-major: its nominal, stride = L).
  StabilityLimit(const Model& model, const double* p, Workspace* ws, double boundary,
                 Role role = Role::bound, std::size_t stride = 1);
  double largest_step(double t, const double* x) override;
  double h_lambda(double h) const override;
  double spectral_radius() const { return rho_; }

 private:
  double iterate(double t, const double* x);
  void product(double t, const double* x);  // w_ = J v_

  const Model& model_;
  const double* p_;
  Workspace* ws_;
  double boundary_;
  Role role_;
  std::size_t stride_;
  std::vector<double> v_, w_;
  std::vector<double> gathered_;  // the model's state, when stride_ > 1
  std::vector<double> shifted_;   // x + δ v, Role::measure
  double rho_ = 0;
  long calls_ = 0;  // largest_step() calls so far
};

}  // namespace odesens::integrate::erk
