// Parameter estimation through the C ABI (odesens_petab_fit,
// odesens_petab_profile) on the small problem with a known optimum of
// tests/estimate: the fit recovers the optimum and equals, bit for bit,
// the C++ fit() with the same options; the profiles equal the C++
// profile(); the documents and pictures are written; wrong input gives
// the documented statuses. The program calls libodesens.so through
// odesens.h and the C++ library (linked statically beside it) directly:
// the shared library exports only odesens_*, so the two copies of the C++
// code do not interfere.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "estimate/block_petab_problem.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "odesens.h"
#include "odesens/fit.hpp"
#include "odesens/profile.hpp"

namespace odesens {
namespace {

constexpr double kLog2Pi = 1.8378770664093453;
const double kOptimum = 13 * 0.5 * (kLog2Pi + 2.0 * std::log(0.1));

// The handles of one test, freed at its end whatever fails.
struct Handles {
  odesens_petab* petab = nullptr;
  odesens_fit_options* options = nullptr;
  odesens_fit_result* fit = nullptr;
  odesens_profile_result* profiles = nullptr;
  ~Handles() {
    odesens_profile_result_free(profiles);
    odesens_fit_result_free(fit);
    odesens_fit_options_free(options);
    odesens_petab_free(petab);
  }
};

#define ASSERT_C_OK(call) ASSERT_EQ((call), ODESENS_OK) << odesens_errmsg(nullptr)
#define EXPECT_C_STATUS(call, status) EXPECT_EQ((call), (status)) << odesens_errmsg(nullptr)

std::vector<double> start_point(const odesens_fit_result* fit, int64_t rank, bool end) {
  int64_t np = 0;
  EXPECT_EQ(odesens_fit_result_sizes(fit, nullptr, &np, nullptr), ODESENS_OK);
  std::vector<double> x(static_cast<std::size_t>(np));
  EXPECT_EQ(end ? odesens_fit_result_end_point(fit, rank, x.data(), np)
                : odesens_fit_result_start_point(fit, rank, x.data(), np),
            ODESENS_OK);
  return x;
}

// The C fit's starts, rank by rank, are the C++ fit's: their start and end points.
void expect_the_cpp_starts(const odesens_fit_result* fit, const FitResult& cpp) {
  int64_t n = 0;
  ASSERT_C_OK(odesens_fit_result_sizes(fit, &n, nullptr, nullptr));
  ASSERT_EQ(static_cast<std::size_t>(n), cpp.starts.size());
  for (int64_t k = 0; k < n; ++k) {
    EXPECT_EQ(start_point(fit, k, false), cpp.starts[static_cast<std::size_t>(k)].start);
    EXPECT_EQ(start_point(fit, k, true), cpp.starts[static_cast<std::size_t>(k)].end);
  }
}

// Each start's redrawn parameters (odesens_fit_result_start_redrawn) are
// the C++ fit's (StartResult::redrawn); a parameter or rank out of range
// and a null output are refused.
void expect_the_cpp_blocks(const odesens_fit_result* fit, const FitResult& cpp, int64_t n) {
  std::size_t redrawn_starts = 0;
  for (std::size_t k = 0; k < cpp.starts.size(); ++k) {
    std::vector<std::size_t> redrawn;
    for (int64_t i = 0; i < n; ++i) {
      int64_t on = -1;
      ASSERT_C_OK(odesens_fit_result_start_redrawn(fit, static_cast<int64_t>(k), i, &on));
      if (on == 1) redrawn.push_back(static_cast<std::size_t>(i));
      EXPECT_TRUE(on == 0 || on == 1);
    }
    EXPECT_EQ(redrawn, cpp.starts[k].redrawn) << k;
    redrawn_starts += !redrawn.empty();
  }
  EXPECT_EQ(redrawn_starts > 0, cpp.hop_blocks);
  int64_t on = 0;
  const auto ranks = static_cast<int64_t>(cpp.starts.size());
  EXPECT_C_STATUS(odesens_fit_result_start_redrawn(fit, 0, n, &on), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_result_start_redrawn(fit, 0, -1, &on),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_result_start_redrawn(fit, ranks, 0, &on),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_result_start_redrawn(fit, 0, 0, nullptr), ODESENS_ERR_NULL_HANDLE);
}

// Hierarchical: the inner parameters named, and the fit the C++ one.
TEST(CapiFit, HierarchicalFitEqualsTheCppOne) {
  test::SyntheticOptions so;
  so.sd_estimated = true;
  so.perturbation = 0.05;
  test::SyntheticProblem synthetic(so);
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  int64_t inner[3] = {-1, -1, -1};
  for (int64_t i = 0; i < 3; ++i) ASSERT_C_OK(odesens_petab_inner_parameter(h.petab, i, &inner[i]));
  EXPECT_EQ(inner[0], 0);  // k1 acts on the dynamics
  EXPECT_EQ(inner[1], 1);  // scale
  EXPECT_EQ(inner[2], 1);  // sd
  EXPECT_C_STATUS(odesens_petab_inner_parameter(h.petab, 3, &inner[0]),
                  ODESENS_ERR_INVALID_ARGUMENT);
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 3));
  ASSERT_C_OK(odesens_fit_options_set_hierarchical(h.options, 1));
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o;
  o.starts = 3;
  o.optimizer.evaluation.hierarchical = true;
  const FitResult expected = fit(*problem, o);
  for (int64_t k = 0; k < 3; ++k)
    EXPECT_EQ(start_point(h.fit, k, true), expected.starts[static_cast<std::size_t>(k)].end);
}

TEST(CapiFit, RecoversTheOptimumAndEqualsTheCppFitBitForBit) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_optimizer(h.options, "ceres_lm"));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 5));
  ASSERT_C_OK(odesens_fit_options_set_seed(h.options, 7));
  ASSERT_C_OK(odesens_fit_options_set_threads(h.options, 1));
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));

  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o;
  o.optimizer.optimizer = "ceres_lm";
  o.starts = 5;
  o.seed = 7;
  o.threads = 1;
  const FitResult expected = fit(*problem, o);

  int64_t n_starts = -1, np = -1, planned = -1, at_best = -1, stopped = -1;
  ASSERT_C_OK(odesens_fit_result_sizes(h.fit, &n_starts, &np, &planned));
  EXPECT_EQ(n_starts, 5);
  EXPECT_EQ(np, 2);
  EXPECT_EQ(planned, 5);
  ASSERT_C_OK(odesens_fit_result_starts_at_best(h.fit, &at_best));
  EXPECT_EQ(at_best, static_cast<int64_t>(expected.starts_at_best));
  ASSERT_C_OK(odesens_fit_result_stopped(h.fit, &stopped));
  EXPECT_EQ(stopped, 0);
  const char* optimizer = nullptr;
  ASSERT_C_OK(odesens_fit_result_optimizer(h.fit, &optimizer));
  EXPECT_STREQ(optimizer, "ceres_lm");

  for (int64_t k = 0; k < n_starts; ++k) {
    const StartResult& e = expected.starts[static_cast<std::size_t>(k)];
    double nlpost = 0, nllh = 0, gradient = 0, seconds = -1;
    int64_t index = -1, iterations = -1, evaluations = -1, status = -1;
    ASSERT_C_OK(odesens_fit_result_start(h.fit, k, &nlpost, &nllh, &gradient, &seconds, &index,
                                         &iterations, &evaluations, &status));
    EXPECT_EQ(nlpost, e.nlpost);  // bit for bit
    EXPECT_EQ(nllh, e.nllh);
    EXPECT_EQ(gradient, e.gradient_norm);
    EXPECT_GE(seconds, 0.0);
    EXPECT_EQ(index, static_cast<int64_t>(e.index));
    EXPECT_EQ(iterations, e.iterations);
    EXPECT_EQ(evaluations, e.evaluations);
    EXPECT_EQ(status, ODESENS_OK);
    const char* reason = nullptr;
    ASSERT_C_OK(odesens_fit_result_exit_reason(h.fit, k, &reason));
    EXPECT_EQ(std::string(reason), e.exit_reason);
    EXPECT_EQ(start_point(h.fit, k, false), e.start);
    EXPECT_EQ(start_point(h.fit, k, true), e.end);
  }
  double best[3] = {0, 0, -7}, best_nlpost = 0;
  ASSERT_C_OK(odesens_fit_result_best(h.fit, best, 3, &best_nlpost));
  EXPECT_NEAR(best[0], std::log10(0.3), 1e-4);
  EXPECT_NEAR(best[1], 2.0, 1e-4);
  EXPECT_EQ(best[2], -7);
  EXPECT_NEAR(best_nlpost, kOptimum, 1e-6);
  EXPECT_EQ(best_nlpost, expected.starts[0].nlpost);

  // The result keeps the problem: it outlives the problem's handle.
  odesens_petab_free(h.petab);
  h.petab = nullptr;
  ASSERT_C_OK(odesens_fit_result_best(h.fit, best, 2, nullptr));
  EXPECT_EQ(best[0], expected.starts[0].end[0]);
}

TEST(CapiFit, TheNumbersDoNotDependOnTheThreadsAndNullOptionsAreTheDefaults) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_petab_fit(h.petab, nullptr, &h.fit));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_threads(h.options, 2));
  odesens_fit_result* parallel = nullptr;
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &parallel));
  int64_t n = 0;
  ASSERT_C_OK(odesens_fit_result_sizes(h.fit, &n, nullptr, nullptr));
  EXPECT_EQ(n, 10);  // the default
  for (int64_t k = 0; k < n; ++k) EXPECT_EQ(start_point(h.fit, k, true), start_point(parallel, k, true));
  odesens_fit_result_free(parallel);
}

// odesens_fit_options_set_resample_failed: on the problem that blows up
// in 40 % of the box, the C fit equals the C++ fit with resample_failed
// (start and end points), and no start is left failed; out of range:
// ODESENS_ERR_INVALID_ARGUMENT.
TEST(CapiFit, FailedStartPointsAreDrawnAgainAsInCpp) {
  test::SyntheticOptions so;
  so.blow_up = true;
  test::SyntheticProblem synthetic(so);
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 6));
  ASSERT_C_OK(odesens_fit_options_set_resample_failed(h.options, 20));
  EXPECT_C_STATUS(odesens_fit_options_set_resample_failed(h.options, -1),
                  ODESENS_ERR_INVALID_ARGUMENT);
  // The library's limit (FitOptions: kMostResamples), said when set.
  EXPECT_C_STATUS(odesens_fit_options_set_resample_failed(h.options, 1001),
                  ODESENS_ERR_INVALID_ARGUMENT);
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o;
  o.starts = 6;
  o.resample_failed = 20;
  const FitResult cpp = fit(*problem, o);
  ASSERT_EQ(cpp.starts.size(), 6u);
  for (int64_t k = 0; k < 6; ++k) {
    const StartResult& s = cpp.starts[static_cast<std::size_t>(k)];
    EXPECT_EQ(s.status, Status::ok) << s.exit_reason;
    EXPECT_EQ(start_point(h.fit, k, false), s.start) << k;
    EXPECT_EQ(start_point(h.fit, k, true), s.end) << k;
  }
}

// odesens_fit_options_set_hops: the C fit equals the C++ fit with the same
// hops (rows, rounds, start and end points); out of range (rounds, starts,
// sigma, NaN): the documented statuses, the options left as they were.
TEST(CapiFit, HopsAreTheCppFitsHops) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 3));
  ASSERT_C_OK(odesens_fit_options_set_hops(h.options, 2, 3, 0.3));
  EXPECT_C_STATUS(odesens_fit_options_set_hops(h.options, -1, 3, 0.3),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_hops(h.options, 10001, 3, 0.3),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_hops(h.options, 2, 0, 0.3),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_hops(h.options, 2, 3, 0.0),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_hops(h.options, 2, 3, std::nan("")),
                  ODESENS_ERR_NOT_FINITE);
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o;
  o.starts = 3;
  o.hop_rounds = 2;
  o.hop_starts = 3;
  o.hop_sigma = 0.3;
  const FitResult cpp = fit(*problem, o);
  int64_t n = 0, planned = 0;
  ASSERT_C_OK(odesens_fit_result_sizes(h.fit, &n, nullptr, &planned));
  ASSERT_EQ(n, 9);
  EXPECT_EQ(planned, 9);
  ASSERT_EQ(cpp.starts.size(), 9u);
  std::size_t hopped = 0;
  for (int64_t k = 0; k < n; ++k) {
    const StartResult& s = cpp.starts[static_cast<std::size_t>(k)];
    int64_t round = -1, index = -1;
    ASSERT_C_OK(odesens_fit_result_start_round(h.fit, k, &round));
    ASSERT_C_OK(odesens_fit_result_start(h.fit, k, nullptr, nullptr, nullptr, nullptr, &index,
                                         nullptr, nullptr, nullptr));
    EXPECT_EQ(round, static_cast<int64_t>(s.round)) << k;
    EXPECT_EQ(index, static_cast<int64_t>(s.index)) << k;
    EXPECT_EQ(start_point(h.fit, k, false), s.start) << k;
    EXPECT_EQ(start_point(h.fit, k, true), s.end) << k;
    hopped += s.round > 0;
  }
  EXPECT_EQ(hopped, 6u);
  int64_t round = 0;
  EXPECT_C_STATUS(odesens_fit_result_start_round(h.fit, 9, &round), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_result_start_round(h.fit, 0, nullptr), ODESENS_ERR_NULL_HANDLE);
}

// A start past the data of the lagged decay: k1 and lag have no effect at
// its end. Hops draw them from the box by default and around the end with
// odesens_fit_options_set_hop_flat(0), as the C++ fit does each way.
TEST(CapiFit, HopFlatIsTheCppFits) {
  test::SyntheticOptions lagged;
  lagged.lag = true;
  test::SyntheticProblem synthetic(lagged);
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o;
  o.start_points = {{0.0, 1.0, 20.0}};
  o.hop_rounds = 2;
  o.hop_starts = 4;
  for (int from_box : {1, 0}) {
    Handles h;
    ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
    ASSERT_C_OK(odesens_fit_options_create(&h.options));
    const double start[] = {0.0, 1.0, 20.0};
    ASSERT_C_OK(odesens_fit_options_set_start_points(h.options, start, 3, 1));
    ASSERT_C_OK(odesens_fit_options_set_hops(h.options, 2, 4, 0.5));
    EXPECT_C_STATUS(odesens_fit_options_set_hop_flat(h.options, 2),
                    ODESENS_ERR_INVALID_ARGUMENT);
    EXPECT_C_STATUS(odesens_fit_options_set_hop_flat(nullptr, 1), ODESENS_ERR_NULL_HANDLE);
    if (from_box == 0) {
      ASSERT_C_OK(odesens_fit_options_set_hop_flat(h.options, 0));
    }
    ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
    o.hop_flat_from_box = from_box == 1;
    const FitResult cpp = fit(*problem, o);
    expect_the_cpp_starts(h.fit, cpp);
    // Around the start's end the best keeps k1 and lag without effect.
    for (int64_t i = 0; i < 3; ++i) {
      int64_t flat = -1;
      ASSERT_C_OK(odesens_fit_result_parameter_flat(h.fit, i, &flat));
      EXPECT_EQ(flat, from_box == 0 && i != 1 ? 1 : 0) << i;
    }
    int64_t flat = 0;
    EXPECT_C_STATUS(odesens_fit_result_parameter_flat(h.fit, 3, &flat),
                    ODESENS_ERR_INVALID_ARGUMENT);
    EXPECT_C_STATUS(odesens_fit_result_parameter_flat(h.fit, -1, &flat),
                    ODESENS_ERR_INVALID_ARGUMENT);
    EXPECT_C_STATUS(odesens_fit_result_parameter_flat(h.fit, 0, nullptr),
                    ODESENS_ERR_NULL_HANDLE);
  }
}

// Two experiments, c2's own w in a local optimum of its term (BlockProblem):
// hops redraw its block by default and not with
// odesens_fit_options_set_hop_blocks(0), as the C++ fit does each way.
TEST(CapiFit, HopBlocksAreTheCppFits) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  const std::vector<double> start = {1.0, 0.3, -2.0, 0.5, 1.0, 0.83};
  FitOptions o;
  o.start_points = {start};
  o.hop_rounds = 2;
  o.hop_starts = 4;
  o.hop_sigma = 1e-6;
  for (int on : {1, 0}) {
    Handles h;
    ASSERT_C_OK(odesens_petab_load(written.yaml().c_str(), &h.petab));
    ASSERT_C_OK(odesens_fit_options_create(&h.options));
    ASSERT_C_OK(odesens_fit_options_set_start_points(h.options, start.data(), 6, 1));
    ASSERT_C_OK(odesens_fit_options_set_hops(h.options, 2, 4, 1e-6));
    EXPECT_C_STATUS(odesens_fit_options_set_hop_blocks(h.options, -1),
                    ODESENS_ERR_INVALID_ARGUMENT);
    EXPECT_C_STATUS(odesens_fit_options_set_hop_blocks(nullptr, 1), ODESENS_ERR_NULL_HANDLE);
    if (on == 0) {
      ASSERT_C_OK(odesens_fit_options_set_hop_blocks(h.options, 0));
    }
    ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
    o.hop_blocks = on == 1;
    const FitResult cpp = fit(*problem, o);
    expect_the_cpp_starts(h.fit, cpp);
    int64_t blocks = -1;
    ASSERT_C_OK(odesens_fit_result_hop_blocks(h.fit, &blocks));
    EXPECT_EQ(blocks, on == 1 ? 2 : 0);
    expect_the_cpp_blocks(h.fit, cpp, 6);
    EXPECT_C_STATUS(odesens_fit_result_hop_blocks(h.fit, nullptr), ODESENS_ERR_NULL_HANDLE);
    EXPECT_C_STATUS(odesens_fit_result_hop_blocks(nullptr, &blocks), ODESENS_ERR_NULL_HANDLE);
  }
}

// odesens_fit_options_stop: set before a fit, no start runs and the result
// says it was stopped; set from another thread during a fit of many
// starts, the fit returns early with the starts that ended; cleared, the
// next fit runs whole. A profile with the request set ends its sides open.
TEST(CapiFit, StopFromAnotherThreadEndsTheFitWithWhatEnded) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 4));
  ASSERT_C_OK(odesens_fit_options_stop(h.options));
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
  int64_t n = -1, planned = -1, stopped = -1;
  ASSERT_C_OK(odesens_fit_result_sizes(h.fit, &n, nullptr, &planned));
  ASSERT_C_OK(odesens_fit_result_stopped(h.fit, &stopped));
  EXPECT_EQ(n, 0);
  EXPECT_EQ(planned, 4);
  EXPECT_EQ(stopped, 1);

  ASSERT_C_OK(odesens_fit_options_clear_stop(h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 100000));
  odesens_fit_result* early = nullptr;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(odesens_fit_options_stop(h.options), ODESENS_OK);
  });
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &early));
  stopper.join();
  ASSERT_C_OK(odesens_fit_result_sizes(early, &n, nullptr, &planned));
  ASSERT_C_OK(odesens_fit_result_stopped(early, &stopped));
  EXPECT_EQ(stopped, 1);
  EXPECT_EQ(planned, 100000);
  EXPECT_LT(n, planned);
  odesens_fit_result_free(early);

  ASSERT_C_OK(odesens_fit_options_clear_stop(h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 3));
  odesens_fit_result* whole = nullptr;
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &whole));
  ASSERT_C_OK(odesens_fit_result_sizes(whole, &n, nullptr, nullptr));
  ASSERT_C_OK(odesens_fit_result_stopped(whole, &stopped));
  EXPECT_EQ(n, 3);
  EXPECT_EQ(stopped, 0);
  odesens_fit_result_free(whole);

  const double best[2] = {std::log10(0.3), 2.0};
  ASSERT_C_OK(odesens_fit_options_stop(h.options));
  ASSERT_C_OK(odesens_petab_profile(h.petab, h.options, best, 2, nullptr, 0, 0.95, &h.profiles));
  int64_t count = -1;
  ASSERT_C_OK(odesens_profile_result_count(h.profiles, &count, nullptr));
  for (int64_t k = 0; k < count; ++k) {
    int64_t parameter = -1, lower_end = -1, upper_end = -1;
    double lower = 0, upper = 0;
    ASSERT_C_OK(odesens_profile_result_interval(h.profiles, k, &parameter, &lower, &upper,
                                                &lower_end, &upper_end));
    EXPECT_EQ(lower_end, ODESENS_PROFILE_STOPPED);
    EXPECT_EQ(upper_end, ODESENS_PROFILE_STOPPED);
  }
  EXPECT_EQ(odesens_fit_options_stop(nullptr), ODESENS_ERR_NULL_HANDLE);
}

TEST(CapiFit, GivenStartPointsAreUsed) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  const double points[4] = {0.5, 3.0, -1.0, 1.0};  // two starts of (log10 k1, scale)
  ASSERT_C_OK(odesens_fit_options_set_start_points(h.options, points, 2, 2));
  ASSERT_C_OK(odesens_fit_options_set_optimizer(h.options, "nlopt_lbfgs"));
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
  int64_t n = 0, index = -1;
  ASSERT_C_OK(odesens_fit_result_sizes(h.fit, &n, nullptr, nullptr));
  ASSERT_EQ(n, 2);
  for (int64_t k = 0; k < n; ++k) {
    ASSERT_C_OK(odesens_fit_result_start(h.fit, k, nullptr, nullptr, nullptr, nullptr, &index,
                                         nullptr, nullptr, nullptr));
    EXPECT_EQ(start_point(h.fit, k, false),
              std::vector<double>(points + 2 * index, points + 2 * index + 2));
  }
  const char* optimizer = nullptr;
  ASSERT_C_OK(odesens_fit_result_optimizer(h.fit, &optimizer));
  EXPECT_STREQ(optimizer, "nlopt_lbfgs");
  // A start outside the box, or of the wrong size, is refused at fit.
  odesens_fit_result* refused = reinterpret_cast<odesens_fit_result*>(&h);
  const double outside[2] = {5.0, 2.0};
  ASSERT_C_OK(odesens_fit_options_set_start_points(h.options, outside, 2, 1));
  EXPECT_C_STATUS(odesens_petab_fit(h.petab, h.options, &refused), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(refused, nullptr);
  ASSERT_C_OK(odesens_fit_options_set_start_points(h.options, points, 1, 2));
  EXPECT_C_STATUS(odesens_petab_fit(h.petab, h.options, &refused), ODESENS_ERR_INVALID_ARGUMENT);
  ASSERT_C_OK(odesens_fit_options_set_start_points(h.options, nullptr, 0, 0));
}

TEST(CapiFit, WritesTheDocumentsAndThePictures) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 3));
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));
  const std::string h5 = synthetic.path("fit.h5"), best = synthetic.path("best.tsv");
  ASSERT_C_OK(odesens_fit_result_write_h5(h.fit, h5.c_str()));
  EXPECT_GT(std::filesystem::file_size(h5), 0u);
  ASSERT_C_OK(odesens_fit_result_write_best(h.fit, best.c_str()));
  auto problem = PetabProblem::load(synthetic.yaml());
  double x[2];
  ASSERT_C_OK(odesens_fit_result_best(h.fit, x, 2, nullptr));
  const std::vector<double> read = read_petab_parameter_values(*problem, best);
  EXPECT_NEAR(read[0], x[0], 1e-12);
  EXPECT_NEAR(read[1], x[1], 1e-12);
  EXPECT_C_STATUS(odesens_fit_result_write_h5(h.fit, ""), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_result_write_h5(h.fit, nullptr), ODESENS_ERR_NULL_HANDLE);
  EXPECT_C_STATUS(odesens_fit_result_write_best(h.fit, "/nonexistent/folder/best.tsv"),
                  ODESENS_ERR_IO);

  const std::string pictures = synthetic.path("pictures");
  const int status = odesens_fit_result_plot(h.fit, pictures.c_str());
  if (status == ODESENS_ERR_UNSUPPORTED) GTEST_SKIP() << odesens_errmsg(h.fit);
  ASSERT_EQ(status, ODESENS_OK) << odesens_errmsg(h.fit);
  EXPECT_TRUE(std::filesystem::exists(pictures + "/waterfall.png"));
  EXPECT_TRUE(std::filesystem::exists(pictures + "/parameters.png"));
}

TEST(CapiProfile, IntervalsEqualTheCppProfiles) {
  test::SyntheticOptions so;
  so.perturbation = 0.05;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const StartResult best = optimize(*problem, {std::log10(0.3), 2.0}, {}, OptimizerOptions{});
  ASSERT_EQ(best.status, Status::ok) << best.exit_reason;
  ProfileOptions o;
  o.max_points = 30;
  const std::vector<Profile> expected = profile(*problem, best.end, o);

  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  ASSERT_C_OK(odesens_fit_options_set_profile_max_points(h.options, 30));
  ASSERT_C_OK(odesens_fit_options_set_threads(h.options, 2));
  ASSERT_C_OK(odesens_petab_profile(h.petab, h.options, best.end.data(), 2, nullptr, 0, 0.95,
                                    &h.profiles));
  int64_t count = -1;
  double confidence = 0;
  ASSERT_C_OK(odesens_profile_result_count(h.profiles, &count, &confidence));
  ASSERT_EQ(count, 2);
  EXPECT_EQ(confidence, 0.95);
  for (int64_t k = 0; k < count; ++k) {
    const Profile& e = expected[static_cast<std::size_t>(k)];
    int64_t parameter = -1, lower_end = -1, upper_end = -1, n_points = -1, better = -1;
    double lower = 0, upper = 0, start = 0, best_nlpost = 0, threshold = 0;
    ASSERT_C_OK(odesens_profile_result_interval(h.profiles, k, &parameter, &lower, &upper,
                                                &lower_end, &upper_end));
    EXPECT_EQ(parameter, static_cast<int64_t>(e.parameter));
    EXPECT_EQ(lower, e.lower);
    EXPECT_EQ(upper, e.upper);
    EXPECT_EQ(lower_end, ODESENS_PROFILE_CROSSED);
    EXPECT_EQ(upper_end, ODESENS_PROFILE_CROSSED);
    const char* lower_failure = nullptr;
    const char* upper_failure = nullptr;
    ASSERT_C_OK(odesens_profile_result_failures(h.profiles, k, &lower_failure, &upper_failure));
    EXPECT_STREQ(lower_failure, "");  // neither side failed
    EXPECT_STREQ(upper_failure, "");
    EXPECT_EQ(odesens_profile_result_failures(h.profiles, count, nullptr, nullptr),
              ODESENS_ERR_INVALID_ARGUMENT);
    ASSERT_C_OK(odesens_profile_result_info(h.profiles, k, &start, &best_nlpost, &threshold,
                                            &n_points, &better));
    EXPECT_EQ(start, e.start);
    EXPECT_EQ(best_nlpost, e.best_nlpost);
    EXPECT_EQ(threshold, e.threshold);
    EXPECT_NEAR(threshold, 1.92, 0.01);
    EXPECT_EQ(better, 0);
    ASSERT_EQ(n_points, static_cast<int64_t>(e.points.size()));
    std::vector<double> values(e.points.size()), nlpost(e.points.size());
    ASSERT_C_OK(odesens_profile_result_points(h.profiles, k, values.data(), nlpost.data(),
                                              n_points));
    for (std::size_t i = 0; i < e.points.size(); ++i) {
      EXPECT_EQ(values[i], e.points[i].value);
      EXPECT_EQ(nlpost[i], e.points[i].nlpost);
      double x[2];
      ASSERT_C_OK(odesens_profile_result_point(h.profiles, k, static_cast<int64_t>(i), x, 2));
      EXPECT_EQ(std::vector<double>(x, x + 2), e.points[i].x);
    }
    EXPECT_C_STATUS(odesens_profile_result_points(h.profiles, k, values.data(), nullptr,
                                                  n_points - 1),
                    ODESENS_ERR_BUFFER_TOO_SMALL);
  }

  // One parameter chosen; the pictures.
  odesens_profile_result* one = nullptr;
  const int64_t scale_only = 1;
  ASSERT_C_OK(odesens_petab_profile(h.petab, nullptr, best.end.data(), 2, &scale_only, 1, 0.95,
                                    &one));
  int64_t parameter = -1;
  ASSERT_C_OK(odesens_profile_result_count(one, &count, nullptr));
  EXPECT_EQ(count, 1);
  ASSERT_C_OK(odesens_profile_result_interval(one, 0, &parameter, nullptr, nullptr, nullptr,
                                              nullptr));
  EXPECT_EQ(parameter, 1);
  odesens_profile_result_free(one);
  const std::string pictures = synthetic.path("profiles");
  const int status = odesens_profile_result_plot(h.profiles, pictures.c_str());
  if (status == ODESENS_ERR_UNSUPPORTED) GTEST_SKIP() << odesens_errmsg(h.profiles);
  ASSERT_EQ(status, ODESENS_OK) << odesens_errmsg(h.profiles);
  EXPECT_TRUE(std::filesystem::exists(pictures + "/profiles_1.png"));
}

TEST(CapiFit, WrongInputGivesTheDocumentedStatuses) {
  test::SyntheticProblem synthetic;
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  EXPECT_C_STATUS(odesens_fit_options_set_optimizer(h.options, "newton"),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(odesens_errmsg(h.options)).find("auto, ceres_lm, ceres_lm_lbfgs, nlopt_lbfgs or lbfgsb"),
            std::string::npos);
  EXPECT_C_STATUS(odesens_fit_options_set_starts(h.options, 0), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_seed(h.options, -1), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_threads(h.options, 4097), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_max_iterations(h.options, 0),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_max_seconds(h.options, NAN), ODESENS_ERR_NOT_FINITE);
  EXPECT_C_STATUS(odesens_fit_options_set_max_seconds(h.options, -1), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_method(h.options, "nosuch"), ODESENS_ERR_UNKNOWN_METHOD);
  EXPECT_C_STATUS(odesens_fit_options_set_tolerances(h.options, 1.0, 0), ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_options_set_tolerances(h.options, 0, INFINITY), ODESENS_ERR_NOT_FINITE);
  EXPECT_C_STATUS(odesens_fit_options_set_profile_max_points(h.options, 0),
                  ODESENS_ERR_INVALID_ARGUMENT);
  const double nan_point[2] = {NAN, 1.0};
  EXPECT_C_STATUS(odesens_fit_options_set_start_points(h.options, nan_point, 2, 1),
                  ODESENS_ERR_NOT_FINITE);
  EXPECT_C_STATUS(odesens_fit_options_set_start_points(h.options, nullptr, 2, 1),
                  ODESENS_ERR_NULL_HANDLE);
  EXPECT_C_STATUS(odesens_fit_options_set_start_points(h.options, nan_point, 0, 1),
                  ODESENS_ERR_INVALID_ARGUMENT);
  // The refused values left the defaults: the fit runs 10 starts.
  ASSERT_C_OK(odesens_fit_options_set_starts(h.options, 2));
  ASSERT_C_OK(odesens_petab_fit(h.petab, h.options, &h.fit));

  odesens_fit_result* none = nullptr;
  EXPECT_C_STATUS(odesens_petab_fit(nullptr, h.options, &none), ODESENS_ERR_NULL_HANDLE);
  EXPECT_C_STATUS(odesens_petab_fit(h.petab, h.options, nullptr), ODESENS_ERR_NULL_HANDLE);
  EXPECT_C_STATUS(odesens_petab_fit(h.petab,
                                    reinterpret_cast<const odesens_fit_options*>(h.petab), &none),
                  ODESENS_ERR_NULL_HANDLE);
  EXPECT_NE(std::string(odesens_errmsg(nullptr)).find("is a PEtab problem, not fit options"),
            std::string::npos)
      << odesens_errmsg(nullptr);
  double x[2];
  EXPECT_C_STATUS(odesens_fit_result_best(h.fit, x, 1, nullptr), ODESENS_ERR_BUFFER_TOO_SMALL);
  EXPECT_C_STATUS(odesens_fit_result_start(h.fit, 2, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_fit_result_end_point(h.fit, 0, x, -1), ODESENS_ERR_INVALID_ARGUMENT);

  odesens_profile_result* p = nullptr;
  ASSERT_C_OK(odesens_fit_result_best(h.fit, x, 2, nullptr));
  const int64_t twice[2] = {0, 0}, outside[1] = {2};
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, x, 1, nullptr, 0, 0.95, &p),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, x, 2, twice, 2, 0.95, &p),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, x, 2, outside, 1, 0.95, &p),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, x, 2, nullptr, 0, 1.0, &p),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, x, 2, nullptr, 0, NAN, &p),
                  ODESENS_ERR_NOT_FINITE);
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, nan_point, 2, nullptr, 0, 0.95, &p),
                  ODESENS_ERR_NOT_FINITE);
  const double beyond[2] = {x[0], 20.0};  // scale's bound is 10
  EXPECT_C_STATUS(odesens_petab_profile(h.petab, nullptr, beyond, 2, nullptr, 0, 0.95, &p),
                  ODESENS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(p, nullptr);
  odesens_fit_options_free(nullptr);
  odesens_fit_result_free(nullptr);
  odesens_profile_result_free(nullptr);
}

// Laplace noise has no least-squares form: ceres_lm cannot fit it.
TEST(CapiFit, CeresOnAProblemWithoutLeastSquaresFormIsUnsupported) {
  test::SyntheticOptions so;
  so.noise = "laplace";
  test::SyntheticProblem synthetic(so);
  Handles h;
  ASSERT_C_OK(odesens_petab_load(synthetic.yaml().c_str(), &h.petab));
  ASSERT_C_OK(odesens_fit_options_create(&h.options));
  for (const char* optimizer : {"ceres_lm", "ceres_lm_lbfgs"}) {
    ASSERT_C_OK(odesens_fit_options_set_optimizer(h.options, optimizer));
    EXPECT_C_STATUS(odesens_petab_fit(h.petab, h.options, &h.fit), ODESENS_ERR_UNSUPPORTED);
    EXPECT_NE(std::string(odesens_errmsg(h.petab)).find(optimizer), std::string::npos)
        << odesens_errmsg(h.petab);
    EXPECT_EQ(h.fit, nullptr);
  }
}

}  // namespace
}  // namespace odesens
