// Instants and output times a few ulps apart: which value an output takes,
// that an event fires once, and that no method takes a step below the
// resolution of t, in every point method. The convention: an output on an
// instant is the value after it, for a comparison that turns just after
// its time too (`t > T`: g = 0 at T counts as its crossing there).
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <iomanip>
#include <string>
#include <utility>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::linspace;

constexpr const char* kPointMethods[] = {"cvodes_fsa", "cvodes_asa", "erk_adjoint", "odesd",
                                         "pbsr",       "exp",        "dopri8s",     "grk4as"};

Problem near_output_problem(const std::string& text, std::vector<double> times) {
  return testing::ode_text_problem(text, std::move(times), 1e-10, 1e-12);
}

double ulp_before(double t) { return std::nextafter(t, -INFINITY); }
double ulp_after(double t) { return std::nextafter(t, INFINITY); }

// A delayed event whose trigger holds from t = 1 to t = 4 (SBML Test Suite
// case 01000's _E6): it fires once, at 1 + 4.995. y' = k t, y = 14.5 there,
// so y(10) = 14.5 + k (100 - 5.995^2) / 2 and dy(10)/dk = (100 - 5.995^2) / 2.
// cvodes_asa's forward pass fired the switch of `t <= 4` one ulp after 4,
// then took CVODES' own reports of that root at 4 (rising, then falling) as
// crossings: the trigger turned true again, and the event fired at 8.995
// too. With an output on t = 4 (11 outputs) and without (202).
// Every point method on the .ode text at each output count: y(10), the
// last state, within y_tolerance of y10 and its S in k, the last entry of
// every method's S, within s_tolerance of dk.
void expect_every_method_at_10(const char* text, std::initializer_list<int> output_counts,
                               double y10, double y_tolerance, double dk, double s_tolerance) {
  for (int outputs : output_counts) {
    Problem problem = near_output_problem(text, linspace(0, 10, outputs));
    problem.rtol = 1e-8;
    problem.atol = {1e-10};
    for (const char* method : kPointMethods) {
      SCOPED_TRACE(std::string(method) + ", " + std::to_string(outputs) + " outputs");
      const Result r = solve(problem, method);
      EXPECT_NEAR(r.x.back(), y10, y_tolerance);
      EXPECT_NEAR(r.s.back(), dk, s_tolerance);
    }
  }
}

TEST(EventsNearOutputs, ATriggerThatEndsAtATimeFiresOnceInEveryMethod) {
  const double y10 = 14.5 + (100 - 5.995 * 5.995) / 2, dk = (100 - 5.995 * 5.995) / 2;
  expect_every_method_at_10(
      "param k = 1\nstate y = 1\ndy/dt = k*t\n"
      "event e6 when t >= 1 && t <= 4 after 4.995: y = 14.5\n",
      {11, 202}, y10, 1e-6 * y10, dk, 1e-5 * dk);
}

// A state root (u >= 4 of u' = 1) located on the output time t = 4, its
// state a rounding short of 4, and a switch of t alone one ulp later (an
// event whose trigger `t <= 4` ends there). The switch read the state root
// on its old side again, the next step crossed it once more, and
// erk_adjoint added the dose twice: y(10) = 13 for 12 = 1 + 10 k + 1.
TEST(EventsNearOutputs, AStateRootOnAnOutputBeforeASwitchOfTFiresOnceInEveryMethod) {
  expect_every_method_at_10(
      "param k = 1\nstate u = 0\nstate y = 1\ndu/dt = 1\ndy/dt = k\n"
      "event a when t <= 4: y = y\nevent b when u >= 4: y = y + 1\n",
      {11, 41, 202}, 12.0, 1e-8, 10.0, 1e-6);
}

// A trigger `t > 4 && t < 6` turns true one ulp after the output time 4, and
// its event, delayed by 1, executes a rounding after the output time 5 (at
// 4 + 1 ulp + 1). cvodes_asa's forward pass went back to t = 4 after the
// window closed (CVodeF reported a root it had kept from before a restart)
// and added the dose twice, y(10) = 31; with outputs on 4 and 5 its
// backward problem also failed ("tout too close to t0"). y = 1 + k t up to
// 5, plus y(4) + 10 there: y(10) = 11 + 9 k.
TEST(EventsNearOutputs, ADelayedEventJustAfterAnOutputFiresOnceInEveryMethod) {
  expect_every_method_at_10(
      "param k = 1\nstate y = 1\ndy/dt = k\n"
      "event e when t > 4 && t < 6 after 1: y = y + 10\n",
      {11, 21, 202}, 20.0, 1e-6, 9.0, 1e-5);
}

// A delayed execution that falls due as a window of t alone closes: the
// trigger `t >= 1 && t <= 4` turns true at 1, the event executes at 1 + D =
// 4, where `t <= 4` turns false. The instant was timed by that crossing,
// fixed in time, and dy/dD came out 0 in every method; it moves with the
// execution. y = 1 + k t, then 2 y(1) = 4 at 1 + D: y(10) = 13 - D with k
// = 1, and the last entry of S is dy/dD = -k = -1 (central differences).
TEST(EventsNearOutputs, ADelayedExecutionAsAWindowOfTClosesMovesWithItsDelay) {
  expect_every_method_at_10(
      "param k = 1\nparam D = 3\nstate y = 1\ndy/dt = k\n"
      "event e when t >= 1 && t <= 4 after D: y = 2*y\n",
      {11, 202}, 10.0, 1e-6, -1.0, 1e-5);
}

// The output convention in every method, cvodes_asa's forward pass and
// erk_adjoint's included: an output on an instant is the value after it,
// for the strict `t > T` too (true one ulp after T), and at the last output.
TEST(EventsNearOutputs, AnOutputOnAStrictSwitchOfTIsTheValueAfterItInEveryMethod) {
  for (const double T : {4.0, 10.0}) {
    const std::string text = "param k = 1\nstate y = 1\ndy/dt = k\nevent e when t > " +
                             std::to_string(T) + ": y = 0\n";
    Problem problem = near_output_problem(text.c_str(), linspace(0, 10, 11));
    problem.rtol = 1e-8;
    problem.atol = {1e-10};
    for (const char* method : kPointMethods) {
      const Result r = solve(problem, method);
      for (std::size_t i = 0; i < r.times.size(); ++i) {
        const double t = r.times[i];
        EXPECT_NEAR(r.x[i], t < T ? 1 + t : t - T, 1e-7)
            << method << ", T = " << T << ", t = " << t;
      }
      EXPECT_NEAR(r.s.back(), T < 10 ? 10 - T : 0.0, 1e-6) << method << ", T = " << T;
    }
  }
}

// Outputs a few ulps before a switch of t, within CVODES' root tolerance of
// it: `t > T` is false there, so they are values before the instant, and
// the event fires once. cvodes_fsa, pbsr and exp put the instant on the
// first of them (3 ulps before 4) and, after the next output read the side
// back, fired again at 4: y(9) = 4 e^{-0.9 k} for 2 e^{-0.9 k}, silently.
// With T a parameter, dy/dT = 0 (the jump y -> 2 y carries S: 2 f- - f+).
TEST(EventsNearOutputs, OutputsJustBeforeASwitchOfTAreValuesBeforeIt) {
  const double k = 0.1, T = 4.0;
  const std::vector<double> times{0.0, ulp_before(ulp_before(ulp_before(T))),
                                  ulp_before(ulp_before(T)), ulp_before(T), 9.0};
  for (const char* extra : {"", "4.0"}) {
    std::vector<double> at = times;
    if (*extra) at.insert(at.end() - 1, T);
    Problem problem = near_output_problem(
        "param k = 0.1\nparam T = 4\nstate y = 1\ndy/dt = -k*y\n"
        "event e when t > T: y = 2*y\n",
        at);
    problem.rtol = 1e-8;
    problem.atol = {1e-10};
    for (const char* method : kPointMethods) {
      SCOPED_TRACE(std::string(method) + (*extra ? ", an output on T" : ""));
      const Result r = solve(problem, method);
      const std::size_t last = r.times.size() - 1;
      for (std::size_t i = 1; i < last; ++i) {
        const double y = std::exp(-k * r.times[i]) * (r.times[i] < T ? 1.0 : 2.0);
        EXPECT_NEAR(r.x[i], y, 1e-7) << "t = " << r.times[i];
      }
      EXPECT_NEAR(r.x[last], 2 * std::exp(-0.9), 1e-7);
      EXPECT_NEAR(r.s[r.s.size() - 2], -9 * 2 * std::exp(-0.9), 1e-5);  // dy(9)/dk
      EXPECT_NEAR(r.s.back(), 0.0, 1e-6);                                // dy(9)/dT
    }
  }
}

// The gradient of G = y(t_1) + y(5) with t_1 on, or a few ulps before, the
// instant of `t >= T` (y += 1 at T = 4): before it y(t_1) = e^{-k t_1}
// moves with k alone; on it y(t_1) = e^{-4k} + 1 and dy/dT = k (the jump
// of S, f- - f+). erk_adjoint's backward pass took the output's term after
// the instant's jump where no step lay between them: dG/dT 0.131, not 0.251.
TEST(EventsNearOutputs, AnObjectiveJustBeforeAnInstantIsNotCarriedAcrossIt) {
  const double k = 0.3, T = 4.0;
  for (const double t1 : {ulp_before(ulp_before(T)), T - 1e-14, T}) {
    Problem problem = near_output_problem(
        "param k = 0.3\nparam T = 4\nstate y = 1\ndy/dt = -k*y\n"
        "event e when t >= T: y = y + 1\n",
        {0.0, t1, 5.0});
    problem.rtol = 1e-8;
    problem.atol = {1e-10};
    problem.adjoint_weights = {0.0, 1.0, 1.0};
    const bool after = t1 >= T;
    const double dk_at_t1 = after ? -T * std::exp(-k * T) : -t1 * std::exp(-k * t1);
    const double dk = dk_at_t1 - 5 * std::exp(-5 * k) - (5 - T) * std::exp(-k * (5 - T));
    const double dT = (after ? k : 0.0) + k * std::exp(-k * (5 - T));
    for (const char* method : kPointMethods) {
      SCOPED_TRACE(::testing::Message() << method << ", t_1 = " << std::setprecision(17) << t1);
      const Result r = solve(problem, method);
      ASSERT_EQ(r.gradient.size(), 2u);
      EXPECT_NEAR(r.gradient[0], dk, 1e-5);
      EXPECT_NEAR(r.gradient[1], dT, 1e-5);
    }
  }
}

// Outputs one ulp, and 1e-11, after a switch of f whose time is a
// parameter (`t < T`), in the middle and last. dopri8s and grk4as restart
// after it with their perturbed trajectories on both sides of the switch
// and drift past it (bundle_solution.hpp): the drift passed the output
// ("interpolate: t lies outside the last step", "t_limit must lie ahead");
// erk_adjoint, dopri8s and grk4as failed where that output was the last.
// y = 1 + k t, then (1 + k T) e^{-k (t - T)}.
// `t <= T` turns one ulp after T, where the solver restarts: on the last
// output, the end of the solve (dopri8s, grk4as and erk_adjoint failed:
// "reset needs finite t0 != t_end").
TEST(EventsNearOutputs, OutputsJustAfterASwitchWhoseTimeIsAParameterAreReached) {
  const double k = 0.3, T = 4.0;
  for (const auto& [comparison, t1] : std::vector<std::pair<std::string, double>>{
           {"t < T", ulp_after(T)}, {"t < T", T + 1e-11}, {"t <= T", ulp_after(T)}}) {
    for (const bool last : {false, true}) {
      std::vector<double> times{0.0, t1};
      if (!last) times.push_back(5.0);
      Problem problem = near_output_problem(
          "param k = 0.3\nparam T = 4\nstate y = 1\ndy/dt = piecewise(k, " + comparison +
              ", -k*y)\n",
          times);
      problem.rtol = 1e-8;
      problem.atol = {1e-10};
      for (const char* method : kPointMethods) {
        SCOPED_TRACE(::testing::Message() << method << ", " << comparison << ", t_1 = "
                                          << std::setprecision(17) << t1
                                          << (last ? ", last" : ""));
        const Result r = solve(problem, method);
        const double t = times.back(), decay = std::exp(-k * (t - T));
        EXPECT_NEAR(r.x.back(), (1 + k * T) * decay, 1e-7);
        EXPECT_NEAR(r.s[r.s.size() - 2], (T - (1 + k * T) * (t - T)) * decay, 1e-5);  // dy/dk
        EXPECT_NEAR(r.s.back(), k * (2 + k * T) * decay, 1e-5);                     // dy/dT
      }
    }
  }
}

// Instants within rounding after t0, or a few ulps after another instant,
// are taken without a step; outputs between the solver and such an instant
// are the state where the solver stands, and an output on T for `t > T`
// the value after it. `t > 1e-15` from t0 = 0 with outputs at 1e-16 and
// 1e-15: dopri8s failed ("interpolate needs an accepted step"). An
// execution at 0.29999999999999993 before `t > 0.3`: the output on 0.3 was
// the value before the second event in cvodes_fsa, cvodes_asa, pbsr, exp
// and dopri8s, after it in the others.
TEST(EventsNearOutputs, OutputsAroundInstantsTakenWithoutAStepAgreeInEveryMethod) {
  Problem tiny = near_output_problem(
      "param k = 1\nstate y = 1\ndy/dt = k\nevent e when t > 1e-15: y = 2*y\n",
      {0.0, 1e-16, 1e-15, 2e-15, 1.0});
  Problem late = near_output_problem(
      "param k = 1\nstate y = 1\ndy/dt = k\n"
      "event a when t > 0.1 after 0.19999999999999993: y = y + 1\n"
      "event b when t > 0.3: y = 2*y\n",
      {0.0, ulp_before(0.3), 0.3, 1.0});
  for (Problem* problem : {&tiny, &late}) {
    problem->rtol = 1e-8;
    problem->atol = {1e-10};
  }
  for (const char* method : kPointMethods) {
    SCOPED_TRACE(method);
    const Result a = solve(tiny, method);
    const std::vector<double> tiny_x{1.0, 1.0, 2.0, 2.0, 3.0};
    for (std::size_t i = 0; i < tiny_x.size(); ++i) EXPECT_NEAR(a.x[i], tiny_x[i], 1e-9);
    EXPECT_NEAR(a.s.back(), 1.0, 1e-6);
    const Result b = solve(late, method);
    const std::vector<double> late_x{1.0, 2.1, 4.2, 4.9};
    for (std::size_t i = 0; i < late_x.size(); ++i) EXPECT_NEAR(b.x[i], late_x[i], 1e-9);
    EXPECT_NEAR(b.s.back(), 0.9, 1e-6);
  }
}

// Two switches of t two ulps apart are one instant, read at the later
// (docs/events.md); its events, with values from the trigger time, leave
// y = 2 e^{-4k} (the later assignment stands, warned). An output between
// them read the later switch on its old side again, and its event doubled y
// a second time: y(6) = 4 e^{-6k} for 2 e^{-6k}, in six of the methods.
// An output on T for `t > T` with T = 1e-15 the last: the value after it
// (cvodes_fsa, pbsr and exp kept CVODES' root past the last output).
TEST(EventsNearOutputs, SwitchesOfTAFewUlpsApartFireOnce) {
  const double k = 0.3;
  Problem pair = near_output_problem(
      "param k = 0.3\nstate y = 1\ndy/dt = -k*y\nevent a when t >= 4: y = y + 1\n"
      "event b when t >= 4.000000000000002: y = 2*y\n",
      {0.0, 4.0, ulp_after(4.0), ulp_after(ulp_after(4.0)), 6.0});
  // 40 ulps apart (4.0000000000000355), an output 20 ulps after 4: cvodes_asa
  // read the later switch back at the output and doubled y again.
  Problem wider = near_output_problem(
      "param k = 0.3\nstate y = 1\ndy/dt = -k*y\nevent a when t >= 4: y = y + 1\n"
      "event b when t >= 4.0000000000000355: y = 2*y\n",
      {0.0, 4.0, 4.000000000000018, 4.0000000000000355, 6.0});
  Problem start = near_output_problem(
      "param k = 1\nparam T = 1e-15\nstate y = 1\ndy/dt = k\nevent e when t > T: y = 2*y\n",
      {0.0, 1e-15});
  // `t/3 > 4/3` has g = 0 at 4 - 1 ulp and at 4: one crossing, at the first
  // (odesd, grk4as and erk_adjoint dosed again after 4).
  Problem plateau = near_output_problem(
      "param k = 0.3\nstate y = 1\ndy/dt = -k*y\nevent e when t/3 > 4/3: y = y + 1\n",
      {0.0, ulp_before(4.0), 4.0, 6.0});
  // A delayed execution between switches read as one instant (4 + 11
  // ulps): it read the later switch back, whose event fired again (z = 2).
  Problem between = near_output_problem(
      "param k = 0.3\nstate y = 1\nstate z = 0\ndy/dt = -k*y\ndz/dt = 0\n"
      "event a when t >= 4: y = y + 1\nevent b when t >= 4.0000000000000355: z = z + 1\n"
      "event c when t >= 3 after 1.00000000000001: y = y + 10\n",
      {0.0, 6.0});
  for (Problem* problem : {&pair, &wider, &start, &plateau, &between}) {
    problem->rtol = 1e-8;
    problem->atol = {1e-10};
  }
  const double dosed = std::exp(-4 * k) + 1;
  for (const char* method : kPointMethods) {
    SCOPED_TRACE(method);
    for (const Problem* problem : {&pair, &wider}) {
      const Result r = solve(*problem, method);
      for (std::size_t i = 1; i < 4; ++i) EXPECT_NEAR(r.x[i], 2 * std::exp(-4 * k), 1e-7);
      EXPECT_NEAR(r.x.back(), 2 * std::exp(-6 * k), 1e-7);
    }
    EXPECT_NEAR(solve(start, method).x.back(), 2.0, 1e-12);
    const Result q = solve(plateau, method);  // at 4 - 1 ulp: before or after (one time)
    EXPECT_NEAR(q.x[2], dosed, 1e-7);
    EXPECT_NEAR(q.x.back(), dosed * std::exp(-2 * k), 1e-7);
    EXPECT_EQ(solve(between, method).x.back(), 1.0);  // z(6): b once
  }
}

// Outputs on a switch, or a few ulps after it. `t <= 0.3` turns one ulp
// after 0.3, at 0.30000000000000004, an output time: odesd stepped one ulp
// from 0.3 to reach it. `t <= 0.3 - 1e-15` turns 17 ulps before the output
// 0.29999999999999993: odesd, restarted there, tried a step of 17 ulps.
// Both failed ("step size collapsed"). The trigger turns true at 0.1, the
// event executes at 0.55: y = 1 + k t^2/2 before, 14.5 + k (t^2 - 0.55^2)/2
// after.
TEST(EventsNearOutputs, OutputsOnOrJustAfterASwitchOfTAreReachedByEveryMethod) {
  const double just_after = std::nextafter(0.3, 1.0);
  for (const char* end : {"0.3", "0.3 - 1e-15"}) {
    Problem problem = near_output_problem(
        std::string("param k = 1\nstate y = 1\ndy/dt = k*t\n"
                    "event e when t >= 0.1 && t <= ") +
            end + " after 0.45: y = 14.5\n",
        {0.0, 0.1, 0.2, std::nextafter(0.3, 0.0), 0.3, just_after, 1.0});
    problem.rtol = 1e-8;
    problem.atol = {1e-10};
    const double dk = (1 - 0.55 * 0.55) / 2;
    for (const char* method : kPointMethods) {
      const Result r = solve(problem, method);
      for (std::size_t i = 3; i < 6; ++i)
        EXPECT_NEAR(r.x[i], 1 + r.times[i] * r.times[i] / 2, 1e-6) << method << ", " << end;
      EXPECT_NEAR(r.x.back(), 14.5 + dk, 1e-6) << method << ", " << end;
      EXPECT_NEAR(r.s.back(), dk, 1e-5) << method << ", " << end;
    }
  }
}


// The window's end T a parameter too: dy/dT is 0 (the window closes after
// the event fired; central differences), dy/dD -1. The crossing of `t <= T`
// moves with T, and the instant took its time derivative: dy/dT was -1,
// dy/dD 0.
TEST(EventsNearOutputs, ADelayedExecutionAsAMovingWindowClosesMovesWithItsDelay) {
  const char* text =
      "param k = 1\nparam D = 3\nparam T = 4\nstate y = 1\ndy/dt = k\n"
      "event e when t >= 1 && t <= T after D: y = 2*y\n";
  expect_every_method_at_10(text, {11, 202}, 10.0, 1e-6, 0.0, 1e-5);
  Problem problem = near_output_problem(text, linspace(0, 10, 11));
  for (const char* method : kPointMethods) {
    const Result r = solve(problem, method);
    ASSERT_EQ(r.s.size() % 3, 0u) << method;
    EXPECT_NEAR(r.s[r.s.size() - 2], -1.0, 1e-5) << method << ": dy/dD";
  }
}

// Where the crossing switches f, it keeps the instant's time (the jumps of f
// and of the execution at one time), and the result says that the two move
// apart: z' = 1 up to t = 4, the execution at 1 + D = 4.
TEST(EventsNearOutputs, AnExecutionDueAsASwitchOfFIsCrossedIsWarned) {
  Problem problem = near_output_problem(
      "param k = 1\nparam D = 3\nstate y = 1\nstate z = 0\ndy/dt = k\n"
      "dz/dt = piecewise(1, t <= 4, 0)\nevent e when t >= 1 after D: y = 2*y\n",
      linspace(0, 10, 11));
  for (const char* method : kPointMethods) {
    const Result r = solve(problem, method);
    bool warned = false;
    for (const auto& w : r.warnings) warned = warned || w.find("falls due as") != std::string::npos;
    EXPECT_TRUE(warned) << method;
  }
}

// A delay of 0 that is a parameter (a fitted delay at its lower bound):
// the execution is at the trigger's time, dy/dD there is 0, and for any D
// above 0 it is -1 (y' = k, doubled at 1 + D). Every method says so; with D
// above 0 none does.
TEST(EventsNearOutputs, AZeroDelayThatMovesWithPIsWarned) {
  for (const double D : {0.0, 0.5}) {
    Problem problem = near_output_problem(
        "param k = 1\nparam D = " + std::to_string(D) +
            "\nstate y = 1\ndy/dt = k\nevent e when t >= 1 after D: y = 2*y\n",
        linspace(0, 10, 11));
    for (const char* method : kPointMethods) {
      SCOPED_TRACE(::testing::Message() << method << ", D = " << D);
      const Result r = solve(problem, method);
      EXPECT_NEAR(r.x.back(), 13.0 - D, 1e-6);
      EXPECT_NEAR(r.s.back(), D > 0 ? -1.0 : 0.0, 1e-5);
      bool warned = false;
      for (const auto& w : r.warnings)
        warned = warned || w.find("with a delay of 0 that moves with p") != std::string::npos;
      EXPECT_EQ(warned, D == 0.0);
    }
  }
}

// An event that executes one ulp after an output: the output is the value
// before it. `t >= 0.1 after 0.2` executes at 0.1 + 0.2 =
// 0.30000000000000004, after the output 0.3; cvodes_asa took it onto the
// output for a while. x' = -k x, x += 1 at the execution.
TEST(EventsNearOutputs, AnExecutionOneUlpAfterAnOutputComesAfterIt) {
  Problem problem = near_output_problem(
      "param k = 1\nstate y = 1\ndy/dt = -k*y\nevent e when t >= 0.1 after 0.2: y = y + 1\n",
      {0.0, 0.1, 0.2, 0.3, 1.0});
  for (const char* method : kPointMethods) {
    const Result r = solve(problem, method);
    EXPECT_NEAR(r.x[3], std::exp(-0.3), 1e-6) << method;
    EXPECT_NEAR(r.x.back(), std::exp(-0.8) + std::exp(-0.7), 1e-6) << method;
  }
}

// Outputs one ulp apart, or one ulp after an instant, where CVODES cannot
// step ("tout too close to t0"): cvodes_asa failed forward or backward.
// `t >= 4` adds 10 to y' = k: y = 1 + t before 4, 11 + t after; dy/dk = t.
// Without events, y' = -k y: the objective y(5) + y(5 + 1 ulp) counts
// both outputs (the adjoint dropped one).
TEST(EventsNearOutputs, OutputsOneUlpApartAreReachedByEveryMethod) {
  Problem dose = near_output_problem(
      "param k = 1\nstate y = 1\ndy/dt = k\nevent e when t >= 4: y = y + 10\n",
      {0.0, 4.0, ulp_after(4.0), 5.0, ulp_after(5.0), 10.0});
  Problem decay = near_output_problem("param k = 1\nstate y = 1\ndy/dt = -k*y\n",
                                    {0.0, 5.0, ulp_after(5.0), 10.0});
  decay.adjoint_weights = {0.0, 1.0, 1.0, 0.0};
  const double decay_gradient = -10 * std::exp(-5.0);
  for (const char* method : kPointMethods) {
    const Result r = solve(dose, method);
    EXPECT_NEAR(r.x[1], 15.0, 1e-6) << method;
    EXPECT_NEAR(r.x[2], 15.0, 1e-6) << method;
    EXPECT_NEAR(r.x.back(), 21.0, 1e-6) << method;
    EXPECT_NEAR(r.s.back(), 10.0, 1e-5) << method;
    const Result d = solve(decay, method);
    ASSERT_EQ(d.gradient.size(), 1u) << method;
    EXPECT_NEAR(d.gradient[0], decay_gradient, 1e-6 * std::fabs(decay_gradient)) << method;
  }
}

// A state root put on an output a rounding short of its threshold (u >= 4
// of u' = 1 on the output 3.999999999999999), then a switch of t at 4: the
// switch read u below 4 and turned the root back, and it fired again when u
// reached 4 (erk_adjoint, odesd, grk4as). And a strict `y > 5` reaching 5
// exactly on the output 4 after it was put on 3.999999999999999: taken as
// a crossing back, and its event fired again.
TEST(EventsNearOutputs, AStateRootTakenOnAnOutputJustBeforeItFiresOnce) {
  const std::vector<double> times{0.0, ulp_before(4.0), 4.0, 10.0};
  Problem dose = near_output_problem(
      "param k = 1\nstate u = 0\nstate y = 1\ndu/dt = 1\ndy/dt = k\n"
      "event a when u >= 4: y = y + 1\nevent b when t > 4: u = u\n",
      times);
  Problem count = near_output_problem(
      "param k = 1\nstate y = 1\nstate u = 0\nstate v = 0\ndy/dt = k\ndu/dt = 0\ndv/dt = 0\n"
      "event e when y > 5 && t < 6: u = u + 1\nevent f when t > 4: v = v + 1\n",
      times);
  for (const char* method : kPointMethods) {
    EXPECT_NEAR(solve(dose, method).x.back(), 12.0, 1e-6) << method;
    const Result r = solve(count, method);
    EXPECT_NEAR(r.x_at(3, 1), 1.0, 1e-12) << method << ": u(10)";
    EXPECT_NEAR(r.x_at(3, 2), 1.0, 1e-12) << method << ": v(10)";
  }
}

// A root located just after an output time is put on it, but not where an
// execution falls due at the root: `t <= 4` closes as the execution at
// 1 + D = 4 falls due, with an output at 3.999999999999999. cvodes_fsa,
// pbsr and exp put the instant on that output, left the execution pending
// behind it, and stepped on with no stop: y(10) = 4 for 10.
TEST(EventsNearOutputs, AnExecutionAtARootIsNotLeftBehindAnOutputJustBefore) {
  Problem problem = near_output_problem(
      "param k = 1\nparam D = 3\nstate y = 1\ndy/dt = k\n"
      "event e when t >= 1 && t <= 4 after D: y = 2*y\n",
      {0.0, ulp_before(4.0), 4.0, 10.0});
  for (const char* method : kPointMethods) {
    const Result r = solve(problem, method);
    EXPECT_NEAR(r.x[1], 5.0, 1e-6) << method;
    EXPECT_NEAR(r.x[2], 4.0, 1e-6) << method;
    EXPECT_NEAR(r.x.back(), 10.0, 1e-6) << method;
    EXPECT_NEAR(r.s.back(), -1.0, 1e-5) << method << ": dy/dD";
  }
}

// Instants one ulp apart, with and without an output on the later one:
// `t > 4` crossed at 4 (the solution restarts one ulp after it) and an
// execution due at 1 + 3.000000000000001 = 4 + 1 ulp; and two executions
// one ulp apart. The output at 4 + 1 ulp is the value after both; the
// CVODES methods failed ("tout too close to t0"), the one-step methods
// wrote the value before the execution. Values from the trigger time:
// each execution sets z = 0 + 1.
TEST(EventsNearOutputs, InstantsOneUlpApartAllTakePlace) {
  const char* text =
      "param k = 1\nstate y = 1\nstate z = 0\nstate w = 0\ndy/dt = k\ndz/dt = 0\ndw/dt = 0\n"
      "event a when t > 4: w = w + 1\nevent b when t >= 1 after 3: z = z + 1\n"
      "event e when t >= 1 after 3.000000000000001: z = z + 1\n";
  for (const std::vector<double>& times :
       {std::vector<double>{0.0, ulp_after(4.0), 6.0}, std::vector<double>{0.0, 4.0, 6.0},
        std::vector<double>{0.0, 6.0}}) {
    const Problem problem = near_output_problem(text, times);
    for (const char* method : kPointMethods) {
      const Result r = solve(problem, method);
      const std::size_t last = times.size() - 1;
      EXPECT_NEAR(r.x_at(last, 1), 1.0, 1e-12) << method << ", " << times.size() << " outputs";
      EXPECT_NEAR(r.x_at(last, 2), 1.0, 1e-12) << method << ", " << times.size() << " outputs";
      if (times[1] > 4.0) {
        EXPECT_NEAR(r.x_at(1, 1), 1.0, 1e-12) << method << ": z at 4 + 1 ulp";
        EXPECT_NEAR(r.x_at(1, 2), 1.0, 1e-12) << method << ": w at 4 + 1 ulp";
      }
    }
  }
}

}  // namespace
}  // namespace odesens
