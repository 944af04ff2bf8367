// The 20 PEtab v1 conformance cases (../shared/petab/test-suite): the
// log-likelihood, chi2 and every simulation at the nominal parameters
// within each case's tolerances (its _NNNN_solution.yaml).
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "estimate/petab_test_support.hpp"
#include "odesens/petab.hpp"

namespace odesens {
namespace {

class Conformance : public ::testing::TestWithParam<int> {};

std::string case_id(int n) {
  char id[8];
  std::snprintf(id, sizeof id, "%04d", n);
  return id;
}

TEST_P(Conformance, LikelihoodChi2AndSimulationsMatchTheSolution) {
  const std::string id = case_id(GetParam());
  const std::string yaml = test::conformance_case(id);
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab test suite not found: " << yaml;
  const std::string folder = yaml.substr(0, yaml.rfind('/') + 1);
  const YAML::Node solution = YAML::LoadFile(folder + "_" + id + "_solution.yaml");

  auto problem = PetabProblem::load(yaml);
  PetabOptions options;
  options.rtol = 1e-10;
  options.atol = {1e-12};
  const PetabResult r = problem->evaluate(problem->nominal_scaled(), options);

  EXPECT_NEAR(r.llh, solution["llh"].as<double>(), solution["tol_llh"].as<double>());
  EXPECT_NEAR(r.chi2, solution["chi2"].as<double>(), solution["tol_chi2"].as<double>());
  const double tol = solution["tol_simulations"].as<double>();
  const auto table = test::read_tsv(folder + solution["simulation_files"][0].as<std::string>());
  std::size_t column = 0;
  while (table[0][column] != "simulation") ++column;
  ASSERT_EQ(table.size() - 1, r.simulations.size());
  for (std::size_t i = 1; i < table.size(); ++i)
    EXPECT_NEAR(r.simulations[i - 1], std::stod(table[i][column]), tol) << "row " << i + 1;
}

// Hierarchical evaluation on every case: the inner optimum never raises
// nllh above the nominal point's, and the point it reports, evaluated
// plainly, gives its value.
TEST_P(Conformance, HierarchicalEvaluationLowersNllhAndReportsItsPoint) {
  const std::string yaml = test::conformance_case(case_id(GetParam()));
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab test suite not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  PetabOptions options;
  options.rtol = 1e-10;
  options.atol = {1e-12};
  const PetabResult plain = problem->evaluate(problem->nominal_scaled(), options);
  options.hierarchical = true;
  const PetabResult h = problem->evaluate(problem->nominal_scaled(), options);
  const double tol = 1e-9 * (1.0 + std::abs(plain.nllh));
  EXPECT_LE(h.nllh, plain.nllh + tol);
  if (problem->inner_parameters().empty()) {
    EXPECT_EQ(h.point, problem->nominal_scaled());
  }
  options.hierarchical = false;
  EXPECT_NEAR(problem->evaluate(h.point, options).nllh, h.nllh, tol);
}

INSTANTIATE_TEST_SUITE_P(PetabV1, Conformance, ::testing::Range(1, 21),
                         [](const auto& param_info) { return "case" + case_id(param_info.param); });

}  // namespace
}  // namespace odesens
