// S at output times inside a step from one eigen-decomposition of the
// step's midpoint J_x, J_m = V Lambda V^{-1}, for all the step's outputs:
// each output then costs a few n x n by n x np products instead of an
// exponential of its own (output_interpolant.hpp's form, which on stiff
// CaMKII made 601 outputs cost three times 61).
//
// Over [t_k, t_k + tau], with J_x frozen at J_m, J_p quadratic through its
// values at the step's start, midpoint and end (g(s) = g0 + g1 s + g2 s^2),
// and J_x's change as a forcing D = (J_x - J_m) S linear between its values
// at both ends (ExpJx::linear, D_tau from the frozen part):
//   S(tau) = e^{tau J_m} S_k + tau phi1 g0 + tau^2 phi2 g1 + 2 tau^3 phi3 g2
//            + tau phi1 D_0 + tau phi2 (D_tau - D_0),
// phi_k = phi_k(tau J_m) = V phi_k(tau Lambda) V^{-1}: Eq. 18 of the PBS paper
// with J_p quadratic and J_x's change taken, as the step's own update does.
// It differs from the exponential form (J_x at the sub-interval's midpoint)
// by the second-order remainder of J_x's change, O(tau h^2 |J''| |S|), below
// the update's own error; no model evaluation.
//
// Refused (prepare() false: the caller takes the exponential form) where
// dgeev fails, where V's condition number times the machine epsilon exceeds
// rtol / 100 (nearly defective J_m: the decomposition would lose the digits
// S needs), or, per output, where a value is not finite (e^{tau lambda}
// overflowing). A J_m that is nearly defective tends to stay so (a chain of
// reactions from a species that does not change: Bachmann_MSB2011 refuses
// every step): after kMostRefusalsInARow refusals in a row the next
// kFirstSkip knots are not decomposed, then one is tried; each further
// refusal doubles the knots skipped (up to kLongestSkip), an acceptance
// ends the skipping.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "methods/pbs/output_interpolant.hpp"

namespace odesens::pbs {

class SpectralOutputs {
 public:
  SpectralOutputs(std::size_t nx, std::size_t np, double rtol);

  // Decomposes knot's J_m, unless that knot was the last one decomposed;
  // false where the decomposition is refused (above).
  bool prepare(const StepKnot& knot);
  // S at t in (knot.t0, knot.t1) into s_out (nx x np), after prepare(knot)
  // returned true; false where a value is not finite (s_out then undefined).
  bool evaluate(const StepKnot& knot, double t, double* s_out);
  // The next prepare() decomposes, whatever knot it gets (a new solve).
  void forget() {
    have_key_ = false;
    refusals_in_a_row_ = 0;
    skip_ = kFirstSkip;
    skipping_ = 0;
  }
  static constexpr int kMostRefusalsInARow = 3;
  static constexpr std::int64_t kFirstSkip = 16, kLongestSkip = 1024;

  std::int64_t decompositions() const { return decompositions_; }
  std::int64_t refusals() const { return refusals_; }
  double workspace_bytes() const;

 private:
  using Complex = std::complex<double>;
  bool decompose(const StepKnot& knot);
  // X = [S_k, g0, g1, g2, D_0] into x_, V^{-1} X into y_.
  void transform_inputs(const StepKnot& knot);
  // z += f(lambda) y on each eigenvalue's rows of the n x np blocks (a
  // complex pair's two rows in dgeev's real form).
  void add_scaled(const Complex* f, const double* y, double* z);
  // j_tau_ = J_x(theta) - J_m, J_x quadratic through the knot's three.
  void interpolate_jx_change(const StepKnot& knot, double theta);

  std::size_t nx_, np_;
  double largest_condition_;  // rtol / 100 over the unit roundoff
  // The knot decomposed last (its StepKnot::id), and whether it was accepted.
  std::uint64_t key_ = 0;
  bool have_key_ = false, accepted_ = false;
  bool all_real_ = false;  // J_m's eigenvalues
  std::int64_t decompositions_ = 0, refusals_ = 0;
  int refusals_in_a_row_ = 0;
  std::int64_t skip_ = kFirstSkip;  // knots to skip at the next give-up
  std::int64_t skipping_ = 0;       // knots still to skip

  std::vector<double> a_, wr_, wi_, real_scale_, vr_, lu_, eigen_work_, rcond_work_;
  std::vector<int> pivots_, rcond_iwork_;
  // [S_k, g0, g1, g2, D_0] and V^{-1} times it, n x 5 np.
  std::vector<double> x_, y_;
  std::vector<double> z_, s_frozen_, d_, j_tau_, v_inverse_, y_d_;  // per output
  // Per eigenvalue.
  std::vector<Complex> f_exp_, f_phi1_, f_phi2_, f_phi3_, f_ramp_;
};

}  // namespace odesens::pbs
