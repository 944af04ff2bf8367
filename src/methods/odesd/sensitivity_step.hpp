// Direct sensitivities of the two-derivative rule (Eqs. 13-15). S = ∂x/∂p
// obeys Ṡ = J S + F_p and, differentiating a(t, x(t, p), p) in p,
// S̈ = J_a S + A_p (Eq. 13; exact also for t-dependent f, since ∂a/∂t does
// not enter). Applying Eq. 7 to S and collecting S1 (Eq. 14):
//
//   (I − h/2 J1 + h²/12 J_a1) S1 = S0 + h/2 (Ṡ0 + F_p1) + h²/12 (S̈0 − A_p1)   (Eq. 15)
//
// one multi-right-hand-side solve for all n_p columns with the LU of the
// Newton matrix at x1. Ṡ1 and S̈1 are formed from S1 for the next step and
// the output.
#pragma once

#include <cstddef>

#include "integrate/implicit/newton_matrix.hpp"
#include "methods/odesd/model_derivatives.hpp"

namespace odesens::odesd {

// S1 (n x np) from S0, Ṡ0, S̈0 with the Jacobians held by d (at x1) and N
// factored from them; then Ṡ1 and S̈1. Allocates nothing.
void sensitivity_step(const ModelDerivatives& d, integrate::NewtonMatrix& N, double h,
                      const double* S0, const double* Sd0, const double* Sdd0, double* S1,
                      double* Sd1, double* Sdd1);

// The residual of Eq. 15 left by the solve, r = rhs − M S1, written with
// the quantities sensitivity_step produced:
//   r = S0 − S1 + h/2 (Ṡ0 + Ṡ1) + h²/12 (S̈0 − S̈1).
// (n x np, into r.) Exactly 0 in exact arithmetic.
void sensitivity_residual(std::size_t len, double h, const double* S0, const double* Sd0,
                          const double* Sdd0, const double* S1, const double* Sd1,
                          const double* Sdd1, double* r);

// One step of iterative refinement of Eq. 15: S1 += M⁻¹ r with N's LU, then
// Ṡ1 and S̈1 from the corrected S1. r is overwritten.
void refine_sensitivities(const ModelDerivatives& d, integrate::NewtonMatrix& N, double* r,
                          double* S1, double* Sd1, double* Sdd1);

// Ṡ = J S + F_p and S̈ = J_a S + A_p with the Jacobians held by d (Eq. 13).
void sensitivity_derivatives(const ModelDerivatives& d, const double* S, double* Sd, double* Sdd);

}  // namespace odesens::odesd
