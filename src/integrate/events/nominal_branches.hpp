// f at many points that all follow the branches of the first: every
// comparison, floor and ceil that switches f (EventSystem::branch_roots),
// and every one that reads parameters alone
// (BatchedRhs::parameter_branch_count), takes the value it has at point 0,
// for every point.
//
// Internal differences integrate perturbed trajectories η̂_j = η + ε_j σ_j
// next to the nominal η. Each would otherwise evaluate the comparisons of f
// at its own state and parameters, and near a switch that moves with x or p
// it switches up to ε_j |dτ/dp| earlier or later than η: over that window
// the difference (η̂_j − η)/ε_j integrates the jump of f divided by ε_j.
// Following η's branches, the trajectories differentiate f on one branch,
// and the jump of S is carried at the instant itself (EventRunner), once.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::integrate {

// The branch of f a switch is on where its root function is g, as
// rhs_points_on_branches reads it: a comparison's truth (1 or 0), a floor's
// or ceil's value (g is its argument).
double branch_value(const EventSystem::Root& root, double g);

class NominalBranches {
 public:
  explicit NominalBranches(const Model& model);

  // The model has switches of f, or comparisons of parameters alone, and
  // can evaluate f on given branches.
  bool active() const { return system_ != nullptr || batched_ != nullptr; }
  // F = f at n points (X nx x n, P np x n, F nx x n, column-major), every
  // switch on the side point 0 is on. Allocates nothing after the first call.
  void rhs_points(std::size_t n, const double* t, const double* X, const double* P, double* F,
                  Workspace* ws);

 private:
  const EventSystem* system_ = nullptr;  // switches of t or x (and those of p)
  const BatchedRhs* batched_ = nullptr;  // comparisons of p alone, without an event system
  std::vector<double> g_, truth_;
};

}  // namespace odesens::integrate
