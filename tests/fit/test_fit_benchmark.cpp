// Fits of problems of the PEtab benchmark collection (../shared): the best
// of a few starts reaches the published value at the nominal parameters
// (tests/estimate/test_petab_benchmark.cpp) or better.
#include "estimate/petab_test_support.hpp"
#include "odesens/fit.hpp"

namespace odesens {
namespace {

struct Case {
  const char* name;
  double reference_nllh;  // -llh at the nominal parameters
  std::size_t starts;
  const char* optimizer;
};

void expect_reference_reached(const Case& c) {
  const std::string yaml = test::benchmark_problem(c.name);
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab benchmark problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  FitOptions o;
  o.optimizer.optimizer = c.optimizer;
  o.starts = c.starts;
  if (const char* n = std::getenv("FIT_STARTS")) o.starts = std::stoul(n);
  if (const char* opt = std::getenv("FIT_OPTIMIZER")) o.optimizer.optimizer = opt;
  o.seed = 1;
  o.threads = 2;
  const FitResult r = fit(*problem, o);
  ASSERT_FALSE(r.starts.empty());
  const StartResult& best = r.starts[0];
  double seconds = 0.0;
  for (const StartResult& s : r.starts) {
    seconds += s.seconds;
    std::cout << "  start " << s.index << ": nllh " << s.nllh << ", " << s.iterations
              << " iterations, " << s.evaluations << " evaluations, " << s.seconds << " s, "
              << s.exit_reason << "\n";
  }
  std::cout << c.name << " " << r.optimizer << ": best nllh " << best.nllh << " (reference "
            << c.reference_nllh << "), " << r.starts_at_best << "/" << r.starts.size()
            << " starts within 0.1, " << seconds / static_cast<double>(r.starts.size())
            << " s a start\n";
  EXPECT_LE(best.nllh, c.reference_nllh + 1e-3 * (1.0 + std::abs(c.reference_nllh)))
      << best.exit_reason;
}

class Benchmark : public ::testing::TestWithParam<Case> {};
TEST_P(Benchmark, BestStartReachesTheReferenceValue) { expect_reference_reached(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Fit, Benchmark,
                         ::testing::Values(Case{"Boehm_JProteomeRes2014", 138.22199693517703, 4,
                                                "ceres_lm"}),
                         [](const auto& param_info) {
                           return std::string(param_info.param.name) + "_" +
                                  param_info.param.optimizer;
                         });

}  // namespace
}  // namespace odesens
