// The SBML Test Suite's semantic time-course cases that odesens supports
// (../shared/sbml-test-suite, selected as its README says), every one run
// through the SBML importer and cvodes_fsa and judged by the suite's pass
// rule. The cases are split into a few tests so that ctest can run them in
// parallel; each failure names the case, the variable, the time, the
// expected and the simulated value.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <dirent.h>

#include "expr/expr_test_support.hpp"
#include "sbml/sbml_test_suite_case.hpp"

namespace {

using namespace odesens;

constexpr int kChunks = 8;

std::string suite_dir() { return expr_testing::shared_dir() + "/sbml-test-suite"; }

struct CaseRef {
  std::string dir;  // cases/ or cases-2/
  std::string id;
};

// Case ids (directory names) of both selections, each sorted.
std::vector<CaseRef> case_ids() {
  std::vector<CaseRef> all;
  for (const char* folder : {"cases", "cases-2"}) {
    const std::string dir = suite_dir() + "/" + folder;
    std::vector<std::string> ids;
    if (DIR* d = opendir(dir.c_str())) {
      while (const dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.size() == 5 && std::all_of(name.begin(), name.end(), ::isdigit))
          ids.push_back(name);
      }
      closedir(d);
    }
    std::sort(ids.begin(), ids.end());
    for (auto& id : ids) all.push_back({dir, id});
  }
  return all;
}

class SbmlTestSuite : public ::testing::TestWithParam<int> {};

TEST_P(SbmlTestSuite, EveryCasePassesThePassRule) {
  static const std::vector<CaseRef> ids = case_ids();
  if (ids.empty())
    GTEST_SKIP() << "SBML Test Suite cases not found in " << suite_dir()
                 << " (set ODESENS_SHARED_DIR)";
  const std::size_t chunk = static_cast<std::size_t>(GetParam());
  const std::size_t begin = ids.size() * chunk / kChunks, end = ids.size() * (chunk + 1) / kChunks;
  const auto start = std::chrono::steady_clock::now();
  std::size_t failed = 0;
  for (std::size_t k = begin; k < end; ++k) {
    const auto failures = sbml_testing::run_case(ids[k].dir, ids[k].id);
    failed += !failures.empty();
    for (const auto& f : failures) ADD_FAILURE() << f;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("cases %s..%s: %zu run, %zu failed, %.2f s\n", ids[begin].id.c_str(),
              ids[end - 1].id.c_str(), end - begin, failed, seconds);
}

INSTANTIATE_TEST_SUITE_P(Cases, SbmlTestSuite, ::testing::Range(0, kChunks));

TEST(SbmlTestSuitePassRule, MatchesInfinitiesAndNaNExactly) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  EXPECT_TRUE(sbml_testing::passes(1.0001, 1.0, 0.0, 1e-3));
  EXPECT_FALSE(sbml_testing::passes(1.01, 1.0, 0.0, 1e-3));
  EXPECT_TRUE(sbml_testing::passes(inf, inf, 1.0, 1.0));
  EXPECT_FALSE(sbml_testing::passes(-inf, inf, 1.0, 1.0));
  EXPECT_FALSE(sbml_testing::passes(1e308, inf, 1.0, 1.0));
  EXPECT_TRUE(sbml_testing::passes(nan, nan, 0.0, 0.0));
  EXPECT_FALSE(sbml_testing::passes(0.0, nan, 1.0, 1.0));
}

}  // namespace
