// Problem::initial_sensitivity: a given dx0/dp with a given initial state.
// Every method with S or a gradient started from x0(p) and the model's own
// dx0/dp gives what it gives without the override; a solve continued from
// x(T1), S(T1) ends where one solve over the whole span does; the
// set-valued methods and malformed inputs are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// Enzyme kinetics whose initial substrate and complex depend on parameters,
// so that dx0/dp is not zero.
const char* kEnzymeWithParametricStart =
    "param k1 = 1\nparam k2 = 0.5\nparam k3 = 0.3\nparam s0 = 5\n"
    "state e = 1\nstate s = s0\nstate c = 0.2*k1\nstate p = 0\n"
    "de/dt = -k1*e*s + (k2 + k3)*c\nds/dt = -k1*e*s + k2*c\n"
    "dc/dt = k1*e*s - (k2 + k3)*c\ndp/dt = k3*c\ntime t_end = 4\n";

Problem enzyme_problem() {
  Problem pr;
  pr.model = load_ode_text(kEnzymeWithParametricStart, "enzyme_x0p.ode");
  pr.output_times = {0.5, 1.0, 2.0, 4.0};
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  return pr;
}

// x0(p) and dx0/dp of the model at its nominal parameters.
void model_initial_values(const Problem& pr, std::vector<double>& x0, std::vector<double>& s0) {
  const Model& m = *pr.model;
  const std::vector<double> p = effective_params(pr);
  x0.assign(m.nx(), 0.0);
  s0.assign(m.nx() * m.np(), 0.0);
  m.initial_state(p.data(), x0.data());
  m.initial_sensitivity(p.data(), s0.data());
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b, double rel,
                  const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  double scale = 0.0;
  for (double v : b) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], b[i], rel * std::max(scale, 1e-300)) << what << "[" << i << "]";
}

bool gives_s_or_gradient(const MethodInfo& info) {
  const MethodCapabilities& c = info.capabilities;
  return !c.bounds && (c.s_trajectory || c.final_s || c.gradient);
}

TEST(InitialSensitivity, ModelValuesGiveTheSameResultOnEveryMethod) {
  const Problem plain = enzyme_problem();
  Problem given = plain;
  model_initial_values(plain, given.initial_state, given.initial_sensitivity);
  // dx0/dp is not zero here: the test would prove nothing otherwise.
  ASSERT_TRUE(std::any_of(given.initial_sensitivity.begin(), given.initial_sensitivity.end(),
                          [](double v) { return v != 0.0; }));
  int methods_checked = 0;
  for (const MethodInfo& info : method_infos()) {
    if (!gives_s_or_gradient(info)) continue;
    SCOPED_TRACE(info.id);
    const Result a = solve(plain, info.id), b = solve(given, info.id);
    expect_close(b.x, a.x, 1e-12, "x");
    expect_close(b.s, a.s, 1e-12, "s");
    expect_close(b.sr, a.sr, 1e-12, "sr");
    expect_close(b.gradient, a.gradient, 1e-12, "gradient");
    expect_close(b.gradient_x0, a.gradient_x0, 1e-12, "gradient_x0");
    ASSERT_FALSE(a.s.empty() && a.gradient.empty());
    // Without the sensitivity, x0 is a constant: S or the gradient differ.
    Problem constant = given;
    constant.initial_sensitivity.clear();
    const Result c = solve(constant, info.id);
    const auto& sa = a.s.empty() ? a.gradient : a.s;
    const auto& sc = c.s.empty() ? c.gradient : c.s;
    double diff = 0.0;
    for (std::size_t i = 0; i < sa.size(); ++i) diff = std::max(diff, std::fabs(sa[i] - sc[i]));
    EXPECT_GT(diff, 1e-3);
    ++methods_checked;
  }
  EXPECT_GE(methods_checked, 8);
}

TEST(InitialSensitivity, SessionRunTakesItAsSolveDoes) {
  const Problem plain = enzyme_problem();
  RunInputs in;
  std::vector<double> x0, s0;
  model_initial_values(plain, x0, s0);
  in.initial_state = x0;
  in.initial_sensitivity = s0;
  for (const char* id : {"cvodes_fsa", "cvodes_asa", "odesd", "erk_adjoint"}) {
    SCOPED_TRACE(id);
    auto session = prepare(plain, id);
    const Result a = session->run(RunInputs{});
    const Result b = session->run(in);
    expect_close(b.s, a.s, 1e-12, "s");
    expect_close(b.gradient, a.gradient, 1e-12, "gradient");
    // Back to the model's x0(p): the given sensitivity does not linger.
    RunInputs back;
    back.initial_state = std::vector<double>{};
    back.initial_sensitivity = std::vector<double>{};
    const Result c = session->run(back);
    expect_close(c.s, a.s, 0.0, "s");
    expect_close(c.gradient, a.gradient, 0.0, "gradient");
  }
}

// Solves [t0, t_split] with `first_id`, then continues from x(t_split),
// S(t_split) over [t_split, t_end] with `id`.
Result continued(const Problem& pr, const std::string& first_id, const std::string& id,
                 double t_split, double t_end) {
  Problem first = pr;
  first.output_times = {t_split};
  const Result a = solve(first, first_id);
  Problem second = pr;
  second.t0 = t_split;
  second.output_times = {t_end};
  second.initial_state = a.x;
  second.initial_sensitivity = a.s;
  return solve(second, id);
}

TEST(InitialSensitivity, TwoStagesEqualOneSolve) {
  const Problem pr = enzyme_problem();
  const double t1 = 1.3, t2 = 4.0;
  Problem whole = pr;
  whole.output_times = {t2};
  // pbsr's S is second order in its steps and not held to rtol (about
  // 1e-5, docs/methods/pbsr.md): each of its solves is within that of
  // the true S, and so are the two ways.
  const std::vector<std::pair<const char*, double>> s_tolerance = {
      {"cvodes_fsa", 1e-6}, {"odesd", 1e-6}, {"pbsr", 1e-4}};
  for (const auto& [id, tol] : s_tolerance) {
    SCOPED_TRACE(id);
    const Result one = solve(whole, id);
    const Result two = continued(pr, id, id, t1, t2);
    expect_close(two.x, one.x, 1e-7, "x(T2)");
    expect_close(two.s, one.s, tol, "S(T2)");
  }
  // The adjoint's gradient of G = sum_i x_i(T2) from the second stage
  // alone carries lambda(T1)^T S(T1), the first stage's part.
  SCOPED_TRACE("cvodes_asa");
  const Result one = solve(whole, "cvodes_asa");
  const Result two = continued(pr, "cvodes_fsa", "cvodes_asa", t1, t2);
  expect_close(two.gradient, one.gradient, 1e-6, "gradient");
}

TEST(InitialSensitivity, RefusedWhereItCannotBeUsed) {
  Problem pr = enzyme_problem();
  std::vector<double> x0, s0;
  model_initial_values(pr, x0, s0);
  pr.initial_sensitivity = s0;  // without an initial state
  EXPECT_THROW(solve(pr, "cvodes_fsa"), Error);
  pr.initial_state = x0;
  pr.initial_sensitivity.pop_back();  // not nx*np values
  EXPECT_THROW(solve(pr, "cvodes_fsa"), Error);
  pr.initial_sensitivity = s0;
  pr.initial_sensitivity[3] = std::nan("");
  EXPECT_THROW(solve(pr, "cvodes_fsa"), Error);
  try {
    Problem no_state = enzyme_problem();
    no_state.initial_sensitivity = s0;
    validate_problem(no_state);
    ADD_FAILURE() << "accepted without an initial state";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("initial state"), std::string::npos) << e.what();
  }
  // The set-valued methods say so, at prepare() and at run().
  Problem boxed = enzyme_problem();
  boxed.output_times = {0.25};
  boxed.param_lower = {0.95, 0.45, 0.28, 4.9};
  boxed.param_upper = {1.05, 0.55, 0.32, 5.1};
  boxed.options.set("order", 2);
  RunInputs in;
  in.initial_state = x0;
  in.initial_sensitivity = s0;
  for (const char* id : {"bounds_fsa", "bounds_asa"}) {
    SCOPED_TRACE(id);
    auto session = prepare(boxed, id);
    try {
      session->run(in);
      ADD_FAILURE() << "accepted an initial sensitivity";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unsupported);
      EXPECT_NE(std::string(e.what()).find(id), std::string::npos) << e.what();
    }
    Problem given = boxed;
    given.initial_state = x0;
    given.initial_sensitivity = s0;
    EXPECT_THROW(prepare(given, id), Error);
  }
}

}  // namespace
}  // namespace odesens
