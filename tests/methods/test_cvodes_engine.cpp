// The CVODES engine of integrate/cvodes/ as every method that runs on it
// sees it: a failure to create the SUNDIALS context or to initialise the
// integrator ends every CVODES user with the same status, and the work
// counters of a solve that restarts CVODES are the sum of its segments'.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/sundials_handles.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

Problem engine_ode_problem(const std::string& text, std::vector<double> times) {
  return testing::ode_text_problem(text, std::move(times), 1e-8, 1e-10);
}

const char* kDecay = "param k = 0.8\nstate x = 1\ndx/dt = -k*x\n";
const char* kDecayWithDose = "param k = 0.8\nstate x = 1\ndx/dt = -k*x\n"
                             "event dose when t >= 0.5: x = x + 1\n";

// Every CVODES user: the four methods, cvodes_asa's segmented driver (a
// model with events), and the set-valued methods' own integrators.
struct CvodesUser {
  std::string method;
  const char* model;
};
std::vector<CvodesUser> cvodes_users() {
  return {{"cvodes_fsa", kDecay},     {"cvodes_asa", kDecay},
          {"pbsr", kDecay},           {"exp", kDecay},
          {"cvodes_fsa", kDecayWithDose}, {"cvodes_asa", kDecayWithDose},
          {"pbsr", kDecayWithDose},   {"bounds_fsa", kDecay},
          {"bounds_asa", kDecay}};
}

Problem user_problem(const CvodesUser& user) {
  Problem p = engine_ode_problem(user.model, {0.0, 1.0});
  if (user.method.rfind("bounds_", 0) == 0) {
    p.param_lower = {0.7};
    p.param_upper = {0.9};
  }
  return p;
}

struct SolveFailure {
  Status status = Status::ok;
  std::string message;
};
SolveFailure failure_with(cvodes::Fault fault, const CvodesUser& user) {
  const Problem p = user_problem(user);
  cvodes::inject_fault(fault);
  SolveFailure f;
  try {
    solve(p, user.method);
  } catch (const Error& e) {
    f = {e.status(), e.what()};
  }
  cvodes::inject_fault(fault, 0);  // not taken: nothing left for the next solve
  return f;
}

TEST(CvodesEngine, EveryUserSolvesWithoutAFault) {
  for (const auto& user : cvodes_users())
    EXPECT_NO_THROW(solve(user_problem(user), user.method)) << user.method << ": " << user.model;
}

TEST(CvodesEngine, AFailedContextIsOutOfMemoryForEveryUser) {
  for (const auto& user : cvodes_users()) {
    const SolveFailure f = failure_with(cvodes::Fault::context, user);
    EXPECT_EQ(f.status, Status::out_of_memory) << user.method << ": " << f.message;
    EXPECT_NE(f.message.find("SUNDIALS context"), std::string::npos)
        << user.method << ": " << f.message;
  }
}

TEST(CvodesEngine, AFailedCVodeInitIsOutOfMemoryForEveryUser) {
  for (const auto& user : cvodes_users()) {
    const SolveFailure f = failure_with(cvodes::Fault::cvode_init, user);
    EXPECT_EQ(f.status, Status::out_of_memory) << user.method << ": " << f.message;
    EXPECT_NE(f.message.find("CVodeInit failed: memory could not be allocated"),
              std::string::npos)
        << user.method << ": " << f.message;
  }
}

// Failures CVODES reports are said in words: no flag names (CV_...), no
// CVODES module or function prefixes (CVODES::CVode, CVODEA::CVodeB).
TEST(CvodesEngine, FailuresAreSaidWithoutCvodesNames) {
  const char* blow_up = "param k = 1\nstate x = 1\ndx/dt = k*x*x\n";  // x = 1/(1 - t)
  for (const auto& user : cvodes_users()) {
    for (const bool few_steps : {true, false}) {
      Problem p = few_steps ? user_problem(user) : engine_ode_problem(blow_up, {0.0, 2.0});
      if (!few_steps && user.method.rfind("bounds_", 0) == 0) {
        p.param_lower = {0.9};
        p.param_upper = {1.1};
      }
      if (few_steps) p.max_steps = 3;
      const std::string where = user.method + (few_steps ? ", max_steps 3" : ", blow-up");
      try {
        solve(p, user.method);
        ADD_FAILURE() << where << ": solved";
      } catch (const Error& e) {
        const std::string said = e.what();
        EXPECT_EQ(said.find("CV_"), std::string::npos) << where << ": " << said;
        EXPECT_EQ(said.find("::"), std::string::npos) << where << ": " << said;
        EXPECT_EQ(said.find('\n'), std::string::npos) << where << ": " << said;
      }
    }
  }
}

// The session's counters over CVodeReInit are exactly the sum of what
// CVODES counted in each part.
TEST(CvodesEngine, SessionCountersSumTheSegments) {
  const Problem p = engine_ode_problem(kDecay, {0.0, 2.0});
  cvodes::InitialValueProblem ivp;
  ivp.model = p.model.get();
  ivp.params = {0.8};
  ivp.rtol = 1e-8;
  ivp.atol = {1e-10};
  cvodes::Session session(ivp, {CV_BDF, "dense", 100, "auto"});
  session.create_integrator();
  sunrealtype t = 0.0;
  session.check(CVode(session.mem(), 1.0, session.state(), &t, CV_NORMAL), "CVode");
  const cvodes::Counters first = cvodes::read_counters(session.mem(), false);
  session.reinit(t);
  session.check(CVode(session.mem(), 2.0, session.state(), &t, CV_NORMAL), "CVode");
  const cvodes::Counters second = cvodes::read_counters(session.mem(), false);
  const cvodes::Counters total = session.counters();
  EXPECT_GT(first.steps, 10);
  EXPECT_GT(second.steps, 10);
  EXPECT_EQ(total.steps, first.steps + second.steps);
  EXPECT_EQ(total.rhs_evals, first.rhs_evals + second.rhs_evals);
  EXPECT_EQ(total.linear_setups, first.linear_setups + second.linear_setups);
  EXPECT_EQ(total.newton_iterations, first.newton_iterations + second.newton_iterations);
}

// Laps of an autonomous model that each start from the same state (c is a
// clock reset with x): every method restarts CVODES at each lap, and each
// extra lap adds about as many steps and evaluations as the one before (a
// count lost at a restart would add none; CVODES' first step after a
// restart depends on the distance to the end, so they differ a little).
const char* kLaps = "param k = 0.8\nstate x = 1\nstate c = 0\ndx/dt = -k*x\ndc/dt = 1\n"
                    "event lap when c >= 1: c = 0; x = 1\n";

// The forward integrator's steps and evaluations (cvodes_asa's stats also
// count its backward problems: those are taken out).
struct ForwardCounts {
  double steps, rhs_evals, sens_rhs_evals;
};
ForwardCounts forward_counts(const Result& r) {
  auto extra = [&](const char* key) {
    const auto it = r.stats.extra.find(key);
    return it == r.stats.extra.end() ? 0.0 : it->second;
  };
  const double backward_steps = extra("backward_steps");
  return {static_cast<double>(r.stats.steps) - backward_steps,
          backward_steps > 0.0 ? 0.0 : static_cast<double>(r.stats.rhs_evals),
          extra("sens_rhs_evals")};
}

// bounds_fsa restarts its integrator at every output time (its stages):
// each further stage of a decay adds about as many steps as the one before.
TEST(CvodesEngine, BoundsCountersGrowWithEveryStage) {
  auto steps_to = [](double t_end) {
    std::vector<double> times;
    for (double t = 0.0; t <= t_end; t += 1.0) times.push_back(t);
    Problem p = user_problem({"bounds_fsa", kDecay});
    p.output_times = times;
    return static_cast<double>(solve(p, "bounds_fsa").stats.steps);
  };
  const double one = steps_to(1.0), two = steps_to(2.0), three = steps_to(3.0);
  EXPECT_GT(one, 5.0);
  EXPECT_GT(two - one, 0.5 * one);
  EXPECT_GT(three - two, 0.5 * one);
  EXPECT_LT(three - two, 2.0 * one);
}

void expect_similar_and_positive(double a, double b, const std::string& what) {
  EXPECT_GT(a, 5.0) << what;
  EXPECT_GT(b, 5.0) << what;
  EXPECT_LT(std::max(a, b), 1.6 * std::min(a, b)) << what << ": " << a << " and " << b;
}

TEST(CvodesEngine, CountersOfEveryMethodGrowWithEveryRestartedLap) {
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "pbsr", "exp"}) {
    auto run = [&](double t_end) {
      Problem p = engine_ode_problem(kLaps, {0.0, t_end});
      if (std::string(method) == "cvodes_asa") p.options.set("final_sensitivity", 0);
      const Result r = solve(p, method);
      EXPECT_EQ(r.stats.extra.at("events_executed"), std::floor(t_end)) << method;
      return forward_counts(r);
    };
    const ForwardCounts one = run(1.5), two = run(2.5), three = run(3.5);
    const std::string m = method;
    expect_similar_and_positive(two.steps - one.steps, three.steps - two.steps, m + " steps");
    if (m != "cvodes_asa")
      expect_similar_and_positive(two.rhs_evals - one.rhs_evals, three.rhs_evals - two.rhs_evals,
                                  m + " f evaluations");
    if (m == "cvodes_fsa")
      expect_similar_and_positive(two.sens_rhs_evals - one.sens_rhs_evals,
                                  three.sens_rhs_evals - two.sens_rhs_evals,
                                  m + " sensitivity evaluations");
  }
}

// A chain of 200 states with a dose into its head at t = 0.5 (and a
// switch of the decay rate at t = 1): cvodes_asa's rows of S(T) in small
// batches equal those of one sweep, and the backward work space shrinks
// with the batch (the rows across events ran all at once before).
std::string dosed_chain(std::size_t n) {
  std::string text = "param k = 2\nparam D = 1\nstate x0 = 1\ndx0/dt = -k*x0\n";
  for (std::size_t i = 1; i < n; ++i) {
    const std::string x = "x" + std::to_string(i), prev = "x" + std::to_string(i - 1);
    text += "state " + x + " = 0\nd" + x + "/dt = k*" + prev + " - piecewise(k, t < 1, 1.5*k)*" +
            x + "\n";
  }
  return text + "event dose when t >= 0.5: x0 = x0 + D\n";
}

TEST(CvodesEngine, AdjointRowsAcrossEventsRunInBatches) {
  const std::size_t n = 200;
  Problem p = engine_ode_problem(dosed_chain(n), {0.0, 1.0, 2.0});
  p.rtol = 1e-6;
  p.atol = {1e-8};
  const Result all = solve(p, "cvodes_asa");
  EXPECT_EQ(all.stats.extra.at("backward_sweeps"), 1.0);
  EXPECT_EQ(all.stats.extra.at("events_executed"), 1.0);
  const Result fsa = solve(p, "cvodes_fsa");
  for (std::size_t q = 0; q < all.s.size(); ++q)
    EXPECT_NEAR(all.s[q], fsa.s[fsa.s.size() - all.s.size() + q], 1e-4) << q;
  p.options.set("backward_batch", 25);
  const Result batched = solve(p, "cvodes_asa");
  EXPECT_EQ(batched.stats.extra.at("backward_problems"), 26.0);
  EXPECT_EQ(batched.stats.extra.at("backward_sweeps"), 8.0);
  ASSERT_EQ(batched.s.size(), all.s.size());
  for (std::size_t q = 0; q < all.s.size(); ++q)
    EXPECT_NEAR(batched.s[q], all.s[q], 1e-12 + 1e-9 * std::fabs(all.s[q])) << q;
  EXPECT_NEAR(batched.gradient[0], all.gradient[0], 1e-12 * std::fabs(all.gradient[0]));
  const double bytes_all = all.stats.extra.at("workspace_bytes");
  const double bytes_batched = batched.stats.extra.at("workspace_bytes");
  // 201 backward problems (each with its KLU Newton matrix) against 26.
  EXPECT_LT(bytes_batched, 0.25 * bytes_all) << bytes_batched << " vs " << bytes_all;
}

}  // namespace
}  // namespace odesens
