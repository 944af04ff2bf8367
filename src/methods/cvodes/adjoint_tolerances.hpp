// Tolerances of cvodes_asa's backward problems, derived from the problem
// when the caller sets none.
//
// The backward states lambda and the gradient quadratures q live on scales
// of their own, unrelated to the forward states': lambda starts at the
// objective's weights, and q starts at 0 and grows at the rate J_p^T lambda,
// which is proportional to the states (1e12 on Lang's model). Handing both
// the forward min(atol), as CVODES' examples do, makes the first backward
// step's error test absolute on a quantity that moves by 1e21 per unit time,
// so the step shrinks below the resolution of t and CVodeB fails with
// CV_TOO_MUCH_WORK at t = T. Defaults (each overridable by an option):
//   rtol_adjoint     = the problem's rtol
//   atol_adjoint     = rtol_adjoint * max |w| (lambda's scale is the seed's;
//                      components far below it do not move the gradient)
//   rtol_quadrature  = the problem's rtol
//   atol_quadrature  = per parameter, rtol_quadrature times an estimate of
//                      |dG/dp_j|: the trapezoidal integral over the output
//                      times of |J_p^T lambda^|, lambda^ the running sum of
//                      |w_k| from the end (lambda with the dynamics ignored),
//                      floored at 1e-12 of the largest estimate.
// The S(T) rows (lambda(T) = e_i) get the same with w = e_i at T.
//
// Estimates computed from the trajectory may vanish or underflow: a state
// of a long chain that stays below 1e-308 has J_p = 0 in its row, and
// rtol * 0 = 0 is a tolerance CVODES refuses ("ewtQ has component(s) equal
// to zero"; a subnormal one makes the weight 1/atol infinite). So every
// derived absolute tolerance has a positive floor:
//   atol_quadrature_j >= rtol_quadrature * resolution / pbar_j, resolution
//       the absolute error the forward solution leaves in the seeded
//       quantity (row i: atol_i; objective: sum over outputs and states of
//       |w| atol), pbar_j = |p_j| (1 where p_j = 0). That is rtol_quadrature
//       times the absolute tolerance cvodes_fsa gives S_ij (atol_i / pbar_j,
//       CVodeSensEEtolerances), so it only takes over where the estimate is
//       below what the forward solution resolves anyway.
//   and every derived tolerance >= DBL_MIN, the smallest whose inverse is
//       finite.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/cvodes/adjoint_driver.hpp"
#include "odesens/model.hpp"

namespace odesens::cvodes {

// What the caller set (0: derive).
struct AdjointToleranceOptions {
  double rtol_adjoint = 0.0;
  double atol_adjoint = 0.0;
  double rtol_quadrature = 0.0;
  double atol_quadrature = 0.0;
};


// The forward trajectory at the points the estimate uses: times (t0 first,
// increasing) and states (nx per time), and the objective's weights at the
// same points (nx per time; zero where the point is not an output).
struct TrajectorySample {
  std::vector<double> times;
  std::vector<double> states;
  std::vector<double> weights;
};

// Tolerances of the objective's backward problem (index 0) and, when
// `rows`, of the nx S(T) row problems (indices 1..nx).
// atol: the problem's absolute tolerances (one entry, or nx).
std::vector<BackwardTolerances> derive_backward_tolerances(
    const AdjointToleranceOptions& options, double rtol, const std::vector<double>& atol,
    const Model& model, const double* p, Workspace* ws, const TrajectorySample& sample,
    bool rows);

}  // namespace odesens::cvodes
