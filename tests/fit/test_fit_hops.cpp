// Hops (FitOptions::hop_rounds): rounds of starts drawn around the best end
// point so far. Their points (normal on the scales, clipped to the box, the
// same for the same seed and round), the standard deviation's rule, the
// rows they add (indices after the starts, their round), the same results
// on any thread count, no round after a stop or without a best point, the
// settings refused out of range, parameters without effect at the center
// drawn from the box; and on Boehm_JProteomeRes2014 (../shared) hops from 4
// starts that miss the reference reach it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "fit/hops.hpp"
#include "odesens/fit.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

FitOptions hop_options(std::size_t starts, std::size_t rounds, std::size_t per_round) {
  FitOptions o;
  o.optimizer.optimizer = "ceres_lm";
  o.starts = starts;
  o.seed = 5;
  o.threads = 2;
  o.hop_rounds = rounds;
  o.hop_starts = per_round;
  return o;
}

// The decay that starts at t = lag (SyntheticOptions::lag).
test::SyntheticOptions lagged() {
  test::SyntheticOptions o;
  o.lag = true;
  return o;
}

// A round's draw: its center, standard deviation, number and flat mask.
fitting::HopDraw hop_draw(const std::vector<double>& center, double sigma, std::size_t round,
                          std::vector<char> flat = {}) {
  fitting::HopDraw draw;
  draw.center = center;
  draw.sigma = sigma;
  draw.round = round;
  draw.flat = std::move(flat);
  return draw;
}

// hop_points of a round without flat parameters.
std::vector<std::vector<double>> points_around(const PetabProblem& problem,
                                               const std::vector<double>& center, double sigma,
                                               std::size_t count, std::uint64_t seed,
                                               std::size_t round) {
  return fitting::hop_points(problem, hop_draw(center, sigma, round), count, seed);
}

TEST(HopPoints, AreNormalAroundTheCenterClippedToTheBoxAndRepeatWithSeedAndRound) {
  test::SyntheticProblem synthetic;  // log10 k1 in [-3, 1], scale (lin) in [0.1, 10]
  auto problem = PetabProblem::load(synthetic.yaml());
  const std::vector<double> lo = problem->lower_scaled(), hi = problem->upper_scaled();
  const std::vector<double> center = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2};
  const double sigma = 0.01 * std::min(hi[0] - lo[0], hi[1] - lo[1]);
  const auto points = points_around(*problem, center, sigma, 4000, 7, 2);
  ASSERT_EQ(points.size(), 4000u);
  for (std::size_t i = 0; i < 2; ++i) {
    double mean = 0, square = 0;
    for (const auto& x : points) mean += (x[i] - center[i]) / 4000.0;
    for (const auto& x : points) square += (x[i] - center[i]) * (x[i] - center[i]) / 4000.0;
    // 4000 draws: the mean within 4 standard errors, the deviation within 5 %.
    EXPECT_NEAR(mean, 0.0, 4 * sigma / std::sqrt(4000.0)) << "parameter " << i;
    EXPECT_NEAR(std::sqrt(square), sigma, 0.05 * sigma) << "parameter " << i;
  }
  EXPECT_EQ(points, points_around(*problem, center, sigma, 4000, 7, 2));
  EXPECT_NE(points, points_around(*problem, center, sigma, 4000, 7, 3));
  EXPECT_NE(points, points_around(*problem, center, sigma, 4000, 8, 2));
  // All 64 bits of the seed count (std::seed_seq keeps 32 of each value).
  EXPECT_NE(points, points_around(*problem, center, sigma, 4000, 7 + (1ull << 32), 2));
  // Wide draws from a corner stay in the box, many of them on its bounds.
  std::size_t on_bound = 0;
  for (const auto& x : points_around(*problem, lo, 100.0, 200, 7, 1))
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_TRUE(x[i] >= lo[i] && x[i] <= hi[i]) << x[i];
      on_bound += x[i] == lo[i] || x[i] == hi[i];
    }
  EXPECT_GT(on_bound, 200u);
}

TEST(HopPoints, DrawFlatParametersFromTheWholeBox) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const std::vector<double> lo = problem->lower_scaled(), hi = problem->upper_scaled();
  const std::vector<double> center = {(lo[0] + hi[0]) / 2, lo[1] + 0.1};
  const double sigma = 0.01 * (hi[0] - lo[0]);
  const fitting::HopDraw draw = hop_draw(center, sigma, 1, {0, 1});  // parameter 1 flat
  const auto points = fitting::hop_points(*problem, draw, 4000, 7);
  ASSERT_EQ(points.size(), 4000u);
  double mean0 = 0, square0 = 0, mean1 = 0, square1 = 0;
  double low1 = hi[1], high1 = lo[1];
  for (const auto& x : points) {
    mean0 += (x[0] - center[0]) / 4000.0;
    square0 += (x[0] - center[0]) * (x[0] - center[0]) / 4000.0;
    mean1 += x[1] / 4000.0;
    low1 = std::min(low1, x[1]);
    high1 = std::max(high1, x[1]);
  }
  for (const auto& x : points) square1 += (x[1] - mean1) * (x[1] - mean1) / 4000.0;
  EXPECT_NEAR(mean0, 0.0, 4 * sigma / std::sqrt(4000.0));
  EXPECT_NEAR(std::sqrt(square0), sigma, 0.05 * sigma);
  // Uniform over the box, not around the center near its lower bound.
  const double width = hi[1] - lo[1], deviation = width / std::sqrt(12.0);
  EXPECT_NEAR(mean1, (lo[1] + hi[1]) / 2, 4 * deviation / std::sqrt(4000.0));
  EXPECT_NEAR(std::sqrt(square1), deviation, 0.05 * deviation);
  EXPECT_LT(low1, lo[1] + 0.01 * width);
  EXPECT_GT(high1, hi[1] - 0.01 * width);
  EXPECT_EQ(points, fitting::hop_points(*problem, draw, 4000, 7));
}

// The decay that starts at t = lag (SyntheticOptions::lag): at lag past the
// last measurement (t = 6) nothing measured depends on k1 or lag.
TEST(FlatParameters, AreThoseWhoseGradientIsZeroAtThePoint) {
  test::SyntheticProblem synthetic(lagged());
  auto problem = PetabProblem::load(synthetic.yaml());
  ASSERT_EQ(problem->parameter_ids(), (std::vector<std::string>{"k1", "scale", "lag"}));
  const PetabOptions evaluation;
  using Indices = std::vector<std::size_t>;
  using Found = std::optional<Indices>;
  EXPECT_EQ(fitting::flat_parameters(*problem, evaluation, {-0.5, 2.0, 10.0}), Found({0, 2}));
  EXPECT_EQ(fitting::flat_parameters(*problem, evaluation, {-0.5, 2.0, 1.0}), Found(Indices{}));
  // At its lower bound 0, the span's start, lag's gradient is 0 (no switch
  // inside the span) but lag above it delays the decay: not flat.
  EXPECT_EQ(fitting::flat_parameters(*problem, evaluation, {-0.5, 2.0, 0.0}), Found(Indices{}));
  // A start past the data knows its flat parameters from its own gradient.
  const StartResult s = optimize(*problem, {-0.5, 2.0, 10.0}, {}, OptimizerOptions{});
  EXPECT_TRUE(s.flat_known);
  EXPECT_EQ(s.flat, (Indices{0, 2}));
}

// A best start whose gradient was not evaluated at its end (its time limit
// ended it): the round evaluates it there once, draws k1 and lag from the
// box, and keeps what it found in the start's row.
TEST(FitHops, FindTheFlatParametersWhereTheBestStartDidNot) {
  test::SyntheticProblem synthetic(lagged());
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o = hop_options(0, 1, 4);
  o.start_points = {{-0.5, 2.0, 10.0}};
  std::vector<std::vector<double>> round_1;
  auto run = [&](const std::vector<std::vector<double>>& points, std::size_t first,
                 const fitting::HopDraw* hop, std::vector<std::optional<StartResult>>& done) {
    if (hop) round_1 = points;
    for (std::size_t k = 0; k < points.size(); ++k) {
      StartResult s;  // ended where it began, its gradient not evaluated there
      s.index = first + k;
      s.start = s.end = points[k];
      s.nlpost = s.nllh = hop ? 1e9 : 100.0;
      done[k] = s;
    }
  };
  auto done = fitting::run_starts_and_hops(*problem, o, o.start_points, run,
                                           [](fitting::HopState&) {}, nullptr);
  const fitting::HopDraw draw = hop_draw(o.start_points[0], 0.5, 1, {1, 0, 1});
  EXPECT_EQ(round_1, fitting::hop_points(*problem, draw, 4, o.seed));
  ASSERT_TRUE(done.at(0).has_value());
  EXPECT_TRUE(done[0]->flat_known);
  EXPECT_EQ(done[0]->flat, (std::vector<std::size_t>{0, 2}));
}

// A start at lag 20, past the data: the optimizer cannot move k1 or lag
// (their gradient is 0) and ends far above the optimum. Hops around its end
// keep lag past the data; drawn from the box (the default), lag lands
// before t = 6 in some hops, which reach the optimum.
TEST(FitHops, DrawParametersWithoutEffectFromTheBox) {
  test::SyntheticProblem synthetic(lagged());
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions truth = hop_options(0, 0, 1);
  truth.start_points = {{std::log10(0.3), 2.0, 0.0}};  // the data's parameters
  const double optimum = fit(*problem, truth).starts.at(0).nlpost;
  FitOptions o = hop_options(0, 2, 8);
  o.start_points = {{0.0, 1.0, 20.0}};
  const FitResult boxed = fit(*problem, o);
  o.hop_flat_from_box = false;
  const FitResult local = fit(*problem, o);
  EXPECT_TRUE(boxed.hop_flat_from_box);
  EXPECT_FALSE(local.hop_flat_from_box);
  for (const FitResult* r : {&boxed, &local}) {
    for (const StartResult& s : r->starts) {
      if (s.round != 0) continue;
      EXPECT_GT(s.nlpost, optimum + 10.0) << "the start reaches the optimum";
    }
  }
  ASSERT_TRUE(start_succeeded(boxed.starts.at(0)));
  EXPECT_GT(boxed.starts[0].round, 0u);
  EXPECT_NEAR(boxed.starts[0].nlpost, optimum, 1e-6 * (1.0 + std::abs(optimum)));
  EXPECT_GT(local.starts.at(0).nlpost, optimum + 10.0);
  // The result says which parameters the best point leaves without effect.
  EXPECT_EQ(local.flat_at_best, (std::vector<std::size_t>{0, 2}));
  EXPECT_TRUE(boxed.flat_at_best.empty());
}

TEST(HopSigma, DoublesUpToFourTimesWithoutANewOptimumAndResetsAfterOne) {
  EXPECT_EQ(fitting::next_hop_sigma(0.5, 0.5, 10.0, 10.0), 1.0);
  EXPECT_EQ(fitting::next_hop_sigma(1.0, 0.5, 10.0, 9.95), 2.0);  // 0.05 lower: not new
  EXPECT_EQ(fitting::next_hop_sigma(2.0, 0.5, 10.0, 10.0), 2.0);  // 4 * 0.5 at most
  EXPECT_EQ(fitting::next_hop_sigma(2.0, 0.5, 10.0, 9.8), 0.5);
}

// The rows of a fit by start index.
std::vector<StartResult> by_index(FitResult r) {
  std::sort(r.starts.begin(), r.starts.end(),
            [](const StartResult& a, const StartResult& b) { return a.index < b.index; });
  return r.starts;
}

TEST(FitHops, AddTheirRowsAfterTheStartsWithTheirRound) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult r = fit(*problem, hop_options(3, 2, 4));
  EXPECT_EQ(r.starts_planned, 11u);
  EXPECT_EQ(r.hop_rounds, 2u);
  EXPECT_EQ(r.hop_starts, 4u);
  EXPECT_EQ(r.hop_sigma, 0.5);
  const std::vector<StartResult> rows = by_index(r);
  ASSERT_EQ(rows.size(), 11u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].index, k);
    EXPECT_EQ(rows[k].round, k < 3 ? 0u : (k - 3) / 4 + 1) << "start " << k;
  }
  // The first round is drawn around the best of the starts, on their seed.
  const std::vector<StartResult> starts = by_index(fit(*problem, hop_options(3, 0, 4)));
  ASSERT_EQ(starts.size(), 3u);
  const auto best = std::min_element(starts.begin(), starts.end(), [](auto& a, auto& b) {
    return a.nlpost < b.nlpost;
  });
  const auto round_1 = points_around(*problem, best->end, 0.5, 4, 5, 1);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(rows[3 + k].start, round_1[k]);
  // Round 1 found no new optimum (all end at the one): round 2 is drawn
  // with sigma doubled, around the best after round 1.
  const auto best_after_1 = std::min_element(rows.begin(), rows.begin() + 7, [](auto& a, auto& b) {
    return a.nlpost < b.nlpost || (a.nlpost == b.nlpost && a.index < b.index);
  });
  const auto round_2 = points_around(*problem, best_after_1->end, 1.0, 4, 5, 2);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(rows[7 + k].start, round_2[k]);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(rows[k].end, starts[k].end);
  // Every start reaches the one optimum: all of them are at the best.
  EXPECT_EQ(r.starts_at_best, 11u);
}

TEST(FitHops, GiveTheSameRowsOnAnyThreadCount) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions one = hop_options(3, 3, 3), two = one;
  one.threads = 1;
  const std::vector<StartResult> a = by_index(fit(*problem, one));
  const std::vector<StartResult> b = by_index(fit(*problem, two));
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].start, b[k].start) << k;
    EXPECT_EQ(a[k].end, b[k].end) << k;
    EXPECT_EQ(a[k].round, b[k].round) << k;
  }
}

TEST(FitHops, NoRoundAfterAStopOrWithoutAPointToHopFrom) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  std::atomic<bool> stop{false};
  FitOptions o = hop_options(2, 5, 3);
  o.threads = 1;
  const FitResult r = fit(*problem, o, [&](std::size_t done, std::size_t total, double) {
    EXPECT_EQ(total, 17u);
    if (done == 2) stop = true;  // the last of the starts
  }, &stop);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.starts.size(), 2u);
  // Blow-up: k1 > 1/6 cannot be simulated; starts all above it fail, and
  // there is no best point to hop from.
  test::SyntheticOptions blow_up;
  blow_up.blow_up = true;
  test::SyntheticProblem failing(blow_up);
  auto bad = PetabProblem::load(failing.yaml());
  FitOptions from_failures = hop_options(0, 4, 3);
  from_failures.start_points = {{0.5, 1.0}, {0.9, 2.0}};  // log10 k1 = 0.5, 0.9
  const FitResult none = fit(*bad, from_failures);
  ASSERT_EQ(none.starts.size(), 2u);
  EXPECT_FALSE(start_succeeded(none.starts[0]));
  EXPECT_FALSE(start_succeeded(none.starts[1]));
  EXPECT_EQ(none.starts_planned, 14u);
}

// Blow-up: k1 > 1/6 cannot be simulated. Hops of sigma 2 around the
// best start point land there at times (2 of 20); with resample_failed they
// are drawn again from the round's distribution, not from the whole box.
TEST(FitHops, HopPointsThatCannotBeSimulatedAreDrawnAgainAroundTheCenter) {
  test::SyntheticOptions blow_up;
  blow_up.blow_up = true;
  test::SyntheticProblem synthetic(blow_up);
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o = hop_options(0, 1, 20);
  o.start_points = {{-1.0, 1.0}};
  o.hop_sigma = 2.0;
  const std::vector<StartResult> plain = by_index(fit(*problem, o));
  ASSERT_EQ(plain.size(), 21u);
  std::size_t failed = 0;
  for (const StartResult& s : plain) failed += !start_succeeded(s);
  ASSERT_GE(failed, 2u) << "the test needs hop points that cannot be simulated";
  o.resample_failed = 50;
  const std::vector<StartResult> redrawn = by_index(fit(*problem, o));
  ASSERT_EQ(redrawn.size(), 21u);
  fitting::HopDraw draw;
  draw.center = plain[0].end;
  draw.sigma = 2.0;
  draw.round = 1;
  for (std::size_t k = 1; k < 21; ++k) {
    EXPECT_TRUE(start_succeeded(redrawn[k])) << redrawn[k].exit_reason;
    if (start_succeeded(plain[k])) {
      EXPECT_EQ(redrawn[k].start, plain[k].start) << k;
      continue;
    }
    // Its point is one of the round's redraws, the first that could be simulated.
    bool found = false;
    for (std::size_t attempt = 1; attempt <= 50 && !found; ++attempt)
      found = redrawn[k].start == fitting::hop_redraw(*problem, draw, 5, k, attempt);
    EXPECT_TRUE(found) << "start " << k;
    EXPECT_NE(redrawn[k].exit_reason.find("drawn again"), std::string::npos);
  }
}

TEST(FitHops, SettingsOutOfRangeAreRefusedBeforeAnyStart) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  auto refused = [&](FitOptions o, const std::string& part) {
    try {
      fit(*problem, o);
      ADD_FAILURE() << "no error; expected one with '" << part << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  FitOptions o = hop_options(2, 1, 0);
  refused(o, "hop_starts is 0");
  o = hop_options(2, kMostHopRounds + 1, 1);
  refused(o, "hop_rounds");
  o = hop_options(2, 1, kMostHopStarts + 1);
  refused(o, "hop_starts");
  for (double sigma : {0.0, -1.0, 1e3, std::numeric_limits<double>::quiet_NaN(),
                       std::numeric_limits<double>::infinity()}) {
    o = hop_options(2, 1, 1);
    o.hop_sigma = sigma;
    refused(o, "hop_sigma");
  }
  // Rounds of a size that would not fit in memory: refused by the start count.
  o = hop_options(2, kMostHopRounds, kMostHopStarts);
  refused(o, "starts a run");
}

// Boehm: the 4 Latin-hypercube starts of seed 2 end at local optima (the
// best 145.759); of 3 rounds of 4 hops from the best, the second reaches the
// reference, 138.222. (Not every seed's: those of seeds 3 and 4 stay at
// 147.544, a local optimum, with their hops.)
TEST(FitHops, ReachBoehmsReferenceWhereTheirStartsDoNot) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab benchmark problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  FitOptions o = hop_options(4, 3, 4);
  o.optimizer.optimizer = "ceres_lm_lbfgs";
  o.seed = 2;
  const FitResult r = fit(*problem, o);
  const double reference = 138.22199693517703;  // nllh at the nominal point
  double best_start = std::numeric_limits<double>::infinity();
  for (const StartResult& s : r.starts)
    if (s.round == 0 && start_succeeded(s)) best_start = std::min(best_start, s.nlpost);
  EXPECT_GT(best_start, reference + 5.0) << "the starts alone reach the reference: "
                                             "the test no longer shows what hops add";
  ASSERT_TRUE(start_succeeded(r.starts.at(0)));
  EXPECT_GT(r.starts[0].round, 0u);
  EXPECT_LE(r.starts[0].nlpost, reference + 1e-3 * (1.0 + reference));
}

}  // namespace
}  // namespace odesens
