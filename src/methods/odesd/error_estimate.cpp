#include "methods/odesd/error_estimate.hpp"

namespace odesens::odesd {

G5Coefficients g5_coefficients(double r) {
  const double D = 6.0 * r * r + 15.0 * r + 10.0;
  const double r1 = r + 1.0, r13 = r1 * r1 * r1;
  G5Coefficients c;
  c.x0 = r13 * (6.0 * r * r - 3.0 * r + 1.0) / (r * r * r * D);
  c.xm1 = -1.0 / (r * r * r * D);
  c.f0 = r13 * (3.0 * r - 1.0) / (r * r * D);
  c.f1 = r1 * (3.0 * r + 4.0) / D;
  c.a0 = r13 / (2.0 * r * D);
  c.a1 = -r1 * r1 / (2.0 * D);
  return c;
}

void g5_minus_x1(std::size_t len, const G5Coefficients& c, double h, const double* xm1,
                 const double* x0, const double* f0, const double* a0, const double* x1,
                 const double* f1, const double* a1, double* out) {
  const double hf0 = h * c.f0, hf1 = h * c.f1, ha0 = h * h * c.a0, ha1 = h * h * c.a1;
  // c.x0 + c.xm1 = 1 (g5 reproduces constants): written as x0 + c.xm1 (x₋₁ − x0)
  // so that g5 − x1 does not lose x0's digits to the large c.x0 at small r.
  for (std::size_t i = 0; i < len; ++i)
    out[i] = (x0[i] - x1[i]) + c.xm1 * (xm1[i] - x0[i]) + hf0 * f0[i] + hf1 * f1[i] +
             ha0 * a0[i] + ha1 * a1[i];
}

void first_step_g5_minus_x1(std::size_t len, double h, const double* x0, const double* f0,
                            const double* a0, const double* adot0, const double* x1,
                            const double* f1, const double* a1, double* out) {
  const double h2 = h * h, h3 = h2 * h;
  for (std::size_t i = 0; i < len; ++i)
    out[i] = (x0[i] - x1[i]) + h * (0.6 * f0[i] + 0.4 * f1[i]) +
             h2 * (0.15 * a0[i] - 0.05 * a1[i]) + h3 / 60.0 * adot0[i];
}

}  // namespace odesens::odesd
