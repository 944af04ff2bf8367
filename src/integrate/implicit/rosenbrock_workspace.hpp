// Memory of one Rosenbrock solve, sized once for a tableau, n states, m
// lanes and the Jacobian's sparsity, so that the step loop allocates
// nothing. Owned by the caller (one per solve or per worker); the engine
// only points into it. It holds the solve's NewtonMatrix M = I − hγJ
// (dense LU, or KLU for a large sparse J: NewtonMatrixOptions).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "integrate/implicit/newton_matrix.hpp"
#include "integrate/implicit/rosenbrock_tableau.hpp"
#include "odesens/sparsity.hpp"

namespace odesens::integrate {

class RosenbrockWorkspace {
 public:
  // jacobian_pattern: the system's RosenbrockSystem::jacobian_pattern()
  // (copied), nullptr for a dense J. Throws Error(invalid_argument) for
  // n = 0 or lanes = 0.
  RosenbrockWorkspace(const RosenbrockTableau& tableau, std::size_t n, std::size_t lanes,
                      const SparsityPattern* jacobian_pattern,
                      const NewtonMatrixOptions& newton = {});

  const RosenbrockTableau& tableau() const { return *tableau_; }
  std::size_t n() const { return n_; }
  std::size_t lanes() const { return lanes_; }
  std::size_t size() const { return n_ * lanes_; }  // values of one interleaved buffer

  // Sparsity of J (null: dense) and its value count (nnz, or n² dense).
  const SparsityPattern* jacobian_pattern() const {
    return pattern_ ? &*pattern_ : nullptr;
  }
  std::size_t jacobian_size() const { return jacobian_.size(); }
  double* jacobian() { return jacobian_.data(); }
  NewtonMatrix& newton() { return newton_; }
  const NewtonMatrix& newton() const { return newton_; }

  // Interleaved n×m buffers. x and x_candidate are swapped on acceptance,
  // and so are their low parts: the rounding error of x's compensated
  // accumulation (the state is x + x_low to about twice double precision).
  double*& x() { return x_; }
  double*& x_candidate() { return x_candidate_; }
  double*& x_low() { return x_low_; }
  double*& x_low_candidate() { return x_low_candidate_; }
  double* f_start() { return block(0); }      // f(t_n, x_n), kept over rejected attempts
  double* dfdt_start() { return block(1); }   // ∂f/∂t(t_n, x_n)
  double* stage_value() { return block(2); }  // Y_i
  double* stage_f() { return block(3); }      // f(t_n + α_i h, Y_i)
  double* error() { return block(4); }        // Σ (b_j − b̂_j) k_j
  double* weights() { return block(5); }      // error weights
  double* stage(int i) { return stages_[i]; }            // k_i
  double* stage_rhs(int i) { return stage_rhs_[i]; }     // right-hand side of stage i
  double* const* stages() { return stages_.data(); }

  // Column-major n×m: the right-hand sides of one multi-RHS solve, and the
  // lanes' states at t_n (the points of their Jacobian products).
  double* solve_block() { return solve_block_.data(); }
  double* lane_states() { return lane_states_.data(); }
  // Contiguous n-vectors: a lane's Jacobian product v and J v.
  double* product_vector() { return product_.data(); }
  double* product_result() { return product_.data() + n_; }

 private:
  double* block(std::size_t k) { return scratch_.data() + k * size(); }

  const RosenbrockTableau* tableau_;
  std::size_t n_, lanes_;
  std::optional<SparsityPattern> pattern_;
  std::vector<double> jacobian_;
  NewtonMatrix newton_;
  std::vector<double> states_, scratch_, stage_storage_, solve_block_, lane_states_, product_;
  std::vector<double*> stages_, stage_rhs_;
  double* x_;
  double* x_candidate_;
  double* x_low_;
  double* x_low_candidate_;
};

}  // namespace odesens::integrate
