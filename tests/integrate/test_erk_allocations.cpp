// The ERK step loop allocates nothing: the workspace is sized once; and
// events allocate nothing per firing, in any method. Counts every operator
// new of this thread between two points (support/allocation_counter.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include "erk_test_problems.hpp"
#include "support/allocation_counter.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_stepped_solution.hpp"
#include "integrate/output_grid.hpp"
#include "odesens/odesens.hpp"


namespace odesens::integrate::erk {
namespace {

class ErkAllocations : public ::testing::TestWithParam<std::tuple<TableauId, int>> {};

TEST_P(ErkAllocations, ResetStepsReplacedStatesAndDenseOutputAllocateNothing) {
  const auto [id, lanes] = GetParam();
  testing::LotkaVolterra system(lanes);
  ErkWorkspace ws(tableau(id), 2, lanes);
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
  ErkEngine engine(system, ws, settings);
  ErkSteppedSolution solution(engine);
  std::vector<double> x0(2 * lanes, 1.0), out(2 * lanes), grid(2 * lanes * 20);
  std::vector<double> times(20);
  for (int k = 0; k < 20; ++k) times[k] = 2.0 + 0.15 * k;  // from where the steps stop
  counting = true;
  allocations = 0;
  engine.reset(0.0, x0.data(), 5.0);  // the HNW starting step included
  while (engine.t() < 1.0) engine.step(1.0);
  std::copy(engine.x(), engine.x() + 2 * lanes, out.begin());
  engine.replace_state(out.data());  // re-seeding between steps too
  while (engine.t() < 2.0) engine.step(2.0);
  engine.interpolate(0.5 * (engine.t_previous() + engine.t()), out.data());
  reach_outputs(solution, times.data(), times.size(), OutputGridSettings{}, grid.data());
  const long counted = allocations;
  counting = false;
  EXPECT_EQ(counted, 0) << tableau(id).name << " L = " << lanes;
  EXPECT_GT(engine.stats().accepted, 10);
}

INSTANTIATE_TEST_SUITE_P(Tableaux, ErkAllocations,
                         ::testing::Combine(::testing::Values(TableauId::bs3, TableauId::cash_karp,
                                                              TableauId::dopri5, TableauId::dop853),
                                            ::testing::Values(1, 4)),
                         [](const auto& p) {
                           return std::string(tableau(std::get<0>(p.param)).name) + "_L" +
                                  std::to_string(std::get<1>(p.param));
                         });

// The counter itself works: a vector allocates.
TEST(ErkAllocations, CounterSeesAnAllocation) {
  counting = true;
  allocations = 0;
  std::vector<double>* v = new std::vector<double>(10);
  // Escapes, so the compiler cannot elide the two allocations.
  static std::vector<double>* volatile escape;
  escape = v;
  EXPECT_EQ(escape, v);
  const long counted = allocations;
  counting = false;
  delete v;
  EXPECT_GE(counted, 2);
}

}  // namespace
}  // namespace odesens::integrate::erk

namespace odesens {
namespace {

// A solve allocates what its result needs and its set-up, never per event:
// a sawtooth that resets every time unit, solved to t = 10 and to t = 40
// with the same single output, allocates the same number of times.
TEST(EventAllocations, MoreEventsDoNotAllocateMore) {
  const char* sawtooth =
      "param k = 0.5\nstate c = 0\nstate x = 1\ndc/dt = 1\ndx/dt = -k*x\n"
      "event reset when c >= 1: c = 0; x = x + 1\n";
  for (const char* method : {"dopri8s", "odesd", "cvodes_fsa"}) {
    std::int64_t counted[2] = {0, 0};
    std::int64_t steps[2] = {0, 0};
    for (int run = -1; run < 2; ++run) {  // run -1: one-time set-ups (caches, pools)
      Problem p;
      p.model = load_ode_text(sawtooth, "sawtooth.ode");
      p.output_times = {run == 1 ? 40.5 : 10.5};
      p.rtol = 1e-8;
      p.atol = {1e-10};
      allocations = 0;
      counting = true;
      const Result r = solve(p, method);
      counting = false;
      if (run < 0) continue;
      counted[run] = allocations;
      steps[run] = r.stats.steps;
      EXPECT_NEAR(r.x_at(0, 0), 0.5, 1e-6) << method << ": the sawtooth reset every unit";
    }
    EXPECT_EQ(counted[0], counted[1]) << method << ": 10 and 40 events, " << steps[0] << " and "
                                      << steps[1] << " steps";
  }
}

}  // namespace
}  // namespace odesens
