// S at outputs inside a step from one eigen-decomposition of the step's
// midpoint J_x (src/methods/pbs/spectral_outputs.hpp): against a fine
// Runge-Kutta solution of S' = J(t) S + J_p(t) over a recorded step, its
// refusals, and inside pbsr and exp against the exponential form, partial
// updates and a tight reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "methods/pbs/spectral_outputs.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using pbs::SpectralOutputs;
using pbs::StepKnot;

// A 3 x 3 J with a complex pair (-0.3 +- 2i) and a real eigenvalue (-5),
// not normal, plus `change` times a fixed matrix, column-major.
std::vector<double> rotation_decay(double change) {
  const std::vector<double> base = {-0.3, 2.0, 0.0, -2.0, -0.3, 0.0, 1.0, 0.5, -5.0};
  const std::vector<double> delta = {0.2, -0.1, 0.3, 0.1, 0.4, -0.2, 0.0, 0.3, 0.5};
  std::vector<double> j(9);
  for (int q = 0; q < 9; ++q) j[q] = base[q] + change * delta[q];
  return j;
}

// The knot of a step [0, h] with J_x at the step's start, midpoint and end
// changing by `change` per unit time (linearly), J_p quadratic in time.
StepKnot knot_over(double h, double change) {
  StepKnot k;
  k.id = 1;
  k.t0 = 0.0;
  k.t1 = h;
  k.s = {1.0, -0.5, 0.25, 0.0, 1.0, 2.0};  // nx = 3, np = 2
  k.left.jx = rotation_decay(0.0);
  k.mid.jx = rotation_decay(0.5 * h * change);
  k.right.jx = rotation_decay(h * change);
  auto jp = [](double t) {
    return std::vector<double>{1.0 + t, 0.5 * t * t, -t, 2.0, t - t * t, 0.3};
  };
  k.left.jp = jp(0.0);
  k.mid.jp = jp(0.5 * h);
  k.right.jp = jp(h);
  return k;
}

// S' = J(t) S + J_p(t), J and J_p the quadratics through the knot's, by
// classical Runge-Kutta with 20000 steps.
std::vector<double> fine_solution(const StepKnot& k, double tau) {
  const std::size_t nx = 3, np = 2;
  auto quadratic = [&](const std::vector<double>& a, const std::vector<double>& m,
                       const std::vector<double>& b, double t) {
    const double u = t / (k.t1 - k.t0);
    std::vector<double> out(a.size());
    for (std::size_t q = 0; q < a.size(); ++q)
      out[q] = 2 * (u - 0.5) * (u - 1) * a[q] - 4 * u * (u - 1) * m[q] + 2 * u * (u - 0.5) * b[q];
    return out;
  };
  auto rhs = [&](double t, const std::vector<double>& s) {
    const auto j = quadratic(k.left.jx, k.mid.jx, k.right.jx, t);
    auto out = quadratic(k.left.jp, k.mid.jp, k.right.jp, t);
    for (std::size_t c = 0; c < np; ++c)
      for (std::size_t i = 0; i < nx; ++i)
        for (std::size_t l = 0; l < nx; ++l) out[i + c * nx] += j[i + l * nx] * s[l + c * nx];
    return out;
  };
  std::vector<double> s = k.s;
  const int steps = 20000;
  const double dt = tau / steps;
  for (int n = 0; n < steps; ++n) {
    const double t = n * dt;
    auto k1 = rhs(t, s);
    std::vector<double> y(s.size());
    for (std::size_t q = 0; q < s.size(); ++q) y[q] = s[q] + 0.5 * dt * k1[q];
    auto k2 = rhs(t + 0.5 * dt, y);
    for (std::size_t q = 0; q < s.size(); ++q) y[q] = s[q] + 0.5 * dt * k2[q];
    auto k3 = rhs(t + 0.5 * dt, y);
    for (std::size_t q = 0; q < s.size(); ++q) y[q] = s[q] + dt * k3[q];
    auto k4 = rhs(t + dt, y);
    for (std::size_t q = 0; q < s.size(); ++q)
      s[q] += dt / 6.0 * (k1[q] + 2 * k2[q] + 2 * k3[q] + k4[q]);
  }
  return s;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q) worst = std::max(worst, std::fabs(a[q] - b[q]));
  return worst;
}

// J_x constant: the form is exact (J_p quadratic is integrated exactly), so
// it meets the fine solution to its accuracy, complex pair included, at
// outputs near either end and in the middle of a step of 2.5 rotations.
TEST(SpectralOutputs, ExactWhereJxIsConstant) {
  const StepKnot k = knot_over(8.0, 0.0);
  SpectralOutputs spectral(3, 2, 1e-8);
  ASSERT_TRUE(spectral.prepare(k));
  for (double tau : {1e-3, 0.7, 4.0, 7.99}) {
    std::vector<double> s(6);
    ASSERT_TRUE(spectral.evaluate(k, tau, s.data()));
    EXPECT_LT(largest_difference(s, fine_solution(k, tau)), 1e-10) << "tau " << tau;
  }
  EXPECT_EQ(spectral.decompositions(), 1);  // one for all the step's outputs
}

// J_x changing over the step: the change is taken to first order, so the
// error falls like h^3 (8x per halving), not h^2 as without it.
TEST(SpectralOutputs, ErrorOfAChangingJxFallsWithTheStepCubed) {
  std::vector<double> errors;
  for (double h : {0.1, 0.05, 0.025}) {
    const StepKnot k = knot_over(h, 1.0);
    SpectralOutputs spectral(3, 2, 1e-8);
    ASSERT_TRUE(spectral.prepare(k));
    std::vector<double> s(6);
    ASSERT_TRUE(spectral.evaluate(k, 0.75 * h, s.data()));
    errors.push_back(largest_difference(s, fine_solution(k, 0.75 * h)));
  }
  std::printf("errors at h = 0.1, 0.05, 0.025: %.3g %.3g %.3g\n", errors[0], errors[1], errors[2]);
  EXPECT_GT(errors[0] / errors[1], 6.5);
  EXPECT_GT(errors[1] / errors[2], 6.5);
}

// A nearly defective J_m (a Jordan block perturbed by 1e-12): its
// eigenvectors are nearly parallel, the decomposition would lose the
// digits S needs, and it is refused; the caller takes the exponential.
TEST(SpectralOutputs, NearlyDefectiveJacobiansAreRefused) {
  StepKnot k = knot_over(1.0, 0.0);
  const std::vector<double> jordan = {-1.0, 1.0, 0.0, 0.0, -1.0 - 1e-12, 0.0, 0.0, 0.0, -2.0};
  k.left.jx = k.mid.jx = k.right.jx = jordan;
  SpectralOutputs spectral(3, 2, 1e-6);
  EXPECT_FALSE(spectral.prepare(k));
  EXPECT_FALSE(spectral.prepare(k));  // the same knot: not decomposed again
  EXPECT_EQ(spectral.refusals(), 1);
}

// A growing mode whose e^{tau lambda} overflows: the output says so
// (false) instead of returning Inf.
TEST(SpectralOutputs, OverflowIsReportedNotReturned) {
  StepKnot k = knot_over(1000.0, 0.0);
  k.left.jx = k.mid.jx = k.right.jx = {1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -2.0};
  SpectralOutputs spectral(3, 2, 1e-6);
  ASSERT_TRUE(spectral.prepare(k));
  std::vector<double> s(6);
  EXPECT_FALSE(spectral.evaluate(k, 900.0, s.data()));
  EXPECT_TRUE(spectral.evaluate(k, 1.0, s.data()));
}

double spectral_stat(const Result& r, const char* key) {
  const auto it = r.stats.extra.find(key);
  return it == r.stats.extra.end() ? -1.0 : it->second;
}

// A damped oscillator with a parameter-dependent frequency: complex
// eigenvalues, J changing along the solution.
Problem oscillator(std::size_t outputs, double rtol) {
  return testing::ode_text_problem(
      "param w = 3\nparam c = 0.2\nparam a = 0.5\nstate x = 1\nstate v = "
      "0\nstate y = 0.5\n"
      "dx/dt = v\ndv/dt = -w*w*x - c*v - a*x*x*x\ndy/dt = a*x*x - y\n",
      testing::linspace(0.0, 20.0, outputs), rtol, rtol * 1e-3);
}

// In pbsr and exp: as accurate as the exponential form and partial updates
// against a tight reference, each decomposition serving several outputs.
TEST(SpectralOutputs, InsideTheMethodsAsAccurateAsTheExponentialForm) {
  for (const char* method : {"exp", "pbsr"}) {
    Problem p = oscillator(4001, 1e-4);
    const Result ref = testing::tight_reference(p);
    p.options.set("outputs", "spectral");
    const Result spectral = solve(p, method);
    p.options.set("outputs", "interpolate");
    const Result exponential = solve(p, method);
    p.options.set("outputs", "partial");
    const Result partial = solve(p, method);
    EXPECT_GT(spectral_stat(spectral, "output_spectral"), 1000.0) << method;
    EXPECT_LE(spectral_stat(spectral, "output_decompositions"),
              spectral_stat(spectral, "output_spectral"))
        << method;
    EXPECT_EQ(spectral_stat(exponential, "output_spectral"), 0.0) << method;
    const double e_spectral = testing::relative_max_difference(spectral.s, ref.s),
                 e_exponential = testing::relative_max_difference(exponential.s, ref.s),
                 e_partial = testing::relative_max_difference(partial.s, ref.s);
    std::printf("%s: spectral %.3g, exponential %.3g, partial %.3g\n", method, e_spectral,
                e_exponential, e_partial);
    EXPECT_LT(e_spectral, 1.2 * std::max(e_exponential, e_partial) + 1e-7) << method;
    // The steps' error dominates all three; the forms themselves differ
    // by far less (9.5e-5 against 7.7e-4 measured for exp).
    EXPECT_LT(testing::relative_max_difference(spectral.s, exponential.s), 0.25 * e_exponential)
        << method;
  }
}

// Where the solver's steps are long (a decay after its transient), one
// decomposition serves many outputs.
TEST(SpectralOutputs, OneDecompositionServesAStepsOutputs) {
  Problem p = testing::ode_text_problem(
      "param k = 2\nstate x = 1\nstate y = 0\n"
      "dx/dt = -k*x\ndy/dt = k*x - 3*k*y - 0.1*y*y\n",
      testing::linspace(0.0, 50.0, 1001), 1e-6, 1e-9);
  const Result ref = testing::tight_reference(p);
  const Result spectral = solve(p, "exp");
  EXPECT_GT(spectral_stat(spectral, "output_spectral"), 800.0);
  EXPECT_LT(spectral_stat(spectral, "output_decompositions"),
            0.2 * spectral_stat(spectral, "output_spectral"));
  p.options.set("outputs", "partial");
  const Result partial = solve(p, "exp");
  const double e_partial = testing::relative_max_difference(partial.s, ref.s);
  EXPECT_LT(testing::relative_max_difference(spectral.s, ref.s), 1.2 * e_partial + 1e-7);
  EXPECT_LT(testing::relative_max_difference(spectral.s, partial.s), 0.05 * e_partial + 1e-9);
}

// A model whose J_x is a Jordan block up to 1e-13 y: the decompositions
// are refused and the outputs come from the exponential form, as with
// outputs=interpolate.
TEST(SpectralOutputs, RefusedStepsTakeTheExponentialForm) {
  Problem p = testing::ode_text_problem(
      "param k = 1\nstate x = 1\nstate y = 0\n"
      "dx/dt = -k*x\ndy/dt = k*x - k*y - 1e-13*y*y\n",
      testing::linspace(0.0, 10.0, 2001), 1e-6, 1e-9);
  const Result spectral = solve(p, "exp");
  p.options.set("outputs", "interpolate");
  const Result exponential = solve(p, "exp");
  EXPECT_GT(spectral_stat(spectral, "output_decompositions_refused"), 0.0);
  // ... and after three refusals in a row the next 16 knots are skipped,
  // then 32, 64, ... after each further refusal.
  EXPECT_LE(spectral_stat(spectral, "output_decompositions_refused"),
            SpectralOutputs::kMostRefusalsInARow + 4);
  EXPECT_EQ(spectral_stat(spectral, "output_spectral"), 0.0);
  EXPECT_LT(testing::relative_max_difference(spectral.s, exponential.s), 1e-12);
}

}  // namespace
}  // namespace odesens
