// The switches of f (comparisons, floors and ceils in f that depend on t or
// x, turned into root functions by the model's EventSystem) as the
// trajectories of a bundle see them.
//
// Each trajectory evaluates the comparisons of f at its own state and
// parameters, so next to an instant that switched f the perturbed
// trajectories η̂_j = η + ε_j σ_j may still be on the old branch while the
// nominal η is on the new one: the instant of trajectory j moves by
// ε_j dτ/dp·r_j. A step starting there would difference f on two branches,
// and σ_j = (η̂_j − η)/ε_j would take the jump of f divided by ε_j. The
// restart after an instant therefore checks that every trajectory is on the
// nominal's side of every switch, and otherwise starts a little later
// (bundle_solution.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "methods/internal_diff/bundle_rhs.hpp"
#include "odesens/model_capabilities.hpp"

namespace odesens::internal_diff {

class LaneSwitches {
 public:
  // system: the model's events and switches, or null.
  LaneSwitches(const EventSystem* system, BundleRhs& rhs);

  // The model has switches of f.
  bool any() const { return !switches_.empty(); }
  // Every trajectory of the bundle X (interleaved) at t is on the side of
  // trajectory 0 of every switch. Allocates nothing.
  bool agree(double t, const double* X);

 private:
  const EventSystem* system_;
  BundleRhs& rhs_;
  std::vector<std::size_t> switches_;  // roots with switches_rhs
  std::vector<double> lane_, g_nominal_, g_lane_;
};

}  // namespace odesens::internal_diff
