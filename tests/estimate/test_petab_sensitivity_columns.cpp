// PEtab solves carry S only for the model parameters that estimated ones
// set (estimate/petab_experiment.cpp, model/parameter_subset.hpp): the
// subset models are kept per set of held values, and the gradient and FIM
// stay exact where no estimated parameter acts on the dynamics at all.
#include <cmath>
#include <gtest/gtest.h>

#include "estimate/petab_test_support.hpp"
#include "estimate/prepared_solves.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "odesens/builtin_models.hpp"
#include "odesens/petab.hpp"

namespace odesens {
namespace {

// The synthetic decay with k1 held (A = exp(-k1 t) exactly) and scale
// estimated: d nllh / d scale and the FIM entry sum (A / sd)^2.
TEST(PetabSensitivityColumns, NoEstimatedParameterOnTheDynamics) {
  test::SyntheticOptions o;
  o.k1_estimated = false;
  o.k1_nominal = 0.4;
  test::SyntheticProblem files(o);
  auto problem = PetabProblem::load(files.yaml());
  ASSERT_EQ(problem->parameter_ids(), (std::vector<std::string>{"scale"}));
  const double scale = 1.7;
  double d_scale = 0.0, fim = 0.0;
  for (int k = 0; k <= 12; ++k) {
    const double t = 0.5 * k;
    const double y = o.scale_true * std::exp(-o.k1_true * t);
    const double a = std::exp(-o.k1_nominal * t);
    d_scale += -(y - scale * a) * a / (o.sd * o.sd);
    fim += a * a / (o.sd * o.sd);
  }
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "odesd"}) {
    SCOPED_TRACE(method);
    PetabOptions options;
    options.method = method;
    options.gradient = true;
    options.fim = std::string(method) != "cvodes_asa";
    options.rtol = 1e-10;
    const PetabResult r = problem->evaluate({scale}, options);
    ASSERT_EQ(r.gradient.size(), 1u);
    EXPECT_NEAR(r.gradient[0], d_scale, 1e-6 * std::abs(d_scale));
    if (options.fim) {
      ASSERT_EQ(r.fim.size(), 1u);
      EXPECT_NEAR(r.fim[0], fim, 1e-6 * fim);
    }
  }
}

// One subset model per set of held values: the free values do not count.
TEST(PetabSensitivityColumns, SubsetModelsAreKeptPerHeldValues) {
  std::shared_ptr<const Model> full = make_builtin_model("glv:3");
  ASSERT_GE(full->np(), 3u);
  std::vector<double> values = full->nominal_params();
  petab::PreparedSolves solves;
  const std::vector<std::size_t> free{2, 0};
  const auto a = solves.subset_model(full, free, values);
  EXPECT_EQ(a->np(), 2u);
  std::vector<double> moved = values;
  moved[0] += 1.0;
  moved[2] -= 0.5;
  EXPECT_EQ(solves.subset_model(full, free, moved), a);
  std::vector<double> held_changed = values;
  held_changed[1] += 1.0;
  const auto b = solves.subset_model(full, free, held_changed);
  EXPECT_NE(b, a);
  EXPECT_EQ(b->nominal_params()[1], values[0]);
  EXPECT_NE(solves.subset_model(full, {0, 2}, values), a);  // another order
  EXPECT_EQ(solves.subset_model(full, free, values), a);
}

}  // namespace
}  // namespace odesens
