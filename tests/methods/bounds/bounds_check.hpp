// Checks of set-valued results against point solutions: the polynomial
// models of a BoundsResult evaluated independently of the library (T_k by
// the three-term recurrence, monomials by products), and containment of
// cvodes_fsa values at sampled parameters.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens::testing {

// B_k(xi) for the result's basis and exponents.
inline double basis_value(const BoundsResult& b, std::size_t k, const std::vector<double>& xi) {
  const std::size_t np = b.box_mid.size();
  double v = 1.0;
  for (std::size_t j = 0; j < np; ++j) {
    const auto e = b.exponents[k * np + j];
    if (e == 0) continue;
    const double x = xi[j];
    if (b.basis == "taylor") {
      v *= std::pow(x, static_cast<double>(e));
    } else {
      double t0 = 1.0, t1 = x;
      for (std::int64_t n = 1; n < e; ++n) {
        const double t2 = 2.0 * x * t1 - t0;
        t0 = t1;
        t1 = t2;
      }
      v *= t1;
    }
  }
  return v;
}

// The scaled parameters of p (constants get 0).
inline std::vector<double> scaled(const BoundsResult& b, const std::vector<double>& p) {
  std::vector<double> xi(p.size(), 0.0);
  for (std::size_t j = 0; j < p.size(); ++j)
    if (b.box_rad[j] > 0.0) xi[j] = (p[j] - b.box_mid[j]) / b.box_rad[j];
  return xi;
}

// Polynomial part of model m (coefficients coef[c + m*n_mon]) at xi.
inline double model_value(const BoundsResult& b, const std::vector<double>& coef, std::size_t m,
                          const std::vector<double>& xi) {
  double v = 0.0;
  for (std::size_t k = 0; k < b.n_monomials; ++k)
    v += coef[k + m * b.n_monomials] * basis_value(b, k, xi);
  return v;
}

struct Containment {
  std::size_t checked = 0, violations = 0;
  std::string first;  // the first violation, for the message
  void check(bool inside, const std::string& what) {
    ++checked;
    if (!inside && violations++ == 0) first = what;
  }
};

// Whether v lies in [lo, hi] with slack 1e-6 (1 + |v|).
inline bool within(double v, double lo, double hi) {
  const double slack = 1e-6 * (1.0 + std::fabs(v));
  return v >= lo - slack && v <= hi + slack;
}

}  // namespace odesens::testing
