// The gradient and the Fisher information of PEtab problems against their
// definitions by central differences, at a point away from the nominal
// one: conformance cases (pre-equilibration, estimated initial values,
// noise parameters, log-transformed data) and benchmark problems.
#include "estimate/petab_test_support.hpp"
#include "odesens/petab.hpp"

namespace odesens {
namespace {

PetabOptions tight(bool gradient, bool fim) {
  PetabOptions o;
  o.rtol = 1e-11;
  o.atol = {1e-13};
  o.gradient = gradient;
  o.fim = fim;
  o.threads = 2;
  o.steady_state.rtol = 1e-12;
  o.steady_state.atol = 1e-14;
  return o;
}

// Away from the nominal point, inside the bounds.
std::vector<double> test_point(const PetabProblem& p) {
  std::vector<double> x = p.nominal_scaled();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double shift = 0.05 * (i % 2 ? 1.0 : -1.0) * (p.parameter_scales()[i] == "lin" ? std::max(std::abs(x[i]), 0.1) : 1.0);
    x[i] = std::clamp(x[i] + shift, p.lower_scaled()[i], p.upper_scaled()[i]);
  }
  return x;
}

void check_gradient_and_fim(const std::string& yaml, double tolerance) {
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  const std::vector<double> x = test_point(*problem);
  const PetabResult r = problem->evaluate(x, tight(true, true));
  const std::size_t n = x.size(), nm = r.residuals.size();
  // Central differences of nlpost, the residuals and the sigmas.
  std::vector<double> dr(nm * n), ds(nm * n);
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 1e-5 * std::max(1.0, std::abs(x[i]));
    std::vector<double> xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    const PetabResult rp = problem->evaluate(xp, tight(false, false));
    const PetabResult rm = problem->evaluate(xm, tight(false, false));
    const double fd = (rp.nlpost - rm.nlpost) / (2 * h);
    EXPECT_NEAR(r.gradient[i], fd, tolerance * (1.0 + std::abs(fd)))
        << yaml << ": d/d " << problem->parameter_ids()[i];
    for (std::size_t m = 0; m < nm; ++m) {
      dr[m * n + i] = (rp.residuals[m] - rm.residuals[m]) / (2 * h);
      ds[m * n + i] = (rp.sigmas[m] - rm.sigmas[m]) / (2 * h);
    }
  }
  // FIM of normal noise: sum (1/s^2) dh dh^T + (2/s^2) ds ds^T, with
  // h = y - s r on the transformed scale, so dh = -(s dr + r ds).
  std::vector<double> fim(n * n, 0.0);
  for (std::size_t m = 0; m < nm; ++m) {
    const double s = r.sigmas[m], res = r.residuals[m];
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) {
        const double dha = s * dr[m * n + a] + res * ds[m * n + a];
        const double dhb = s * dr[m * n + b] + res * ds[m * n + b];
        fim[a * n + b] += (dha * dhb + 2.0 * ds[m * n + a] * ds[m * n + b]) / (s * s);
      }
  }
  double scale = 0.0;
  for (double v : fim) scale = std::max(scale, std::abs(v));
  for (std::size_t k = 0; k < n * n; ++k)
    EXPECT_NEAR(r.fim[k], fim[k], tolerance * (scale + std::abs(fim[k])))
        << yaml << ": FIM entry " << k / n << "," << k % n;
}

class ConformanceGradient : public ::testing::TestWithParam<const char*> {};

TEST_P(ConformanceGradient, GradientAndFimMatchCentralDifferences) {
  check_gradient_and_fim(test::conformance_case(GetParam()), 1e-4);
}

// Pre-equilibration (0009, 0010, 0017, 0018), estimated initial values
// (0019), noise parameters (0015), log10 and log data (0007, 0016).
INSTANTIATE_TEST_SUITE_P(PetabV1, ConformanceGradient,
                         ::testing::Values("0001", "0007", "0009", "0010", "0015", "0016",
                                           "0017", "0018", "0019"),
                         [](const auto& param_info) { return std::string("case") + param_info.param; });

class BenchmarkGradient : public ::testing::TestWithParam<const char*> {};

TEST_P(BenchmarkGradient, GradientAndFimMatchCentralDifferences) {
  check_gradient_and_fim(test::benchmark_problem(GetParam()), 2e-3);
}

INSTANTIATE_TEST_SUITE_P(Collection, BenchmarkGradient,
                         ::testing::Values("Boehm_JProteomeRes2014", "Zheng_PNAS2012",
                                           "Schwen_PONE2014", "Elowitz_Nature2000",
                                           "Brannmark_JBC2010", "Bruno_JExpBot2016",
                                           "Weber_BMC2015"),
                         [](const auto& param_info) { return std::string(param_info.param); });

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// The adjoint gradient (cvodes_asa seeded with d nllh/dx at each
// measurement time through the objective type) equals the forward one.
class AdjointGradient : public ::testing::TestWithParam<const char*> {};

TEST_P(AdjointGradient, EqualsTheForwardGradient) {
  const std::string name = GetParam();
  const std::string yaml =
      name.size() == 4 ? test::conformance_case(name) : test::benchmark_problem(name);
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  const std::vector<double> x = test_point(*problem);
  const PetabResult forward = problem->evaluate(x, tight(true, false));
  PetabOptions adjoint_options = tight(true, false);
  adjoint_options.method = "cvodes_asa";
  const PetabResult adjoint = problem->evaluate(x, adjoint_options);
  EXPECT_NEAR(adjoint.nllh, forward.nllh, 1e-8 * (1 + std::abs(forward.nllh)));
  double scale = 0.0;
  for (double g : forward.gradient) scale = std::max(scale, std::abs(g));
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(adjoint.gradient[i], forward.gradient[i], 1e-5 * (scale + 1.0))
        << name << ": d/d " << problem->parameter_ids()[i];
}

// A gradient alone by cvodes_asa, at the default tolerances.
PetabOptions adjoint_gradient() {
  PetabOptions o;
  o.method = "cvodes_asa";
  o.gradient = true;
  return o;
}

// The likelihood's adjoint needs no S(T): with the adjoint methods' default
// final_sensitivity=1 every experiment also ran one backward problem per
// state (Bachmann_MSB2011: 8.7 s against 0.63 s for the gradient;
// Chen_MSB2009, 500 states: over 10 min against 17 s). PEtab turns it off
// unless the user sets it.
TEST(AdjointGradient, NeedsNoFinalSensitivities) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  const std::vector<double> x = problem->nominal_scaled();
  PetabOptions options = adjoint_gradient();
  const PetabResult lean = problem->evaluate(x, options);
  options.options.set("final_sensitivity", std::int64_t{1});
  const PetabResult full = problem->evaluate(x, options);
  // Boehm (8 states): 2325 steps against 4343 with S(T) (its backward
  // problems share one sweep).
  EXPECT_LT(1.5 * static_cast<double>(lean.stats.steps), static_cast<double>(full.stats.steps))
      << lean.stats.steps << " " << full.stats.steps;
  ASSERT_EQ(lean.gradient.size(), full.gradient.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(lean.gradient[i], full.gradient[i], 1e-6 * (1 + std::abs(full.gradient[i])));
}

// The likelihood alone by an adjoint method is a forward solve: no S(T),
// no backward sweep (Lang_PLOSComputBiol2024 by cvodes_asa took 64 s with
// its 124 backward problems, 0.15 s without). Boehm: the steps of the
// states alone, as cvodes_fsa takes them; the same nllh.
TEST(AdjointLikelihood, IsTheStatesAlone) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  const std::vector<double> x = problem->nominal_scaled();
  PetabOptions options;
  options.method = "cvodes_asa";
  const PetabResult lean = problem->evaluate(x, options);
  options.options.set("final_sensitivity", std::int64_t{1});
  const PetabResult rows = problem->evaluate(x, options);
  options.options = Options{};
  options.method = "cvodes_fsa";
  const PetabResult forward = problem->evaluate(x, options);
  EXPECT_EQ(lean.stats.steps, forward.stats.steps);
  EXPECT_LT(2.0 * static_cast<double>(lean.stats.steps), static_cast<double>(rows.stats.steps))
      << lean.stats.steps << " " << rows.stats.steps;
  EXPECT_EQ(lean.nllh, rows.nllh);
  EXPECT_NEAR(lean.nllh, forward.nllh, 1e-8 * std::abs(forward.nllh));
}

// At the default tolerances: the adjoint's forward states at a tenth of
// rtol (petab_experiment.cpp). With them at rtol, Bachmann's gradient was
// 6.2e-3 of its largest component off (1.5e-3 now; cvodes_fsa 8.1e-5), the
// error in CISRNADelay, which acts through a delay chain.
TEST(AdjointGradient, AtTheDefaultTolerancesIsNearTheForwardOne) {
  const std::string yaml = test::benchmark_problem("Bachmann_MSB2011");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  const std::vector<double> x = problem->nominal_scaled();
  PetabOptions options = adjoint_gradient();
  options.threads = 2;
  const PetabResult adjoint = problem->evaluate(x, options);
  options.rtol = 1e-11;
  options.atol = {1e-14};
  const PetabResult reference = problem->evaluate(x, options);
  double scale = 0.0, worst = 0.0;
  for (double g : reference.gradient) scale = std::max(scale, std::abs(g));
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::abs(adjoint.gradient[i] - reference.gradient[i]));
  EXPECT_LT(worst, 3e-3 * scale) << "largest component " << scale;
}

// The backward states and quadratures keep the rtol asked for: unset, 0
// (cvodes_asa's "the problem's rtol") and rtol itself are the same solve;
// a tighter one given by the caller is kept (more steps).
TEST(AdjointGradient, BackwardTolerancesKeepTheRtolAskedFor) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  const std::vector<double> x = problem->nominal_scaled();
  auto run = [&](double rtol_adjoint, bool set) {
    PetabOptions o = adjoint_gradient();
    if (set) {
      o.options.set("rtol_adjoint", rtol_adjoint);
      o.options.set("rtol_quadrature", rtol_adjoint);
    }
    return problem->evaluate(x, o);
  };
  const PetabResult unset = run(0.0, false), zero = run(0.0, true), same = run(1e-8, true);
  const PetabResult tighter = run(1e-10, true);
  EXPECT_EQ(zero.stats.steps, unset.stats.steps);
  EXPECT_EQ(same.stats.steps, unset.stats.steps);
  EXPECT_EQ(zero.gradient, unset.gradient);
  EXPECT_GT(tighter.stats.steps, unset.stats.steps);
}

INSTANTIATE_TEST_SUITE_P(Problems, AdjointGradient,
                         ::testing::Values("0001", "0006", "0015", "0016", "0019",
                                           "Boehm_JProteomeRes2014", "Schwen_PONE2014",
                                           "Elowitz_Nature2000", "Weber_BMC2015",
                                           "Bruno_JExpBot2016"),
                         [](const auto& param_info) { return std::string(param_info.param); });

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// `auto`'s rule (src/estimate/petab_experiment.cpp, measured in RESULTS.md's
// PEtab section): odesd wherever it suits (second derivatives, S of at
// most 10 000 entries), for a gradient as for the FIM. Where it does not
// (here: options given, which are cvodes_fsa's), the adjoint where at least
// 8 parameters act on the dynamics and outnumber the measurement times per
// experiment (Bachmann: 113 against 3.6; Lucarelli: 84 against 3.9),
// cvodes_fsa where measurement times are many (Beer: 714 an experiment;
// Boehm: 16 for 9 parameters) and wherever S is needed.
TEST(AutoGradientMethod, FollowsParametersAgainstMeasurementTimes) {
  const std::pair<const char*, const char*> expected[] = {
      {"Bachmann_MSB2011", "cvodes_asa"},
      {"Lucarelli_CellSystems2018", "cvodes_asa"},
      {"Beer_MolBioSystems2014", "cvodes_fsa"},
      {"Boehm_JProteomeRes2014", "cvodes_fsa"}};
  for (const auto& [name, method] : expected) {
    const std::string yaml = test::benchmark_problem(name);
    if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
    auto problem = PetabProblem::load(yaml);
    PetabOptions options;
    options.gradient = true;
    options.threads = 2;
    EXPECT_EQ(problem->evaluate(problem->nominal_scaled(), options).method, "odesd") << name;
    options.options.set("lmm", std::string("bdf"));  // CVODES' default, stated
    EXPECT_EQ(problem->evaluate(problem->nominal_scaled(), options).method, method) << name;
  }
  auto bachmann = PetabProblem::load(test::benchmark_problem("Bachmann_MSB2011"));
  PetabOptions with_fim;
  with_fim.gradient = true;
  with_fim.fim = true;
  with_fim.threads = 2;
  EXPECT_EQ(bachmann->evaluate(bachmann->nominal_scaled(), with_fim).method, "odesd");
  with_fim.options.set("lmm", std::string("bdf"));
  EXPECT_EQ(bachmann->evaluate(bachmann->nominal_scaled(), with_fim).method, "cvodes_fsa");
}

}  // namespace
}  // namespace odesens
