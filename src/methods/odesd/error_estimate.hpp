// odeSD's local error estimate (Eq. 11; the label is inferred from display
// order): the fifth-degree formula g5 through x0, x₋₁, f0, a0, f1, a1, whose
// difference from the fourth-degree rule's x1 (Eq. 7) is its local error
// −h⁵x⁽⁵⁾/720 (Eq. 10) to leading order. The estimate is
// ε = ‖M⁻¹(g5 − x1)‖ with the LU of the Newton matrix M at hand, which damps
// the estimate of stiff components as the rule itself does.
#pragma once

#include <cstddef>

namespace odesens::odesd {

// g5 = c_x0 x0 + c_xm1 x₋₁ + h (c_f0 f0 + c_f1 f1) + h² (c_a0 a0 + c_a1 a1),
// the interpolant of the six data evaluated at t0 + h, for r = h₋₁/h.
struct G5Coefficients {
  double x0, xm1, f0, f1, a0, a1;
};

// With D = 6r² + 15r + 10:
//   x0: (r+1)³(6r²−3r+1)/(r³D)    x₋₁: −1/(r³D)
//   f0: (r+1)³(3r−1)/(r²D)        f1: (r+1)(3r+4)/D
//   a0: (r+1)³/(2rD)              a1: −(r+1)²/(2D)
// r = 1 gives the paper's 32/31, −1/31, 16/31, 14/31, 4/31, −2/31.
G5Coefficients g5_coefficients(double r);

// out = g5 − x1 for vectors of length len.
void g5_minus_x1(std::size_t len, const G5Coefficients& c, double h, const double* xm1,
                 const double* x0, const double* f0, const double* a0, const double* x1,
                 const double* f1, const double* a1, double* out);

// The first step has no x₋₁ (our choice; the paper is silent): the
// quintic-exact formula from x0, f0, a0, ȧ0, f1, a1,
//   g5 = x0 + h(3/5 f0 + 2/5 f1) + h²(3/20 a0 − 1/20 a1) + h³/60 ȧ0,
// with ȧ0 = J_a f0 + ∂a/∂t. out = g5 − x1.
void first_step_g5_minus_x1(std::size_t len, double h, const double* x0, const double* f0,
                            const double* a0, const double* adot0, const double* x1,
                            const double* f1, const double* a1, double* out);

}  // namespace odesens::odesd
