// Failures inside a solve end in a specific status and message, for every
// registered method, and leave nothing behind (the sanitizer build checks
// leaks).
#include <gtest/gtest.h>

#include <cmath>
#include <new>
#include <string>
#include <variant>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::builtin_problem;

struct Failure {
  Status status;
  std::string message;
};

Failure failure_of(const Problem& problem, const std::string& method) {
  try {
    solve(problem, method);
  } catch (const Error& e) {
    return {e.status(), e.what()};
  }
  return {Status::ok, ""};
}

// Exponential decay x' = -p x whose callbacks fail or misbehave on demand
// once t passes `after`.
struct Misbehaviour {
  enum Kind { none, fail_f, nan_f, fail_jac_x, fail_jac_p, no_memory_f, nan_jac_x } kind = none;
  double after = 0.5;
};

CallbackModelSpec decay(Misbehaviour* m) {
  CallbackModelSpec spec;
  spec.nx = 1;
  spec.np = 1;
  spec.nominal_params = {2.0};
  spec.x0 = {1.0};
  spec.user = m;
  spec.f = [](double t, const double* x, const double* p, double* f, void* u) {
    auto* mis = static_cast<Misbehaviour*>(u);
    f[0] = -p[0] * x[0];
    if (t > mis->after && mis->kind == Misbehaviour::fail_f) return 3;
    if (t > mis->after && mis->kind == Misbehaviour::nan_f) f[0] = NAN;
    if (t > mis->after && mis->kind == Misbehaviour::no_memory_f) throw std::bad_alloc();
    return 0;
  };
  spec.jac_x = [](double t, const double*, const double* p, double* J, void* u) {
    auto* mis = static_cast<Misbehaviour*>(u);
    J[0] = t > mis->after && mis->kind == Misbehaviour::nan_jac_x ? NAN : -p[0];
    return t > mis->after && mis->kind == Misbehaviour::fail_jac_x ? 4 : 0;
  };
  spec.jac_p = [](double t, const double* x, const double*, double* Jp, void* u) {
    auto* mis = static_cast<Misbehaviour*>(u);
    Jp[0] = -x[0];
    return t > mis->after && mis->kind == Misbehaviour::fail_jac_p ? 5 : 0;
  };
  return spec;
}

class MethodErrors : public ::testing::TestWithParam<std::string> {
 protected:
  // Callback models have no second derivatives and no expressions: methods
  // that need them (odesd; bounds_fsa, which also needs a parameter box)
  // refuse them (test_odesd.cpp, test_bounds_errors.cpp), so the callback
  // cases skip them.
  bool refuses_callback_models() const {
    const auto& c = method_info(GetParam()).capabilities;
    return c.second_derivatives || c.bounds;
  }
  // Set-valued methods refuse a problem without a parameter box before
  // anything else (their own errors: test_bounds_errors.cpp).
  bool needs_box() const { return method_info(GetParam()).capabilities.parameter_box; }
  Problem decay_problem(Misbehaviour* m) {
    Problem p;
    p.model = make_callback_model(decay(m));
    p.output_times = {0.25, 1.0, 2.0};
    // The baselines' defaults, for every method.
    p.rtol = 1e-8;
    p.atol = {1e-10};
    return p;
  }
  // Whether the method under test declares the option.
  bool has_option(const std::string& key) const {
    for (const auto& o : method_info(GetParam()).options)
      if (o.key == key) return true;
    return false;
  }
};

std::vector<std::string> all_method_ids() {
  std::vector<std::string> ids;
  for (const auto& m : method_infos()) ids.push_back(m.id);
  return ids;
}

TEST_P(MethodErrors, WellBehavedModelSolves) {
  if (refuses_callback_models()) GTEST_SKIP() << GetParam() << " refuses callback models";
  Misbehaviour m;
  const Result r = solve(decay_problem(&m), GetParam());
  EXPECT_NEAR(r.x.back(), std::exp(-4.0), 1e-7);
}

TEST_P(MethodErrors, FailingRightHandSideIsReportedByName) {
  if (refuses_callback_models()) GTEST_SKIP() << GetParam() << " refuses callback models";
  Misbehaviour m{Misbehaviour::fail_f};
  const auto f = failure_of(decay_problem(&m), GetParam());
  EXPECT_EQ(f.status, Status::callback_failed) << f.message;
  EXPECT_NE(f.message.find("user function 'f' returned 3"), std::string::npos) << f.message;
}

TEST_P(MethodErrors, FailingJacobiansAreReportedByName) {
  if (refuses_callback_models()) GTEST_SKIP() << GetParam() << " refuses callback models";
  if (method_info(GetParam()).capabilities.rhs_only) {
    // It never calls them: the solve succeeds.
    Misbehaviour jx{Misbehaviour::fail_jac_x};
    EXPECT_EQ(failure_of(decay_problem(&jx), GetParam()).status, Status::ok);
    return;
  }
  Misbehaviour jx{Misbehaviour::fail_jac_x};
  auto f = failure_of(decay_problem(&jx), GetParam());
  EXPECT_EQ(f.status, Status::callback_failed) << f.message;
  EXPECT_NE(f.message.find("'jac_x' returned 4"), std::string::npos) << f.message;
  Misbehaviour jp{Misbehaviour::fail_jac_p};
  f = failure_of(decay_problem(&jp), GetParam());
  if (GetParam() == "grk4as") {
    // J_x only (the iteration matrix and the trajectories' J_x v): the
    // parameters enter by differences, J_p is never called.
    EXPECT_EQ(f.status, Status::ok) << f.message;
    return;
  }
  EXPECT_EQ(f.status, Status::callback_failed) << f.message;
  EXPECT_NE(f.message.find("'jac_p' returned 5"), std::string::npos) << f.message;
}

TEST_P(MethodErrors, NaNFromRightHandSideIsNotFinite) {
  if (refuses_callback_models()) GTEST_SKIP() << GetParam() << " refuses callback models";
  Misbehaviour m{Misbehaviour::nan_f};
  const auto f = failure_of(decay_problem(&m), GetParam());
  EXPECT_EQ(f.status, Status::not_finite) << f.message;
  EXPECT_NE(f.message.find("NaN or Inf"), std::string::npos) << f.message;
}

// An allocation that fails anywhere in a solve is reported as such, not as
// an internal error to report.
TEST_P(MethodErrors, FailedAllocationIsOutOfMemory) {
  if (refuses_callback_models()) GTEST_SKIP() << GetParam() << " refuses callback models";
  Misbehaviour m{Misbehaviour::no_memory_f};
  const auto f = failure_of(decay_problem(&m), GetParam());
  EXPECT_EQ(f.status, Status::out_of_memory) << f.message;
  EXPECT_NE(f.message.find("out of memory in method '" + GetParam() + "'"), std::string::npos)
      << f.message;
  EXPECT_STREQ(status_string(Status::out_of_memory), "out of memory");
}

TEST_P(MethodErrors, TooMuchWorkIsReported) {
  if (needs_box()) GTEST_SKIP() << GetParam() << " needs a parameter box and expressions";
  auto problem = builtin_problem("vanderpol", {0.5});
  problem.max_steps = 10;
  const auto f = failure_of(problem, GetParam());
  EXPECT_EQ(f.status, Status::too_much_work) << f.message;
  EXPECT_NE(f.message.find("max_steps"), std::string::npos) << f.message;
}

// max_steps bounds the steps between two output times, as CVODES' mxstep
// does, in every method: many outputs each within the budget solve although
// the solve as a whole takes more; the message names max_steps itself.
TEST_P(MethodErrors, MaxStepsBoundsEachOutputInterval) {
  if (needs_box()) GTEST_SKIP() << GetParam() << " needs a parameter box and expressions";
  std::vector<double> times;
  for (int k = 0; k <= 200; ++k) times.push_back(0.05 * k);
  auto problem = builtin_problem("chua", times);
  const auto steps = static_cast<std::int64_t>(solve(problem, GetParam()).stats.steps);
  // An eighth of the steps of the whole solve (forward and backward passes,
  // several backward problems, for the adjoint methods): more than any of
  // its 200 intervals needs, fewer than one interval over the whole span does.
  problem.max_steps = steps / 8;
  ASSERT_GT(problem.max_steps, 5);
  EXPECT_NO_THROW(solve(problem, GetParam())) << "max_steps " << problem.max_steps;
  auto one_output = builtin_problem("chua", {0.0, 10.0});
  one_output.max_steps = steps / 8;
  const auto f = failure_of(one_output, GetParam());
  EXPECT_EQ(f.status, Status::too_much_work) << f.message;
  const std::string n = std::to_string(steps / 8);
  EXPECT_TRUE(f.message.find("max_steps (" + n + ")") != std::string::npos ||
              f.message.find("max_steps = " + n) != std::string::npos)
      << f.message;
}

TEST_P(MethodErrors, UnknownOptionAndBadOptionValue) {
  if (needs_box()) GTEST_SKIP() << GetParam() << " needs a parameter box and expressions";
  auto problem = builtin_problem("chua", {1.0});
  problem.options.set("no_such_option", 1);
  EXPECT_EQ(failure_of(problem, GetParam()).status, Status::unknown_option);
  // A text option with a set of values: one outside the set, and a number.
  for (const auto& o : method_info(GetParam()).options) {
    if (o.type != OptionType::text || o.choices.empty()) continue;
    problem = builtin_problem("chua", {1.0});
    problem.options.set(o.key, "rk4");
    EXPECT_EQ(failure_of(problem, GetParam()).status, Status::option_type) << o.key;
    problem = builtin_problem("chua", {1.0});
    problem.options.set(o.key, 2);
    EXPECT_EQ(failure_of(problem, GetParam()).status, Status::option_type) << o.key;
  }
  // A numeric option outside its range.
  for (const auto& o : method_info(GetParam()).options) {
    if (o.type == OptionType::text || !std::isfinite(o.max)) continue;
    problem = builtin_problem("chua", {1.0});
    problem.options.set(o.key, o.max + 1.0);
    EXPECT_EQ(failure_of(problem, GetParam()).status, Status::option_type) << o.key;
  }
}

TEST_P(MethodErrors, EveryOptionDefaultIsInItsRange) {
  for (const auto& o : method_info(GetParam()).options) {
    if (o.type == OptionType::text) continue;
    const double v = o.type == OptionType::real
                         ? std::get<double>(o.default_value)
                         : static_cast<double>(std::get<std::int64_t>(o.default_value));
    EXPECT_GE(v, o.min) << o.key;
    EXPECT_LE(v, o.max) << o.key;
  }
}

TEST_P(MethodErrors, SparseSolverNeedsAPattern) {
  if (!has_option("linear_solver")) GTEST_SKIP() << GetParam() << " has no linear_solver option";
  auto problem = builtin_problem("chua", {1.0});
  problem.options.set("linear_solver", "klu");
  const auto f = failure_of(problem, GetParam());
  EXPECT_EQ(f.status, Status::unsupported) << f.message;
}

TEST_P(MethodErrors, InvalidProblemIsRejectedBeforeSolving) {
  auto problem = builtin_problem("chua", {2.0, 1.0});
  EXPECT_EQ(failure_of(problem, GetParam()).status, Status::invalid_argument);
  problem = builtin_problem("chua", {1.0});
  problem.params = {NAN, 1.0};
  EXPECT_EQ(failure_of(problem, GetParam()).status, Status::not_finite);
  problem = builtin_problem("chua", {1.0});
  problem.rtol = -1.0;
  EXPECT_EQ(failure_of(problem, GetParam()).status, Status::invalid_argument);
}

TEST_P(MethodErrors, NonFiniteInitialStateFromModel) {
  if (refuses_callback_models()) GTEST_SKIP() << GetParam() << " refuses callback models";
  CallbackModelSpec spec = decay(nullptr);
  spec.initial_state = [](const double* p, double* x0, void*) {
    x0[0] = std::log(-p[0]);
    return 0;
  };
  Problem problem;
  problem.model = make_callback_model(spec);
  problem.output_times = {1.0};
  EXPECT_EQ(failure_of(problem, GetParam()).status, Status::not_finite);
}

// atol 0 for a state that starts at 0: refused before the solve with one
// message naming the state, whatever the method (each failed differently).
TEST_P(MethodErrors, ZeroAtolOnAZeroStateIsRefusedNamingTheState) {
  Problem problem;
  problem.model = load_ode_text("param k = 1\nstate x = 1\nstate y = 0\n"
                                "dx/dt = -k*x\ndy/dt = k*x\n", "zero.ode");
  problem.output_times = {0.5, 1.0};
  problem.atol = {0.0};
  if (method_info(GetParam()).capabilities.parameter_box) {
    problem.param_lower = {0.9};
    problem.param_upper = {1.1};
  }
  const Failure f = failure_of(problem, GetParam());
  EXPECT_EQ(f.status, Status::invalid_argument) << f.message;
  EXPECT_NE(f.message.find("atol is 0 for state 'y', which is 0 at t0"), std::string::npos)
      << f.message;
  // The states' own weights are the check's: with atol > 0 for y the
  // problem gets past it (whatever the method then makes of atol 0 for x).
  problem.atol = {0.0, 1e-10};
  EXPECT_EQ(failure_of(problem, GetParam()).message.find("atol is 0 for state"),
            std::string::npos)
      << GetParam();
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, MethodErrors, ::testing::ValuesIn(all_method_ids()),
                         [](const auto& param_info) { return param_info.param; });

// A method's needs (MethodCapabilities) are checked before it runs, with one
// message naming what is missing.
TEST(MethodNeeds, MissingCapabilitiesAreNamed) {
  auto problem = builtin_problem("chua", {1.0});
  MethodCapabilities needs;
  EXPECT_NO_THROW(check_method_needs("m", needs, problem));
  needs.parameter_box = true;
  try {
    check_method_needs("m", needs, problem);
    FAIL() << "no parameter box accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("parameter box"), std::string::npos) << e.what();
  }
  problem.param_lower = {6.0, 14.0};
  problem.param_upper = {8.0, 16.0};
  EXPECT_NO_THROW(check_method_needs("m", needs, problem));

  // A callback model without derivatives: no exact Jacobians, no second
  // derivatives.
  Misbehaviour none;
  Problem cb;
  CallbackModelSpec spec = decay(&none);
  spec.jac_x = nullptr;
  spec.jac_p = nullptr;
  cb.model = make_callback_model(spec);
  cb.output_times = {1.0};
  MethodCapabilities exact;
  exact.exact_jacobians = true;
  EXPECT_THROW(check_method_needs("m", exact, cb), Error);
  MethodCapabilities second;
  second.second_derivatives = true;
  try {
    check_method_needs("m", second, cb);
    FAIL() << "a model without second derivatives accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("second derivatives"), std::string::npos) << e.what();
  }
  // Built-in and expression models have them.
  EXPECT_NO_THROW(check_method_needs("m", second, problem));
}

TEST(MethodNeeds, EveryMethodDeclaresWhatItComputes) {
  for (const auto& m : method_infos()) {
    const auto& c = m.capabilities;
    EXPECT_TRUE(c.s_trajectory || c.final_s || c.gradient || c.bounds) << m.id;
  }
}

// Sensitivity directions are refused, not ignored, by the methods that
// compute S = dx/dp alone, and taken by those that declare them.
TEST(MethodRegistry, MethodsWithoutDirectionsRefuseThem) {
  Problem problem = builtin_problem("chua", {1.0});
  const std::size_t rows = problem.model->nx() + problem.model->np();
  problem.sens_directions.assign(rows, 0.0);
  problem.sens_directions[0] = 1.0;
  for (const auto& m : method_infos()) {
    const auto f = failure_of(problem, m.id);
    if (m.capabilities.directions) {
      EXPECT_EQ(f.status, Status::ok) << m.id << ": " << f.message;
    } else {
      EXPECT_EQ(f.status, Status::unsupported) << m.id;
      EXPECT_NE(f.message.find("takes no sensitivity directions"), std::string::npos)
          << m.id << ": " << f.message;
    }
  }
}

TEST(MethodRegistry, UnknownMethodListsTheKnownOnes) {
  const auto f = failure_of(builtin_problem("chua", {1.0}), "rk45");
  EXPECT_EQ(f.status, Status::unknown_method);
  EXPECT_NE(f.message.find("cvodes_fsa"), std::string::npos) << f.message;
}

// Times in messages read back as the numbers they are ("0.1", not
// "0.100000").
TEST(MethodRegistry, PeanoBakerNamesTheTimeOfANonFiniteJacobianExactly) {
  Misbehaviour m{Misbehaviour::nan_jac_x, -1.0};
  Problem problem;
  problem.model = make_callback_model(decay(&m));
  problem.t0 = 0.1;
  problem.output_times = {0.25, 1.0};
  problem.options.set("jacobian", "difference_quotient");  // the state solve does without J_x
  const auto f = failure_of(problem, "pbsr");
  EXPECT_EQ(f.status, Status::not_finite) << f.message;
  EXPECT_NE(f.message.find("J_x contains NaN or Inf at t = 0.1, first d(f of '"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(f.message.find("0.100000"), std::string::npos) << f.message;
}

// A callback that writes NaN is the one named: the jvp of grk4as' lanes
// (it was reported as f's NaN at the next stage) and dx0/dp of the
// internal-difference methods (reported as a perturbed x0 with NaN).
TEST(MethodRegistry, TheCallbackThatWritesNaNIsTheOneNamed) {
  Problem problem;
  CallbackModelSpec spec = decay(nullptr);
  Misbehaviour none;
  spec.user = &none;
  spec.jvp = [](double, const double*, const double*, std::int64_t nv, const double*,
                double* out, void*) {
    for (std::int64_t k = 0; k < nv; ++k) out[k] = NAN;
    return 0;
  };
  problem.model = make_callback_model(spec);
  problem.output_times = {0.5, 1.0};
  auto f = failure_of(problem, "grk4as");
  EXPECT_EQ(f.status, Status::not_finite) << f.message;
  EXPECT_NE(f.message.find("(jvp) returned NaN"), std::string::npos) << f.message;

  spec = decay(nullptr);
  spec.user = &none;
  spec.initial_state = [](const double* p, double* x0, void*) {
    x0[0] = p[0];
    return 0;
  };
  spec.initial_sensitivity = [](const double*, double* dx0_dp, void*) {
    dx0_dp[0] = NAN;
    return 0;
  };
  problem.model = make_callback_model(spec);
  for (const char* method : {"dopri8s", "grk4as", "cvodes_fsa"}) {
    f = failure_of(problem, method);
    EXPECT_EQ(f.status, Status::not_finite) << method << ": " << f.message;
    EXPECT_NE(f.message.find("initial sensitivity dx0/dp contains NaN"), std::string::npos)
        << method << ": " << f.message;
  }
}

// An initial value that is not finite at the parameters given names its
// state (every method said only that some x0 was not finite).
TEST(MethodRegistry, AnInitialValueThatIsNotFiniteNamesItsState) {
  const Problem problem = testing::ode_text_problem(
      "param k = 0\nstate y = 1\nstate x = 1/k\ndx/dt = -x\ndy/dt = -y\n", {1.0}, 1e-6, 1e-8);
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "odesd", "pbsr", "dopri8s", "grk4as",
                             "erk_adjoint"}) {
    const auto f = failure_of(problem, method);
    EXPECT_EQ(f.status, Status::not_finite) << method << ": " << f.message;
    EXPECT_NE(f.message.find("initial value of state 'x' is inf"), std::string::npos)
        << method << ": " << f.message;
  }
  // An x0 given in the problem replaces the model's: nothing to refuse.
  Problem given = problem;
  given.initial_state = {1.0, 2.0};
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "odesd", "pbsr", "dopri8s", "grk4as",
                             "erk_adjoint"})
    EXPECT_NO_THROW(solve(given, method)) << method;
}

// A caller's enormous method id or option key is not repeated whole.
TEST(MethodRegistry, MessagesCutAnEnormousNameShort) {
  const std::string huge(1 << 20, 'x');
  auto f = failure_of(builtin_problem("chua", {1.0}), huge);
  EXPECT_EQ(f.status, Status::unknown_method);
  EXPECT_LT(f.message.size(), 4000u);
  EXPECT_NE(f.message.find("(1048576 bytes)"), std::string::npos);
  Problem problem = builtin_problem("chua", {1.0});
  problem.options.set(huge, 1.0);
  f = failure_of(problem, "cvodes_fsa");
  EXPECT_EQ(f.status, Status::unknown_option);
  EXPECT_LT(f.message.size(), 4000u);
}

TEST(MethodRegistry, AdjointCallbackFailureDuringBackwardPass) {
  // vjp fails only when called, i.e. in the backward pass of the adjoint.
  CallbackModelSpec spec = decay(nullptr);
  Misbehaviour none;
  spec.user = &none;
  spec.vjp = [](double, const double*, const double*, std::int64_t, const double*, double*,
                double*, void*) { return 9; };
  Problem problem;
  problem.model = make_callback_model(spec);
  problem.output_times = {1.0};
  const auto f = failure_of(problem, "cvodes_asa");
  EXPECT_EQ(f.status, Status::callback_failed) << f.message;
  EXPECT_NE(f.message.find("'vjp' returned 9"), std::string::npos) << f.message;
}

TEST(CvodesFailures, RatesNearTheLargestDoubleNameTheStepSizeOfZero) {
  // CVODES' bound on its first step, (0.1 |y| + atol) / |dy/dt|, is 0 for P:
  // it "stepped" without moving, and CVodeF then reported times that mean
  // nothing ("t = 1 is not between tcur - hu = 0 and tcur = 0").
  Problem problem;
  problem.model = load_ode_text(
      "param k = 0.5\nstate S = 1\nstate P = 0\ndS/dt = -1e300*k\ndP/dt = 1e300*k\n", "big.ode");
  problem.output_times = {1.0, 2.0};
  for (const char* method : {"cvodes_fsa", "cvodes_asa"}) {
    const auto f = failure_of(problem, method);
    EXPECT_EQ(f.status, Status::not_finite) << method << ": " << f.message;
    EXPECT_NE(f.message.find("the step size is 0 at t = 0, where 'P' = 0 changes at 5e+299 per "
                             "unit time: the integrator's bound on its first step"),
              std::string::npos)
        << method << ": " << f.message;
    EXPECT_EQ(f.message.find("tcur"), std::string::npos) << method << ": " << f.message;
  }
}

}  // namespace
}  // namespace odesens
