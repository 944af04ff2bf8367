// What the sensitivity propagator shares with its two updates, the
// Peano-Baker update (peano_baker_update.hpp) and the exponential update
// (exponential_update.hpp): the Jacobians at a point of the trajectory, the
// model's sizes and patterns, and S with its scratch block, which the
// propagator owns and passes to an update for each step.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "linalg/csc.hpp"
#include "odesens/sparsity.hpp"

namespace odesens::pbs {

// J and Jp at one point of the trajectory. Dense updates hold them dense
// (column-major); sparse updates hold J_x's values in pattern order, and
// J_p's too when the model has a J_p pattern.
struct Jacobians {
  std::vector<double> jx, jp;
  std::vector<double> f;  // dx/dt, kept for Hermite interpolation
  double norm = 0.0;      // Frobenius norm of jx
};

// The sizes and patterns of one solve, fixed at construction.
struct PropagatorShape {
  std::size_t nx = 0, np = 0;
  // Sparse updates (Settings::updates): J_x and J_p as values in pattern
  // order, nothing n x n.
  bool sparse = false;
  const SparsityPattern* jx_pattern = nullptr;  // sparse updates only
  const SparsityPattern* jp_pattern = nullptr;  // sparse updates with a J_p pattern

  std::size_t nm() const { return nx * np; }
};

// S (nx x np) and a scratch block of its size, both the propagator's. An
// update writes S's next value into `next` and swaps the two, or updates S
// in place.
struct SensitivityBlocks {
  std::vector<double>& s;
  std::vector<double>& next;
};

// J_p of `j` as a dense n x np block.
inline void dense_jp(const PropagatorShape& shape, const Jacobians& j, double* out) {
  if (!shape.jp_pattern) {
    std::copy(j.jp.begin(), j.jp.end(), out);
    return;
  }
  linalg::csc_to_dense(*shape.jp_pattern, j.jp.data(), out);
}

}  // namespace odesens::pbs
