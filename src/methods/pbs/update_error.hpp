// An estimate of the local error of one interval's update of S, from J_x
// and J_p at the interval's ends and at its midpoint on the state solver's
// trajectory. Both updates are second order in the interval's length h:
// their error comes from how J varies over the interval, which three
// samples of it measure.
//
// With A = J_x and B = J_p expanded about the midpoint, A(t) = A_M + A1 tau
// + A2 tau^2 / 2 (and B alike), the exact update minus the method's is, to
// leading order in h:
//  - exponential midpoint update with J_p linear between the ends (Eq. 18
//    with exp_jp=linear): the second Magnus term and the quadrature errors,
//      h^3 (A2 S / 24 - [A_M, A1] S / 12 + A1 B_M / 12 - B2 / 12);
//  - Peano-Baker update with the states interpolated linearly (Eq. 24 with
//    refinement): its sub-steps follow J along the chord between the ends,
//    which misses J's curvature along the trajectory:
//      -(2/3) h (J_M - (J_L + J_R) / 2) = -h^3 (A2 S + B2) / 12.
// With J_p frozen at the midpoint (exp_jp=frozen) the exponential's B2 term
// is +h^3 B2 / 24. With A1 = (A_R - A_L) / h and A2 = 4 (A_L - 2 A_M + A_R) / h^2.
//
// The error is weighted as CVODES weights that of forward sensitivities
// (CVodeSensEEtolerances): rtol |S_ij| + atol_i / pbar_j, pbar_j = |p_j|
// (1 where p_j = 0), and measured in the weighted RMS norm: at most 1 means
// within the tolerances. Workspaces are sized once; estimate() does not
// allocate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "methods/pbs/propagator_jacobians.hpp"

namespace odesens::pbs {

enum class UpdateKind { exponential, peano_baker };

// What a solve does with the estimate (the methods' option error_control).
enum class ErrorControl {
  refine,  // split a step whose estimate exceeds 1 into pieces, the states
           // at their ends and midpoints from the state solver's interpolant
  warn,    // only count such steps and say so in the result
  off
};

struct ErrorControlSettings {
  ErrorControl mode = ErrorControl::off;
  double rtol = 1e-5;
  std::vector<double> atol;  // 1 or nx values
  std::int64_t max_pieces = 16;
};

// What the estimates found over a solve.
struct ErrorCounters {
  std::int64_t steps_estimated = 0;
  std::int64_t steps_over = 0;      // estimate above 1 (before any split)
  std::int64_t steps_refined = 0;   // split into pieces
  std::int64_t pieces = 0;          // pieces of the split steps
  std::int64_t steps_left_over = 0; // still above 1 after the largest split
  double largest = 0.0;             // the largest estimate
  double largest_left_over = 0.0;   // the largest expected after a split
};

class UpdateError {
 public:
  // atol: 1 or nx values; p: np values.
  UpdateError(const PropagatorShape& shape, double rtol, const std::vector<double>& atol,
              const double* p);

  // The weighted RMS norm of the estimated local error of the update of S
  // (the value at the interval's left end) over an interval of length h.
  double estimate(const Jacobians& left, const Jacobians& mid, const Jacobians& right, double h,
                  const std::vector<double>& s, UpdateKind kind, bool frozen_jp);
  double workspace_bytes() const;

 private:
  // out = A V (nx x nv V) for J_x values in the shape's storage.
  void jx_times(const std::vector<double>& a, const double* v, std::size_t nv, double* out) const;
  void predict_end(const std::vector<double>& jx_mid, double h, const std::vector<double>& s);
  bool stiff_step(const std::vector<double>& jx, double h) const;
  void damp_stiff_rows(const std::vector<double>& jx, double h);
  double diagonal(const std::vector<double>& jx, std::size_t i) const;
  double weighted_norm(const std::vector<double>& s) const;

  PropagatorShape shape_;
  double rtol_;
  std::vector<double> abs_tol_;  // atol_i / pbar_j, nx x np
  // A's second difference and change (J_x storage), B's second difference
  // and midpoint value (dense), the error and two products (nx x np).
  std::vector<double> a_curve_, a_change_, b_curve_, b_mid_, error_, product_a_, product_b_;
  std::vector<double> s_end_;  // S predicted at the step's end (weights)
};

}  // namespace odesens::pbs
