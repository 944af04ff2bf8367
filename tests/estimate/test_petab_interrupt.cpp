// PetabOptions::interrupt: an evaluation asked to stop ends before its next
// experiment with Error(interrupted) naming it, also after a
// pre-equilibration and on threads, and within a solve of CVODES or odesd; it leaves
// its session ready.
#include <atomic>
#include <memory>
#include <gtest/gtest.h>

#include "estimate/petab_test_support.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

// The Error an evaluation throws (a test failure when it throws none).
Error evaluation_error(PetabSession& session, const std::vector<double>& x,
                       const PetabOptions& o) {
  try {
    session.evaluate(x, o);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the evaluation was not interrupted";
  return Error(Status::ok, "");
}

// Beer_MolBioSystems2014 (19 experiments, none pre-equilibrated) and a
// session on it; skipped without the shared data.
class BeerInterrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string yaml = test::benchmark_problem("Beer_MolBioSystems2014");
    if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
    problem = PetabProblem::load(yaml);
    session = std::make_unique<PetabSession>(problem);
  }
  std::shared_ptr<const PetabProblem> problem;
  std::unique_ptr<PetabSession> session;
};

// Beer_MolBioSystems2014 has 19 experiments, none pre-equilibrated: asked
// once before each (grk4as does not ask within its solves), the interrupt
// ends the evaluation at the fourth.
TEST_F(BeerInterrupt, EndsTheEvaluationBeforeTheNextExperiment) {
  PetabOptions o;
  o.method = "grk4as";
  o.gradient = true;
  const std::vector<double> x = problem->nominal_scaled();
  const PetabResult whole = session->evaluate(x, o);
  ASSERT_EQ(whole.n_experiments, 19u);
  int asked = 0;
  PetabOptions interrupted = o;
  interrupted.interrupt = [&] { return ++asked > 3; };
  const Error e = evaluation_error(*session, x, interrupted);
  EXPECT_EQ(e.status(), Status::interrupted);
  EXPECT_EQ(asked, 4);
  const std::string message = e.what();
  EXPECT_NE(message.find("condition '"), std::string::npos) << message;
  EXPECT_NE(message.find("interrupted before its solves"), std::string::npos) << message;
  // The session is ready: the next evaluation is the whole one, bit for bit.
  const PetabResult again = session->evaluate(x, o);
  EXPECT_EQ(again.nllh, whole.nllh);
  EXPECT_EQ(again.gradient, whole.gradient);
  // An interrupt that never says stop changes nothing.
  PetabOptions never = o;
  never.interrupt = [] { return false; };
  EXPECT_EQ(session->evaluate(x, never).gradient, whole.gradient);
}

// cvodes_fsa and odesd (what "auto" runs here) ask within their solves
// as well: the evaluation ends inside the first experiment's solve.
class BeerSolveInterrupt : public BeerInterrupt,
                           public ::testing::WithParamInterface<const char*> {};

TEST_P(BeerSolveInterrupt, EndsASolveUnderWay) {
  PetabOptions o;
  o.method = GetParam();
  o.gradient = true;
  const std::vector<double> x = problem->nominal_scaled();
  const PetabResult whole = session->evaluate(x, o);
  if (o.method == "auto") {
    EXPECT_EQ(whole.method, "odesd");
  }
  int asked = 0;
  PetabOptions interrupted = o;
  interrupted.interrupt = [&] { return ++asked > 1; };
  const Error e = evaluation_error(*session, x, interrupted);
  EXPECT_EQ(e.status(), Status::interrupted);
  EXPECT_EQ(asked, 2);
  EXPECT_NE(std::string(e.what()).find("the solve was interrupted at t = "), std::string::npos)
      << e.what();
  EXPECT_EQ(session->evaluate(x, o).gradient, whole.gradient);
}

INSTANTIATE_TEST_SUITE_P(Methods, BeerSolveInterrupt,
                         ::testing::Values("cvodes_fsa", "auto"));

TEST_F(BeerInterrupt, EndsTheEvaluationOnThreads) {
  PetabOptions o;
  o.method = "dopri8s";
  o.threads = 2;
  std::atomic<int> asked{0};
  o.interrupt = [&] { return ++asked > 5; };
  const Error e = evaluation_error(*session, problem->nominal_scaled(), o);
  EXPECT_EQ(e.status(), Status::interrupted) << e.what();
  // Each thread stops at its next experiment: far fewer than 19 asked.
  EXPECT_LE(asked.load(), 8);
}

// Conformance case 0009: one experiment after a pre-equilibration, whose
// steady state is found by integration (cvodes_fsa, asking within its
// solve; Newton, which would take it with its conservation law, is off). Asked before the experiment, during the pre-equilibration, and
// between it and the simulation (by dopri8s, which does not ask within): an
// interrupt that says stop at its last ask ends the evaluation there; one
// that says stop at its second ends it in the pre-equilibration, with its
// own status (not as a steady state not found).
TEST(PetabInterrupt, AsksDuringAndAfterThePreequilibration) {
  const std::string yaml = test::conformance_case("0009");
  if (!test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  auto problem = PetabProblem::load(yaml);
  PetabSession session(problem);
  const std::vector<double> x = problem->nominal_scaled();
  int asks = 0;
  PetabOptions o;
  o.method = "dopri8s";
  o.steady_state.try_newton = false;
  o.interrupt = [&] { return ++asks < 0; };
  session.evaluate(x, o);
  ASSERT_GE(asks, 3);
  const int all = asks;
  int asked = 0;
  o.interrupt = [&] { return ++asked >= all; };
  Error e = evaluation_error(session, x, o);
  EXPECT_EQ(e.status(), Status::interrupted);
  EXPECT_NE(std::string(e.what()).find("after its pre-equilibration"), std::string::npos)
      << e.what();
  asked = 0;
  o.interrupt = [&] { return ++asked >= 2; };
  e = evaluation_error(session, x, o);
  EXPECT_EQ(e.status(), Status::interrupted) << e.what();
  EXPECT_NE(std::string(e.what()).find("the solve was interrupted at t = "), std::string::npos)
      << e.what();
}

}  // namespace
}  // namespace odesens
