// Starts drawn from the problem's initialization priors
// (initializationPriorType): the hypercube's strata carried to the prior's
// quantiles, the prior truncated to the bounds; parameters without one
// keep the hypercube's points; priors without probability in the bounds
// and normal priors without parameters refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <vector>

#include "estimate/synthetic_petab_problem.hpp"
#include "odesens/fit.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

constexpr std::size_t kStarts = 40;

// The start points of a fit of `o` with 40 starts that stop at once.
std::vector<std::vector<double>> starts_of(const test::SyntheticOptions& o) {
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions fit_options;
  fit_options.starts = kStarts;
  fit_options.seed = 11;
  fit_options.optimizer.max_iterations = 1;
  const FitResult r = fit(*problem, fit_options);
  std::vector<std::vector<double>> starts(kStarts);
  for (const StartResult& s : r.starts) starts.at(s.index) = s.start;
  return starts;
}

// k1 on log10 in [1e-3, 10]: parameterScaleNormal(-0.5, 0.1) puts the
// starts' log10 k1 at the normal's quantiles of the hypercube's strata.
TEST(InitializationPriors, ParameterScaleNormalTakesTheStrataToItsQuantiles) {
  const auto box = starts_of({});
  test::SyntheticOptions o;
  o.k1_initialization = "parameterScaleNormal\t-0.5;0.1";
  const auto drawn = starts_of(o);
  const boost::math::normal prior(-0.5, 0.1);
  const double lo = std::log10(1e-3), hi = 1.0;
  std::vector<int> strata(kStarts, 0);
  for (std::size_t k = 0; k < kStarts; ++k) {
    const double q = (box[k][0] - lo) / (hi - lo);
    EXPECT_NEAR(drawn[k][0], boost::math::quantile(prior, q), 1e-9) << k;
    ++strata[std::min(kStarts - 1, static_cast<std::size_t>(boost::math::cdf(prior, drawn[k][0]) *
                                                            kStarts))];
    EXPECT_EQ(drawn[k][1], box[k][1]) << "scale has no prior: the hypercube's point";
  }
  for (int n : strata) EXPECT_EQ(n, 1);
}

// logNormal is of the natural log of the linear value; uniform of the
// linear value, whatever the parameter's scale; each truncated to the box.
TEST(InitializationPriors, LogNormalAndUniformAreOfTheirOwnVariables) {
  test::SyntheticOptions o;
  o.k1_initialization = "logNormal\t" + std::to_string(std::log(0.3)) + ";0.05";
  o.scale_initialization = "uniform\t5;20";  // scale's box is [0.1, 10]
  const auto drawn = starts_of(o);
  double smallest = 10.0, largest = 0.0;
  for (const auto& x : drawn) {
    const double k1 = std::pow(10.0, x[0]);
    EXPECT_LT(std::fabs(std::log(k1 / 0.3)), 0.05 * 4) << k1;
    EXPECT_GE(x[1], 5.0);
    EXPECT_LE(x[1], 10.0);
    smallest = std::min(smallest, x[1]);
    largest = std::max(largest, x[1]);
  }
  // Uniform on [5, 10] after truncation: 40 strata of 0.125 each.
  EXPECT_LT(smallest, 5.125);
  EXPECT_GT(largest, 9.875);
}

// parameterScaleNormal(-12, 0.5) with log10 k1 in [-3, 1]: the box lies 18
// sd above the mean, where the prior's cdf rounds to 1 (refused before as
// without probability; at 8 sd it gave 6 distinct starts of 20). Drawn in
// the mirror image's lower tail: 40 distinct starts near the lower bound
// (the truncated prior falls off as exp(-36 (x + 3))), in the strata's order.
TEST(InitializationPriors, FarInTheUpperTailTheStartsStayDistinct) {
  test::SyntheticOptions far;
  far.k1_initialization = "parameterScaleNormal\t-12;0.5";
  const std::vector<std::vector<double>> starts = starts_of(far);
  std::vector<double> k1;
  for (const auto& x : starts) k1.push_back(x.at(0));
  std::vector<double> sorted = k1;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()) - sorted.begin(), 40);
  for (double v : k1) {
    EXPECT_GE(v, -3.0);
    EXPECT_LT(v, -2.6);
  }
  // Half the truncated prior's mass lies below -3 + ln 2 / 36.
  const auto below = std::count_if(k1.begin(), k1.end(),
                                   [](double v) { return v < -3.0 + std::log(2.0) / 36.0; });
  EXPECT_NEAR(static_cast<double>(below), 20.0, 3.0);
  // 37.7 sd above the mean the mass (about 1e-311) is below the smallest
  // probability the quantiles take: refused, not every start on the bound.
  far.k1_initialization = "parameterScaleNormal\t-6.77;0.1";
  EXPECT_THROW(starts_of(far), Error);
}

TEST(InitializationPriors, RefusedWhereNoStartCanBeDrawn) {
  test::SyntheticOptions outside;
  outside.k1_initialization = "parameterScaleNormal\t50;0.1";  // 490 sd above the box
  test::SyntheticProblem synthetic(outside);
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions fit_options;
  fit_options.starts = 2;
  try {
    fit(*problem, fit_options);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("the initialization prior of 'k1' has no probability "
                                         "within its bounds [0.001, 10]"),
              std::string::npos)
        << e.what();
  }
  // Given starts do not read the priors, unless failed ones are drawn again.
  fit_options.start_points = {{-0.5, 2.0}};
  fit_options.optimizer.max_iterations = 1;
  EXPECT_NO_THROW(fit(*problem, fit_options));
  fit_options.resample_failed = 1;
  EXPECT_THROW(fit(*problem, fit_options), Error);
  // Nor unless hops draw parameters without effect from the box (before any
  // start, not after the rounds' first draw); the problem has no blocks
  // (FitOptions::hop_blocks) for them to draw.
  fit_options.resample_failed = 0;
  fit_options.hop_rounds = 1;
  EXPECT_THROW(fit(*problem, fit_options), Error);
  fit_options.hop_flat_from_box = false;
  EXPECT_NO_THROW(fit(*problem, fit_options));

  test::SyntheticOptions bare;
  bare.k1_initialization = "normal\t";
  test::SyntheticProblem without_parameters(bare);
  try {
    PetabProblem::load(without_parameters.yaml());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("initializationPriorType 'normal' needs "
                                         "initializationPriorParameters"),
              std::string::npos)
        << e.what();
  }
  // A uniform type without parameters spans the bounds: the hypercube.
  test::SyntheticOptions box_uniform;
  box_uniform.k1_initialization = "parameterScaleUniform\t";
  EXPECT_EQ(starts_of(box_uniform), starts_of({}));
}

}  // namespace
}  // namespace odesens
