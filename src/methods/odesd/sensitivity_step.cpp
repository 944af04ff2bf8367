#include "methods/odesd/sensitivity_step.hpp"

namespace odesens::odesd {

void sensitivity_derivatives(const ModelDerivatives& d, const double* S, double* Sd,
                             double* Sdd) {
  d.multiply_j(d.np(), S, Sd);
  d.multiply_ja(d.np(), S, Sdd);
  d.add_fp(1.0, Sd);
  d.add_ap(1.0, Sdd);
}

void sensitivity_step(const ModelDerivatives& d, integrate::NewtonMatrix& N, double h,
                      const double* S0, const double* Sd0, const double* Sdd0, double* S1,
                      double* Sd1, double* Sdd1) {
  const std::size_t len = d.n() * d.np();
  if (len == 0) return;
  const double c1 = 0.5 * h, c2 = h * h / 12.0;
  for (std::size_t q = 0; q < len; ++q) S1[q] = S0[q] + c1 * Sd0[q] + c2 * Sdd0[q];
  d.add_fp(c1, S1);  // Eq. 15's right side
  d.add_ap(-c2, S1);
  N.solve(d.np(), S1);
  sensitivity_derivatives(d, S1, Sd1, Sdd1);
}

void sensitivity_residual(std::size_t len, double h, const double* S0, const double* Sd0,
                          const double* Sdd0, const double* S1, const double* Sd1,
                          const double* Sdd1, double* r) {
  const double c1 = 0.5 * h, c2 = h * h / 12.0;
  for (std::size_t q = 0; q < len; ++q)
    r[q] = S0[q] - S1[q] + c1 * (Sd0[q] + Sd1[q]) + c2 * (Sdd0[q] - Sdd1[q]);
}

void refine_sensitivities(const ModelDerivatives& d, integrate::NewtonMatrix& N, double* r,
                          double* S1, double* Sd1, double* Sdd1) {
  const std::size_t len = d.n() * d.np();
  N.solve(d.np(), r);
  for (std::size_t q = 0; q < len; ++q) S1[q] += r[q];
  sensitivity_derivatives(d, S1, Sd1, Sdd1);
}

}  // namespace odesens::odesd
