// One objective for every method: a nonlinear least-squares objective over
// observables (a state and a nonlinear `let` of the states and a
// parameter), its gradient from cvodes_asa (backward weights from the
// forward states), from cvodes_fsa's, pbsr's and odesd's S (chain rule),
// from erk_adjoint (its discrete adjoint), against central differences of
// the objective's value; with and without events. The default objective
// and given weights reach the forward methods too.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

const char* kEnzyme =
    "param k1 = 1\nparam k2 = 0.5\nparam k3 = 0.3\n"
    "state e = 1\nstate s = 5\nstate c = 0\nstate p = 0\n"
    "let ratio = c/(s + k2)\n"
    "de/dt = -k1*e*s + (k2 + k3)*c\nds/dt = -k1*e*s + k2*c\n"
    "dc/dt = k1*e*s - (k2 + k3)*c\ndp/dt = k3*c\ntime t_end = 4\n";

const char* kDosed =
    "param k1 = 1\nparam k2 = 0.5\nparam k3 = 0.3\n"
    "state e = 1\nstate s = 5\nstate c = 0\nstate p = 0\n"
    "let ratio = c/(s + k2)\n"
    "de/dt = -k1*e*s + (k2 + k3)*c\nds/dt = -k1*e*s + k2*c\n"
    "dc/dt = k1*e*s - (k2 + k3)*c\ndp/dt = k3*c\n"
    "event dose when t >= 1.5: s = s + 2\ntime t_end = 4\n";

const std::vector<double> kTimes = {0.5, 1.0, 2.0, 3.0, 4.0};
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Data of p and ratio (one missing), not the model's values: residuals of
// both signs, so that the objective is far from linear in x.
Problem least_squares_problem(const char* text) {
  Problem pr;
  pr.model = load_ode_text(text, "objective.ode");
  pr.output_times = kTimes;
  const std::vector<double> data = {0.2, 0.3, 0.5, kNaN, 1.1, 0.1, 1.6, 0.05, 2.2, 0.02};
  pr.objective = least_squares_objective(pr.model, {"p", "ratio"}, data, {0.5, 0.1});
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  return pr;
}

double objective_at(Problem pr, const std::vector<double>& p) {
  pr.params = p;
  pr.rtol = 1e-12;
  pr.atol = {1e-14};
  const Result r = solve(pr, "cvodes_fsa");
  return r.objective_values.at(0);
}

std::vector<double> central_differences(const Problem& pr) {
  const std::vector<double> p0 = pr.model->nominal_params();
  std::vector<double> g(p0.size());
  for (std::size_t j = 0; j < p0.size(); ++j) {
    const double h = 1e-5 * std::fabs(p0[j]);
    std::vector<double> up = p0, down = p0;
    up[j] += h;
    down[j] -= h;
    g[j] = (objective_at(pr, up) - objective_at(pr, down)) / (2.0 * h);
  }
  return g;
}

void expect_gradient(const Result& r, const std::vector<double>& reference, double rel) {
  ASSERT_EQ(r.gradient.size(), reference.size());
  double scale = 0.0;
  for (double v : reference) scale = std::max(scale, std::fabs(v));
  for (std::size_t j = 0; j < reference.size(); ++j)
    EXPECT_NEAR(r.gradient[j], reference[j], rel * scale) << "parameter " << j;
}

void check_every_method(const char* text, const char* what) {
  const Problem pr = least_squares_problem(text);
  const std::vector<double> fd = central_differences(pr);
  const double value = objective_at(pr, pr.model->nominal_params());
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "erk_adjoint", "odesd", "pbsr"}) {
    SCOPED_TRACE(std::string(what) + " " + method);
    Problem q = pr;
    if (std::string(method) == "pbsr") {  // the PBS methods' accuracy is that of a looser solve
      q.rtol = 1e-9;
      q.atol = {1e-11};
    }
    const Result r = solve(q, method);
    ASSERT_EQ(r.objective_values.size(), 1u);
    EXPECT_NEAR(r.objective_values[0], value, 1e-6 * std::fabs(value));
    expect_gradient(r, fd, std::string(method) == "pbsr" ? 1e-4 : 1e-5);
  }
}

TEST(Objectives, NonlinearLeastSquaresGradientAgreesAcrossMethods) {
  check_every_method(kEnzyme, "no events");
}

TEST(Objectives, NonlinearLeastSquaresGradientAgreesAcrossMethodsWithEvents) {
  check_every_method(kDosed, "dosed");
}

// The value is what the definition says, from the states the method gives.
TEST(Objectives, LeastSquaresValueIsTheSumOfSquaredResiduals) {
  Problem pr = least_squares_problem(kEnzyme);
  const std::vector<double> data = {0.2, 0.5, 1.1, 1.6, 2.2};
  pr.objective = least_squares_objective(pr.model, {"p"}, data, {0.5});
  const Result r = solve(pr, "cvodes_fsa");
  double expected = 0.0;
  for (std::size_t k = 0; k < kTimes.size(); ++k) {
    const double res = (data[k] - r.x_at(k, 3)) / 0.5;
    expected += res * res;
  }
  EXPECT_NEAR(r.objective_values.at(0), expected, 1e-14 * expected);
}

// Forward methods give the default objective G = sum_i x_i(t_final) and
// given weights through S, as the adjoint methods do through the adjoint.
TEST(Objectives, ForwardMethodsGiveTheLinearObjectiveGradient) {
  Problem pr = least_squares_problem(kEnzyme);
  pr.objective = nullptr;
  for (const bool weighted : {false, true}) {
    SCOPED_TRACE(weighted ? "weights" : "default objective");
    if (weighted) {
      pr.adjoint_weights.assign(4 * kTimes.size(), 0.0);
      pr.adjoint_weights[1 + 2 * 4] = 2.0;   // 2 s(2)
      pr.adjoint_weights[3 + 4 * 4] = -1.0;  // - p(4)
    }
    const Result adjoint = solve(pr, "cvodes_asa");
    for (const char* method : {"cvodes_fsa", "odesd", "dopri8s"}) {
      SCOPED_TRACE(method);
      const Result forward = solve(pr, method);
      ASSERT_EQ(forward.objective_values.size(), 1u);
      EXPECT_NEAR(forward.objective_values[0], adjoint.objective_values.at(0), 1e-7);
      expect_gradient(forward, adjoint.gradient, 1e-5);
    }
  }
}

TEST(Objectives, BadObjectivesAreRefused) {
  Problem pr = least_squares_problem(kEnzyme);
  auto model = pr.model;
  EXPECT_THROW(least_squares_objective(model, {"no_such_name"}, {1.0}), Error);
  EXPECT_THROW(least_squares_objective(model, {"p"}, {1.0, 2.0}, {0.0}), Error);
  EXPECT_THROW(least_squares_objective(model, {"p", "s"}, {1.0, 2.0, 3.0}), Error);
  EXPECT_THROW(linear_objective({1.0, kNaN}, 2), Error);
  // Data for 3 output times on a problem with 5.
  pr.objective = least_squares_objective(model, {"p"}, {1.0, 2.0, 3.0});
  EXPECT_THROW(solve(pr, "cvodes_fsa"), Error);
  // An objective and adjoint weights are two objectives.
  pr = least_squares_problem(kEnzyme);
  pr.adjoint_weights.assign(4 * kTimes.size(), 1.0);
  EXPECT_THROW(solve(pr, "cvodes_asa"), Error);
}

}  // namespace
}  // namespace odesens
