// Profile likelihoods (profile.hpp): the threshold, closed intervals that
// agree with the Fisher information's where the model is nearly linear in
// the parameters, a flat profile with an open interval for a parameter the
// data cannot determine, the stop flag, refusals, and Boehm's intervals
// around its published parameters (slow).
#include <atomic>
#include <cmath>

#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "fit/fit_plots.hpp"
#include "odesens/fit.hpp"
#include "odesens/profile.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

// The inverse of a 2 x 2 row-major matrix's diagonal entry i.
double inverse_diagonal(const std::vector<double>& m, std::size_t n, std::size_t i) {
  EXPECT_EQ(n, 2u);
  const double det = m[0] * m[3] - m[1] * m[2];
  return (i == 0 ? m[3] : m[0]) / det;
}

TEST(Profile, ThresholdIsHalfTheChiSquareQuantileOfOneDegree) {
  EXPECT_NEAR(profile_threshold(0.95), 3.841458820694124 / 2, 1e-12);
  EXPECT_NEAR(profile_threshold(0.99), 6.634896601021214 / 2, 1e-12);
  EXPECT_NEAR(profile_threshold(0.6826894921370859), 0.5, 1e-10);  // one sigma
}

// obs = scale exp(-k1 t) with noisy data: the profiles cross the threshold
// on both sides, around the optimum, where the nearly quadratic nlpost
// puts them: at +-sqrt(2 threshold (FIM^-1)_ii).
TEST(Profile, IdentifiableParametersHaveClosedIntervalsThatMatchTheFisherInformation) {
  test::SyntheticOptions so;
  so.perturbation = 0.05;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const StartResult best = optimize(*problem, {std::log10(0.3), 2.0}, {}, OptimizerOptions{});
  ASSERT_EQ(best.status, Status::ok) << best.exit_reason;
  PetabOptions eval;
  eval.fim = true;
  const PetabResult at_best = problem->evaluate(best.end, eval);

  const std::vector<Profile> profiles = profile(*problem, best.end, ProfileOptions{});
  ASSERT_EQ(profiles.size(), 2u);
  for (const Profile& p : profiles) {
    SCOPED_TRACE(p.id);
    EXPECT_EQ(p.lower_end, ProfileEnd::crossed);
    EXPECT_EQ(p.upper_end, ProfileEnd::crossed);
    EXPECT_FALSE(p.found_better);
    const double x = best.end[p.parameter];
    EXPECT_LT(p.lower, x);
    EXPECT_GT(p.upper, x);
    const double wald = std::sqrt(2 * p.threshold * inverse_diagonal(at_best.fim, 2, p.parameter));
    EXPECT_NEAR(x - p.lower, wald, 0.15 * wald);
    EXPECT_NEAR(p.upper - x, wald, 0.15 * wald);
    // Sorted, the start among them, the ends above the threshold.
    for (std::size_t k = 1; k < p.points.size(); ++k)
      EXPECT_LT(p.points[k - 1].value, p.points[k].value);
    EXPECT_GE(p.points.front().nlpost - p.best_nlpost, p.threshold);
    EXPECT_GE(p.points.back().nlpost - p.best_nlpost, p.threshold);
    // The other parameter re-optimized, the profiled one held.
    for (const ProfilePoint& q : p.points) EXPECT_EQ(q.x[p.parameter], q.value);
  }
}

// obs = scale * scale2 * A: only the product is determined. Raising scale2
// from its optimum 1 to its bound 10 is matched by scale (2 -> 0.2, inside
// [0.1, 10]): flat, open at the bound. Below scale2 = 0.2 scale would have
// to pass its bound 10: the profile rises and crosses.
TEST(Profile, ANonIdentifiableParameterHasAFlatProfileAndAnOpenInterval) {
  test::SyntheticOptions so;
  so.second_scale = true;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  ASSERT_EQ(problem->parameter_ids()[2], "scale2");
  ProfileOptions options;
  options.parameters = {2};
  const std::vector<Profile> profiles = profile(*problem, {std::log10(0.3), 2.0, 1.0}, options);
  ASSERT_EQ(profiles.size(), 1u);
  const Profile& p = profiles[0];
  EXPECT_EQ(p.upper_end, ProfileEnd::bound);
  EXPECT_TRUE(p.upper_open());
  EXPECT_EQ(p.upper, 10.0);
  EXPECT_EQ(p.lower_end, ProfileEnd::crossed);
  EXPECT_LT(p.lower, 0.2);
  EXPECT_GT(p.lower, 0.1);
  for (const ProfilePoint& q : p.points) {
    if (q.value >= 0.25) {
      EXPECT_LT(q.nlpost - p.best_nlpost, 1e-4) << "at " << q.value;
    }
  }
}

TEST(Profile, TheStopFlagKeepsEverySideAtItsStart) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  std::atomic<bool> stop{true};
  const std::vector<Profile> profiles =
      profile(*problem, {std::log10(0.3), 2.0}, ProfileOptions{}, {}, &stop);
  ASSERT_EQ(profiles.size(), 2u);
  for (const Profile& p : profiles) {
    EXPECT_EQ(p.lower_end, ProfileEnd::stopped);
    EXPECT_EQ(p.upper_end, ProfileEnd::stopped);
    EXPECT_EQ(p.points.size(), 1u);
  }
}

// A re-optimization whose time ran out before any evaluation ended says
// nothing of the step: a shorter one would take as long. The side ends
// there, at its first step, rather than halving it down to min_step.
TEST(Profile, ASideWhoseReoptimizationHasNoValueInTimeEndsAtItsFirstStep) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  ProfileOptions options;
  options.parameters = {1};
  options.first_step = 0.25;
  options.optimizer.max_seconds = 1e-9;
  const std::vector<Profile> profiles = profile(*problem, {std::log10(0.3), 2.0}, options);
  ASSERT_EQ(profiles.size(), 1u);
  const Profile& p = profiles[0];
  EXPECT_EQ(p.lower_end, ProfileEnd::failed);
  EXPECT_EQ(p.upper_end, ProfileEnd::failed);
  EXPECT_EQ(p.points.size(), 1u);  // the start alone
  // "at 1.75: ..." and "at 2.25: ...": the first step's values.
  EXPECT_EQ(p.lower_failure.rfind("at 1.75: ", 0), 0u) << p.lower_failure;
  EXPECT_EQ(p.upper_failure.rfind("at 2.25: ", 0), 0u) << p.upper_failure;
  for (const std::string& failure : {p.lower_failure, p.upper_failure})
    EXPECT_NE(failure.find("no evaluation ended within the start's time"), std::string::npos)
        << failure;
}

// A side stopped at its start leaves one point; its panel is drawn around
// it (gnuplot's own range would be of rounding width, its ticks unreadable),
// a traced profile's in gnuplot's range with at most four ticks.
TEST(Profile, APanelOfALonePointSpansOneUnitEachSide) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  std::atomic<bool> stop{true};
  const std::vector<Profile> lone =
      profile(*problem, {std::log10(0.3), 2.0}, ProfileOptions{}, {}, &stop);
  ASSERT_EQ(lone.size(), 2u);
  EXPECT_EQ(fitting::profile_xrange(lone[1]), "set xrange [1:3]\nset xtics autofreq\n");
  ProfileOptions options;
  options.parameters = {1};
  options.max_points = 2;
  const std::vector<Profile> traced = profile(*problem, {std::log10(0.3), 2.0}, options);
  ASSERT_EQ(traced.size(), 1u);
  ASSERT_GT(traced[0].points.size(), 1u);
  const std::string traced_range = fitting::profile_xrange(traced[0]);
  EXPECT_EQ(traced_range.rfind("set autoscale x\nset xtics ", 0), 0u) << traced_range;
  // At most four ticks over the traced range, 1, 2 or 5 times a power of ten.
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const ProfilePoint& q : traced[0].points) lo = std::min(lo, q.value), hi = std::max(hi, q.value);
  const double step = std::stod(traced_range.substr(traced_range.rfind(' ') + 1));
  EXPECT_GE((hi - lo) / step, 0.6) << traced_range;
  EXPECT_LE((hi - lo) / step, 3.0) << traced_range;
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
  EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 ||
              std::fabs(mantissa - 5) < 1e-9)
      << traced_range;
}

// A range a few doubles wide: steps of a hundredth of it do not move the
// value, which ended the side with max_points points at one value. Each
// step now moves at least to the next double, and the side ends at its bound.
TEST(Profile, ASideOfARangeAFewDoublesWideEndsAtItsBound) {
  test::SyntheticOptions so;
  so.k1_lower = 2.0;
  so.k1_upper = std::nextafter(std::nextafter(2.0, 3.0), 3.0);
  so.k1_nominal = 2.0;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const double lower = problem->lower_scaled()[0], upper = problem->upper_scaled()[0];
  ASSERT_LT(lower, upper);
  ProfileOptions options;
  options.parameters = {0};
  options.max_points = 20;
  const std::vector<Profile> profiles = profile(*problem, {lower, 2.0}, options);
  ASSERT_EQ(profiles.size(), 1u);
  const Profile& p = profiles[0];
  EXPECT_EQ(p.lower_end, ProfileEnd::bound);
  EXPECT_EQ(p.upper_end, ProfileEnd::bound);
  EXPECT_EQ(p.upper, upper);
  EXPECT_LT(p.points.size(), 10u);
  for (std::size_t k = 1; k < p.points.size(); ++k)
    EXPECT_LT(p.points[k - 1].value, p.points[k].value);
}

TEST(Profile, BadInputIsRefusedNamingWhatIsWrong) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const std::vector<double> at = {std::log10(0.3), 2.0};
  auto refused = [&](const std::vector<double>& x, const ProfileOptions& o, const char* words) {
    try {
      profile(*problem, x, o);
      ADD_FAILURE() << "accepted; expected: " << words;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused({0.0}, ProfileOptions{}, "1 values");
  refused({5.0, 2.0}, ProfileOptions{}, "outside its bounds");
  refused({std::nan(""), 2.0}, ProfileOptions{}, "not a finite number");
  ProfileOptions o;
  o.confidence = 1.0;
  refused(at, o, "confidence");
  o.confidence = 1e-300;  // a threshold of 0: max_points a side for nothing
  refused(at, o, "threshold of 0");
  o = ProfileOptions{};
  o.parameters = {7};
  refused(at, o, "index 7");
  o = ProfileOptions{};
  o.min_step = 0;
  refused(at, o, "min_step");
  o = ProfileOptions{};
  o.max_points = 0;
  refused(at, o, "max_points");
}

// Boehm_JProteomeRes2014's published parameters (the nominal values) lie
// inside their 95 % profile intervals.
TEST(ProfileSlow, BoehmsIntervalsContainTheNominalValues) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "shared PEtab problems absent: " << yaml;
  auto problem = PetabProblem::load(yaml);
  ProfileOptions options;
  options.threads = 0;
  options.max_points = 30;
  const std::vector<Profile> profiles = profile(*problem, problem->nominal_scaled(), options);
  ASSERT_EQ(profiles.size(), problem->parameter_ids().size());
  for (const Profile& p : profiles) {
    SCOPED_TRACE(p.id);
    const double nominal = problem->nominal_scaled()[p.parameter];
    EXPECT_LE(p.lower, nominal);
    EXPECT_GE(p.upper, nominal);
    EXPECT_FALSE(p.found_better);
  }
}

}  // namespace
}  // namespace odesens
