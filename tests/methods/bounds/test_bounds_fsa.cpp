// bounds_fsa: enclosures of x, S and dF/dp over a parameter box (set-valued
// sensitivity paper), checked against point solutions of cvodes_fsa at
// sampled parameters, for the paper's case studies; warnings; convergence
// in the box size (the paper's widths and the full matrix:
// test_bounds_paper.cpp; errors: test_bounds_errors.cpp).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "methods/bounds/case_study_containment.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {


using testing::batch_reactor;
using testing::bounds_problem;
using testing::CaseStudy;
using testing::Containment;
using testing::containment;
using testing::cubic_oscillator;
using testing::digester;
using testing::expect_contained;
using testing::model_value;
using testing::scaled;
using testing::within;

// --- x' = A x, x(0) = p: the order-1 model is exact -------------------------

TEST(BoundsFsa, LinearSystemIsEnclosedExactlyAtOrderOne) {
  auto model = testing::damped_rotation();
  for (const std::string remainder : {"interval", "ellipsoid"}) {
    SCOPED_TRACE(remainder);
    Problem pr;
    pr.model = model;
    pr.output_times = {0.5, 1.0, 2.0};
    pr.param_lower = {0.9, -0.1};
    pr.param_upper = {1.1, 0.1};
    pr.options.set("order", 1);
    pr.options.set("remainder", remainder);
    const Result r = solve(pr, "bounds_fsa");
    const BoundsResult& b = r.bounds;
    ASSERT_EQ(b.n_monomials, 3u);
    for (double p1 : {0.9, 1.0, 1.1})
      for (double p2 : {-0.1, 0.03, 0.1})
        for (std::size_t k = 0; k < 3; ++k) {
          const double t = pr.output_times[k];
          const double e = std::exp(-0.3 * t), c = std::cos(2 * t), s = std::sin(2 * t);
          const double x[2] = {e * (c * p1 + s * p2), e * (-s * p1 + c * p2)};
          const std::vector<double> xi = scaled(b, {p1, p2});
          for (std::size_t i = 0; i < 2; ++i) {
            const std::size_t m = i + k * 2;
            const double v = model_value(b, b.x_coef, m, xi);
            EXPECT_NEAR(v, x[i], 1e-6) << "t = " << t;
            EXPECT_LE(b.x_rem[2 * m + 1] - b.x_rem[2 * m], 1e-6);
            EXPECT_TRUE(within(x[i], b.x_hull[2 * m], b.x_hull[2 * m + 1]));
          }
        }
  }
}

// --- the case studies: containment ------------------------------------------

TEST(BoundsFsa, CubicOscillatorContainsSampledSolutions) {
  expect_contained("bounds_fsa", cubic_oscillator(10.0), 4, "ellipsoid", "chebyshev", 40);
  expect_contained("bounds_fsa", cubic_oscillator(10.0), 4, "ellipsoid", "taylor", 20);
  // Interval remainders wrap on this rotation (the paper's point): a
  // shorter span.
  expect_contained("bounds_fsa", cubic_oscillator(3.0), 4, "interval", "chebyshev", 20);
}

TEST(BoundsFsa, DigesterContainsSampledSolutions) {
  expect_contained("bounds_fsa", digester(), 2, "ellipsoid", "chebyshev", 30);
}

TEST(BoundsFsa, BatchReactorContainsSampledSolutions) {
  expect_contained("bounds_fsa", batch_reactor(), 2, "interval", "chebyshev", 30);
}

// Every result says what is not enclosed; loose enclosures say so too.
TEST(BoundsFsa, WarningsNameTheLimitAndLooseEnclosures) {
  auto has = [](const Result& r, const std::string& text) {
    for (const auto& w : r.warnings)
      if (w.find(text) != std::string::npos) return true;
    return false;
  };
  const Result tight = solve(bounds_problem(cubic_oscillator(3.0), 4, "ellipsoid"), "bounds_fsa");
  EXPECT_TRUE(has(tight, "not enclosed"));
  EXPECT_FALSE(has(tight, "loose"));
  // Interval remainders wrap on this rotation: by t = 9 they dwarf the
  // polynomials (by t = 10 the enclosures of S pass max_width).
  const Result loose = solve(bounds_problem(cubic_oscillator(9.0), 4, "interval"), "bounds_fsa");
  EXPECT_TRUE(has(loose, "loose"));
}

// Halving the box shrinks the remainders like rad^(q+1): slope >= 2.5 at q = 2.
TEST(BoundsFsa, RemaindersConvergeWithTheBoxSize) {
  CaseStudy c = cubic_oscillator(10.0);
  std::vector<double> widths;
  for (double radius : {0.2, 0.1, 0.05}) {
    c.lower = {2.0 - radius, -radius};
    c.upper = {2.0 + radius, radius};
    const Result r = solve(bounds_problem(c, 2, "ellipsoid"), "bounds_fsa");
    const std::size_t m = 0 + 1 * 3;  // x1 at t = 10
    widths.push_back(r.bounds.x_rem[2 * m + 1] - r.bounds.x_rem[2 * m]);
  }
  for (std::size_t k = 1; k < widths.size(); ++k)
    EXPECT_GE(std::log2(widths[k - 1] / widths[k]), 2.5) << widths[k - 1] << " " << widths[k];
}

}  // namespace
}  // namespace odesens
