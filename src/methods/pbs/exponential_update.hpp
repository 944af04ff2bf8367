// The exponential update of S over one interval, Eq. 18 of the PBS paper,
// with J_p frozen or linear over the interval (the ramp, Settings::exp_jp):
// dense, by the exponential of the augmented matrix (linalg/expm.hpp), or
// sparse, by its action on [S; I] (linalg/expmv.hpp) or, where that costs
// more, by the dense exponential of the scattered J. Workspaces are sized
// once (the dense exponential of sparse updates at its first use); the
// steps do not allocate.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "linalg/expm.hpp"
#include "linalg/expmv.hpp"
#include "methods/pbs/propagator_jacobians.hpp"
#include "odesens/pbs.hpp"

namespace odesens::pbs {

class ExponentialUpdate {
 public:
  // constant_jacobians: the model's J_x and J_p do not depend on t or x.
  ExponentialUpdate(const PropagatorShape& shape, const Settings& settings,
                    bool constant_jacobians);

  // J_p linear over each interval (exp_jp=linear and J_p not constant):
  // the step reads J_p at both ends.
  bool ramp() const { return ramp_; }
  // The change of J_x over each interval is taken (Settings::exp_jx): the
  // step reads J_x at both ends.
  bool jx_change() const { return jx_change_; }
  // Where the step's J_x is frozen, and whether left.jx and right.jx hold
  // J_x at the interval's ends (for the change of J_x, Settings::exp_jx).
  enum class Frozen { ends_unknown, at_midpoint, elsewhere };
  // Eq. 18 with J_x of `at`; J_p that of `at` or, with the ramp, linear
  // over the interval, ending at right.jp; then the change of J_x unless
  // frozen == ends_unknown. The ramp starts at left.jp, or, at_midpoint
  // (at.jp then J_p at the midpoint), where Simpson's rule puts it
  // (ramp_start).
  void step(const Jacobians& at, const Jacobians& left, const Jacobians& right, double dt,
            SensitivityBlocks s, Counters& counters, Frozen frozen);
  // The ramp's start A with J_p at the midpoint known: the ramp from A to
  // Jp_1 integrates like Simpson's rule.
  const Jacobians& ramp_start(const Jacobians& left, const Jacobians& mid,
                              const Jacobians& right);
  // Bytes held by the update's buffers and exponentials.
  double workspace_bytes() const;

 private:
  // J_x's values and, with a J_p pattern, J_p's at the left end and the
  // ramp's change (null without), all in pattern order.
  struct SparseForms {
    const double* jx;
    const double* jp0;
    const double* jp_delta;
  };
  // Sparse updates: the action of the exponential, or the dense exponential
  // of the scattered J where that is cheaper.
  // Returns whether it took the sparse action (else a dense exponential).
  bool sparse_step(const Jacobians& at, const Jacobians& p0, const Jacobians& right, double dt,
                   SensitivityBlocks s, Counters& counters);
  // With sparse updates the exponential is taken per interval by whichever
  // costs fewer flops (updates=auto): the sparse action, or the dense
  // exponential of the scattered J (up to kDenseLimit states).
  bool sparse_exponential_is_cheaper(const Jacobians& left, double dt) const;
  void allocate_dense_exponential();
  // jp0: J_p (frozen) or its value at the left end; jp1: null (frozen) or
  // its value at the right end; all dense.
  void dense_exponential_step(const std::vector<double>& jx, const double* jp0, const double* jp1,
                              double dt, SensitivityBlocks s,
                              const SparseForms* sparse = nullptr);
  // The exponential's blocks for these inputs are those of the last one.
  bool exponential_is_cached(const std::vector<double>& jx, const double* jp0, const double* jp1,
                             double dt) const;
  // E, and F or phi1 (and phi2) of J dt, for these inputs; remembers them.
  void compute_exponential(const std::vector<double>& jx, const double* jp0, const double* jp1,
                           double dt, const SparseForms* sparse);
  // J dt, dense or as pattern values, as the exponential takes it.
  const double* scaled_jx(const std::vector<double>& jx, double dt, const SparseForms* sparse);
  void compute_balanced(const double* a, const std::vector<double>& jx, const double* jp0,
                        const double* jp1, double dt);
  // F = dt phi1 Jp_0 (+ dt phi2 (Jp_1 - Jp_0)), with augment_with_identity_.
  void forcing_from_phi(const double* jp0, const double* jp1, double dt,
                        const SparseForms* sparse, std::vector<double>& scratch);
  double balance_factor(const std::vector<double>& jx, const double* jp) const;
  // ExpJx::linear after the frozen update: S (its end value) += dt phi1 A
  // + dt phi2 (B - A) for the forcing A at the left end and B at the right
  // (ramp_of_change), from D_0 = (J_0 - J_m) S_0 (s0_) and D_1 = (J_1 - J_m) S.
  void add_jx_change(const Jacobians& at, const Jacobians& left, const Jacobians& right,
                     double dt, bool midpoint, std::vector<double>& s);
  void add_sparse_jx_change(const Jacobians& at, const Jacobians& left, const Jacobians& right,
                            double dt, bool midpoint, bool action, std::vector<double>& s);
  // d0_, d1_ from D_0, D_1 into the ramp's start A and change B - A.
  void ramp_of_change(bool midpoint);
  void add_ramp_by_phi(double dt, std::vector<double>& s) const;

  static constexpr std::size_t kDenseLimit = 2000;

  PropagatorShape shape_;
  Updates updates_;
  // With more parameters than states the exponential is taken of
  // [[J dt, I], [0, 0]] and its integral block multiplied by J_p dt after
  // the squarings, which keeps every squaring at 2 nx^3 flops instead of
  // nx^3 + nx^2 np.
  bool augment_with_identity_;
  // exp_jp=linear (and J_p not constant): J_p linear over each exponential
  // interval, from the ends' values.
  bool ramp_;
  // ExpJx::linear (with the ramp): phi1 and phi2 are kept as matrices
  // (augment_with_identity_) to apply them to D; sparse actions apply D as
  // a second forcing.
  bool jx_change_;
  // S at the left end, J - J_m (dense, or pattern values), D_0, D_1 - D_0,
  // and the action's increment (sparse updates).
  std::vector<double> s0_, jx_delta_, d0_, d1_, ds_;
  std::unique_ptr<linalg::AugmentedExpmv> expmv_;              // sparse updates only
  std::unique_ptr<linalg::AugmentedExponential> exponential_;  // dense, or sparse at first use
  std::vector<double> jp_delta_;          // Jp_1 - Jp_0 (pattern values or dense)
  Jacobians ramp_start_;                   // its .jp: where the ramp of J_p starts
  std::vector<double> dense_jx_, dense_jp_;  // J scattered for a dense exponential
  std::vector<double> dense_jp1_;         // Jp_1 scattered, sparse models' dense steps
  std::vector<double> scaled_jx_values_;  // J dt's values for a sparse exponential
  std::vector<double> scaled_jp1_;        // the ramp block of the dense exponential
  std::vector<double> exp_phi2_;          // phi2(J dt) with augment_with_identity_
  // exponential workspace and the inputs of the last exponential, for reuse.
  std::vector<double> scaled_jx_, scaled_jp_, exp_e_, exp_f_, exp_integral_;
  std::vector<double> cached_jx_, cached_jp_;
  double cached_dt_ = -1.0;
};

}  // namespace odesens::pbs
