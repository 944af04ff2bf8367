// The 20 real models of ../shared/models/sbml (PEtab benchmark collection):
// each loads and integrates over [0, 100] with finite states, and for three
// of them S from cvodes_fsa agrees with central differences of the state
// trajectory.
#include <gtest/gtest.h>

#include <cmath>

#include "expr/expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace {

using namespace odesens;

std::string real_model_path(const std::string& name) {
  return expr_testing::shared_dir() + "/models/sbml/" + name + ".xml";
}

const std::vector<std::string>& real_models() {
  static const std::vector<std::string> names = {
      "Armistead_CellDeathDis2024", "Bachmann_MSB2011", "Beer_MolBioSystems2014",
      "Bertozzi_PNAS2020", "Boehm_JProteomeRes2014", "Brannmark_JBC2010", "Bruno_JExpBot2016",
      "Crauste_CellSystems2017", "Elowitz_Nature2000", "Laske_PLOSComputBiol2019",
      "Lucarelli_CellSystems2018", "Okuonghae_ChaosSolitonsFractals2020",
      "Oliveira_NatCommun2021", "Perelson_Science1996", "Rahman_MBS2016",
      "Raia_CancerResearch2011", "SalazarCavazos_MBoC2020", "Schwen_PONE2014", "Weber_BMC2015",
      "Zheng_PNAS2012"};
  return names;
}

#define REQUIRE_REAL_MODEL(name)                                                            \
  do {                                                                                     \
    if (!expr_testing::readable(real_model_path(name)))                                         \
      GTEST_SKIP() << "real SBML model " << real_model_path(name) << " not found (set "        \
                   << "ODESENS_SHARED_DIR)";                                               \
  } while (0)

class RealSbmlModel : public ::testing::TestWithParam<std::string> {};

TEST_P(RealSbmlModel, LoadsAndIntegratesOver0To100WithFiniteStates) {
  REQUIRE_REAL_MODEL(GetParam());
  SbmlOptions states_only;  // no sensitivities: this is about the states
  states_only.sensitivity_params = std::vector<std::string>{};
  auto m = load_sbml_file(real_model_path(GetParam()), states_only);
  EXPECT_GT(m->nx(), 0u);
  Problem problem;
  problem.model = m;
  problem.output_times = {0.0, 25.0, 50.0, 75.0, 100.0};
  problem.rtol = 1e-6;
  problem.atol = {1e-8};
  const Result r = solve(problem, "cvodes_fsa");
  ASSERT_EQ(r.x.size(), m->nx() * 5);
  for (double v : r.x) ASSERT_TRUE(std::isfinite(v)) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(All, RealSbmlModel, ::testing::ValuesIn(real_models()),
                         [](const auto& param_info) { return param_info.param; });

// S_ij(t_k) against D_ij(t_k) = (x_i(t_k; p + h e_j) - x_i(t_k; p - h e_j)) / 2h
// with h = 1e-3 |p_j|, everything at rtol 1e-12. For each parameter the
// largest |S - D| over times and states must be within 1e-4 of the largest
// |D|, plus what the differences cannot resolve: the solver's error
// (~1e-12 max|x|) divided by h, with a factor 100 to spare. For parameters
// that matter, that allowance is negligible and the check is 1e-4 relative;
// for those that barely move the states, it keeps noise from failing it.
class SensitivitiesOfRealModel : public ::testing::TestWithParam<std::string> {};

// Brannmark's insulin steps switch on at t = insulin_time_1 = 0 = t0 and
// off at insulin_time_2 = 1000, after the last output: at those nominal
// values the trajectory does not depend on them differentiably (an earlier
// start is no start at all). The test moves both switches inside the span
// and makes the second one matter, so that S in the switch times is
// checked across the jumps.
std::vector<double> parameters_for(const std::string& model, const Model& m) {
  std::vector<double> p = m.nominal_params();
  if (model != "Brannmark_JBC2010") return p;
  for (std::size_t j = 0; j < p.size(); ++j) {
    const std::string& name = m.param_names()[j];
    if (name == "insulin_time_1") p[j] = 5.0;
    if (name == "insulin_time_2") p[j] = 50.0;
    if (name == "insulin_dose_2") p[j] = 0.1;
  }
  return p;
}

TEST_P(SensitivitiesOfRealModel, AgreeWithCentralDifferencesOfTheTrajectory) {
  REQUIRE_REAL_MODEL(GetParam());
  auto m = load_sbml_file(real_model_path(GetParam()));
  const std::size_t nx = m->nx(), np = m->np();
  ASSERT_GT(np, 0u);
  Problem problem;
  problem.model = m;
  problem.output_times = {1.0, 10.0, 30.0, 100.0};
  problem.rtol = 1e-12;
  problem.atol = {1e-14};
  problem.max_steps = 1000000;
  const std::vector<double> p0 = parameters_for(GetParam(), *m);
  problem.params = p0;
  const Result fsa = solve(problem, "cvodes_fsa");
  double x_scale = 0.0;
  for (double v : fsa.x) x_scale = std::max(x_scale, std::fabs(v));
  const std::size_t nt = problem.output_times.size();
  std::size_t checked = 0;
  for (std::size_t j = 0; j < np; ++j) {
    const double h = 1e-3 * (p0[j] != 0.0 ? std::fabs(p0[j]) : 1.0);
    // The trajectories alone (no sensitivities) at p0 +- h e_j.
    Problem shifted = problem;
    shifted.options.set("sensitivities", 0);
    auto trajectory = [&](double pj) {
      shifted.params = p0;
      shifted.params[j] = pj;
      return solve(shifted, "cvodes_fsa").x;
    };
    const std::vector<double> up = trajectory(p0[j] + h), down = trajectory(p0[j] - h);
    double diff = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < nt; ++k)
      for (std::size_t i = 0; i < nx; ++i) {
        const double fd = (up[i + k * nx] - down[i + k * nx]) / (2 * h);
        diff = std::max(diff, std::fabs(fsa.s_at(k, i, j) - fd));
        scale = std::max(scale, std::fabs(fd));
      }
    const double unresolved = 100.0 * 1e-12 * x_scale / h;
    EXPECT_LE(diff, 1e-4 * scale + unresolved)
        << GetParam() << ": parameter " << m->param_names()[j] << " (max |S| " << scale << ")";
    ++checked;
  }
  EXPECT_EQ(checked, np);
}

INSTANTIATE_TEST_SUITE_P(ThreeModels, SensitivitiesOfRealModel,
                         ::testing::Values("Boehm_JProteomeRes2014", "Brannmark_JBC2010",
                                           "Zheng_PNAS2012"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
