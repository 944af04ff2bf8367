// Observables: named values of a model evaluated at the output times of a
// result, for .ode models (states, lets, outputs) and for any model (its
// states); unknown names are errors that say what exists.
#include <gtest/gtest.h>

#include <cmath>

#include "odesens/odesens.hpp"

namespace {

using namespace odesens;

const char* kDecay =
    "param k = 0.5\n"
    "state x = 2\n"
    "let half = x / 2\n"
    "let decay_rate = k * x\n"
    "dx/dt = -decay_rate\n"
    "output twice = 2 * x + t\n";

Result solve_decay(const Problem& problem) { return solve(problem, "cvodes_fsa"); }

TEST(Observables, OdeModelsObserveStatesLetsAndOutputs) {
  auto m = load_ode_text(kDecay, "decay.ode");
  EXPECT_EQ(m->observable_names(),
            (std::vector<std::string>{"half", "decay_rate", "x", "twice"}));
  Problem problem;
  problem.model = m;
  problem.output_times = {0.0, 1.0, 2.0};
  problem.params = {0.25};
  const Result r = solve_decay(problem);
  const auto v = evaluate_observables(problem, r, {"twice", "half", "x", "decay_rate"});
  ASSERT_EQ(v.size(), 4u);
  for (std::size_t k = 0; k < 3; ++k) {
    const double x = r.x_at(k, 0), t = r.times[k];
    EXPECT_EQ(v[0][k], 2 * x + t);
    EXPECT_EQ(v[1][k], x / 2);
    EXPECT_EQ(v[2][k], x);
    EXPECT_EQ(v[3][k], 0.25 * x);  // with the problem's parameters, not the nominal ones
  }
}

TEST(Observables, AnyModelObservesItsStates) {
  Problem problem;
  problem.model = load_model("builtin:chua");
  problem.output_times = {1.0, 2.0};
  const Result r = solve(problem, "cvodes_fsa");
  const auto v = evaluate_observables(problem, r, {"x3", "x1"});
  EXPECT_EQ(v[0], (std::vector<double>{r.x_at(0, 2), r.x_at(1, 2)}));
  EXPECT_EQ(v[1], (std::vector<double>{r.x_at(0, 0), r.x_at(1, 0)}));
  EXPECT_TRUE(evaluate_observables(problem, r, {}).empty());
}

TEST(Observables, UnknownNamesAreRefusedWithWhatExists) {
  auto chua = load_model("builtin:chua");
  try {
    check_observables(*chua, {"x1", "g"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("has no observable 'g' (observables of this model: its states)"),
              std::string::npos)
        << e.what();
  }
  auto decay = load_ode_text(kDecay, "decay.ode");
  try {
    check_observables(*decay, {"half:amount"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'half' is not a species"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_observables(*decay, {"k"}), Error);  // params are not .ode observables
}

TEST(Observables, TheResultMustHoldTheStatesOfTheModel) {
  Problem problem;
  problem.model = load_ode_text(kDecay, "decay.ode");
  Result wrong;
  wrong.nx = 3;
  wrong.times = {0.0};
  wrong.x = {1.0, 2.0, 3.0};
  EXPECT_THROW(evaluate_observables(problem, wrong, {"x"}), Error);
}

}  // namespace
