#include "methods/pbs/output_interpolant.hpp"

#include <cmath>
#include <cstddef>

namespace odesens::pbs {

void quadratic(const std::vector<double>& a, const std::vector<double>& m,
               const std::vector<double>& b, double u, std::vector<double>& out) {
  const double la = 2.0 * (u - 0.5) * (u - 1.0), lm = -4.0 * u * (u - 1.0),
               lb = 2.0 * u * (u - 0.5);
  for (std::size_t q = 0; q < out.size(); ++q) out[q] = la * a[q] + lm * m[q] + lb * b[q];
}

void interpolate_jacobians(const StepKnot& knot, double u, bool with_jx, Jacobians& out) {
  if (with_jx) {
    quadratic(knot.left.jx, knot.mid.jx, knot.right.jx, u, out.jx);
    double sum = 0.0;
    for (double v : out.jx) sum += v * v;
    out.norm = std::sqrt(sum);
  }
  quadratic(knot.left.jp, knot.mid.jp, knot.right.jp, u, out.jp);
}

}  // namespace odesens::pbs
