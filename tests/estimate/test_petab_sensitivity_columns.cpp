// PEtab solves carry S only for the model parameters that estimated ones
// set (estimate/petab_experiment.cpp, model/parameter_subset.hpp): the
// subset models are kept per set of held values, and the gradient and FIM
// stay exact where no estimated parameter acts on the dynamics at all.
#include <cmath>
#include <gtest/gtest.h>

#include "estimate/petab_experiment.hpp"
#include "estimate/petab_test_support.hpp"
#include "estimate/prepared_solves.hpp"
#include "sources/petab/petab_problem.hpp"
#include "sources/petab_temp_problem.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "estimate/two_state_petab_problem.hpp"
#include "odesens/builtin_models.hpp"
#include "odesens/petab.hpp"

namespace odesens {
namespace {

using test::TwoStateProblem;
using test::tight_two_state;

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

TEST(PetabSensitivityColumns, GradientWithHeldParametersAndPreequilibration) {
  const TwoStateProblem files;
  auto problem = PetabProblem::load(files.yaml());
  ASSERT_EQ(problem->parameter_ids(), (std::vector<std::string>{"kc", "scale"}));
  const std::vector<double> x = {std::log10(0.55), 1.6};
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "odesd"}) {
    SCOPED_TRACE(method);
    PetabOptions options = tight_two_state(method);
    options.gradient = true;
    const PetabResult r = problem->evaluate(x, options);
    ASSERT_EQ(r.gradient.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      const double fd = test::central_difference(*problem, x, i, 1e-5, tight_two_state(method));
      EXPECT_NEAR(r.gradient[i], fd, 1e-6 * (1.0 + std::abs(fd)))
          << "d/d " << problem->parameter_ids()[i];
    }
  }
}

// The experiments' S: the columns of the held parameters are zero (not
// solved for), that of k1 where kc sets it is the full model's.
TEST(PetabSensitivityColumns, HeldParametersGetNoColumns) {
  const TwoStateProblem files;
  auto problem = PetabProblem::load(files.yaml());
  const petab::Definition& def = problem->definition();
  const std::vector<std::string>& names = def.dynamics->param_names();
  auto index = [&](const std::string& id) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), id) - names.begin());
  };
  const std::size_t nx = def.dynamics->nx(), np = def.n_sbml_params;
  ASSERT_EQ(np, 3u);
  const std::size_t k1 = index("k1"), k2 = index("k2"), u = index("u");
  ASSERT_LT(std::max({k1, k2, u}), np);
  const std::vector<double> theta = petab::table_values(def, problem->nominal_scaled());
  PetabOptions options = tight_two_state("cvodes_fsa");
  petab::PreparedSolves solves;
  for (const petab::Experiment& e : def.experiments) {
    const std::string& id = def.conditions[e.simulation].id;
    SCOPED_TRACE(id + (e.preequilibration >= 0 ? " after pre-equilibration" : ""));
    const petab::ExperimentSolution sol =
        petab::solve_experiment(solves, def, e, theta, options, true);
    ASSERT_EQ(sol.S.size(), sol.times.size() * nx * np);
    // The full model's S at the experiment's parameters (no pre-equilibration).
    Problem full;
    full.model = def.dynamics;
    full.params = std::vector<double>(sol.params.begin(),
                                      sol.params.begin() + static_cast<std::ptrdiff_t>(np));
    full.output_times = sol.times;
    full.rtol = 1e-11;
    full.atol = {1e-13};
    const Result reference = solve(full, "cvodes_fsa");
    double moved_k2 = 0.0;
    for (std::size_t k = 0; k < sol.times.size(); ++k)
      for (std::size_t i = 0; i < nx; ++i) {
        const std::size_t at = k * nx * np + i;
        EXPECT_EQ(sol.S[at + k2 * nx], 0.0);
        EXPECT_EQ(sol.S[at + u * nx], 0.0);
        moved_k2 = std::max(moved_k2, std::abs(reference.s[at + k2 * nx]));
        if (id == "c0") {
          EXPECT_EQ(sol.S[at + k1 * nx], 0.0);
        } else if (e.preequilibration < 0) {
          EXPECT_NEAR(sol.S[at + k1 * nx], reference.s[at + k1 * nx], 1e-8);
        }
      }
    EXPECT_GT(moved_k2, 1e-3);  // the full model's k2 column is not zero
    if (e.steady_state_measured) {
      ASSERT_EQ(sol.S_steady.size(), nx * np);
      // A* = u / k1, B* = u / k2: dA*/dk1 = -u / k1^2, the held k2's none.
      EXPECT_NEAR(sol.S_steady[0 + k1 * nx], -0.1 / (0.4 * 0.4), 1e-7);
      EXPECT_EQ(sol.S_steady[1 + k2 * nx], 0.0);
      EXPECT_EQ(sol.S_steady[0 + u * nx], 0.0);
    }
  }
  EXPECT_EQ(solves.subset_models(), 3u);  // c0, c1, cp: three sets of held values
  // States alone need no subset models.
  petab::PreparedSolves states_only;
  for (const petab::Experiment& e : def.experiments)
    petab::solve_experiment(states_only, def, e, theta, options, false);
  EXPECT_EQ(states_only.subset_models(), 0u);
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
  EXPECT_EQ(b->nominal_params(), (std::vector<double>{values[2], values[0]}));
  EXPECT_NE(solves.subset_model(full, {0, 2}, values), a);  // another order
  EXPECT_EQ(solves.subset_model(full, free, values), a);
}

}  // namespace
}  // namespace odesens
