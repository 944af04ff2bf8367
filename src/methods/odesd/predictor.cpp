#include "methods/odesd/predictor.hpp"

#include "methods/odesd/hermite_quintic.hpp"

namespace odesens::odesd {

void taylor_predictor(std::size_t n, double h, const double* x0, const double* f0,
                      const double* a0, double* out) {
  const double c2 = 0.5 * h * h;
  for (std::size_t i = 0; i < n; ++i) out[i] = x0[i] + h * f0[i] + c2 * a0[i];
}

void quintic_predictor(std::size_t n, double h_prev, double h, const double* xm1,
                       const double* fm1, const double* am1, const double* x0, const double* f0,
                       const double* a0, double* out) {
  quintic_hermite(n, 1.0 + h / h_prev, h_prev, xm1, fm1, am1, x0, f0, a0, out);
}

}  // namespace odesens::odesd
