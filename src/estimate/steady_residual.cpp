#include "estimate/steady_residual.hpp"

#include <cmath>
#include <limits>

namespace odesens::estimate {

double weighted_norm(std::size_t n, const double* v, const double* x, NormTolerances tol) {
  if (n == 0) return 0.0;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = v[i] / (tol.rtol * std::fabs(x[i]) + tol.atol);
    sum += r * r;
  }
  return std::sqrt(sum / static_cast<double>(n));
}

double residual_norm(const Model& model, double t, const double* x, const double* p,
                     NormTolerances tol, std::vector<double>& f, Workspace* ws) {
  f.resize(model.nx());
  model.rhs(t, x, p, f.data(), ws);
  const double norm = weighted_norm(f.size(), f.data(), x, tol);
  // A NaN norm would compare false with everything; Inf fails every test.
  return std::isfinite(norm) ? norm : std::numeric_limits<double>::infinity();
}

}  // namespace odesens::estimate
