// Carries S(t) = dx/dp along a state trajectory, one interval at a time,
// by the Peano-Baker update (Eq. 24, with refinement; peano_baker_update.hpp)
// or the exponential update (Eq. 18). Workspaces are sized once; advance()
// does not allocate.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "linalg/expm.hpp"
#include "linalg/expmv.hpp"
#include "methods/pbs/peano_baker_update.hpp"
#include "methods/pbs/propagator_jacobians.hpp"
#include "odesens/model.hpp"
#include "odesens/pbs.hpp"

namespace odesens::pbs {

class SensitivityPropagator {
 public:
  SensitivityPropagator(const Model& model, const double* p, const Settings& settings);

  void start(double t0, const double* x0, const double* s0);
  // Moves from the current point to (t1, x1), t1 > current time. x_mid:
  // the state at the interval's midpoint, for the midpoint exponential
  // update (Settings::exp_jacobian), or null (left-end Jacobians).
  void advance(double t1, const double* x1, const double* x_mid = nullptr);
  // S at (t, x(t)), t > current time, by the same update over [current, t]
  // (a partial step: how output times inside a solver step get their S),
  // into s_out (nx x np); the propagator stays where it was.
  void sensitivity_at(double t, const double* x, const double* x_mid, double* s_out);

  double t() const { return t_; }
  const double* s() const { return s_.data(); }
  const Counters& counters() const { return counters_; }
  // Bytes held by the propagator's buffers (Stats' workspace_bytes).
  double workspace_bytes() const;

 private:
  enum class Parts { both, jx_only, jp_only };
  void evaluate(double t, const double* x, Jacobians& out, Parts parts = Parts::both);
  // Eq. 18 with J_x of `at`; J_p that of `at` (exp_jp=frozen) or linear
  // between left_.jp and right_.jp (exp_jp=linear).
  void exponential_step(const Jacobians& at, double dt);
  void refined_peano_baker(double t1, const double* x1, std::int64_t n_int);
  bool use_exponential(double dt, std::int64_t& n_int) const;
  // x at fraction w of the interval from the current point to (x1, right_).
  void interpolate(double w, double dt, const double* x1, double* out) const;
  SensitivityBlocks blocks() { return {s_, s_next_}; }

  const Model& model_;
  const double* p_;
  Settings settings_;
  std::unique_ptr<Workspace> workspace_;  // every model evaluation of this solve
  PropagatorShape shape_;
  std::size_t nx_, np_;
  bool sparse_;
  const SparsityPattern* jx_pattern_;  // sparse updates only
  const SparsityPattern* jp_pattern_;  // sparse updates with a J_p pattern
  std::unique_ptr<linalg::AugmentedExpmv> expmv_;
  PeanoBakerUpdate peano_baker_;
  Counters counters_;

  double t_ = 0.0;
  std::vector<double> x_, x_sub_;
  Jacobians left_, right_, sub_a_, sub_b_, mid_;
  std::vector<double> s_, s_next_;
  std::vector<double> s_saved_, x_saved_;  // sensitivity_at's restore point
  bool ends_swapped_ = false;              // the last advance() swapped left_/right_
  // Sparse updates (Settings::updates): J_x and J_p as values in pattern
  // order, the exponential as an action (linalg/expmv.hpp), nothing n x n.
  // With sparse updates the exponential is taken per interval by whichever
  // costs fewer flops (updates=auto): the sparse action, or the dense
  // exponential of the scattered J (up to kDenseLimit states).
  bool sparse_exponential_is_cheaper(const Jacobians& left, double dt) const;
  void allocate_dense_exponential();
  // jp0: J_p (frozen) or its value at the left end; jp1: null (frozen) or
  // its value at the right end; all dense.
  // J_x's values and, with a J_p pattern, J_p's at the left end and the
  // ramp's change (null without), all in pattern order.
  struct SparseForms {
    const double* jx;
    const double* jp0;
    const double* jp_delta;
  };
  void dense_exponential_step(const std::vector<double>& jx, const double* jp0, const double* jp1,
                              double dt, const SparseForms* sparse = nullptr);
  std::vector<double> scaled_jx_values_;  // J dt's values for a sparse exponential
  double balance_factor(const std::vector<double>& jx, const double* jp) const;
  static constexpr std::size_t kDenseLimit = 2000;
  std::vector<double> dense_jx_, dense_jp_;  // J scattered for a dense exponential
  // exponential workspace and the inputs of the last exponential, for reuse.
  // With more parameters than states the exponential is taken of
  // [[J dt, I], [0, 0]] and its integral block multiplied by J_p dt after
  // the squarings, which keeps every squaring at 2 nx^3 flops instead of
  // nx^3 + nx^2 np.
  bool augment_with_identity_;
  // exp_jp=linear (and J_p not constant): J_p linear over each exponential
  // interval, from the ends' values.
  bool ramp_;
  std::vector<double> jp_delta_;        // Jp_1 - Jp_0 (pattern values or dense)
  std::vector<double> dense_jp1_;       // Jp_1 scattered, sparse models' dense steps
  std::vector<double> scaled_jp1_;      // the ramp block of the dense exponential
  std::vector<double> exp_phi2_;        // phi2(J dt) with augment_with_identity_
  // The model's J_x and J_p do not depend on t or x: evaluated once.
  bool constant_jacobians_;
  std::unique_ptr<linalg::AugmentedExponential> exponential_;  // dense updates only
  std::vector<double> scaled_jx_, scaled_jp_, exp_e_, exp_f_, exp_integral_;
  std::vector<double> cached_jx_, cached_jp_;
  double cached_dt_ = -1.0;
};

}  // namespace odesens::pbs
