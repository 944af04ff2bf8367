// Problems of the PEtab benchmark collection (../shared/petab/benchmark):
// the log-likelihood at the nominal parameters against the published
// reference values (AMICI's benchmark_models.yaml), with AMICI's test
// criterion |llh - ref| <= 1e-3 + 1e-3 |ref|, at the default tolerances.
#include "estimate/petab_test_support.hpp"
#include "odesens/petab.hpp"

namespace odesens {
namespace {

struct Reference {
  const char* name;
  double llh;
};

// AMICI, tests/benchmark-models/benchmark_models.yaml.
const Reference kReferences[] = {
    {"Bachmann_MSB2011", 418.40573341425295},
    {"Beer_MolBioSystems2014", 58622.9145631413},
    {"Boehm_JProteomeRes2014", -138.22199693517703},
    {"Brannmark_JBC2010", -141.889113770537},
    {"Bruno_JExpBot2016", 46.688176988431806},
    {"Crauste_CellSystems2017", -190.96521897435176},
    {"Elowitz_Nature2000", 63.20279991419332},
    {"Lucarelli_CellSystems2018", -1681.6059879426584},
    {"Schwen_PONE2014", -943.9992988598723},
    {"Weber_BMC2015", -296.2017922646865},
    {"Zheng_PNAS2012", 278.33353271001477},
};

class BenchmarkLikelihood : public ::testing::TestWithParam<Reference> {};

TEST_P(BenchmarkLikelihood, MatchesThePublishedValueAtNominalParameters) {
  const Reference ref = GetParam();
  const std::string yaml = test::benchmark_problem(ref.name);
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab benchmark problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  PetabOptions options;  // the default tolerances
  options.threads = 2;
  const PetabResult r = problem->evaluate(problem->nominal_scaled(), options);
  EXPECT_NEAR(r.llh, ref.llh, 1e-3 + 1e-3 * std::abs(ref.llh)) << ref.name;
}

INSTANTIATE_TEST_SUITE_P(Collection, BenchmarkLikelihood, ::testing::ValuesIn(kReferences),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace odesens
