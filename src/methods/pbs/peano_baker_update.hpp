// The Peano-Baker update of S over one (sub-)interval, Eq. 21-24 of the PBS
// paper: dense, with the transition matrices formed and a run of identical
// sub-steps applied at once, or sparse, as products with the sparse J_x.
// Workspaces are sized once; the steps do not allocate.
#pragma once

#include <cstdint>
#include <vector>

#include "methods/pbs/propagator_jacobians.hpp"

namespace odesens::pbs {

class PeanoBakerUpdate {
 public:
  explicit PeanoBakerUpdate(const PropagatorShape& shape);

  // Eq. 24 over [a, b]. Dense updates may hold the step back as pending
  // (apply_pending_steps() applies it).
  void step(const Jacobians& a, const Jacobians& b, double dt, SensitivityBlocks s);
  // n identical sub-steps with J_x and J_p of j at both ends (constant
  // Jacobians).
  void identical_steps(const Jacobians& j, double dt, std::int64_t n, SensitivityBlocks s);
  // Applies the pending run of identical Peano-Baker sub-steps to S.
  void apply_pending_steps(SensitivityBlocks s);
  // Bytes held by the update's buffers.
  double workspace_bytes() const;

 private:
  void dense_step(const Jacobians& a, const Jacobians& b, double dt, SensitivityBlocks s);
  // Phi(b;a) into phi_forward_ and the parameter drift into drift_ (Eq. 21-23).
  void transition_matrices(const Jacobians& a, const Jacobians& b, double dt);
  // Sparse updates: Peano-Baker steps as sparse products, nothing n x n.
  void sparse_step(const Jacobians& a, const Jacobians& b, double dt, std::vector<double>& s);
  void apply_phi(const Jacobians& a, const Jacobians& b, double half, double sign, double* X);

  PropagatorShape shape_;
  // Sparse workspace: n x np blocks.
  std::vector<double> block_a_, block_b_, block_c_;
  // Dense workspace. phi_forward_ and drift_ = dt/2 (Jp_a + Phi(a;b) Jp_b)
  // depend only on (Ja, Jb, Jp_a, Jp_b, dt), which repeat from sub-step to
  // sub-step when J_x and J_p are constant (linear models), so they are
  // kept with the inputs that made them and reused on a match.
  std::vector<double> i1_, phi_forward_, phi_backward_, drift_;
  std::vector<double> pbs_key_ja_, pbs_key_jb_, pbs_key_jpa_, pbs_key_jpb_;
  double pbs_key_dt_ = -1.0;
  // A run of identical sub-steps S <- Phi (S + drift) is applied at once
  // by binary powering of the affine map (log2 of the run in products
  // instead of one product per sub-step).
  std::int64_t pending_steps_ = 0;
  std::vector<double> power_a_, power_c_, power_tmp_a_, power_tmp_c_;
};

}  // namespace odesens::pbs
