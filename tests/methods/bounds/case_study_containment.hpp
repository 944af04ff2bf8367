// Containment of point solutions in a set-valued result, for the paper's
// case studies: x, S (when present) and dF/dp by cvodes_fsa at rtol 1e-10
// at the box's corners and at uniform samples, each inside its hull and
// inside its model (polynomial at p plus remainder).
#pragma once

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "methods/bounds/bounds_check.hpp"
#include "odesens/odesens.hpp"
#include "support/bounds_case_studies.hpp"

namespace odesens::testing {

// Under the sanitizers (a Debug build, 20-50x slower here) the bounds tests
// take fewer samples and leave the longest runs to the Release build.
#ifdef ODESENS_SANITIZED
inline constexpr bool kSanitized = true;
inline constexpr int kSampleDivisor = 4;
#else
inline constexpr bool kSanitized = false;
inline constexpr int kSampleDivisor = 1;
#endif

// x, S and dF/dp at p from cvodes_fsa at rtol 1e-10.
struct PointValues {
  std::vector<double> x, s, gradient;
};

inline PointValues point_values(const CaseStudy& c, const std::vector<double>& p) {
  Problem pr;
  pr.model = c.model;
  pr.params = p;
  pr.output_times = c.tout;
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const Result r = solve(pr, "cvodes_fsa");
  const std::size_t nx = r.nx, np = r.np;
  PointValues v{r.x, r.s, std::vector<double>(np, 0.0)};
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t k = 0; k < c.tout.size(); ++k)
      for (std::size_t i = 0; i < nx; ++i) {
        const double s = r.s_at(k, i, j);
        if (c.data.empty()) {
          v.gradient[j] += c.weights[i + k * nx] * s;
        } else {
          const double d = c.data[i + k * nx];
          if (!std::isnan(d)) v.gradient[j] += 2.0 * (r.x_at(k, i) - d) * s;
        }
      }
  return v;
}

// Every value of `point` inside the models' hulls and inside the models
// evaluated at xi(p) plus their remainders.
inline void check_models(const BoundsResult& b, const std::vector<double>& xi,
                  const std::vector<double>& values, const std::vector<double>& coef,
                  const std::vector<double>& rem, const std::vector<double>& hull,
                  const std::string& what, Containment& out) {
  for (std::size_t m = 0; m < values.size(); ++m) {
    const double v = values[m];
    const double centre = model_value(b, coef, m, xi);
    out.check(within(v, hull[2 * m], hull[2 * m + 1]),
              what + "[" + std::to_string(m) + "] = " + std::to_string(v) + " outside its hull");
    // The polynomial is evaluated in doubles here: allow its rounding.
    const double slack = 1e-12 * (1.0 + std::fabs(centre)) * static_cast<double>(b.n_monomials);
    out.check(within(v, centre + rem[2 * m] - slack, centre + rem[2 * m + 1] + slack),
              what + "[" + std::to_string(m) + "] = " + std::to_string(v) +
                  " outside its model");
  }
}

// Corners of the box plus `samples` uniform points.
// S is checked when the result has it (bounds_fsa).
inline Containment containment(const CaseStudy& c, const Result& r, int samples, unsigned seed) {
  const BoundsResult& b = r.bounds;
  std::vector<std::vector<double>> points;
  const std::size_t np = c.lower.size();
  for (std::size_t corner = 0; corner < (std::size_t{1} << np); ++corner) {
    std::vector<double> p(np);
    for (std::size_t j = 0; j < np; ++j) p[j] = (corner >> j) & 1u ? c.upper[j] : c.lower[j];
    points.push_back(p);
  }
  std::mt19937 rng(seed);
  for (int s = 0; s < samples; ++s) {
    std::vector<double> p(np);
    for (std::size_t j = 0; j < np; ++j)
      p[j] = std::uniform_real_distribution<double>(c.lower[j], c.upper[j])(rng);
    points.push_back(p);
  }
  Containment out;
  for (const auto& p : points) {
    const PointValues v = point_values(c, p);
    const std::vector<double> xi = scaled(b, p);
    check_models(b, xi, v.x, b.x_coef, b.x_rem, b.x_hull, "x", out);
    if (!b.s_hull.empty()) check_models(b, xi, v.s, b.s_coef, b.s_rem, b.s_hull, "S", out);
    check_models(b, xi, v.gradient, b.gradient_coef, b.gradient_rem, b.gradient_hull, "dF/dp",
                 out);
  }
  return out;
}

// Solves c by `method` and checks that the samples (fewer under the
// sanitizers) are contained.
inline void expect_contained(const std::string& method, const CaseStudy& c, int order,
                             const std::string& remainder, const std::string& basis,
                             int samples) {
  SCOPED_TRACE(method + ", " + c.name + ", q = " + std::to_string(order) + ", " + remainder +
               ", " + basis);
  const Result r = solve(bounds_problem(c, order, remainder, basis), method);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  const Containment k =
      containment(c, r, samples / kSampleDivisor, 1234u + static_cast<unsigned>(order));
  EXPECT_GT(k.checked, 0u);
  EXPECT_EQ(k.violations, 0u) << k.first;
}

inline double width(const std::vector<double>& hull, std::size_t m) {
  return hull[2 * m + 1] - hull[2 * m];
}

}  // namespace odesens::testing
