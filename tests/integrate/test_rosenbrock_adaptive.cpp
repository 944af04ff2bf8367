// Adaptive Rosenbrock solves: STIFF DETEST E3 meets its tolerance against
// CVODES, dense LU and KLU take the same steps on a large sparse model, a
// method's error norm decides the steps, steps land on their limit, lanes
// can be overwritten between steps, and a step costs one J, one LU and
// three f.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "expr/expr_test_support.hpp"
#include "integrate/implicit/model_rosenbrock_system.hpp"
#include "integrate/implicit/rosenbrock_engine.hpp"
#include "odesens/odesens.hpp"
#include "rosenbrock_test_problems.hpp"

namespace odesens::integrate {
namespace {

using testing::DiagonalSystem;
using testing::RiccatiSystem;
using testing::status_of;

// ---- STIFF DETEST E3 -------------------------------------------------------

// x(500) of E3 from CVODES at rtol 1e-12.
std::vector<double> e3_reference(const std::shared_ptr<const Model>& model) {
  Problem problem;
  problem.model = model;
  problem.output_times = {500.0};
  problem.rtol = 1e-12;
  problem.atol = {1e-14};
  problem.max_steps = 1000000;
  problem.options.set("sensitivities", 0);
  return solve(problem, "cvodes_fsa").x;
}

// E3 on [0, 500] from h0 = 0.02 (the paper's §4.2) at rtol = atol = tol,
// the nominal and np lanes with one parameter each moved by 1e-6 relative.
// Returns the nominal's largest error in units of the tolerance.
double e3_error_in_tolerances(const std::shared_ptr<const Model>& model,
                              const std::vector<double>& reference, double tol,
                              std::size_t lanes, RosenbrockJacobian mode,
                              RosenbrockStats* stats) {
  const std::size_t n = model->nx(), np = model->np();
  const std::vector<double> p = model->nominal_params();
  std::vector<double> params(np * lanes);
  for (std::size_t l = 0; l < lanes; ++l) {
    std::copy(p.begin(), p.end(), params.begin() + static_cast<std::ptrdiff_t>(l * np));
    if (l > 0) params[l * np + (l - 1) % np] *= 1 + 1e-6;
  }
  auto mws = model->make_workspace();
  ModelRosenbrockSystem system(*model, lanes, params.data(), *mws);
  RosenbrockWorkspace ws(grk4a(), n, lanes, system.jacobian_pattern());
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = tol;
  settings.h0 = 0.02;
  settings.jacobian = mode;
  RosenbrockEngine engine(system, ws, settings);
  std::vector<double> x0(n), X0(n * lanes);
  model->initial_state(p.data(), x0.data());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < lanes; ++l) X0[i * lanes + l] = x0[i];
  engine.reset(0.0, X0.data(), 500.0);
  engine.integrate_to(500.0);
  if (stats) *stats = engine.stats();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = std::fabs(engine.x()[i * lanes] - reference[i]);
    worst = std::max(worst, e / (tol + tol * std::fabs(reference[i])));
  }
  return worst;
}

TEST(RosenbrockAdaptive, StiffDetestE3MeetsTheToleranceAgainstCvodes) {
  ODESENS_REQUIRE_SHARED_MODEL("stiff_e3.ode");
  const std::shared_ptr<const Model> model =
      load_ode_file(expr_testing::ode_model_path("stiff_e3.ode"));
  const std::vector<double> reference = e3_reference(model);
  for (double tol : {1e-5, 1e-7, 1e-9}) {
    RosenbrockStats alone, frozen, corrected;
    const double e1 = e3_error_in_tolerances(model, reference, tol, 1,
                                             RosenbrockJacobian::corrected, &alone);
    const double ef = e3_error_in_tolerances(model, reference, tol, 5,
                                             RosenbrockJacobian::frozen, &frozen);
    const double ec = e3_error_in_tolerances(model, reference, tol, 5,
                                             RosenbrockJacobian::corrected, &corrected);
    std::printf("tol %.0e: error/tol %.2f (%ld steps), frozen lanes %.2f (%ld), corrected "
                "lanes %.2f (%ld)\n",
                tol, e1, alone.accepted, ef, frozen.accepted, ec, corrected.accepted);
    EXPECT_LT(e1, 10.0) << "tol " << tol;
    EXPECT_LT(ef, 10.0) << "tol " << tol;
    EXPECT_LT(ec, 10.0) << "tol " << tol;
    EXPECT_GT(alone.accepted, 10);
  }
}

// ---- dense LU and KLU ----------------------------------------------------------

struct BackendRun {
  RosenbrockStats stats;
  NewtonMatrixStats newton;
  NewtonBackendKind backend;
  std::vector<double> x;
};

// network:150 (sparse J) with three lanes over [0, 5].
BackendRun network_run(NewtonBackendKind kind) {
  auto model = make_builtin_model("network:150");
  const std::size_t n = model->nx(), np = model->np(), lanes = 3;
  const std::vector<double> p = model->nominal_params();
  std::vector<double> params(np * lanes);
  for (std::size_t l = 0; l < lanes; ++l)
    std::copy(p.begin(), p.end(), params.begin() + static_cast<std::ptrdiff_t>(l * np));
  params[np + 3] *= 1 + 1e-7;
  params[2 * np + 10] *= 1 - 1e-7;
  auto mws = model->make_workspace();
  ModelRosenbrockSystem system(*model, lanes, params.data(), *mws);
  NewtonMatrixOptions newton;
  newton.backend = kind;
  RosenbrockWorkspace ws(grk4a(), n, lanes, system.jacobian_pattern(), newton);
  RosenbrockSettings settings;
  settings.tolerances.rtol = 1e-6;
  settings.tolerances.atol = 1e-9;
  RosenbrockEngine engine(system, ws, settings);
  std::vector<double> x0(n), X0(n * lanes);
  model->initial_state(p.data(), x0.data());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < lanes; ++l) X0[i * lanes + l] = x0[i];
  engine.reset(0.0, X0.data(), 5.0);
  engine.integrate_to(5.0);
  return {engine.stats(), engine.newton_stats(), engine.backend(),
          std::vector<double>(engine.x(), engine.x() + n * lanes)};
}

TEST(RosenbrockAdaptive, DenseLuAndKluTakeTheSameSteps) {
  const BackendRun dense = network_run(NewtonBackendKind::dense_lu);
  const BackendRun klu = network_run(NewtonBackendKind::klu);
  const BackendRun automatic = network_run(NewtonBackendKind::automatic);
  EXPECT_EQ(dense.backend, NewtonBackendKind::dense_lu);
  EXPECT_EQ(klu.backend, NewtonBackendKind::klu);
  EXPECT_EQ(automatic.backend, NewtonBackendKind::klu);  // n = 150 above the threshold
  EXPECT_EQ(klu.stats.accepted, dense.stats.accepted);
  EXPECT_EQ(klu.stats.rejected, dense.stats.rejected);
  EXPECT_GT(dense.stats.accepted, 5);
  double scale = 0, diff = 0;
  for (std::size_t k = 0; k < dense.x.size(); ++k) {
    scale = std::max(scale, std::fabs(dense.x[k]));
    diff = std::max(diff, std::fabs(klu.x[k] - dense.x[k]));
  }
  EXPECT_LT(diff, 1e-10 * scale);
  // One symbolic analysis, one LU a step attempt, three f a step.
  EXPECT_EQ(klu.newton.symbolic_analyses, 1u);
  EXPECT_EQ(static_cast<long>(klu.newton.factorizations + klu.newton.refactorizations -
                              klu.newton.refactor_fallbacks),
            klu.stats.steps);
  EXPECT_EQ(static_cast<long>(dense.newton.factorizations), dense.stats.steps);
  std::printf("network:150: %ld steps (%ld rejected), KLU nnz(M) %zu, nnz(L+U) %zu\n",
              klu.stats.accepted, klu.stats.rejected, klu.newton.nnz_matrix,
              klu.newton.nnz_factors);
}

// ---- costs -----------------------------------------------------------------

TEST(RosenbrockAdaptive, AStepCostsOneJacobianOneLuAndThreeF) {
  for (RosenbrockJacobian mode : {RosenbrockJacobian::frozen, RosenbrockJacobian::corrected}) {
    const std::size_t lanes = 4;
    RiccatiSystem system(lanes);
    RosenbrockWorkspace ws(grk4a(), 2, lanes, nullptr);
    RosenbrockSettings settings;
    settings.h_fixed = 0.05;
    settings.jacobian = mode;
    RosenbrockEngine engine(system, ws, settings);
    std::vector<double> x0(2 * lanes, 0.5);
    engine.reset(0.0, x0.data(), 1.0);
    engine.integrate_to(1.0);
    const long steps = engine.stats().accepted;
    EXPECT_EQ(steps, 20);
    EXPECT_EQ(engine.stats().rhs_evaluations, 3 * steps);
    EXPECT_EQ(engine.stats().jacobian_evaluations, steps);
    EXPECT_EQ(engine.stats().dfdt_evaluations, steps);
    EXPECT_EQ(static_cast<long>(engine.newton_stats().factorizations), steps);
    const bool corrected = mode == RosenbrockJacobian::corrected;
    EXPECT_EQ(engine.stats().jvp_evaluations,
              corrected ? 4 * static_cast<long>(lanes - 1) * steps : 0);
    // frozen: one solve of all lanes a stage; corrected: the nominal, then the others.
    EXPECT_EQ(static_cast<long>(engine.newton_stats().solves), (corrected ? 8 : 4) * steps);
    EXPECT_EQ(static_cast<long>(engine.newton_stats().solved_columns),
              4 * static_cast<long>(lanes) * steps);
  }
}

// A constant J is evaluated once, and with fixed steps its LU is kept.
TEST(RosenbrockAdaptive, ConstantJacobianKeepsItsLuWhileHStaysTheSame) {
  DiagonalSystem system({-1.0, -100.0});
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  RosenbrockSettings settings;
  settings.h_fixed = 0.125;  // exact in binary: every step has the same h
  RosenbrockEngine engine(system, ws, settings);
  const double x0[2] = {1.0, 1.0};
  engine.reset(0.0, x0, 1.0);
  engine.integrate_to(1.0);
  EXPECT_EQ(engine.stats().accepted, 8);
  EXPECT_EQ(engine.stats().jacobian_evaluations, 1);
  EXPECT_EQ(engine.newton_stats().factorizations, 1u);
  EXPECT_NEAR(engine.x()[0], std::exp(-1.0), 1e-4);
}

// ---- the method's hooks -----------------------------------------------------

// Recomputes the engine's own norm (scale 1) or asks for more (scale > 1).
class WrmsNorm final : public StepErrorNorm {
 public:
  WrmsNorm(const Tolerances& tol, double scale) : tol_(tol), scale_(scale) {}
  double norm(const StepErrorEstimate& e) override {
    ++calls;
    if (e.err_low) ++with_low;
    std::vector<double> w(e.n * e.lanes);
    error_weights(tol_, e.n, e.lanes, e.x_old, e.x_new, w.data());
    return scale_ * weighted_rms_norm(e.n, e.lanes, e.err, w.data());
  }
  long calls = 0, with_low = 0;

 private:
  Tolerances tol_;
  double scale_;
};

TEST(RosenbrockAdaptive, AMethodsErrorNormDecidesTheSteps) {
  Tolerances tol;
  tol.rtol = tol.atol = 1e-8;
  auto run = [&](StepErrorNorm* norm, RosenbrockStats* stats) {
    RiccatiSystem system(2);
    RosenbrockWorkspace ws(grk4a(), 2, 2, nullptr);
    RosenbrockSettings settings;
    settings.tolerances = tol;
    settings.error_norm = norm;
    RosenbrockEngine engine(system, ws, settings);
    const double x0[4] = {1.0, 0.9, 0.0, 0.0};
    engine.reset(0.0, x0, 3.0);
    engine.integrate_to(3.0);
    *stats = engine.stats();
    return std::vector<double>(engine.x(), engine.x() + 4);
  };
  RosenbrockStats base, same, strict;
  const auto x_base = run(nullptr, &base);
  WrmsNorm copy(tol, 1.0), demanding(tol, 100.0);
  const auto x_same = run(&copy, &same);
  run(&demanding, &strict);
  EXPECT_EQ(same.accepted, base.accepted);
  EXPECT_EQ(same.rejected, base.rejected);
  EXPECT_EQ(x_same, x_base);
  EXPECT_EQ(copy.calls, same.steps);
  EXPECT_EQ(copy.with_low, 0);
  EXPECT_GT(strict.accepted, same.accepted);
}

// Steps end on t_limit, never exceed h_max, and the observer sees each.
class StepLog final : public RosenbrockObserver {
 public:
  void on_step_accepted(double t_n, double h, const double*, const double*,
                        const double* const*) override {
    t.push_back(t_n);
    hs.push_back(h);
  }
  void on_step_rejected(double, double, double) override { ++rejected; }
  std::vector<double> t, hs;
  long rejected = 0;
};

TEST(RosenbrockAdaptive, StepsLandOnTheLimitAndRespectHMax) {
  RiccatiSystem system;
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-6;
  settings.h_max = 0.07;
  StepLog log;
  RosenbrockEngine engine(system, ws, settings, &log);
  const double x0[2] = {1.0, 0.0};
  engine.reset(0.0, x0, 2.0);
  for (double limit : {0.3, 0.31, 1.0, 2.0}) {
    while (engine.t() != limit) engine.step(limit);
    EXPECT_EQ(engine.t(), limit);
  }
  EXPECT_EQ(static_cast<long>(log.t.size()), engine.stats().accepted);
  EXPECT_EQ(log.rejected, engine.stats().rejected);
  for (double h : log.hs) EXPECT_LE(h, 0.07);
  double exact[2];
  RiccatiSystem::exact(0.0, 1.0, 0.0, 2.0, exact);
  EXPECT_NEAR(engine.x()[0], exact[0], 1e-5);
  EXPECT_NEAR(engine.x()[1], exact[1], 1e-5);
}

TEST(RosenbrockAdaptive, IntegratesBackwardInTime) {
  RiccatiSystem system;
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-9;
  RosenbrockEngine engine(system, ws, settings);
  double x1[2];
  RiccatiSystem::exact(0.0, 1.0, 0.0, 1.5, x1);
  engine.reset(1.5, x1, 0.0);
  engine.integrate_to(0.0);
  EXPECT_EQ(engine.t(), 0.0);
  EXPECT_NEAR(engine.x()[0], 1.0, 1e-7);
  EXPECT_NEAR(engine.x()[1], 0.0, 1e-7);
}

// A lane overwritten between steps continues from its new state (near the
// nominal, as perturbed lanes are meant to be: their stages are solved with
// the nominal's LU).
TEST(RosenbrockAdaptive, OverwrittenLanesContinueFromTheirNewState) {
  RiccatiSystem system(2);
  RosenbrockWorkspace ws(grk4a(), 2, 2, nullptr);
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-10;
  RosenbrockEngine engine(system, ws, settings);
  const double x0[4] = {1.0, 1.0, 0.0, 0.0};
  engine.reset(0.0, x0, 2.0);
  engine.integrate_to(1.0);
  // Lane 1 jumps onto the trajectory through x(0) = 1 + 1e-5, y(0) = 0.
  const double x0_moved = 1.0 + 1e-5;
  double other[2];
  RiccatiSystem::exact(0.0, x0_moved, 0.0, 1.0, other);
  engine.set_lane_state(1, other);
  std::vector<double> lane(2);
  engine.copy_lane_state(1, lane.data());
  EXPECT_EQ(lane[0], other[0]);
  EXPECT_EQ(lane[1], other[1]);
  engine.integrate_to(2.0);
  double nominal[2], moved[2];
  RiccatiSystem::exact(0.0, 1.0, 0.0, 2.0, nominal);
  RiccatiSystem::exact(0.0, x0_moved, 0.0, 2.0, moved);
  EXPECT_NEAR(engine.x()[0], nominal[0], 1e-9);
  EXPECT_NEAR(engine.x()[2], nominal[1], 1e-9);
  EXPECT_NEAR(engine.x()[1], moved[0], 1e-9);
  EXPECT_NEAR(engine.x()[3], moved[1], 1e-9);
  EXPECT_GT(std::fabs(moved[1] - nominal[1]), 1e-6);
}

// Overwriting from inside an observer call is refused.
class OverwritingObserver final : public RosenbrockObserver {
 public:
  RosenbrockEngine* engine = nullptr;
  void on_step_accepted(double, double, const double* x_n, const double*,
                        const double* const*) override {
    const double x[2] = {x_n[0], x_n[1]};
    engine->set_lane_state(0, x);
  }
};

TEST(RosenbrockAdaptive, LanesAreNotOverwrittenFromAnObserver) {
  RiccatiSystem system;
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  OverwritingObserver observer;
  RosenbrockEngine engine(system, ws, RosenbrockSettings{}, &observer);
  observer.engine = &engine;
  const double x0[2] = {1.0, 0.0};
  engine.reset(0.0, x0, 1.0);
  std::string message;
  EXPECT_EQ(status_of([&] { engine.step(1.0); }, &message), Status::invalid_argument);
  EXPECT_NE(message.find("observer"), std::string::npos) << message;
}

// Parameters changed right after reset (where f at t0 is already evaluated
// for the starting step): system_changed() makes the engine evaluate f
// again, and the solution follows the new parameters.
TEST(RosenbrockAdaptive, SystemChangedDropsWhatWasEvaluatedAtTheCurrentPoint) {
  const auto model = load_ode_text("param a = 1\nstate x = 1\ndx/dt = -a*x\n", "decay.ode");
  auto mws = model->make_workspace();
  for (bool tell : {true, false}) {
    const double one = 1.0, two = 2.0;
    ModelRosenbrockSystem system(*model, 1, &one, *mws);
    RosenbrockWorkspace ws(grk4a(), 1, 1, system.jacobian_pattern());
    RosenbrockSettings settings;
    settings.tolerances.rtol = settings.tolerances.atol = 1e-10;
    RosenbrockEngine engine(system, ws, settings);
    const double x0 = 1.0;
    engine.reset(0.0, &x0, 1.0);  // f(0, x0) and one more f for the starting step
    EXPECT_EQ(engine.stats().rhs_evaluations, 2);
    system.set_lane_params(0, &two);
    if (tell) engine.system_changed();
    engine.step(1.0);
    // Two f a step attempt, and f(0, x0) again only when told.
    EXPECT_EQ(engine.stats().rhs_evaluations, 2 + 2 * engine.stats().steps + (tell ? 1 : 0));
    if (!tell) continue;
    engine.integrate_to(1.0);
    EXPECT_NEAR(engine.x()[0], std::exp(-2.0), 1e-8);
  }
}

}  // namespace
}  // namespace odesens::integrate
