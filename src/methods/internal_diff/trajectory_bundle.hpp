// The trajectories internal differences integrate together (Franz & Kiehl,
// §2.1): the nominal η (trajectory 0) and one perturbed trajectory η̂_j per
// sensitivity direction (trajectories 1..n_s), L = 1 + n_s in all, stepped
// on one shared step-size sequence so that σ_j = (η̂_j − η)/ε_j
// differentiates the discrete solution itself, (7)–(11).
//
// Layout: the engines' lanes (step_control.hpp), nx states × L trajectories
// interleaved state-major, state i of trajectory l at [i*L + l], so that an
// engine's StepErrorEstimate and its lane states are the bundle as they
// are. The parameters of the trajectories are np × L column-major, the
// layout of the model's batched f: column 0 is p, column j is p + ε_j R_p,j.
#pragma once

#include <cstddef>

namespace odesens::internal_diff {

struct BundleShape {
  std::size_t nx = 0;  // states of one trajectory
  std::size_t ns = 0;  // sensitivity directions (perturbed trajectories)

  std::size_t trajectories() const { return 1 + ns; }
  std::size_t size() const { return nx * (1 + ns); }
};

}  // namespace odesens::internal_diff
