// The trajectories internal differences integrate together (Franz & Kiehl,
// §2.1): the nominal η (trajectory 0) and one perturbed trajectory η̂_j per
// sensitivity direction (trajectories 1..n_s), L = 1 + n_s in all, stepped
// on one shared step-size sequence so that σ_j = (η̂_j − η)/ε_j
// differentiates the discrete solution itself, (7)–(11).
//
// Layout, trajectory-major: state i of trajectory l at [i + l*nx], so that
// each trajectory is one contiguous column. Both consumers of a bundle want
// that: the model's batched f (BatchedRhs::rhs_points takes its points as
// columns) and multi-right-hand-side LU solves of Rosenbrock stages. The
// parameters of the trajectories are np x L in the same layout: column 0 is
// p, column j is p + ε_j R_p,j.
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
