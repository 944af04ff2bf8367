// bounds_asa: enclosures of x and dF/dp over a parameter box by adjoint
// bounding (set-valued sensitivity paper, section 4 (ii)), checked against
// point solutions of cvodes_fsa at sampled parameters for the paper's case
// studies, the paper's ASA widths on the cubic oscillator, agreement with
// bounds_fsa and cvodes_asa at the box centre, and objectives with jumps
// at every output time (the errors: test_bounds_errors.cpp).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
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
using testing::cubic_oscillator;
using testing::digester;
using testing::kSanitized;
using testing::expect_contained;
using testing::model_value;
using testing::scaled;
using testing::width;
using testing::within;

// --- x' = A x, x(0) = p: dF/dp = Phi(T)^T w, constant over the box ----------

TEST(BoundsAsa, LinearSystemGradientIsExactAtOrderOne) {
  auto model = testing::damped_rotation();
  for (const std::string remainder : {"interval", "ellipsoid"}) {
    SCOPED_TRACE(remainder);
    Problem pr;
    pr.model = model;
    pr.output_times = {0.0, 0.5, 1.0, 2.0};
    pr.param_lower = {0.9, -0.1};
    pr.param_upper = {1.1, 0.1};
    // F = x1(0) + 2 x2(0.5) - x1(1) + 3 x2(2): a jump at every output time,
    // t0 included.
    pr.adjoint_weights = {1, 0, 0, 2, -1, 0, 0, 3};
    pr.options.set("order", 1);
    pr.options.set("remainder", remainder);
    const Result r = solve(pr, "bounds_asa");
    const BoundsResult& b = r.bounds;
    ASSERT_EQ(b.n_monomials, 3u);
    EXPECT_TRUE(b.s_hull.empty());
    EXPECT_TRUE(r.s_times.empty());
    // x(t) = e^(-0.3 t) R(t) p with R the rotation by -2t: dF/dp_j = sum_k
    // w_k^T Phi(t_k) e_j.
    double expected[2] = {0.0, 0.0};
    for (std::size_t k = 0; k < 4; ++k) {
      const double t = pr.output_times[k];
      const double e = std::exp(-0.3 * t), c = std::cos(2 * t), s = std::sin(2 * t);
      const double phi[2][2] = {{e * c, e * s}, {-e * s, e * c}};
      for (std::size_t j = 0; j < 2; ++j)
        for (std::size_t i = 0; i < 2; ++i) expected[j] += pr.adjoint_weights[i + 2 * k] * phi[i][j];
    }
    for (std::size_t j = 0; j < 2; ++j) {
      EXPECT_NEAR(r.gradient[j], expected[j], 1e-6);
      EXPECT_TRUE(within(expected[j], b.gradient_hull[2 * j] - 1e-7, b.gradient_hull[2 * j + 1] + 1e-7));
      EXPECT_LE(b.gradient_hull[2 * j + 1] - b.gradient_hull[2 * j], 1e-6);
    }
    // x at the output times, as bounds_fsa gives it.
    for (double p1 : {0.9, 1.1})
      for (double p2 : {-0.1, 0.1}) {
        const double t = 2.0, e = std::exp(-0.3 * t), c = std::cos(2 * t), s = std::sin(2 * t);
        const double x1 = e * (c * p1 + s * p2);
        EXPECT_NEAR(model_value(b, b.x_coef, 0 + 3 * 2, scaled(b, {p1, p2})), x1, 1e-6);
      }
  }
}

// --- the case studies: containment ------------------------------------------

TEST(BoundsAsa, CubicOscillatorContainsSampledSolutions) {
  expect_contained("bounds_asa", cubic_oscillator(10.0), 4, "ellipsoid", "chebyshev", 40);
  expect_contained("bounds_asa", cubic_oscillator(10.0), 4, "ellipsoid", "taylor", 20);
  expect_contained("bounds_asa", cubic_oscillator(3.0), 4, "interval", "chebyshev", 20);
}

TEST(BoundsAsa, DigesterContainsSampledSolutions) {
  CaseStudy c = digester();
  if (kSanitized) {  // the first day (4 of the 12 measurements) only
    c.tout.resize(4);
    c.data.resize(4 * 6);
  }
  expect_contained("bounds_asa", c, 2, "ellipsoid", "chebyshev", 30);
  if (!kSanitized) expect_contained("bounds_asa", c, 2, "interval", "chebyshev", 20);
}

TEST(BoundsAsa, BatchReactorContainsSampledSolutions) {
  expect_contained("bounds_asa", batch_reactor(), 2, "interval", "chebyshev", 30);
  expect_contained("bounds_asa", batch_reactor(), 2, "ellipsoid", "taylor", 20);
}

// --- agreement -----------------------------------------------------

// At the box centre p_c: bounds_fsa's point values (its enclosure over the
// box {p_c}) inside bounds_asa's model over the whole box evaluated at p_c
// (polynomial plus remainder); over {p_c}, bounds_asa agrees with
// bounds_fsa and with cvodes_asa.
TEST(BoundsAsa, AgreesWithBoundsFsaAndCvodesAsaAtTheBoxCentre) {
  // Under the sanitizers the cubic oscillator alone (the others in Release).
  std::vector<CaseStudy> cases = {cubic_oscillator(10.0)};
  if (!kSanitized) {
    cases.push_back(digester());
    cases.push_back(batch_reactor());
  }
  for (const CaseStudy& c : cases) {
    SCOPED_TRACE(c.name);
    const Result asa = solve(bounds_problem(c, 3, "ellipsoid"), "bounds_asa");
    const BoundsResult& b = asa.bounds;
    CaseStudy point_box = c;
    point_box.lower = b.box_mid;
    point_box.upper = b.box_mid;
    // Over {p_c} the integration error dominates: tight tolerances (the
    // backward pass reads the state through cubic Hermite interpolation).
    Problem at_centre = bounds_problem(point_box, 3, "ellipsoid");
    at_centre.rtol = 1e-10;
    at_centre.atol = {1e-12};
    const Result fsa_point = solve(at_centre, "bounds_fsa");
    const Result asa_point = solve(at_centre, "bounds_asa");
    const std::vector<double> centre(b.box_mid.size(), 0.0);
    ASSERT_EQ(asa.gradient.size(), c.lower.size());
    for (std::size_t j = 0; j < asa.gradient.size(); ++j) {
      const double v = fsa_point.gradient[j];
      const double p = model_value(b, b.gradient_coef, j, centre);
      const double slack = 1e-6 * (1.0 + std::fabs(v));
      EXPECT_TRUE(within(v, b.gradient_hull[2 * j] - slack, b.gradient_hull[2 * j + 1] + slack));
      EXPECT_TRUE(within(v, p + b.gradient_rem[2 * j] - slack, p + b.gradient_rem[2 * j + 1] + slack))
          << j << ": " << v << " vs model " << p << " + [" << b.gradient_rem[2 * j] << ", "
          << b.gradient_rem[2 * j + 1] << "]";
      EXPECT_NEAR(asa_point.gradient[j], v, 1e-6 * (1.0 + std::fabs(v)));
    }
    if (!c.data.empty()) continue;  // cvodes_asa takes weights only
    Problem point;
    point.model = c.model;
    point.output_times = c.tout;
    point.rtol = 1e-10;
    point.atol = {1e-12};
    point.adjoint_weights = c.weights;
    point.params = b.box_mid;
    const Result adj = solve(point, "cvodes_asa");
    for (std::size_t j = 0; j < asa.gradient.size(); ++j)
      EXPECT_NEAR(asa_point.gradient[j], adj.gradient[j], 1e-6 * (1.0 + std::fabs(adj.gradient[j])));
  }
}

}  // namespace
}  // namespace odesens
