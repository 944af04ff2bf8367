#include "methods/odesd/second_derivative_rule.hpp"

#include <algorithm>
#include <cmath>

#include "core/finite_values.hpp"
#include "integrate/step_control.hpp"

namespace odesens::odesd {

void rule_residual(std::size_t n, double h, const double* x0, const double* f0, const double* a0,
                   const double* x1, const double* f1, const double* a1, double* out) {
  const double c1 = 0.5 * h, c2 = h * h / 12.0;
  for (std::size_t i = 0; i < n; ++i)
    out[i] = (x0[i] - x1[i]) + c1 * (f0[i] + f1[i]) + c2 * (a0[i] - a1[i]);
}

NewtonOutcome solve_rule(ModelDerivatives& d, integrate::NewtonMatrix& N, const RuleStep& s,
                         const NewtonControl& control) {
  const std::size_t n = d.n();
  NewtonOutcome out;
  double previous_norm = 0.0;
  for (int k = 0; k < control.max_iterations; ++k) {
    d.f(s.t1, s.x1, s.f1);
    d.a(s.t1, s.x1, s.a1);
    if (!all_finite(n, s.f1) || !all_finite(n, s.a1)) {
      out.not_finite = true;
      return out;
    }
    rule_residual(n, s.h, s.x0, s.f0, s.a0, s.x1, s.f1, s.a1, s.delta);
    N.solve(1, s.delta);  // δ = N⁻¹ (g4 − x), Eq. 8
    for (std::size_t i = 0; i < n; ++i) s.x1[i] += s.delta[i];
    out.iterations = k + 1;
    const double norm = integrate::weighted_rms_norm(n, 1, s.delta, s.weights);
    if (!std::isfinite(norm)) {
      out.not_finite = true;
      return out;
    }
    double rho;
    if (k == 0) {
      rho = std::clamp(control.rate_guess, 0.05, 0.9);
    } else {
      rho = norm / previous_norm;
      out.rate = rho;
      if (rho >= 1.0) return out;  // diverging
    }
    previous_norm = norm;
    if (norm == 0.0 || norm * rho / (1.0 - rho) <= control.tolerance) {
      // f and a at the converged x1 (the error estimate, the output and the
      // next step read them) from those at the last iterate and the last
      // correction δ, f1 += J δ, a1 += J_a δ: exact to O(‖δ‖ ‖J − J(x1)‖),
      // far below the Newton tolerance, and one f and a evaluation a step
      // cheaper than evaluating them again.
      d.multiply_j(1, s.delta, s.scratch);
      for (std::size_t i = 0; i < n; ++i) s.f1[i] += s.scratch[i];
      d.multiply_ja(1, s.delta, s.scratch);
      for (std::size_t i = 0; i < n; ++i) s.a1[i] += s.scratch[i];
      out.converged = true;
      return out;
    }
  }
  return out;
}

}  // namespace odesens::odesd
