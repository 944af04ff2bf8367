// Hops that redraw a block (FitOptions::hop_blocks): the blocks of a
// problem's parameters (by the experiments that read them, through the
// condition table, placeholder overrides and observable formulas), their
// order by misfit, the points that redraw one block and hold the others at
// the center (also when drawn again), and a fit whose experiment c2 sits
// in a local optimum of its own: ordinary hops with a tiny sigma cannot
// leave it, hops that redraw c2's block reach the optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "estimate/block_petab_problem.hpp"
#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "fit/hop_blocks.hpp"
#include "fit/hops.hpp"
#include "odesens/fit.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

using Blocks = std::vector<std::vector<std::size_t>>;

// Parameters: amp 0, offset_c2 1, sd_c1 2, unused 3, w_c1 4, w_c2 5.
constexpr std::size_t kN = 6;
// The data are exact: sd_c1 at its lower bound 0.01.
const std::vector<double> kOptimum = {1.0, 0.3, -2.0, 0.5, 1.0, 2.0};

// kOptimum with w_c2 at 0.83, the local minimum of c2's term below 2.
std::vector<double> stuck_in_c2() {
  std::vector<double> x = kOptimum;
  x[5] = 0.83;
  return x;
}

std::vector<double> residuals_at(const PetabProblem& problem, const std::vector<double>& x) {
  return problem.evaluate(x, PetabOptions{}).residuals;
}

TEST(ParameterBlocks, GroupTheParametersByTheExperimentsThatReadThem) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  ASSERT_EQ(problem->parameter_ids(),
            (std::vector<std::string>{"amp", "offset_c2", "sd_c1", "unused", "w_c1", "w_c2"}));
  // c2's w (its condition) and offset_c2 (obs_b's formula, measured in c2
  // alone); c1's w and sd_c1 (a placeholder override of c1's rows). amp is
  // read by both, unused by neither.
  EXPECT_EQ(fitting::parameter_blocks(*problem, false), (Blocks{{1, 5}, {2, 4}}));
  // Hierarchical: offset_c2 and sd_c1 are inner parameters, set by each
  // evaluation.
  ASSERT_EQ(problem->inner_parameters(), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(fitting::parameter_blocks(*problem, true), (Blocks{{4}, {5}}));
  // An SBML parameter nothing but obs_b reads, which both conditions set to
  // gain_b: read by c2 alone, which measures obs_b.
  test::BlockProblem with_gain(false, true);
  EXPECT_EQ(fitting::parameter_blocks(*PetabProblem::load(with_gain.yaml()), false),
            (Blocks{{1, 5, 6}, {2, 4}}));
  // c2's pre-equilibration condition sets kin, which the dynamics read, to
  // kin_pre (c2 reads it), and w, which only the observables read (in the
  // simulation condition's setting), to w_pre (no experiment reads it).
  test::BlockProblem with_pre(false, false, true);
  auto pre = PetabProblem::load(with_pre.yaml());
  ASSERT_EQ(pre->parameter_ids().at(6), "kin_pre");
  EXPECT_EQ(fitting::parameter_blocks(*pre, false), (Blocks{{1, 5, 6}, {2, 4}}));
  // kin_pre sets nothing in c2: its gradient goes by a carrier column of
  // the dynamics (it was refused, and the start failed), and a fit runs.
  FitOptions o;
  o.start_points = {{1.0, 0.3, -1.0, 0.5, 1.0, 2.0, 1.0, 1.0}};
  const FitResult carried = fit(*pre, o);
  ASSERT_EQ(carried.starts.size(), 1u);
  EXPECT_EQ(carried.starts[0].status, Status::ok) << carried.starts[0].exit_reason;
  EXPECT_TRUE(std::isfinite(carried.starts[0].nlpost));
  EXPECT_GT(carried.starts[0].iterations, 0);
  // One experiment reads every parameter: no block.
  test::SyntheticProblem synthetic;
  EXPECT_TRUE(fitting::parameter_blocks(*PetabProblem::load(synthetic.yaml()), false).empty());
}

// BlockProblem's parameter table with `rows` (amp, offset_c2, sd_c1, w_c1
// and w_c2 must be there; `unused` may go), with columns `extra` after
// estimate.
void rewrite_parameters(const test::BlockProblem& written, const std::string& rows,
                        const std::string& extra = "") {
  std::ofstream(written.dir() + "/parameters.tsv")
      << "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate"
      << extra << "\n"
      << rows;
}

// A parameter with an infinite bound cannot be drawn from its range: it is
// in no block (the hops redrew it as inf before), its initialization prior
// is not checked (at its infinite bound the check drew NaN, and refused the
// fit), and a fit that would draw a failed start again in the box
// (resample_failed) is refused before any start, as one that draws its
// starts there.
TEST(ParameterBlocks, LeaveOutParametersWithAnInfiniteBound) {
  test::BlockProblem written;
  rewrite_parameters(written,
                     "amp\tlin\t0.1\t10\t1\t1\t\t\noffset_c2\tlin\t-1\t1\t0.3\t1\t\t\n"
                     "sd_c1\tlog10\t0.01\t1\t0.1\t1\t\t\nw_c1\tlin\t0.5\t4\t1\t1\t\t\n"
                     "w_c2\tlin\t-inf\tinf\t2\t1\tnormal\t2;1\n",
                     "\tinitializationPriorType\tinitializationPriorParameters");
  auto problem = PetabProblem::load(written.yaml());
  ASSERT_EQ(problem->parameter_ids(),
            (std::vector<std::string>{"amp", "offset_c2", "sd_c1", "w_c1", "w_c2"}));
  EXPECT_EQ(fitting::parameter_blocks(*problem, false), (Blocks{{1}, {2, 3}}));
  FitOptions o;
  o.start_points = {{1.0, 0.3, -1.0, 1.0, 2.0}};
  o.hop_rounds = 1;
  o.hop_starts = 4;
  const FitResult hopped = fit(*problem, o);
  for (const StartResult& s : hopped.starts) {
    EXPECT_TRUE(std::isfinite(s.start.at(4))) << s.index;
    EXPECT_TRUE(s.redrawn.empty() || s.redrawn == std::vector<std::size_t>{1} ||
                s.redrawn == (std::vector<std::size_t>{2, 3}))
        << s.index;
  }
  o.resample_failed = 1;
  try {
    fit(*problem, o);
    ADD_FAILURE() << "resample_failed in an infinite box was not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("'w_c2' has bounds [-inf, inf]"), std::string::npos)
        << e.what();
  }
}

// A problem that estimates nothing has nothing to fit: refused before any
// start (it ran its starts, each "no free parameters", before).
TEST(Fit, OfAProblemThatEstimatesNothingIsRefused) {
  test::BlockProblem written;
  rewrite_parameters(written,
                     "amp\tlin\t0.1\t10\t1\t0\noffset_c2\tlin\t-1\t1\t0.3\t0\n"
                     "sd_c1\tlog10\t0.01\t1\t0.1\t0\nw_c1\tlin\t0.5\t4\t1\t0\n"
                     "w_c2\tlin\t0.5\t4\t2\t0\n");
  auto problem = PetabProblem::load(written.yaml());
  ASSERT_TRUE(problem->parameter_ids().empty());
  FitOptions o;
  o.starts = 3;
  try {
    fit(*problem, o);
    ADD_FAILURE() << "a fit of nothing was not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("estimates no parameter"), std::string::npos)
        << e.what();
  }
}

TEST(ParameterBlocks, AreOrderedWorstFittedFirst) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  const Blocks blocks = fitting::parameter_blocks(*problem, false);
  using Order = std::vector<std::size_t>;
  EXPECT_EQ(fitting::blocks_by_misfit(*problem, blocks, residuals_at(*problem, stuck_in_c2())),
            (Order{0, 1}));
  std::vector<double> stuck_in_c1 = kOptimum;
  stuck_in_c1[4] = 3.0;
  EXPECT_EQ(fitting::blocks_by_misfit(*problem, blocks, residuals_at(*problem, stuck_in_c1)),
            (Order{1, 0}));
  // Ties keep the blocks' order; residuals that are not finite count for
  // nothing (rows: obs_a in c1, obs_a in c2, obs_b in c2 at each time).
  std::vector<double> residuals(problem->n_measurements(), 0.0);
  EXPECT_EQ(fitting::blocks_by_misfit(*problem, blocks, residuals), (Order{0, 1}));
  for (std::size_t m = 0; m < residuals.size(); m += 3) residuals[m] = 1.0;
  residuals[1] = std::nan("");
  EXPECT_EQ(fitting::blocks_by_misfit(*problem, blocks, residuals), (Order{1, 0}));
}

TEST(HopPoints, RedrawTheWorstFittedBlockInEverySecondPoint) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  std::vector<double> center = stuck_in_c2();
  center[2] = -1.0;  // inside its bounds, where every draw around it moves it
  const std::vector<char> mask = fitting::block_point_mask(*problem, PetabOptions{}, center, 5);
  // Rows: 0 around the center, 1 c2's block (the worst fitted), 2 around,
  // 3 c1's, 4 around.
  std::vector<char> expected(5 * kN, 0);
  expected[1 * kN + 1] = expected[1 * kN + 5] = 1;
  expected[3 * kN + 2] = expected[3 * kN + 4] = 1;
  EXPECT_EQ(mask, expected);
  EXPECT_TRUE(fitting::block_point_mask(*problem, PetabOptions{}, center, 1).empty());
  // From rank 1 on (after a round that found nothing new): c1's first.
  std::vector<char> on(5 * kN, 0);
  on[1 * kN + 2] = on[1 * kN + 4] = 1;
  on[3 * kN + 1] = on[3 * kN + 5] = 1;
  EXPECT_EQ(fitting::block_point_mask(*problem, PetabOptions{}, center, 5, 1), on);
  EXPECT_EQ(fitting::block_point_mask(*problem, PetabOptions{}, center, 5, 3), on);

  fitting::HopDraw draw;
  draw.center = center;
  draw.sigma = 0.5;
  draw.round = 1;
  draw.blocks = mask;
  draw.first_index = 10;
  const std::vector<double> lo = problem->lower_scaled(), hi = problem->upper_scaled();
  const auto points = fitting::hop_points(*problem, draw, 5, 3);
  ASSERT_EQ(points.size(), 5u);
  for (std::size_t k : {1u, 3u}) {
    for (std::size_t i = 0; i < kN; ++i) {
      EXPECT_TRUE(points[k][i] >= lo[i] && points[k][i] <= hi[i]) << k << " " << i;
      if (!mask[k * kN + i]) {
        EXPECT_EQ(points[k][i], center[i]) << "point " << k << ", parameter " << i;
      }
    }
  }
  EXPECT_NE(points[1][5], center[5]);
  EXPECT_NE(points[3][4], center[4]);
  for (std::size_t i = 0; i < kN; ++i) EXPECT_NE(points[0][i], center[i]) << i;  // all moved
  // A block point that cannot be simulated is drawn again in its block.
  const std::vector<double> again = fitting::hop_redraw(*problem, draw, 3, 11, 1);
  for (std::size_t i = 0; i < kN; ++i)
    if (i != 1 && i != 5) {
      EXPECT_EQ(again[i], center[i]) << i;
    }
  EXPECT_NE(again, points[1]);
}

TEST(HopPoints, DrawEveryBlockUniformlyOverItsRange) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  fitting::HopDraw draw;
  draw.center = stuck_in_c2();
  draw.sigma = 0.5;
  draw.round = 2;
  const std::size_t count = 4000;
  draw.blocks.assign(count * kN, 0);
  for (std::size_t k = 0; k < count; ++k) draw.blocks[k * kN + 5] = 1;  // w_c2 in every point
  double mean = 0, square = 0;
  for (const auto& x : fitting::hop_points(*problem, draw, count, 9)) {
    mean += x[5] / count;
    square += x[5] * x[5] / count;
  }
  // Uniform on [0.5, 4]: mean 2.25, standard deviation 3.5 / sqrt(12).
  const double deviation = 3.5 / std::sqrt(12.0);
  EXPECT_NEAR(mean, 2.25, 4 * deviation / std::sqrt(double(count)));
  EXPECT_NEAR(std::sqrt(square - mean * mean), deviation, 0.05 * deviation);
}

// Rounds of 2 points, each of whose hops ends worse than the start (a fake
// runner): every round after the first finds nothing new, and its block
// point takes the next rank: c2's block (the worst fitted at the center),
// then c1's, then c2's again.
TEST(FitHops, GoOnDownTheBlocksAfterARoundWithNothingNew) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  FitOptions o;
  o.start_points = {stuck_in_c2()};
  o.hop_rounds = 3;
  o.hop_starts = 2;
  o.hop_flat_from_box = false;
  std::vector<std::vector<double>> block_points;  // point 1 of each round
  auto run = [&](const std::vector<std::vector<double>>& points, std::size_t first,
                 const fitting::HopDraw* hop, std::vector<std::optional<StartResult>>& done) {
    if (hop) block_points.push_back(points.at(1));
    for (std::size_t k = 0; k < points.size(); ++k) {
      StartResult s;
      s.index = first + k;
      s.start = s.end = points[k];
      s.nlpost = s.nllh = hop ? 1e9 : 100.0;
      done[k] = s;
    }
  };
  fitting::run_starts_and_hops(*problem, o, o.start_points, run, [](fitting::HopState&) {},
                               nullptr);
  ASSERT_EQ(block_points.size(), 3u);
  const std::vector<std::vector<std::size_t>> redrawn = {{1, 5}, {2, 4}, {1, 5}};
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t i = 0; i < kN; ++i) {
      const bool in_block = i == redrawn[r][0] || i == redrawn[r][1];
      if (!in_block) {
        EXPECT_EQ(block_points[r][i], o.start_points[0][i]) << "round " << r + 1 << ", " << i;
      }
    }
  EXPECT_NE(block_points[0][5], o.start_points[0][5]);
  EXPECT_NE(block_points[1][4], o.start_points[0][4]);
  EXPECT_NE(block_points[2][5], o.start_points[0][5]);
}

// The blocks of a shared problem whose dynamics read its experiments' own
// parameters (through the condition table): Beer_MolBioSystems2014's 22.
TEST(ParameterBlocks, OfBeerAreItsExperimentsAndTypes) {
  const std::string folder = test::benchmark_problem("Beer_MolBioSystems2014");
  if (!std::filesystem::exists(folder)) GTEST_SKIP() << "shared problem not found: " << folder;
  auto problem = PetabProblem::load(folder);
  const Blocks blocks = fitting::parameter_blocks(*problem, false);
  ASSERT_EQ(blocks.size(), 22u);
  const std::vector<std::string>& ids = problem->parameter_ids();
  std::vector<std::string> first;
  for (std::size_t i : blocks[0]) first.push_back(ids[i]);
  EXPECT_EQ(first, (std::vector<std::string>{"Bacmax_typeIDT1_ExpID1", "beta_typeIDT1_ExpID1",
                                             "tau_typeIDT1_ExpID1"}));
  std::size_t in_blocks = 0;
  for (const auto& b : blocks) in_blocks += b.size();
  EXPECT_EQ(in_blocks, 69u);  // all but init_Bac and the two noise parameters
}

// Each start says the block it redrew (StartResult::redrawn): none for the
// start and the points drawn around the center (the 1st and 3rd of a round
// of 4), one of the two blocks for the 2nd and 4th of each round, c2's
// first in round 1 (the worst fitted at the stuck point); none without
// hop_blocks.
void expect_blocks_said(const FitResult& held, const FitResult& hopped) {
  for (const StartResult& s : held.starts) EXPECT_TRUE(s.redrawn.empty()) << s.index;
  for (const StartResult& s : hopped.starts) {
    const bool block_point = s.round > 0 && (s.index - 1) % 4 % 2 == 1;
    if (!block_point) {
      EXPECT_TRUE(s.redrawn.empty()) << s.index;
      continue;
    }
    const Blocks blocks = {{1, 5}, {2, 4}};
    EXPECT_NE(std::find(blocks.begin(), blocks.end(), s.redrawn), blocks.end()) << s.index;
    if (s.index == 2) {
      EXPECT_EQ(s.redrawn, blocks[0]);
    }
  }
}

// From w_c2 = 0.83 the optimizer stays (c2's term has a local minimum
// there); hops with sigma 1e-6 stay too, unless every second point redraws
// a block: c2's, the worst fitted, whose draws over [0.5, 4] land in the
// basin of w_c2 = 2 (from about 1.4 to 2.9) about four times in ten. Over
// seeds 1 to 10 the blocks reached the optimum 7 times (ceres_lm, 3 rounds
// of 4), the hops without them never. hop_flat_from_box false: the exact
// data leave offset_c2's gradient exactly 0 at the optimum.
TEST(FitHops, RedrawTheBlockOfAnExperimentInALocalOptimum) {
  test::BlockProblem written;
  auto problem = PetabProblem::load(written.yaml());
  FitOptions o;
  o.optimizer.optimizer = "ceres_lm";
  o.start_points = {stuck_in_c2()};
  o.threads = 2;
  o.hop_rounds = 3;
  o.hop_starts = 4;
  o.hop_sigma = 1e-6;
  o.hop_flat_from_box = false;
  const double optimum = problem->evaluate(kOptimum, PetabOptions{}).nlpost;
  int reached = 0, held_reached = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    o.seed = seed;
    o.hop_blocks = false;
    const FitResult held = fit(*problem, o);
    ASSERT_FALSE(held.starts.empty());
    EXPECT_FALSE(held.hop_blocks);
    held_reached += held.starts[0].nlpost < optimum + 1e-3;
    o.hop_blocks = true;
    const FitResult hopped = fit(*problem, o);
    EXPECT_TRUE(hopped.hop_blocks);
    EXPECT_EQ(hopped.hop_block_count, 2u);
    ASSERT_FALSE(hopped.starts.empty());
    expect_blocks_said(held, hopped);
    if (hopped.starts[0].nlpost < optimum + 1e-3) {
      ++reached;
      EXPECT_NEAR(hopped.starts[0].end[5], 2.0, 1e-3);
      EXPECT_GE(hopped.starts[0].round, 1u);
    }
  }
  EXPECT_GE(reached, 5);
  EXPECT_EQ(held_reached, 0);
  o.hop_starts = 1;  // no second point: no block drawn
  EXPECT_EQ(fit(*problem, o).hop_block_count, 0u);
}

}  // namespace
}  // namespace odesens
