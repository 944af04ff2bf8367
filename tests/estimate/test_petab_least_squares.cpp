// The least-squares form of PEtab objectives (petab.hpp): the Jacobian of
// the residuals against central differences, and 1/2 sum r^2 - nlpost the
// same at every point, on conformance cases, a benchmark problem and small
// problems with estimated noise and priors.
#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

PetabOptions tight(bool jacobian) {
  PetabOptions o;
  o.rtol = 1e-11;
  o.atol = {1e-13};
  o.least_squares = true;
  o.residual_jacobian = jacobian;
  o.threads = 2;
  o.steady_state.rtol = 1e-12;
  o.steady_state.atol = 1e-14;
  return o;
}

double half_sum_of_squares(const std::vector<double>& r) {
  double s = 0.0;
  for (double v : r) s += 0.5 * v * v;
  return s;
}

// x moved by `shift` (alternating in sign) on each scaled parameter, kept in the box.
std::vector<double> moved(const PetabProblem& p, double shift) {
  std::vector<double> x = p.nominal_scaled();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double step = shift * (i % 2 ? 1.0 : -1.0) *
                        (p.parameter_scales()[i] == "lin" ? std::max(std::abs(x[i]), 0.1) : 1.0);
    x[i] = std::clamp(x[i] + step, p.lower_scaled()[i], p.upper_scaled()[i]);
  }
  return x;
}

void check_least_squares_form(const std::string& yaml, double tolerance) {
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  ASSERT_TRUE(problem->has_least_squares_form());
  const std::vector<double> x = moved(*problem, 0.05);
  const PetabResult r = problem->evaluate(x, tight(true));
  const std::size_t n = x.size(), nr = problem->n_residuals();
  ASSERT_EQ(r.least_squares_residuals.size(), nr);
  ASSERT_EQ(r.residual_jacobian.size(), nr * n);
  double scale = 0.0;
  for (double v : r.residual_jacobian) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 1e-5 * std::max(1.0, std::abs(x[i]));
    std::vector<double> xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    const PetabResult rp = problem->evaluate(xp, tight(false));
    const PetabResult rm = problem->evaluate(xm, tight(false));
    for (std::size_t k = 0; k < nr; ++k) {
      const double fd = (rp.least_squares_residuals[k] - rm.least_squares_residuals[k]) / (2 * h);
      EXPECT_NEAR(r.residual_jacobian[k * n + i], fd, tolerance * (scale + std::abs(fd)))
          << yaml << ": residual " << k << ", d/d " << problem->parameter_ids()[i];
    }
  }
  // The offset 1/2 sum r^2 - nlpost at three points.
  const double offset = half_sum_of_squares(r.least_squares_residuals) - r.nlpost;
  for (double shift : {0.0, 0.1}) {
    const PetabResult other = problem->evaluate(moved(*problem, shift), tight(false));
    EXPECT_NEAR(half_sum_of_squares(other.least_squares_residuals) - other.nlpost, offset,
                1e-8 * (1.0 + std::abs(offset)))
        << yaml << " at shift " << shift;
  }
}

class ConformanceLeastSquares : public ::testing::TestWithParam<const char*> {};

TEST_P(ConformanceLeastSquares, JacobianMatchesCentralDifferencesAndOffsetIsConstant) {
  check_least_squares_form(test::conformance_case(GetParam()), 1e-5);
}

// Pre-equilibration (0009), estimated initial values (0019), noise
// parameters (0015), log10 and log data (0007, 0016).
INSTANTIATE_TEST_SUITE_P(PetabV1, ConformanceLeastSquares,
                         ::testing::Values("0001", "0007", "0009", "0015", "0016", "0019"),
                         [](const auto& param_info) { return std::string("case") + param_info.param; });

TEST(BenchmarkLeastSquares, BoehmJacobianMatchesCentralDifferencesAndOffsetIsConstant) {
  check_least_squares_form(test::benchmark_problem("Boehm_JProteomeRes2014"), 1e-4);
}

TEST(SyntheticLeastSquares, EstimatedSigmaAndPriorsHaveResidualsOfTheirOwn) {
  test::SyntheticOptions o;
  o.sd_estimated = true;
  o.perturbation = 0.05;
  o.k1_prior = "logNormal\t-1;0.5";
  o.scale_prior = "normal\t2;1";
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  // 13 data residuals, 13 sigma residuals, 2 priors.
  EXPECT_EQ(problem->n_residuals(), 13u + 13u + 2u);
  check_least_squares_form(synthetic.yaml(), 1e-5);
}

TEST(SyntheticLeastSquares, FixedSigmaHasNoSigmaResiduals) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  EXPECT_EQ(problem->n_residuals(), 13u);
  check_least_squares_form(synthetic.yaml(), 1e-5);
}

TEST(SyntheticLeastSquares, LaplaceNoiseHasNoLeastSquaresForm) {
  test::SyntheticOptions o;
  o.noise = "laplace";
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  EXPECT_FALSE(problem->has_least_squares_form());
  EXPECT_EQ(problem->n_residuals(), 0u);
  try {
    problem->evaluate(problem->nominal_scaled(), tight(true));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("Laplace"), std::string::npos) << e.what();
  }
}

TEST(SyntheticLeastSquares, TinySigmaIsRefusedClearly) {
  test::SyntheticOptions o;
  o.sd_estimated = true;
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  std::vector<double> x = problem->nominal_scaled();
  x[2] = -13.0;  // sd = 1e-13 (log10), below the form's 5.5e-12
  try {
    problem->evaluate(x, tight(false));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite);
    EXPECT_NE(std::string(e.what()).find("too small"), std::string::npos) << e.what();
    // sigma's own value, not "0.000000"
    EXPECT_NE(std::string(e.what()).find("sigma = 1e-13"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace odesens
