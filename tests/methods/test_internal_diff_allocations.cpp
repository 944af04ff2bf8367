// The step loop of internal differences allocates nothing: a bundle step,
// dense output, (11), the rescaling (12)–(13), re-perturbation and the
// engine's restart of the perturbed trajectories all work in memory sized
// before the loop (support/allocation_counter.hpp counts every operator new
// of this thread).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "methods/internal_diff/bundle_rhs.hpp"
#include "methods/internal_diff/erk_bundle_integrator.hpp"
#include "methods/internal_diff/perturbation_scale.hpp"
#include "methods/internal_diff/perturbations.hpp"
#include "methods/internal_diff/sensitivity_directions.hpp"
#include "methods/internal_diff/sensitivity_error_norm.hpp"
#include "odesens/odesens.hpp"
#include "support/allocation_counter.hpp"

namespace odesens::internal_diff {
namespace {

const char* kModel =
    "param a = 1.5\nparam b = 0.7\nstate x = 1\nstate y = 0.5\n"
    "dx/dt = a*x - x*y\ndy/dt = -b*y + x*y\n";

// Batched f of an expression model, and the point-by-point fallback of a
// built-in one.
class InternalDiffAllocations : public ::testing::TestWithParam<bool> {};

TEST_P(InternalDiffAllocations, StepsRescalingAndReperturbationAllocateNothing) {
  const std::shared_ptr<const Model> model =
      GetParam() ? std::shared_ptr<const Model>(load_ode_text(kModel, "lv.ode"))
                 : make_builtin_model("chua");
  const std::size_t nx = model->nx(), np = model->np();
  auto ws = model->make_workspace(0);
  const std::vector<double> p = model->nominal_params();
  std::vector<double> x0(nx);
  model->initial_state(p.data(), x0.data(), ws.get());
  const SensitivityDirections directions(DirectionSet::all, nx, np, {});
  const std::vector<char> read = parameters_read_by_f(*model);
  Perturbations perturbations(directions, p, read, x0.data(), Scaling::normwise,
                              internal_delta());
  const BundleShape shape{nx, directions.count()};
  std::vector<double> X(shape.size()), X_low(shape.size()), buffer(shape.size()), eta(nx);
  perturbations.seed(x0.data(), nullptr, nullptr, nullptr, X.data(), X_low.data());
  integrate::Tolerances tol;
  tol.rtol = tol.atol = 1e-10;
  SensitivityErrorNorm norm(shape, tol, {1e-6, 1e-6}, perturbations.epsilon());
  BundleRhs rhs(*model, *ws, shape, perturbations.params());
  BundleStepSettings settings;
  settings.tolerances = tol;
  settings.error_norm = &norm;
  const ErkBundleIntegratorFactory factory(integrate::erk::TableauId::dop853);
  const auto bundle = factory.make(rhs, settings);
  bundle->start(0.0, X.data(), X_low.data(), 10.0);
  bundle->step(10.0);  // first use: the model's registers
  counting = true;
  allocations = 0;
  for (int k = 0; k < 20; ++k) {
    bundle->step(10.0);
    bundle->interpolate(0.5 * (bundle->t_previous() + bundle->t()), buffer.data());
    perturbations.differentiate(bundle->x(), bundle->x_low());
    perturbations.nominal_of(bundle->x(), eta.data());
    perturbations.rescale(eta.data(), k % 2 == 0);
    perturbations.seed(eta.data(), nullptr, bundle->x(), bundle->x_low(), X.data(), X_low.data());
    bundle->replace_states(X.data(), X_low.data());
  }
  const long counted = allocations;
  counting = false;
  EXPECT_EQ(counted, 0);
  EXPECT_GT(rhs.calls(), 20 * 12);
}

INSTANTIATE_TEST_SUITE_P(Models, InternalDiffAllocations, ::testing::Bool(),
                         [](const auto& p) { return p.param ? "batched" : "point_by_point"; });

}  // namespace
}  // namespace odesens::internal_diff
