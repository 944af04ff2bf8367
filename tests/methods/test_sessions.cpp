// Prepared sessions: for every method, run() gives bit for bit the Result of
// solve() with the same inputs, also after runs with other parameters,
// initial states (with and without dx0/dp) and output times (on a model
// without events, one with a dosing event and a parameter-dependent
// trigger, and for the set-valued methods one with a parameter box); a
// failed run leaves the session usable.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// Mass-action enzyme kinetics, 4 states and 3 parameters.
const char* kEnzymeOfSessions =
    "param k1 = 1\nparam k2 = 0.5\nparam k3 = 0.3\n"
    "state e = 1\nstate s = 5\nstate c = 0\nstate p = 0\n"
    "de/dt = -k1*e*s + (k2 + k3)*c\nds/dt = -k1*e*s + k2*c\n"
    "dc/dt = k1*e*s - (k2 + k3)*c\ndp/dt = k3*c\ntime t_end = 4\n";

// The same with a dose of substrate at t = 1.5 and a switch of k3 when the
// product passes a level that depends on k2.
const char* kDosedOfSessions =
    "param k1 = 1\nparam k2 = 0.5\nparam k3 = 0.3\n"
    "state e = 1\nstate s = 5\nstate c = 0\nstate p = 0\n"
    "de/dt = -k1*e*s + (k2 + k3)*c\nds/dt = -k1*e*s + k2*c\n"
    "dc/dt = k1*e*s - (k2 + k3)*c\ndp/dt = k3*c\n"
    "event dose when t >= 1.5: s = s + 2\n"
    "event level when p >= 2*k2: e = e + 0.1\ntime t_end = 4\n";

Problem base_problem(const char* text) {
  Problem pr;
  pr.model = load_ode_text(text, "session.ode");
  pr.output_times = {0.5, 1.0, 2.0, 3.0, 4.0};
  return pr;
}

Problem problem_for(const MethodInfo& info, bool events) {
  Problem pr = base_problem(events ? kDosedOfSessions : kEnzymeOfSessions);
  if (info.capabilities.parameter_box) {
    pr.output_times = {0.25, 0.5};
    pr.param_lower = {0.95, 0.45, 0.28};
    pr.param_upper = {1.05, 0.55, 0.32};
    pr.options.set("order", 2);
  }
  return pr;
}

// NaN == NaN here: bit-identical means the same bits.
void expect_same_values(const std::vector<double>& a, const std::vector<double>& b,
                        const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::isnan(a[i]) && std::isnan(b[i]))) {
      ASSERT_EQ(a[i], b[i]) << what << "[" << i << "]";
    }
}

void expect_bit_identical(const Result& a, const Result& b) {
  EXPECT_EQ(a.ns, b.ns);
  // Every array of the result's table, the enclosures' included.
  const auto arrays_a = result_arrays(a), arrays_b = result_arrays(b);
  for (std::size_t k = 0; k < arrays_a.size(); ++k)
    expect_same_values(*arrays_a[k].data, *arrays_b[k].data, arrays_a[k].spec->name);
  EXPECT_EQ(a.warnings, b.warnings);
  const auto fa = a.stats.all(), fb = b.stats.all();
  ASSERT_EQ(fa.size(), fb.size());
  for (std::size_t i = 0; i < fa.size(); ++i) {
    EXPECT_EQ(fa[i].first, fb[i].first);
    if (fa[i].first.find("seconds") == std::string::npos) {
      EXPECT_EQ(fa[i].second, fb[i].second) << fa[i].first;
    }
  }
}

Problem with_inputs(Problem pr, const RunInputs& in) {
  if (in.params) pr.params = *in.params;
  if (in.initial_state) pr.initial_state = *in.initial_state;
  if (in.initial_sensitivity) pr.initial_sensitivity = *in.initial_sensitivity;
  if (in.output_times) pr.output_times = *in.output_times;
  return pr;
}

std::vector<RunInputs> run_sequence(const Problem& pr) {
  RunInputs nominal, other_p, other_x0, other_times, back;
  other_p.params = std::vector<double>{1.3, 0.4, 0.35};
  if (!pr.param_lower.empty()) other_p.params = std::vector<double>{1.02, 0.52, 0.29};
  other_x0.initial_state = std::vector<double>{1.2, 4.0, 0.1, 0.0};
  other_times.output_times = std::vector<double>{0.2, 0.3, 1.7, 2.5, 3.5};
  if (!pr.param_lower.empty()) other_times.output_times = std::vector<double>{0.1, 0.4};
  back.params = std::vector<double>{1.0, 0.5, 0.3};
  if (!pr.param_lower.empty()) return {nominal, other_p, other_x0, other_times, back, nominal};
  // A continued solve's x0 and dx0/dp (the set-valued methods take none),
  // then the model's x0 again.
  RunInputs continued = other_x0, model_x0;
  continued.initial_sensitivity = std::vector<double>(4 * 3);
  for (std::size_t k = 0; k < 12; ++k) (*continued.initial_sensitivity)[k] = 0.1 * double(k % 5);
  model_x0.initial_state = std::vector<double>{};
  model_x0.initial_sensitivity = std::vector<double>{};
  return {nominal, other_p, other_x0, continued, other_times, model_x0, back, nominal};
}

void check_runs(const Problem& pr, const MethodInfo& info) {
  auto session = prepare(pr, info.id);
  for (const RunInputs& in : run_sequence(pr)) {
    const Result from_solve = solve(with_inputs(pr, in), info.id);
    const Result from_run = session->run(in);
    expect_bit_identical(from_solve, from_run);
    if (::testing::Test::HasFailure()) return;
  }
}

void check_method(const MethodInfo& info, bool events) { check_runs(problem_for(info, events), info); }

TEST(Sessions, RunIsSolveBitForBitOnEveryMethod) {
  for (const MethodInfo& info : method_infos()) {
    SCOPED_TRACE(info.id);
    check_method(info, false);
  }
}

TEST(Sessions, RunIsSolveBitForBitWithEvents) {
  for (const MethodInfo& info : method_infos()) {
    if (!info.capabilities.events) continue;
    SCOPED_TRACE(info.id);
    check_method(info, true);
  }
}

// The set-ups cvodes_fsa keeps between runs: KLU, the staggered corrector,
// CVODES' own Newton solver, difference quotients, the states alone.
TEST(Sessions, CvodesFsaKeepsEverySetUp) {
  const MethodInfo& info = method_info("cvodes_fsa");
  for (const bool events : {false, true}) {
    for (const auto& [key, value] :
         std::vector<std::pair<std::string, std::string>>{{"linear_solver", "klu"},
                                                          {"corrector", "staggered"},
                                                          {"jacobian", "difference_quotient"},
                                                          {"lmm", "adams"}}) {
      SCOPED_TRACE(key + "=" + value + (events ? " with events" : ""));
      Problem pr = problem_for(info, events);
      pr.options.set(key, value);
      check_runs(pr, info);
    }
    for (const char* flag : {"batched_solves", "sensitivities"}) {
      SCOPED_TRACE(std::string(flag) + "=0");
      Problem pr = problem_for(info, events);
      pr.options.set(flag, 0);
      check_runs(pr, info);
    }
  }
}

TEST(Sessions, FailedRunLeavesTheSessionUsable) {
  const Problem pr = base_problem(kEnzymeOfSessions);
  for (const MethodInfo& info : method_infos()) {
    if (info.capabilities.parameter_box) continue;
    SCOPED_TRACE(info.id);
    auto session = prepare(pr, info.id);
    const Result first = session->run(RunInputs{});
    RunInputs bad_size, bad_value, bad_times;
    bad_size.params = std::vector<double>{1.0, 2.0};
    bad_value.params = std::vector<double>{1.0, std::numeric_limits<double>::quiet_NaN(), 0.3};
    bad_times.output_times = std::vector<double>{2.0, 1.0};
    for (const RunInputs& bad : {bad_size, bad_value, bad_times})
      EXPECT_THROW(session->run(bad), Error);
    expect_bit_identical(first, session->run(RunInputs{}));
  }
}

TEST(Sessions, PrepareRefusesWhatSolveRefuses) {
  Problem pr = base_problem(kEnzymeOfSessions);
  EXPECT_THROW(prepare(pr, "no_such_method"), Error);
  pr.options.set("no_such_option", 1);
  EXPECT_THROW(prepare(pr, "cvodes_fsa"), Error);
  Problem empty = base_problem(kEnzymeOfSessions);
  empty.output_times.clear();
  EXPECT_THROW(prepare(empty, "cvodes_fsa"), Error);
}

TEST(Sessions, PreparedProblemHasTheMethodDefaults) {
  auto session = prepare(base_problem(kEnzymeOfSessions), "pbsr");
  ASSERT_TRUE(session->problem().rtol.has_value());
  EXPECT_EQ(*session->problem().rtol, session->method().default_rtol);
  EXPECT_EQ(session->problem().atol, std::vector<double>{session->method().default_atol});
}

}  // namespace
}  // namespace odesens
