// The default tolerances of PEtab evaluations on a model whose states are
// small (1e-4, as concentrations in uM often are): the log-likelihood and
// its gradient against their closed forms. With the absolute tolerance of
// the benchmark collection's test setting (1e-8, the default before) the
// log-likelihood was 2.9e-4 off, relative; 7e-7 now.
#include <cmath>

#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "odesens/petab.hpp"

namespace odesens {
namespace {

constexpr double kInitialA = 1e-4, kSd = 1e-7;

// nllh of the synthetic problem at k1 and scale (A = a0 exp(-k1 t) exactly),
// and its derivatives in log10(k1) and scale.
struct ExactObjective {
  double nllh = 0.0, d_log10_k1 = 0.0, d_scale = 0.0;
};

ExactObjective exact(const test::SyntheticOptions& o, double k1, double scale) {
  const double pi = std::acos(-1.0);
  ExactObjective e;
  for (int k = 0; k <= 12; ++k) {
    const double t = 0.5 * k;
    const double y = o.scale_true * o.initial_a * std::exp(-o.k1_true * t);
    const double a = o.initial_a * std::exp(-k1 * t);
    const double r = (y - scale * a) / o.sd;
    e.nllh += 0.5 * std::log(2.0 * pi * o.sd * o.sd) + 0.5 * r * r;
    e.d_scale += -r * a / o.sd;
    e.d_log10_k1 += -r * (-t * scale * a) / o.sd * k1 * std::log(10.0);
  }
  return e;
}

test::SyntheticOptions small_states() {
  test::SyntheticOptions o;
  o.initial_a = kInitialA;
  o.sd = kSd;
  return o;
}

TEST(PetabDefaultTolerances, ResolveSmallStates) {
  const test::SyntheticOptions o = small_states();
  test::SyntheticProblem files(o);
  auto problem = PetabProblem::load(files.yaml());
  PetabOptions options;  // the defaults
  options.gradient = true;
  const PetabResult r = problem->evaluate(problem->nominal_scaled(), options);
  const ExactObjective e = exact(o, o.k1_nominal, o.scale_nominal);
  ASSERT_GT(e.nllh, 1e5);  // the residuals are large: their digits count
  EXPECT_NEAR(r.nllh, e.nllh, 3e-6 * e.nllh);
  ASSERT_EQ(r.parameter_ids, (std::vector<std::string>{"k1", "scale"}));
  EXPECT_NEAR(r.gradient[0], e.d_log10_k1, 3e-5 * std::abs(e.d_log10_k1));
  EXPECT_NEAR(r.gradient[1], e.d_scale, 3e-5 * std::abs(e.d_scale));
}

// The test setting's tolerance is still there for whoever asks for it, and
// on this problem is visibly coarser with cvodes_fsa (what the test above
// guards against; odesd, auto's choice here, is closer at this atol).
TEST(PetabDefaultTolerances, TheTestSettingsAbsoluteToleranceIsCoarserHere) {
  const test::SyntheticOptions o = small_states();
  test::SyntheticProblem files(o);
  auto problem = PetabProblem::load(files.yaml());
  PetabOptions options;
  options.method = "cvodes_fsa";
  options.atol = {1e-8};
  const PetabResult r = problem->evaluate(problem->nominal_scaled(), options);
  const ExactObjective e = exact(o, o.k1_nominal, o.scale_nominal);
  EXPECT_GT(std::abs(r.nllh - e.nllh), 3e-5 * e.nllh);
}

}  // namespace
}  // namespace odesens
