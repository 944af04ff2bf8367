// Output times by dense output (never stopping) or by clipped steps landing
// exactly on them; an output at t0 is x0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_stepped_solution.hpp"
#include "integrate/output_grid.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

using erk::ErkEngine;
using erk::ErkSettings;
using erk::ErkSteppedSolution;
using erk::ErkWorkspace;
using erk::TableauId;
using testing::LogisticAndLinear;

// Records where accepted steps end.
class StepEnds final : public erk::ErkObserver {
 public:
  void on_step_accepted(double t_n, double h, const double*, const double*,
                        const double* const*) override {
    ends.push_back(t_n + h);
  }
  std::vector<double> ends;
};

struct GridRun {
  std::vector<double> X;
  StepEnds steps;
  long accepted = 0;
};

GridRun solve_on_grid(TableauId id, const std::vector<double>& times, bool stop, double t0 = 0.0) {
  GridRun run;
  LogisticAndLinear system;
  ErkWorkspace ws(erk::tableau(id), 2, 1);
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-10;
  ErkEngine engine(system, ws, settings, &run.steps);
  double x0[2];
  LogisticAndLinear::exact(t0, x0);
  engine.reset(t0, x0, times.back());
  ErkSteppedSolution solution(engine);
  run.X.assign(2 * times.size(), 0.0);
  OutputGridSettings grid;
  grid.stop_at_outputs = stop;
  reach_outputs(solution, times.data(), times.size(), grid, run.X.data());
  run.accepted = engine.stats().accepted;
  return run;
}

const std::vector<double> kTimes{0.0, 0.1, 0.35, 0.35, 1.0, 2.5, 4.0, 7.0, 10.0};

TEST(OutputGrid, DenseOutputValuesMatchTheExactSolution) {
  for (TableauId id : {TableauId::dopri5, TableauId::dop853, TableauId::bs3, TableauId::cash_karp}) {
    const GridRun run = solve_on_grid(id, kTimes, /*stop=*/false);
    for (std::size_t k = 0; k < kTimes.size(); ++k) {
      double exact[2];
      LogisticAndLinear::exact(kTimes[k], exact);
      EXPECT_NEAR(run.X[2 * k], exact[0], 1e-7) << erk::tableau(id).name << " t = " << kTimes[k];
      EXPECT_NEAR(run.X[2 * k + 1], exact[1], 1e-7) << erk::tableau(id).name << " t = " << kTimes[k];
    }
  }
}

TEST(OutputGrid, DenseModeNeverStopsAtInteriorOutputs) {
  const GridRun with_outputs = solve_on_grid(TableauId::dopri5, kTimes, false);
  const GridRun end_only = solve_on_grid(TableauId::dopri5, {10.0}, false);
  EXPECT_EQ(with_outputs.steps.ends, end_only.steps.ends);
}

TEST(OutputGrid, StopModeLandsExactlyOnEveryOutputTime) {
  const GridRun run = solve_on_grid(TableauId::dopri5, kTimes, /*stop=*/true);
  const auto& ends = run.steps.ends;
  for (double t : kTimes) {
    if (t == 0.0) continue;
    EXPECT_NE(std::find(ends.begin(), ends.end(), t), ends.end()) << "no step ends at " << t;
  }
  for (std::size_t k = 0; k < kTimes.size(); ++k) {
    double exact[2];
    LogisticAndLinear::exact(kTimes[k], exact);
    EXPECT_NEAR(run.X[2 * k], exact[0], 1e-7) << "t = " << kTimes[k];
  }
  // Clipping costs steps compared with the free run.
  EXPECT_GT(run.accepted, solve_on_grid(TableauId::dopri5, kTimes, false).accepted);
}

TEST(OutputGrid, StopModeServesFixedStepMethods) {
  LogisticAndLinear system;
  ErkWorkspace ws(erk::tableau(TableauId::rk4), 2, 1);
  ErkSettings settings;
  settings.h_fixed = 0.01;
  ErkEngine engine(system, ws, settings);
  double x0[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, 1.0);
  ErkSteppedSolution solution(engine);
  const std::vector<double> times{0.333, 1.0};
  std::vector<double> X(4);
  reach_outputs(solution, times.data(), times.size(), OutputGridSettings{true}, X.data());
  EXPECT_EQ(engine.t(), 1.0);
  double exact[2];
  LogisticAndLinear::exact(0.333, exact);
  EXPECT_NEAR(X[0], exact[0], 1e-9);
}

TEST(OutputGrid, OutputAtT0IsX0) {
  for (bool stop : {false, true}) {
    const GridRun run = solve_on_grid(TableauId::dop853, {0.5, 0.5, 2.0}, stop, 0.5);
    double x0[2];
    LogisticAndLinear::exact(0.5, x0);
    EXPECT_EQ(run.X[0], x0[0]);
    EXPECT_EQ(run.X[1], x0[1]);
    EXPECT_EQ(run.X[2], x0[0]);
  }
}

TEST(OutputGrid, BackwardGridWorks) {
  const std::vector<double> times{3.0, 2.0, 0.5, 0.0};
  const GridRun run = solve_on_grid(TableauId::dopri5, times, false, 3.0);
  for (std::size_t k = 0; k < times.size(); ++k) {
    double exact[2];
    LogisticAndLinear::exact(times[k], exact);
    EXPECT_NEAR(run.X[2 * k + 1], exact[1], 1e-7) << "t = " << times[k];
  }
}

// A stepper that, like CVODES in one-step mode, steps past the limit: x = e^t
// on a fixed grid of 0.3, read exactly in between.
class OvershootingExponential final : public SteppedSolution {
 public:
  std::size_t size() const override { return 1; }
  double t() const override { return t_; }
  const double* x() const override { return &x_; }
  void step(double) override {
    t_ += 0.3;
    x_ = std::exp(t_);
    ++steps;
  }
  void interpolate(double t, double* out) override {
    EXPECT_GE(t, t_ - 0.3 - 1e-15);
    out[0] = std::exp(t);
  }
  long steps = 0;

 private:
  double t_ = 0.0, x_ = 1.0;
};

// Outputs reached one call at a time with the direction given: an output
// the solver has already stepped past comes from the last step (a
// regression: inferring the direction from such an output made the grid
// step on forever).
TEST(OutputGrid, OneCallPerOutputReadsOutputsTheSolverSteppedPast) {
  OvershootingExponential solver;
  OutputGridSettings grid;
  grid.direction = +1;
  const std::vector<double> times{0.0, 0.1, 0.2, 0.25, 0.7, 0.75, 1.0};
  for (double t : times) {
    double x = 0.0;
    reach_outputs(solver, &t, 1, grid, &x);
    EXPECT_DOUBLE_EQ(x, std::exp(t)) << t;
  }
  EXPECT_EQ(solver.steps, 4);  // 0.3, 0.6, 0.9, 1.2
}

TEST(OutputGrid, NonMonotoneTimesAreInvalid) {
  try {
    solve_on_grid(TableauId::dopri5, {0.0, 2.0, 1.0, 3.0}, false);
    FAIL() << "non-monotone output times accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
  }
}

}  // namespace
}  // namespace odesens::integrate
