#include "integrate/erk/stiffness_test.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace odesens::integrate::erk {

namespace {

// R(z) = 1 + z bᵀ g, g_i = 1 + z Σ_{k<i} a_ik g_k: the step of y' = λy,
// z = hλ, from y = 1.
double stability_polynomial(const Tableau& tab, double z) {
  std::array<double, 32> g{};  // tableaux have at most 16 stages
  double sum = 0;
  for (int i = 0; i < tab.stages; ++i) {
    double gi = 0;
    for (int k = 0; k < i; ++k) gi += tab.a_at(i, k) * g[static_cast<std::size_t>(k)];
    g[static_cast<std::size_t>(i)] = 1 + z * gi;
    sum += tab.b[i] * g[static_cast<std::size_t>(i)];
  }
  return 1 + z * sum;
}

}  // namespace

double real_stability_boundary(const Tableau& tableau) {
  // March along the negative axis in steps of 1e-3 (the boundaries of the
  // tableaux here lie between 2 and 7), then bisect the crossing.
  const double step = 1e-3, limit = 50;
  double inside = 0;
  for (double r = step; r <= limit; r += step) {
    if (std::fabs(stability_polynomial(tableau, -r)) <= 1) {
      inside = r;
      continue;
    }
    double lo = inside, hi = r;
    for (int i = 0; i < 50; ++i) {
      const double mid = 0.5 * (lo + hi);
      (std::fabs(stability_polynomial(tableau, -mid)) <= 1 ? lo : hi) = mid;
    }
    return lo;
  }
  return inside;
}

// Computed once for all tableaux (thread-safe static initialization): an
// engine is made per solve.
double cached_stability_boundary(const Tableau& tableau) {
  static const std::vector<double> boundaries = [] {
    int count = 0;
    const Tableau* all = all_tableaux(&count);
    std::vector<double> out;
    for (int i = 0; i < count; ++i) out.push_back(real_stability_boundary(all[i]));
    return out;
  }();
  return boundaries[static_cast<std::size_t>(tableau.id)];
}

double stiffness_quotient(std::size_t count, double h, const double* x_new, const double* y_stage,
                          const double* f_new, const double* f_stage) {
  double num = 0, den = 0;
  for (std::size_t q = 0; q < count; ++q) {
    const double df = f_new[q] - f_stage[q], dx = x_new[q] - y_stage[q];
    num += df * df;
    den += dx * dx;
  }
  return den > 0 ? std::fabs(h) * std::sqrt(num / den) : 0.0;
}

StiffnessTest::StiffnessTest(const Tableau& tableau, long every) : every_(every > 0 ? every : 1) {
  if (!tableau.fsal || tableau.fixed_step_only || tableau.stages < 3) return;
  const int last_explicit = tableau.stages - 2;
  if (tableau.c[last_explicit] != 1.0) return;
  stage_ = last_explicit;
  boundary_ = cached_stability_boundary(tableau);
}

bool StiffnessTest::record(double quotient, double measured) {
  last_h_lambda_ = std::max(quotient, measured);
  last_quotient_ = quotient;
  if (quotient > threshold() || measured > measured_threshold()) {
    calm_ = 0;
    return ++fired_ >= run;
  }
  if (++calm_ >= release) fired_ = 0;
  return false;
}

void StiffnessTest::reset() {
  fired_ = calm_ = 0;
  last_h_lambda_ = 0;
}

}  // namespace odesens::integrate::erk
