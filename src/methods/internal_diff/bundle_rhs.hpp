// f at every trajectory of a bundle, each with its own parameter vector:
// F_l = f(t, X_l, P_l), l = 0..L-1, X and F interleaved (trajectory_bundle.hpp).
//
// All L points go through one call of the model's batched f (SIMD lanes of
// 8 or 4 for expression models) when it has one, else through Model::rhs
// point by point. The nominal goes with the perturbed trajectories on
// purpose: σ_j = (η̂_j − η)/ε_j divides rounding differences by ε ≈ √eps,
// so η and η̂_j must see the same arithmetic (the batched path may differ
// from Model::rhs by a few ulp). For the same reason every trajectory
// follows the nominal's branches of f (integrate/events/nominal_branches.hpp).
//
// The explicit RK engine evaluates the bundle through this class; an engine
// with a system of its own (the Rosenbrock engine's ModelRosenbrockSystem,
// which also gives J_x and J·v) takes the model, the workspace and each
// trajectory's parameters from here.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/events/nominal_branches.hpp"
#include "methods/internal_diff/trajectory_bundle.hpp"
#include "odesens/model.hpp"

namespace odesens::internal_diff {

class BundleRhs {
 public:
  // params: np x L, column l the parameters of trajectory l; read at every
  // call, so the caller may change them between steps.
  BundleRhs(const Model& model, Workspace& workspace, BundleShape shape, const double* params);

  // F = f(t, X) for the whole bundle (nx·L values each, interleaved).
  // Allocates nothing.
  void evaluate(double t, const double* X, double* F);

  const Model& model() const { return model_; }
  Workspace& workspace() const { return workspace_; }
  BundleShape shape() const { return shape_; }
  const double* params(std::size_t l) const { return params_ + l * model_.np(); }
  long calls() const { return calls_; }          // evaluate() calls
  // The first trajectory whose f was not finite at the last evaluate(), or
  // npos (a bundle of one trajectory is written to F directly: npos).
  std::size_t non_finite_trajectory() const;
  long evaluations() const { return calls_ * static_cast<long>(shape_.trajectories()); }  // of f

 private:
  const Model& model_;
  Workspace& workspace_;
  const BatchedRhs* batched_;
  integrate::NominalBranches branches_;  // switches of f: trajectory 0's for all
  BundleShape shape_;
  const double* params_;
  std::vector<double> times_;            // t for each point of a batched call
  std::vector<double> columns_, out_;    // X and F as nx × L columns
  long calls_ = 0;
};

}  // namespace odesens::internal_diff
