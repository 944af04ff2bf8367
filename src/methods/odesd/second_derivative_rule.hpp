// odeSD's fourth-degree two-derivative rule (Eq. 7)
//
//     x1 = g4(x1) = x0 + h/2 (f0 + f1) + h²/12 (a0 − a1),
//     f1 = f(t0 + h, x1), a1 = a(t0 + h, x1),
//
// local error −h⁵x⁽⁵⁾/720 (Eq. 10), stability function
// R(z) = (12 + 6z + z²)/(12 − 6z + z²), and its simplified Newton iteration
// (Eq. 8) x ← x + N⁻¹(g4(x) − x) with N = I − h/2 J + h²/12 J_a (the paper's
// M = −N; −M is also the matrix of the sensitivity step, Eq. 15).
#pragma once

#include <cstddef>

#include "integrate/implicit/newton_matrix.hpp"
#include "methods/odesd/model_derivatives.hpp"

namespace odesens::odesd {

// out = g4 − x1, given f1 and a1 at x1 (Eq. 7).
void rule_residual(std::size_t n, double h, const double* x0, const double* f0, const double* a0,
                   const double* x1, const double* f1, const double* a1, double* out);

struct NewtonControl {
  int max_iterations = 4;
  double tolerance = 0.1;  // on ‖δ‖ ρ/(1 − ρ) in the error norm
  // ρ assumed for the first iteration (the last step's rate); there is no
  // measured one yet.
  double rate_guess = 0.5;
};

struct NewtonOutcome {
  bool converged = false;
  bool not_finite = false;  // f, a or an iterate had NaN/Inf
  int iterations = 0;
  double rate = 0.0;        // the last measured contraction ‖δ_k‖/‖δ_{k−1}‖
};

// The step's vectors (n each); x1 holds the predictor on entry and the
// solution on a converged return, f1 and a1 then f and a at it (to first
// order in the last correction). weights are the error weights
// (1 / (atol + rtol |x|)); delta and scratch are scratch.
struct RuleStep {
  double t1 = 0.0, h = 0.0;
  const double *x0 = nullptr, *f0 = nullptr, *a0 = nullptr, *weights = nullptr;
  double *x1 = nullptr, *f1 = nullptr, *a1 = nullptr, *delta = nullptr, *scratch = nullptr;
};

// Eq. 8 with the factored N: iterates until ‖δ‖ ρ/(1 − ρ) ≤ tolerance
// (ρ measured from the second iteration on, rate_guess before), fails on
// ρ ≥ 1 or after max_iterations. Allocates nothing.
NewtonOutcome solve_rule(ModelDerivatives& d, integrate::NewtonMatrix& N, const RuleStep& s,
                         const NewtonControl& control);

}  // namespace odesens::odesd
