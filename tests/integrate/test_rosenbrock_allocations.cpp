// The Rosenbrock step loop allocates nothing: the workspace is sized once,
// the model's Workspace has grown in a first solve, and KLU refactors in
// place. Counts every operator new of this thread between two points
// (support/allocation_counter.hpp) and SuiteSparse's own allocations.
#include <gtest/gtest.h>

#include <klu.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "expr/expr_test_support.hpp"
#include "integrate/implicit/model_rosenbrock_system.hpp"
#include "integrate/implicit/rosenbrock_engine.hpp"
#include "odesens/odesens.hpp"
#include "rosenbrock_test_problems.hpp"
#include "support/allocation_counter.hpp"

namespace {
long suitesparse_allocations = 0;
void* counting_malloc(std::size_t n) {
  ++suitesparse_allocations;
  return std::malloc(n);
}
void* counting_calloc(std::size_t n, std::size_t size) {
  ++suitesparse_allocations;
  return std::calloc(n, size);
}
void* counting_realloc(void* p, std::size_t n) {
  ++suitesparse_allocations;
  return std::realloc(p, n);
}

struct SuiteSparseAllocationCounter {
  SuiteSparseAllocationCounter() {
    saved = SuiteSparse_config;
    SuiteSparse_config.malloc_func = counting_malloc;
    SuiteSparse_config.calloc_func = counting_calloc;
    SuiteSparse_config.realloc_func = counting_realloc;
    suitesparse_allocations = 0;
  }
  ~SuiteSparseAllocationCounter() { SuiteSparse_config = saved; }
  SuiteSparse_config_struct saved;
};
}  // namespace

namespace odesens::integrate {
namespace {

using testing::RiccatiSystem;

class RosenbrockAllocations : public ::testing::TestWithParam<RosenbrockJacobian> {};

// Reset (the starting step included) and adaptive steps with three lanes.
TEST_P(RosenbrockAllocations, HandWrittenSystemStepsAllocateNothing) {
  const std::size_t lanes = 3;
  RiccatiSystem system(lanes);
  RosenbrockWorkspace ws(grk4a(), 2, lanes, nullptr);
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
  settings.jacobian = GetParam();
  RosenbrockEngine engine(system, ws, settings);
  const double x0[2 * lanes] = {1.0, 1.0 + 1e-7, 1.0 - 1e-7, 0.0, 0.0, 0.0};
  engine.reset(0.0, x0, 3.0);
  engine.integrate_to(1.0);  // warm: LAPACK's first calls may set themselves up

  allocations = 0;
  counting = true;
  engine.reset(0.0, x0, 3.0);
  engine.integrate_to(2.0);
  const double moved[2] = {engine.x()[0], engine.x()[lanes]};
  engine.set_lane_state(1, moved);
  engine.integrate_to(3.0);
  const long counted = allocations;
  counting = false;
  EXPECT_EQ(counted, 0);
  EXPECT_GT(engine.stats().accepted, 10);
}

// E3 through ModelRosenbrockSystem: batched f, the model's J, jvp and df/dt,
// all with the caller's model workspace.
TEST_P(RosenbrockAllocations, ModelSystemStepsAllocateNothing) {
  ODESENS_REQUIRE_SHARED_MODEL("stiff_e3.ode");
  const auto model = load_ode_file(expr_testing::ode_model_path("stiff_e3.ode"));
  const std::size_t n = model->nx(), np = model->np(), lanes = 1 + np;
  const std::vector<double> p = model->nominal_params();
  std::vector<double> params(np * lanes), x0(n), X0(n * lanes);
  for (std::size_t l = 0; l < lanes; ++l)
    for (std::size_t j = 0; j < np; ++j)
      params[l * np + j] = p[j] * (l == j + 1 ? 1 + 1e-7 : 1.0);
  model->initial_state(p.data(), x0.data());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < lanes; ++l) X0[i * lanes + l] = x0[i];
  auto mws = model->make_workspace();
  ModelRosenbrockSystem system(*model, lanes, params.data(), *mws);
  RosenbrockWorkspace ws(grk4a(), n, lanes, system.jacobian_pattern());
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-7;
  settings.h0 = 0.02;
  settings.jacobian = GetParam();
  RosenbrockEngine engine(system, ws, settings);
  engine.reset(0.0, X0.data(), 50.0);
  engine.integrate_to(50.0);  // warm: the model's workspace grows here

  allocations = 0;
  counting = true;
  engine.reset(0.0, X0.data(), 50.0);
  engine.integrate_to(50.0);
  const long counted = allocations;
  counting = false;
  EXPECT_EQ(counted, 0);
  EXPECT_GT(engine.stats().accepted, 10);
}

INSTANTIATE_TEST_SUITE_P(Modes, RosenbrockAllocations,
                         ::testing::Values(RosenbrockJacobian::frozen,
                                           RosenbrockJacobian::corrected),
                         [](const auto& p) {
                           return std::string(p.param == RosenbrockJacobian::frozen
                                                  ? "frozen"
                                                  : "corrected");
                         });

// A large sparse model on KLU: after the first solve, every step attempt
// refactors in place.
TEST(RosenbrockAllocationsKlu, SparseStepsAllocateNothing) {
  auto model = make_builtin_model("network:150");
  const std::size_t n = model->nx(), np = model->np(), lanes = 3;
  const std::vector<double> p = model->nominal_params();
  std::vector<double> params(np * lanes), x0(n), X0(n * lanes);
  for (std::size_t l = 0; l < lanes; ++l)
    for (std::size_t j = 0; j < np; ++j) params[l * np + j] = p[j] * (l == 1 && j == 0 ? 1 + 1e-7 : 1.0);
  model->initial_state(p.data(), x0.data());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < lanes; ++l) X0[i * lanes + l] = x0[i];
  auto mws = model->make_workspace();
  ModelRosenbrockSystem system(*model, lanes, params.data(), *mws);
  SuiteSparseAllocationCounter suitesparse;
  RosenbrockWorkspace ws(grk4a(), n, lanes, system.jacobian_pattern());
  RosenbrockSettings settings;
  settings.tolerances.rtol = 1e-6;
  settings.tolerances.atol = 1e-9;
  RosenbrockEngine engine(system, ws, settings);
  ASSERT_EQ(engine.backend(), NewtonBackendKind::klu);
  engine.reset(0.0, X0.data(), 2.0);
  engine.integrate_to(1.0);  // warm: KLU's first numeric factorization allocates

  allocations = 0;
  suitesparse_allocations = 0;
  counting = true;
  engine.integrate_to(2.0);
  const long counted = allocations;
  counting = false;
  EXPECT_EQ(counted, 0);
  EXPECT_EQ(suitesparse_allocations, 0);
  EXPECT_EQ(engine.newton_stats().refactor_fallbacks, 0u);
  EXPECT_GT(engine.stats().accepted, 5);
}

}  // namespace
}  // namespace odesens::integrate
