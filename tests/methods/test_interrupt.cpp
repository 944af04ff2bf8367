// Problem::interrupt: cvodes_fsa, cvodes_asa, odesd, pbsr and exp ask it during the solve and
// end with Error(interrupted) naming the time reached, with and without
// events, in solve() and in a session's run (RunInputs::interrupt), which
// stays usable; an interrupt that never says stop changes nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// A slow relaxation with a dose: enough steps that the interrupt is asked.
const char* kDosedRelaxation =
    "param k = 0.7\nparam r = 3\nstate x = 1\nstate y = 0\n"
    "dx/dt = -k*x + r*y*y/(1 + y*y)\ndy/dt = k*x - r*y*y/(1 + y*y) - 0.05*y\n"
    "event dose when t >= 20: x = x + 1\ntime t_end = 40\n";

Problem interrupt_problem() {
  Problem p;
  p.model = load_ode_text(kDosedRelaxation, "interrupt.ode");
  for (int k = 1; k <= 40; ++k) p.output_times.push_back(k);
  return p;
}

// The Error of a solve expected to be interrupted.
Error interrupted_error(const Problem& p, const std::string& method) {
  try {
    solve(p, method);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << method << " was not interrupted";
  return Error(Status::ok, "");
}

class InterruptingMethod : public ::testing::TestWithParam<const char*> {};

TEST_P(InterruptingMethod, EndsWhenTheInterruptSaysStop) {
  Problem p = interrupt_problem();
  const Result whole = solve(p, GetParam());
  int asked = 0;
  p.interrupt = [&] { return ++asked >= 3; };
  const Error e = interrupted_error(p, GetParam());
  EXPECT_EQ(e.status(), Status::interrupted) << e.what();
  EXPECT_EQ(asked, 3);
  EXPECT_NE(std::string(e.what()).find("interrupted at t = "), std::string::npos) << e.what();
  // Asked every 64 right-hand sides (odesd: 16 steps, each of two or more):
  // far fewer times than the solve's.
  int never_asked = 0;
  p.interrupt = [&] { return ++never_asked < 0; };
  const Result again = solve(p, GetParam());
  EXPECT_GT(never_asked, 2);
  EXPECT_LT(never_asked, whole.stats.rhs_evals / 32 + 2);
  EXPECT_EQ(again.x, whole.x);
  EXPECT_EQ(again.s, whole.s);
  EXPECT_EQ(again.gradient, whole.gradient);
}

TEST_P(InterruptingMethod, ASessionRunIsInterruptedAndStaysUsable) {
  const Problem p = interrupt_problem();
  auto session = prepare(p, GetParam());
  const Result first = session->run(RunInputs{});
  RunInputs stopped;
  stopped.interrupt = [] { return true; };
  try {
    session->run(stopped);
    ADD_FAILURE() << "not interrupted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::interrupted) << e.what();
  }
  // The next run without an interrupt is the first one again.
  const Result after = session->run(RunInputs{});
  EXPECT_EQ(after.x, first.x);
  EXPECT_EQ(after.s, first.s);
  EXPECT_EQ(after.gradient, first.gradient);
}

INSTANTIATE_TEST_SUITE_P(Interrupt, InterruptingMethod, ::testing::Values("cvodes_fsa", "cvodes_asa", "odesd", "pbsr", "exp"),
                         [](const auto& param_info) { return std::string(param_info.param); });

}  // namespace
}  // namespace odesens
