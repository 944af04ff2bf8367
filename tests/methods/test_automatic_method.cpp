// The automatic method ("auto"): what it chooses for what is asked, that
// its result is the chosen method's result to the bit, that it is right
// against tight references, its fallback when the chosen method fails, and
// its refusals. The stiffness probe on problems whose stiffness is known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "expr/expr_test_support.hpp"
#include "methods/choice/method_choice.hpp"
#include "methods/choice/stiffness_probe.hpp"
#include "model/parameter_subset.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::linspace;
using testing::ode_text_problem;

// Enzyme kinetics: smooth, non-stiff at rtol 1e-8.
const char* kEnzymeOfAuto =
    "param k1 = 1\nparam k2 = 0.5\nparam k3 = 0.3\n"
    "state e = 1\nstate s = 5\nstate c = 0\nstate p = 0\n"
    "de/dt = -k1*e*s + (k2 + k3)*c\nds/dt = -k1*e*s + k2*c\n"
    "dc/dt = k1*e*s - (k2 + k3)*c\ndp/dt = k3*c\ntime t_end = 4\n";

// Robertson's reactions: rates over nine orders of magnitude, stiff.
const char* kRobertsonOfAuto =
    "param k1 = 0.04\nparam k2 = 3e7\nparam k3 = 1e4\n"
    "state a = 1\nstate b = 0\nstate c = 0\n"
    "da/dt = -k1*a + k3*b*c\ndb/dt = k1*a - k3*b*c - k2*b^2\ndc/dt = k2*b^2\n"
    "time t_end = 40\n";

// Non-stiff until t = 5, where a fast mode (rate 1e4) switches on: a probe
// of a few steps sees only the calm part.
const char* kLateStiffOfAuto =
    "param k = 1\nstate x = 1\nstate y = 0\n"
    "dx/dt = -k*x\ndy/dt = piecewise(-1e4*(y - x), t > 5, 0)\ntime t_end = 10\n";

// A chain of 9 species with 9 rates: non-stiff, and S (81 entries) too
// large for dopri8s to be chosen.
std::string chain_of_auto() {
  std::string text = "state x0 = 1\n";
  for (int i = 1; i <= 9; ++i) {
    const std::string k = "k" + std::to_string(i), x = "x" + std::to_string(i);
    const std::string before = "x" + std::to_string(i - 1);
    text += "param " + k + " = " + std::to_string(0.5 + 0.1 * i) + "\nstate " + x + " = 0\n";
  }
  text += "dx0/dt = -k1*x0\n";
  for (int i = 1; i <= 9; ++i) {
    const std::string in = "k" + std::to_string(i) + "*x" + std::to_string(i - 1);
    const std::string out = i < 9 ? " - k" + std::to_string(i + 1) + "*x" + std::to_string(i) : "";
    text += "dx" + std::to_string(i) + "/dt = " + in + out + "\n";
  }
  return text + "time t_end = 10\n";
}

// Enzyme kinetics with a parameter that barely moves x (its S is 1e-13 t):
// dopri8s warns that differences cannot resolve it.
const char* kBarelyMovedOfAuto =
    "param k = 1\nparam q = 1\nstate x = 1\nstate y = 0\n"
    "dx/dt = -k*x + 1e-13*q\ndy/dt = k*x - y\ntime t_end = 4\n";

Problem auto_problem(const char* text, double t_end) {
  Problem p;
  p.model = load_ode_text(text, "auto.ode");
  p.output_times = linspace(0, t_end, 21);
  return p;
}

// The gradient of G = sum_i x_i(T) by cvodes_fsa at rtol 1e-11.
std::vector<double> tight_gradient(Problem p) {
  p.rtol = 1e-11;
  p.atol = {1e-13};
  p.options = Options{};
  return solve(p, "cvodes_fsa").gradient;
}

// What the probe is given: a prepared problem, tolerances set.
Problem probe_problem(const char* text, double t_end) {
  Problem p = auto_problem(text, t_end);
  p.rtol = 1e-8;
  p.atol = {1e-10};
  return p;
}

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "entry " << i;
}

TEST(StiffnessProbe, FindsRobertsonStiffAndEnzymeKineticsNot) {
  const Problem stiff = probe_problem(kRobertsonOfAuto, 40);
  const methods::StiffnessFinding s = methods::probe_stiffness(stiff, 300, 20000);
  EXPECT_EQ(s.kind, methods::StiffnessFinding::Kind::stiff) << s.detail;
  EXPECT_LE(s.steps, 300);

  const Problem calm = probe_problem(kEnzymeOfAuto, 4);
  const methods::StiffnessFinding c = methods::probe_stiffness(calm, 300, 20000);
  EXPECT_EQ(c.kind, methods::StiffnessFinding::Kind::non_stiff) << c.detail;
  EXPECT_EQ(c.t_reached, 4.0);
}

// Van der Pol on its slow manifold (mu = 1000) at rtol 1e-8: dopri5's steps
// sit below the edge of its stability region, Hairer's estimate of h|lambda|
// about half the boundary, so his test (15 firings in a row at 0.8 of it)
// never completes a run; the median over the steps finds the problem stiff
// all the same, and a gradient is computed by an implicit method
// (erk_adjoint took 1900 steps where odesd takes 640).
TEST(StiffnessProbe, StepsHeldByStabilityAreStiffWithoutARunOfFirings) {
  const char* van_der_pol =
      "param mu = 1000\nstate x = 2\nstate v = -2/3 + 10/(81*mu) - 292/(2187*mu^2)\n"
      "dx/dt = v\ndv/dt = mu*(1 - x^2)*v - mu*x\n";
  Problem p = probe_problem(van_der_pol, 1);
  const methods::StiffnessFinding f = methods::probe_stiffness(p, 300, 20000);
  EXPECT_EQ(f.kind, methods::StiffnessFinding::Kind::stiff) << f.detail;
  p.options.set("goal", "gradient");
  const MethodChoice c = choose_method(p);
  EXPECT_NE(c.method, "erk_adjoint") << c.reason;
  EXPECT_NE(c.method, "dopri8s") << c.reason;

  // Enzyme kinetics, non-stiff: h|lambda| far below the boundary.
  const methods::StiffnessFinding calm =
      methods::probe_stiffness(probe_problem(kEnzymeOfAuto, 4), 300, 20000);
  EXPECT_EQ(calm.kind, methods::StiffnessFinding::Kind::non_stiff) << calm.detail;
  EXPECT_GT(calm.median_h_lambda, 0.0);
  EXPECT_LT(calm.median_h_lambda, 0.35);
  // The choice says what the median was.
  Problem enzyme = probe_problem(kEnzymeOfAuto, 4);
  enzyme.options.set("goal", "gradient");
  const MethodChoice calm_choice = choose_method(enzyme);
  EXPECT_NE(calm_choice.reason.find("had a median of"), std::string::npos) << calm_choice.reason;
}

// S above 10 000 entries: odesd where the probe's pace is at most 1e8
// explicit steps over the span (Smith_BMCSystBiol2013: odesd 4.5 times
// faster than cvodes_fsa), cvodes_fsa where the problem is stiffer
// (Lang_PLOSComputBiol2024: odesd 17 times slower). Two states and 6000
// parameters (12 000 entries of S), with a decay rate of 1e3 or 1e12 over
// [0, 1]: about 300 or 3e12 explicit steps.
TEST(AutomaticChoice, ALargeSGoesToOdesdUnlessTheProbeFindsItExtremelyStiff) {
  auto model = [](const char* rate) {
    std::string text = std::string("param k = ") + rate + "\nstate x = 1\nstate y = 0\n";
    std::string sum = "0";
    for (int j = 0; j < 5999; ++j) {
      text += "param q" + std::to_string(j) + " = 1\n";
      sum += " + q" + std::to_string(j);
    }
    return text + "dx/dt = -k*x + 1e-9*(" + sum + ")\ndy/dt = x - y\ntime t_end = 1\n";
  };
  Problem calm = probe_problem(model("1e3").c_str(), 1);
  ASSERT_EQ(calm.model->nx() * calm.model->np(), 12000u);
  const MethodChoice calm_choice = choose_method(calm);
  EXPECT_EQ(calm_choice.method, "odesd") << calm_choice.reason;
  EXPECT_NE(calm_choice.reason.find("explicit steps over the span"), std::string::npos);
  const MethodChoice stiff_choice = choose_method(probe_problem(model("1e12").c_str(), 1));
  EXPECT_EQ(stiff_choice.method, "cvodes_fsa") << stiff_choice.reason;
  EXPECT_EQ(stiff_choice.stiffness, "stiff") << stiff_choice.reason;
  EXPECT_NE(stiff_choice.reason.find("above 1e8"), std::string::npos) << stiff_choice.reason;
}

// Above rtol 1e-6 accuracy-limited steps reach near the boundary on models
// that are not stiff (h grows like rtol^(1/5)): the median is not taken.
TEST(StiffnessProbe, TheMedianIsNotTakenAtLooseTolerances) {
  Problem p = probe_problem("param w = 1\nstate x = 1\nstate y = 0\ndx/dt = w*y\ndy/dt = -w*x\n",
                            20);
  p.rtol = 1e-3;
  p.atol = {1e-6};
  const methods::StiffnessFinding f = methods::probe_stiffness(p, 300, 20000);
  EXPECT_EQ(f.kind, methods::StiffnessFinding::Kind::non_stiff) << f.detail;
  EXPECT_EQ(f.median_h_lambda, 0.0);
}

TEST(StiffnessProbe, OutOfBudgetProjectsTheStepsOfTheSpan) {
  const Problem calm = probe_problem(kEnzymeOfAuto, 4);
  const methods::StiffnessFinding full = methods::probe_stiffness(calm, 100000, 20000);
  const methods::StiffnessFinding part = methods::probe_stiffness(calm, full.steps / 4, 1.0);
  EXPECT_EQ(part.kind, methods::StiffnessFinding::Kind::slow);
  EXPECT_LT(part.t_reached, 4.0);
  // The start's pace is about the whole span's: a little faster where the
  // solution moves fast at first.
  EXPECT_GT(part.projected_steps, full.steps / 3.0);
  EXPECT_LT(part.projected_steps, 5.0 * full.steps);
}

TEST(StiffnessProbe, AFailingRightHandSideIsInconclusiveNotAnError) {
  const Problem p = probe_problem("param k = 1\nstate x = 1\ndx/dt = -k*sqrt(x - 2)\n", 1);
  const methods::StiffnessFinding f = methods::probe_stiffness(p, 300, 20000);
  EXPECT_EQ(f.kind, methods::StiffnessFinding::Kind::inconclusive);
  EXPECT_FALSE(f.detail.empty());
}

TEST(Automatic, SAtEveryOutputIsTheChosenMethodsResultToTheBit) {
  const std::string chain = chain_of_auto();
  for (const char* text : {kEnzymeOfAuto, kRobertsonOfAuto, chain.c_str()}) {
    const Problem p = auto_problem(text, text == kRobertsonOfAuto ? 40 : 4);
    const Result r = solve(p, kAutomaticMethod);
    // Small and non-stiff: dopri8s; stiff or larger: odesd.
    EXPECT_EQ(r.method, text == kEnzymeOfAuto ? "dopri8s" : "odesd") << r.method_choice;
    EXPECT_NE(r.method_choice.find("S at every output time"), std::string::npos);
    Problem named = p;
    named.rtol = 1e-8;  // what auto fills in
    named.atol = {1e-10};
    const Result direct = solve(named, r.method);
    expect_same_bits(r.x, direct.x);
    expect_same_bits(r.s, direct.s);
    EXPECT_TRUE(direct.method_choice.empty());
  }
}

// Where the probe solved the whole span non-stiff and nothing switches,
// odesd reads its outputs from its interpolant (output=hermite) instead of
// ending a step on each: fewer steps than outputs, S as right.
TEST(Automatic, OdesdInterpolatesWhereTheProbeSolvedTheSpanNonStiff) {
  const std::string chain = chain_of_auto();
  Problem p = auto_problem(chain.c_str(), 2);
  p.output_times = linspace(0, 2, 101);
  const MethodChoice c = choose_method(p);
  EXPECT_EQ(c.method, "odesd") << c.reason;
  EXPECT_TRUE(c.odesd_interpolates) << c.reason;
  EXPECT_NE(c.reason.find("output=hermite"), std::string::npos) << c.reason;
  const Result r = solve(p, kAutomaticMethod);
  EXPECT_LT(r.stats.steps, 100) << "odesd ended a step on every output";
  Problem named = p;
  named.rtol = 1e-8;
  named.atol = {1e-10};
  named.options.set("output", "hermite");
  expect_same_bits(r.s, solve(named, "odesd").s);
  const Result ref = testing::tight_reference(p);
  for (const auto& e : testing::column_errors(r, ref)) EXPECT_LE(e.error, 1e-6 * e.scale);

  // A gradient there: odesd's forward S, interpolated, where the probe's
  // steps times the parameters are few (erk_adjoint ends a step on every
  // output time).
  Problem g = p;
  g.adjoint_weights.assign(10 * 101, 0.0);
  g.adjoint_weights[100 * 10 + 9] = 1.0;  // G = x9(T) (the chain conserves the sum)
  const Result gradient = solve(g, kAutomaticMethod);
  EXPECT_EQ(gradient.method, "odesd") << gradient.method_choice;
  EXPECT_LT(gradient.stats.steps, 100);
  EXPECT_LT(testing::relative_max_difference(gradient.gradient, tight_gradient(g)), 1e-6);

  // A session interpolates at the inputs the probe measured; at others the
  // problem may be stiff, and from then on odesd ends a step on each output.
  auto session = prepare(p, kAutomaticMethod);
  EXPECT_LT(session->run(RunInputs{}).stats.steps, 100);
  EXPECT_LT(session->run(effective_params(p)).stats.steps, 100);
  RunInputs nominal;  // empty parameters are the nominal ones (the C solver handle's)
  nominal.params = std::vector<double>{};
  EXPECT_LT(session->run(nominal).stats.steps, 100);
  std::vector<double> other = effective_params(p);
  other[0] *= 1.5;
  const Result moved = session->run(other);
  EXPECT_GE(moved.stats.steps, 100);
  EXPECT_NE(moved.method_choice.find("output=step_end"), std::string::npos)
      << moved.method_choice;
  Problem at_other = named;
  at_other.params = other;
  at_other.options = Options{};
  expect_same_bits(moved.s, solve(at_other, "odesd").s);
  EXPECT_GE(session->run(RunInputs{}).stats.steps, 100);

  // A switch in f (a dose between t = 0.5 and 1): steps end on outputs.
  std::string dosed = chain;
  dosed.replace(dosed.find("dx0/dt = -k1*x0"), 15,
                "dx0/dt = -k1*x0 + piecewise(1, t > 0.5 && t < 1, 0)");
  Problem switching = auto_problem(dosed.c_str(), 2);
  switching.output_times = p.output_times;
  const MethodChoice d = choose_method(switching);
  EXPECT_EQ(d.method, "odesd") << d.reason;
  EXPECT_FALSE(d.odesd_interpolates) << d.reason;
  // Stiff: the interpolant would carry the stiff components odesd leaves
  // undamped.
  Problem stiff = auto_problem(kRobertsonOfAuto, 40);
  stiff.output_times = linspace(0, 40, 101);
  const MethodChoice s = choose_method(stiff);
  EXPECT_EQ(s.method, "odesd") << s.reason;
  EXPECT_FALSE(s.odesd_interpolates) << s.reason;
  EXPECT_EQ(s.reason.find("output=hermite"), std::string::npos) << s.reason;
}

TEST(Automatic, NonStiffGradientRunsTheDiscreteAdjointAndIsRight) {
  const std::string chain = chain_of_auto();
  Problem p = auto_problem(chain.c_str(), 10);
  p.adjoint_weights.assign(10 * 21, 0.0);
  p.adjoint_weights[20 * 10 + 9] = 1.0;  // G = x9(T)
  const Result r = solve(p, kAutomaticMethod);
  EXPECT_EQ(r.method, "erk_adjoint") << r.method_choice;
  EXPECT_NE(r.method_choice.find("non-stiff"), std::string::npos) << r.method_choice;
  EXPECT_TRUE(r.s.empty());  // the gradient alone: no rows of S(T)
  // Its forward pass is the probe's dopri5: the probe's states cannot check
  // it, and it checks itself.
  EXPECT_EQ(r.stats.extra.count("state_difference_from_probe"), 0u);
  EXPECT_EQ(r.stats.extra.count("state_error_ratio"), 1u);
  // A kink (min of a state) that no step ends on: not the discrete adjoint,
  // which would be off where the solution crosses it.
  std::string kinked = chain;
  kinked.replace(kinked.find("dx0/dt = -k1*x0"), 15, "dx0/dt = -k1*min(x0, 0.5)");
  Problem k = auto_problem(kinked.c_str(), 10);
  k.adjoint_weights = p.adjoint_weights;
  const MethodChoice c = choose_method(k);
  EXPECT_NE(c.method, "erk_adjoint") << c.reason;
  EXPECT_LT(testing::relative_max_difference(r.gradient, tight_gradient(p)), 1e-6);
}

TEST(Automatic, SmallNonStiffProblemsRunDopri8sUnlessItWarns) {
  Problem p = auto_problem(kEnzymeOfAuto, 4);
  p.options.set("goal", "gradient");
  const Result r = solve(p, kAutomaticMethod);
  EXPECT_EQ(r.method, "dopri8s") << r.method_choice;
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_LT(testing::relative_max_difference(r.gradient, tight_gradient(p)), 1e-6);

  // A probe that did not reach the end but whose pace projects few steps
  // over the span (chua over [0, 10] at rtol 1e-8: 300 steps to t = 8.2,
  // where auto ran odesd at 11 times dopri8s' time).
  Problem unfinished = auto_problem(kEnzymeOfAuto, 4);
  unfinished.options.set("probe_steps", 15);
  const MethodChoice c = choose_method(unfinished);
  EXPECT_EQ(c.method, "dopri8s") << c.reason;
  EXPECT_NE(c.reason.find("(15 dopri5 steps to t = "), std::string::npos) << c.reason;

  // Where dopri8s warns, its result is not kept: the next method runs,
  // odesd ending a step on each output (interpolation is for the rules
  // that measured it, not for a fallback after a failure).
  const Problem barely = auto_problem(kBarelyMovedOfAuto, 4);
  EXPECT_FALSE(choose_method(barely).odesd_interpolates);
  const Result s = solve(barely, kAutomaticMethod);
  EXPECT_EQ(s.method, "odesd") << s.method_choice;
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_NE(s.method_choice.find("dopri8s failed (its result carried a warning"),
            std::string::npos)
      << s.method_choice;
  // With fallback=0 the warned result is the answer, warning and all.
  Problem kept = barely;
  kept.options.set("fallback", 0);
  const Result w = solve(kept, kAutomaticMethod);
  EXPECT_EQ(w.method, "dopri8s");
  EXPECT_FALSE(w.warnings.empty());
}

TEST(Automatic, StiffGradientRunsAnImplicitMethodAndIsRight) {
  // G = c(T): a + b + c stays 1, so the default sum of the states has a
  // zero gradient.
  Problem p = auto_problem(kRobertsonOfAuto, 40);
  p.adjoint_weights.assign(3 * 21, 0.0);
  p.adjoint_weights[20 * 3 + 2] = 1.0;
  const Result r = solve(p, kAutomaticMethod);
  EXPECT_EQ(r.method, "odesd") << r.method_choice;
  EXPECT_NE(r.method_choice.find("stiff"), std::string::npos) << r.method_choice;
  EXPECT_LT(testing::relative_max_difference(r.gradient, tight_gradient(p)), 1e-5);
}

TEST(Automatic, WhatOnlyOneKindOfMethodComputesDecides) {
  Problem directions = auto_problem(kEnzymeOfAuto, 4);
  directions.sens_directions.assign(7, 0.0);
  directions.sens_directions[4] = 1.0;  // d/dk1
  EXPECT_EQ(solve(directions, kAutomaticMethod).method, "dopri8s");
  directions.model = load_ode_text(kRobertsonOfAuto, "auto.ode");
  directions.sens_directions.assign(6, 0.0);
  directions.sens_directions[3] = 1.0;
  directions.output_times = linspace(0, 1, 5);
  EXPECT_EQ(solve(directions, kAutomaticMethod).method, "grk4as");

  Problem box = auto_problem(kEnzymeOfAuto, 4);
  box.output_times = {0.25, 0.5};
  box.param_lower = {0.95, 0.45, 0.28};
  box.param_upper = {1.05, 0.55, 0.32};
  EXPECT_EQ(choose_method(box).method, "bounds_fsa");
  box.options.set("goal", "gradient");
  EXPECT_EQ(choose_method(box).method, "bounds_asa");
}

TEST(Automatic, AModelWithoutSecondDerivativesRunsCvodesFsa) {
  CallbackModelSpec spec;
  spec.nx = 1;
  spec.np = 1;
  spec.nominal_params = {0.5};
  spec.x0 = {1.0};
  spec.f = [](double, const double* x, const double* p, double* xdot, void*) {
    xdot[0] = -p[0] * x[0];
    return 0;
  };
  Problem p;
  p.model = make_callback_model(spec);
  p.output_times = {0.5, 1.0};
  // Without the probe nothing says dopri8s would do; odesd lacks what it
  // needs.
  p.options.set("probe_steps", 0);
  const Result r = solve(p, kAutomaticMethod);
  EXPECT_EQ(r.method, "cvodes_fsa") << r.method_choice;
  EXPECT_NEAR(r.s_at(1, 0, 0), -std::exp(-0.5), 1e-7);  // dx/dk = -t e^(-kt) at t = 1
}

TEST(Automatic, FallsBackWhenTheChosenMethodFailsAndSaysSo) {
  Problem p = auto_problem(kLateStiffOfAuto, 10);
  p.options.set("goal", "gradient");
  p.options.set("probe_steps", 10);  // sees only the calm start
  // S has 2 entries and the probe's pace is small: dopri8s.
  EXPECT_EQ(choose_method(p).method, "dopri8s");
  auto session = prepare(p, kAutomaticMethod);
  const Result r = session->run(RunInputs{});
  EXPECT_NE(r.method, "dopri8s");
  EXPECT_NE(r.method_choice.find("dopri8s failed"), std::string::npos) << r.method_choice;
  EXPECT_LT(testing::relative_max_difference(r.gradient, tight_gradient(p)), 1e-5);
  // The session keeps the method that worked.
  const Result again = session->run(std::vector<double>{1.1});
  EXPECT_EQ(again.method, r.method);
  EXPECT_EQ(session->method().id, r.method);

  p.options.set("fallback", 0);
  try {
    solve(p, kAutomaticMethod);
    ADD_FAILURE() << "dopri8s should have ended with stiff";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::stiff) << e.what();
  }
}

// A forced decay whose forcing frequency w sets odesd's steps: about 630
// over [0, 40] at w = 1, 27 000 at w = 50.
const char* kForcedOfAuto = "param w = 1\nstate x = 0\ndx/dt = -x + sin(w*t)\ntime t_end = 40\n";

// odesd (implicit, as probe_steps=0 asks) is bounded after a session's
// first run by max(odesd_step_allowance, 20 x its steps); a run beyond goes
// to cvodes_fsa alone, and two in a row make the session leave odesd.
TEST(Automatic, OdesdBeyondTwentyTimesItsFirstRunsStepsFallsBackForThatRun) {
  Problem p = auto_problem(kForcedOfAuto, 40);
  p.options.set("probe_steps", 0);
  auto session = prepare(p, kAutomaticMethod);
  const Result first = session->run(std::vector<double>{1.0});
  ASSERT_EQ(first.method, "odesd") << first.method_choice;
  // w = 50 needs more steps than the bound: a fresh session's odesd shows how many.
  const std::int64_t bound = std::max(methods::odesd_step_allowance(p.output_times.size()),
                                      20 * static_cast<std::int64_t>(first.stats.steps));
  auto fresh = prepare(p, kAutomaticMethod);
  const Result unbounded = fresh->run(std::vector<double>{50.0});
  ASSERT_EQ(unbounded.method, "odesd") << unbounded.method_choice;  // a first run is not bounded
  ASSERT_GT(static_cast<std::int64_t>(unbounded.stats.steps), bound);

  const Result fast = session->run(std::vector<double>{50.0});
  EXPECT_EQ(fast.method, "cvodes_fsa");
  EXPECT_NE(fast.method_choice.find("max_total_steps"), std::string::npos) << fast.method_choice;
  EXPECT_EQ(session->method().id, "odesd");  // one failure: the session keeps odesd
  Problem direct = p;
  direct.params = {50.0};
  direct.rtol = 1e-8;
  direct.atol = {1e-10};
  direct.options = Options{};
  direct.options.set("state_check", 1);
  expect_same_bits(fast.s, solve(direct, "cvodes_fsa").s);

  EXPECT_EQ(session->run(std::vector<double>{1.0}).method, "odesd");  // back within its bound
  EXPECT_EQ(session->run(std::vector<double>{50.0}).method, "cvodes_fsa");
  const Result again = session->run(std::vector<double>{50.0});
  EXPECT_EQ(again.method, "cvodes_fsa");
  EXPECT_EQ(session->method().id, "cvodes_fsa") << again.method_choice;
  EXPECT_NE(again.method_choice.find("the session runs cvodes_fsa"), std::string::npos)
      << again.method_choice;
  EXPECT_EQ(session->run(std::vector<double>{1.0}).method, "cvodes_fsa");
}

// The bound is the allowance for the run's own output times: a run that
// asks for many more outputs than the first is not sent to the fallback
// for the steps its outputs end.
TEST(Automatic, OdesdsBoundGrowsWithTheOutputTimesOfTheRun) {
  Problem p = auto_problem(kForcedOfAuto, 40);
  p.options.set("probe_steps", 0);
  auto session = prepare(p, kAutomaticMethod);
  const Result first = session->run(std::vector<double>{1.0});
  ASSERT_EQ(first.method, "odesd");
  const std::int64_t first_bound = std::max(methods::odesd_step_allowance(p.output_times.size()),
                                            20 * static_cast<std::int64_t>(first.stats.steps));
  RunInputs dense;
  dense.params = std::vector<double>{1.0};
  dense.output_times = linspace(0.0, 40.0, 2 * static_cast<std::size_t>(first_bound));
  const Result r = session->run(dense);
  EXPECT_EQ(r.method, "odesd") << r.method_choice;
  EXPECT_GT(static_cast<std::int64_t>(r.stats.steps), first_bound);
}

TEST(Automatic, ATroubleEveryMethodHasEndsWithAllTheyTried) {
  const std::string chain = chain_of_auto();
  Problem p = auto_problem(chain.c_str(), 10);
  p.options.set("goal", "gradient");
  p.max_steps = 3;
  try {
    solve(p, kAutomaticMethod);
    ADD_FAILURE() << "three steps cannot reach t = 0.5";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::too_much_work);
    EXPECT_NE(std::string(e.what()).find("method 'auto' tried erk_adjoint"), std::string::npos)
        << e.what();
  }
}

TEST(Automatic, RefusesTheOptionsOfTheMethodsItMayChoose) {
  Problem p = auto_problem(kEnzymeOfAuto, 4);
  p.options.set("order", 5);
  try {
    solve(p, kAutomaticMethod);
    ADD_FAILURE() << "order is not an option of auto";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unknown_option);
    EXPECT_NE(std::string(e.what()).find("auto"), std::string::npos) << e.what();
  }
  Problem bad_goal = auto_problem(kEnzymeOfAuto, 4);
  bad_goal.options.set("goal", "everything");
  EXPECT_THROW(choose_method(bad_goal), Error);
}

TEST(Automatic, IsListedWithItsOptionsButNotAsAMethodOfItsOwn) {
  const MethodInfo& info = method_info(kAutomaticMethod);
  EXPECT_EQ(info.id, "auto");
  std::vector<std::string> keys;
  for (const auto& o : info.options) keys.push_back(o.key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"goal", "probe_steps", "fallback", "state_check"}));
  for (const auto& m : method_infos()) EXPECT_NE(m.id, "auto");
}

// Binding in balance: f(x0) = 0 exactly, so the states stay at rest while
// S grows from dx0/dp = 0 along the constant J_p. The same model with f
// reading t, or off balance, is not at rest.
const char* kAtRestOfAuto =
    "param kon = 0.5\nparam koff = 0.5\nparam r = 2\n"
    "state a = 1\nstate b = 2\nstate c = r\n"
    "da/dt = -kon*a*b + koff*c\ndb/dt = -kon*a*b + koff*c\ndc/dt = kon*a*b - koff*c\n"
    "time t_end = 10\n";

TEST(Automatic, StatesAtRestRunExpWhoseUpdateIsExactThere) {
  for (const char* goal : {"s", "gradient"}) {
    Problem p = auto_problem(kAtRestOfAuto, 10);
    p.options.set("goal", std::string(goal));
    const Result r = solve(p, kAutomaticMethod);
    EXPECT_EQ(r.method, "exp") << r.method_choice;
    EXPECT_NE(r.method_choice.find("at rest"), std::string::npos) << r.method_choice;
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_LE(r.stats.steps, 10);  // a few long steps
    p.options = Options{};
    if (std::string(goal) == "s") {
      for (const auto& c : testing::column_errors(r, testing::tight_reference(p)))
        EXPECT_LE(c.error, 1e-7 * c.scale + 1e-12);
    } else {
      EXPECT_LT(testing::relative_max_difference(r.gradient, tight_gradient(p)), 1e-7);
    }
  }
  // f reads t (even where it adds nothing at t0), or f(x0) != 0: not at rest.
  std::string timed = kAtRestOfAuto;
  timed.replace(timed.find("da/dt = "), 8, "da/dt = 0.1*sin(t) ");
  std::string off_balance = kAtRestOfAuto;
  off_balance.replace(off_balance.find("state a = 1"), 11, "state a = 1.5");
  // At rest but large: exp's exponential of a step spanning the whole time
  // costs ~nx^3 (12 times odesd's time at 100 states).
  std::string chain = "param kf = 1000\nparam kb = 1000\n";
  for (int i = 0; i < 60; ++i) chain += "state x" + std::to_string(i) + " = 1\n";
  for (int i = 0; i < 60; ++i) {
    const std::string x = "x" + std::to_string(i);
    chain += "d" + x + "/dt = 0";
    if (i > 0) chain += " + kf*x" + std::to_string(i - 1) + " - kb*" + x;
    if (i < 59) chain += " - kf*" + x + " + kb*x" + std::to_string(i + 1);
    chain += "\n";
  }
  // An input whose dose is 0, but smooth in t: its column of J_p changes
  // between switches.
  std::string dosed = kAtRestOfAuto;
  dosed.insert(0, "param dose = 0\n");
  dosed.replace(dosed.find("da/dt = "), 8, "da/dt = dose*sin(t) ");
  for (const std::string& text : {timed, off_balance, chain, dosed}) {
    const MethodChoice c = choose_method(auto_problem(text.c_str(), 10));
    EXPECT_NE(c.method, "exp") << text;
    EXPECT_EQ(c.reason.find("at rest"), std::string::npos) << c.reason;
  }
}

// A pulse whose dose is 0: f and J_x do not read t (Model::time_reading_at),
// the dose's column of J_p only at the pulse's switches, where the solve
// stops: the states rest, and exp's S is right, the dose's column too (S
// against a tight reference), with the dose held or not.
TEST(Automatic, AnInputWithADoseOfZeroLeavesTheStatesAtRest) {
  std::string dosed = kAtRestOfAuto;
  dosed.insert(0, "param dose = 0\n");
  dosed.replace(dosed.find("da/dt = "), 8, "da/dt = piecewise(dose, t > 2 && t < 4, 0) ");
  Problem p = auto_problem(dosed.c_str(), 10);
  const std::shared_ptr<const Model> full = p.model;
  for (bool held : {false, true}) {
    if (held) p.model = parameter_subset(full, {1, 2, 3}, {0.0, 0.5, 0.5, 2.0});
    const Result r = solve(p, kAutomaticMethod);
    EXPECT_EQ(r.method, "exp") << r.method_choice;
    EXPECT_NE(r.method_choice.find("at rest"), std::string::npos) << r.method_choice;
    EXPECT_TRUE(r.warnings.empty());
    for (const auto& c : testing::column_errors(r, testing::tight_reference(p)))
      EXPECT_LE(c.error, 1e-7 * c.scale + 1e-12);
    if (!held) {  // the pulse feeds a: its column of S is not 0 at the end
      EXPECT_GT(std::fabs(r.s_at(r.s_times.size() - 1, 0, 0)), 0.1);
    }
  }
  p.model = parameter_subset(full, {1, 2, 3}, {1.0, 0.5, 0.5, 2.0});  // the dose on
  EXPECT_NE(choose_method(p).method, "exp");
  // Edges between the output times: exp's S is right. Pulses whose
  // switches are not linear in t, which the solvers find only by a sign
  // change at a step's ends (a solve at rest may step over them), are not
  // at rest.
  for (const char* pulse : {"t > 2.3 && t < 3.7", "abs(t - 6.1) < 0.02", "sin(3*t) > 0.9"}) {
    std::string text = kAtRestOfAuto;
    text.insert(0, "param dose = 0\n");
    text.replace(text.find("da/dt = "), 8,
                 std::string("da/dt = piecewise(dose, ") + pulse + ", 0) ");
    Problem q = auto_problem(text.c_str(), 10);
    q.output_times = {0.0, 10.0};
    if (std::string(pulse).find("&&") == std::string::npos) {
      EXPECT_NE(choose_method(q).method, "exp") << pulse;
      continue;
    }
    const Result r = solve(q, kAutomaticMethod);
    EXPECT_EQ(r.method, "exp") << r.method_choice;
    for (const auto& c : testing::column_errors(r, testing::tight_reference(q)))
      EXPECT_LE(c.error, 1e-7 * c.scale + 1e-12);
  }
}

// On shared real models: auto is right (S against a tight reference) and
// says what it found. Boehm is stiff; Oliveira is where odesd fails, so the
// fallback runs; Raia's gradient goes to the discrete adjoint.
TEST(Automatic, IsRightOnSharedRealModels) {
  for (const char* name :
       {"Boehm_JProteomeRes2014", "Oliveira_NatCommun2021", "Bruno_JExpBot2016"}) {
    ODESENS_REQUIRE_SHARED_SBML(name);
    const Problem p = testing::sbml_problem(name, 101);
    const Result r = solve(p, kAutomaticMethod);
    const Result ref = testing::tight_reference(p);
    for (const auto& c : testing::column_errors(r, ref))
      EXPECT_LE(c.error, 1e-4 * c.scale + 1e-9) << name << " by " << r.method;
    EXPECT_FALSE(r.method_choice.empty());
  }
  ODESENS_REQUIRE_SHARED_SBML("Raia_CancerResearch2011");
  Problem p = testing::sbml_problem("Raia_CancerResearch2011", 41);
  p.options.set("goal", "gradient");
  const Result r = solve(p, kAutomaticMethod);
  EXPECT_EQ(r.method, "erk_adjoint") << r.method_choice;
  EXPECT_LT(testing::relative_max_difference(r.gradient, tight_gradient(p)), 1e-5);
}

}  // namespace
}  // namespace odesens
