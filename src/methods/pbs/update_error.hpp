// An estimate of the local error of one interval's update of S, from J_x
// and J_p at the interval's ends and at its midpoint on the state solver's
// trajectory. Both updates are second order in the interval's length h:
// their error comes from how J varies over the interval, which three
// samples of it measure.
//
// With A = J_x and B = J_p expanded about the midpoint, A(t) = A_M + A1 tau
// + A2 tau^2 / 2 (and B alike), the exact update minus the method's is, to
// leading order in h:
//  - exponential midpoint update with J_x frozen at A_M and J_p linear
//    between the ends (Eq. 18 with a trapezoid ramp): the second Magnus
//    term and the quadrature errors,
//      h^3 (A2 S / 24 - [A_M, A1] S / 12 + A1 B_M / 12 - B2 / 12);
//  - the update the methods take by default: the exact solution with A_M is
//    S_R = e^{h A_M} S_L + integral of e^{(h/2 - tau) A_M} F(tau), the forcing
//    F = (A - A_M) S + B, and the update takes F as a line whose integral is
//    Simpson's (ExpJp::linear's ramp started where Simpson's rule puts it,
//    ExpJx::linear's change with D_M = 0). Simpson is exact for quadratics,
//    so no h^3 term is left: the line's slope is off by F'' h / 6, which the
//    kernel's variation weighs, h^3 c(h A_M) F'' with
//      c(Z) = phi3(Z) - (2/3) phi2(Z) + phi1(Z) / 6 = Z / 72 + Z^2 / 120 + ...,
//      F'' = A2 S + 2 A1 (A_M S + B_M) + B2
//    (its A terms with ExpJx::linear, its B2 with the ramp): O(h^4) where
//    h |A| is small, and c ~ -1/(3 z^2) on rows that decay fast. The h^3 terms above
//    describe the frozen forms, which exp_jx=frozen and exp_jp=frozen keep;
//  - Peano-Baker update with the states interpolated linearly (Eq. 24 with
//    refinement): its sub-steps follow J along the chord between the ends,
//    which misses J's curvature along the trajectory:
//      -(2/3) h (J_M - (J_L + J_R) / 2) = -h^3 (A2 S + B2) / 12;
//    and each of its n sub-steps of h / n truncates the series of the
//    transition matrix after J^2 (Eq. 21-23: Phi = I + hJ + (hJ)^2 / 2)
//    and takes the drift like the trapezoid rule, which leaves
//      (h / n)^3 (A^3 S / 6 - A^2 B / 12) a sub-step, h^3 / n^2 (...) a step,
//    with the second term's miss against the iterated integral,
//      -(h / n)^3 ((A_M A1 + 2 A1 A_M) S / 12 - A_M B1 / 6 - A1 B_M / 12):
//    with the paper's n = c h |J|, c = 10, about 2e-4 of S a sub-step
//    whatever the tolerances (pbsr was 2.5e-4 off on
//    Armistead_CellDeathDis2024 at rtol 1e-8 without this term).
// With J_p frozen at the midpoint (exp_jp=frozen) the exponential's B2 term
// is +h^3 B2 / 24. With A1 = (A_R - A_L) / h and A2 = 4 (A_L - 2 A_M + A_R) / h^2.
//
// The error is weighted as CVODES weights that of forward sensitivities
// (CVodeSensEEtolerances): rtol |S_ij| + atol_i / pbar_j, pbar_j = |p_j|
// (1 where p_j = 0), and measured as CVODES measures it: the largest over
// parameters of the weighted RMS norm of S's column; at most 1 means within
// the tolerances. Workspaces are sized once; estimate() does not
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
  std::int64_t steps_to_exponential = 0;  // pbsr: Peano-Baker steps taken exponentially
  double largest = 0.0;             // the largest estimate
  double largest_left_over = 0.0;   // the largest expected after a split
};

class UpdateError {
 public:
  // atol: 1 or nx values; p: np values.
  UpdateError(const PropagatorShape& shape, double rtol, const std::vector<double>& atol,
              const double* p);
  // Which exponential update is estimated: J_p as the Simpson ramp
  // (ExpJp::linear) or not, J_x's change taken (ExpJx::linear) or frozen.
  // Both by default, as the methods' defaults.
  void exponential_form(bool jp_ramp, bool jx_change) {
    jp_ramp_ = jp_ramp;
    jx_change_ = jx_change;
  }

  // The weighted norm (above) of the estimated local error of the update of S
  // (the value at the interval's left end) over an interval of length h.
  // sub_steps: the Peano-Baker update's sub-intervals (n above).
  double estimate(const Jacobians& left, const Jacobians& mid, const Jacobians& right, double h,
                  const std::vector<double>& s, UpdateKind kind, bool frozen_jp,
                  std::int64_t sub_steps = 1);
  double workspace_bytes() const;

 private:
  // out = A V (nx x nv V) for J_x values in the shape's storage.
  void jx_times(const std::vector<double>& a, const double* v, std::size_t nv, double* out) const;
  void predict_end(const std::vector<double>& jx_mid, double h, const std::vector<double>& s);
  bool stiff_step(const std::vector<double>& jx, double h) const;
  void damp_stiff_rows(const std::vector<double>& jx, double h);
  double diagonal(const std::vector<double>& jx, std::size_t i) const;
  double weighted_norm(const std::vector<double>& s) const;
  // error_ += the Peano-Baker sub-steps' truncation (above).
  void add_peano_baker_truncation(const std::vector<double>& jx_mid, double h,
                                  std::int64_t sub_steps, const std::vector<double>& s);
  // error_ += h^3 c(h A_M) F'' for the ramps' Simpson rule (above).
  void add_simpson_remainder(const std::vector<double>& jx_mid, double h,
                             const std::vector<double>& s);

  PropagatorShape shape_;
  double rtol_;
  std::vector<double> abs_tol_;  // atol_i / pbar_j, nx x np
  // A's second difference and change (J_x storage), B's second difference
  // and midpoint value (dense), the error and two products (nx x np).
  std::vector<double> a_curve_, a_change_, b_curve_, b_mid_, error_, product_a_, product_b_;
  std::vector<double> b_change_;  // B_R - B_L (dense)
  std::vector<double> s_end_;  // S predicted at the step's end (weights)
  std::vector<double> f2_;     // h^2 F'' (nx x np)
  bool jp_ramp_ = true, jx_change_ = true;
};

}  // namespace odesens::pbs
