// PetabSession: evaluations that reuse the method's set-up give, bit for
// bit, what a fresh PetabProblem::evaluate gives, whatever the order of
// points and options, with pre-equilibration, on threads, and after a
// failed evaluation.
#include <cmath>
#include <gtest/gtest.h>

#include "estimate/petab_test_support.hpp"
#include "estimate/prepared_solves.hpp"
#include "odesens/builtin_models.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

void expect_same(const PetabResult& a, const PetabResult& b, const std::string& what) {
  EXPECT_EQ(a.method, b.method) << what;
  // Bit for bit: NaN-free results compare equal only when every bit is.
  EXPECT_EQ(a.nllh, b.nllh) << what;
  EXPECT_EQ(a.chi2, b.chi2) << what;
  EXPECT_EQ(a.nlpost, b.nlpost) << what;
  EXPECT_EQ(a.simulations, b.simulations) << what;
  EXPECT_EQ(a.gradient, b.gradient) << what;
  EXPECT_EQ(a.fim, b.fim) << what;
  EXPECT_EQ(a.least_squares_residuals, b.least_squares_residuals) << what;
  EXPECT_EQ(a.residual_jacobian, b.residual_jacobian) << what;
  EXPECT_EQ(a.stats.steps, b.stats.steps) << what;
  EXPECT_EQ(a.warnings, b.warnings) << what;
}

// Points around the nominal one, inside the bounds.
std::vector<double> point(const PetabProblem& p, double shift) {
  std::vector<double> x = p.nominal_scaled();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double step = shift * (i % 2 ? 1.0 : -1.0) *
                        (p.parameter_scales()[i] == "lin" ? std::max(std::abs(x[i]), 0.1) : 1.0);
    x[i] = std::clamp(x[i] + step, p.lower_scaled()[i], p.upper_scaled()[i]);
  }
  return x;
}

// The evaluations a fit makes, in a fit's order: residuals alone, then
// with their Jacobian, the gradient, the FIM, on points that move.
std::vector<PetabOptions> mixed_options(unsigned threads) {
  std::vector<PetabOptions> all(4);
  all[1].gradient = true;
  all[2].fim = true;
  all[2].gradient = true;
  all[3].least_squares = true;
  for (PetabOptions& o : all) o.threads = threads;
  return all;
}

void check_session_matches_fresh(const std::string& yaml, unsigned threads) {
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  PetabSession session(problem);
  const std::vector<PetabOptions> options = mixed_options(threads);
  for (int round = 0; round < 3; ++round)
    for (std::size_t k = 0; k < options.size(); ++k) {
      const std::vector<double> x = point(*problem, 0.02 * (round + 1) - 0.01 * k);
      const std::string what = yaml + " round " + std::to_string(round) + " options " +
                               std::to_string(k);
      expect_same(session.evaluate(x, options[k]), problem->evaluate(x, options[k]), what);
    }
}

TEST(PetabSession, MatchesFreshEvaluationsWithPreequilibration) {
  for (const char* id : {"0009", "0010", "0017", "0018"})
    check_session_matches_fresh(test::conformance_case(id), 1);
}

TEST(PetabSession, MatchesFreshEvaluationsOnABenchmarkProblemOnTwoThreads) {
  check_session_matches_fresh(test::benchmark_problem("Boehm_JProteomeRes2014"), 2);
}

TEST(PetabSession, MatchesFreshEvaluationsWithTheAdjoint) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  PetabSession session(problem);
  PetabOptions adjoint;
  adjoint.method = "cvodes_asa";
  adjoint.gradient = true;
  for (double shift : {0.0, 0.03, -0.02}) {
    const std::vector<double> x = point(*problem, shift);
    expect_same(session.evaluate(x, adjoint), problem->evaluate(x, adjoint), "cvodes_asa");
  }
}

// A point whose simulation fails (a step limit of 1) leaves the session
// ready: the next evaluation is the fresh one's.
TEST(PetabSession, AFailedEvaluationLeavesTheSessionReady) {
  const std::string yaml = test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  PetabSession session(problem);
  PetabOptions o;
  o.gradient = true;
  const std::vector<double> x = problem->nominal_scaled();
  const PetabResult before = session.evaluate(x, o);
  PetabOptions starved = o;
  starved.max_steps = 1;
  EXPECT_THROW(session.evaluate(x, starved), Error);
  std::vector<double> wrong = x;
  wrong.push_back(0.0);
  EXPECT_THROW(session.evaluate(wrong, o), Error);
  expect_same(session.evaluate(x, o), before, "after failures");
  EXPECT_NEAR(-before.nllh, -138.22199693517703, 1e-3 + 1e-3 * 138.222);
}

TEST(PetabSession, RefusesNoProblem) {
  EXPECT_THROW(PetabSession(nullptr), Error);
}

// The cache under the session: one prepared session serves solves that
// differ in parameters, initial state and output times, and equals solve();
// another set-up gets its own session, and no more than kMaxSessions are kept.
TEST(PreparedSolves, OneSessionServesWhatARunChanges) {
  Problem a;
  a.model = make_builtin_model("linear:4");
  a.params = effective_params(a);
  a.output_times = {0.5, 1.0};
  Problem b = a;
  for (double& p : b.params) p *= 1.3;
  b.output_times = {0.25, 0.75, 2.0};
  b.initial_state.assign(a.model->nx(), 0.5);
  petab::PreparedSolves solves;
  for (const Problem* p : {&a, &b, &a, &b}) {
    const Result kept = solves.solve(*p, "cvodes_fsa");
    const Result fresh = solve(*p, "cvodes_fsa");
    EXPECT_EQ(kept.x, fresh.x);
    EXPECT_EQ(kept.s, fresh.s);
  }
  EXPECT_EQ(solves.sessions(), 1u);
  for (int k = 0; k < 12; ++k) {
    Problem c = a;
    c.rtol = 1e-6 * (k + 1);
    EXPECT_EQ(solves.solve(c, "cvodes_fsa").x, solve(c, "cvodes_fsa").x);
  }
  EXPECT_EQ(solves.sessions(), petab::PreparedSolves::kMaxSessions);
}

}  // namespace
}  // namespace odesens
