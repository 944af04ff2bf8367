// The experiments of one evaluation that share a pre-equilibration
// condition share its steady state, solved once (estimate/preequilibrations.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "estimate/petab_experiment.hpp"
#include "estimate/preequilibrations.hpp"
#include "estimate/prepared_solves.hpp"
#include "estimate/two_state_petab_problem.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"
#include "sources/petab/petab_problem.hpp"

namespace odesens {
namespace {

using test::tight_two_state;
using test::TwoStateProblem;

petab::PreequilibrationKey key_of(std::size_t condition) {
  return {condition, "odesd", true, {0, 2}};
}

// Eight threads ask for the same key at once: one solve, every caller its value.
TEST(PetabPreequilibrations, ConcurrentCallersOfOneKeyShareOneSolve) {
  petab::Preequilibrations shared;
  std::atomic<int> solves{0};
  auto solve = [&] {
    ++solves;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    SteadyState s;
    s.x = {1.5, 2.5};
    return s;
  };
  std::vector<std::thread> threads;
  std::vector<std::vector<double>> got(8);
  for (std::size_t k = 0; k < got.size(); ++k)
    threads.emplace_back([&, k] { got[k] = shared.get(key_of(3), solve).x; });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(solves.load(), 1);
  for (const auto& x : got) EXPECT_EQ(x, (std::vector<double>{1.5, 2.5}));
  // Another condition, method, S or columns is another steady state.
  shared.get(key_of(4), solve);
  petab::PreequilibrationKey states_alone = key_of(3);
  states_alone.sensitivities = false;
  shared.get(states_alone, solve);
  petab::PreequilibrationKey other_columns = key_of(3);
  other_columns.columns = {0};
  shared.get(other_columns, solve);
  petab::PreequilibrationKey other_method = key_of(3);
  other_method.method = "cvodes_fsa";
  shared.get(other_method, solve);
  EXPECT_EQ(solves.load(), 5);
}

// A failed pre-equilibration fails every experiment after it, without
// being tried again.
TEST(PetabPreequilibrations, AFailureIsThrownToEveryCaller) {
  petab::Preequilibrations shared;
  int solves = 0;
  auto fail = [&]() -> SteadyState {
    ++solves;
    throw Error(Status::solver_failed, "no steady state");
  };
  for (int k = 0; k < 3; ++k) {
    try {
      shared.get(key_of(0), fail);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::solver_failed);
      EXPECT_STREQ(e.what(), "no steady state");
    }
  }
  EXPECT_EQ(solves, 1);
}

// c1 and c2 after pre-equilibration in cp: the evaluation (which shares
// cp's steady state, on one thread and on two) gives what each experiment
// solved alone gives, bit for bit, and the nllh, gradient and FIM agree.
TEST(PetabPreequilibrations, SharedSteadyStateGivesEachExperimentsOwn) {
  const TwoStateProblem files(
      "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\tmeasurement\n"
      "obs_a\tcp\tc1\t1\t0.9\nobs_b\tcp\tc1\t2\t1.1\n"
      "obs_a\tcp\tc2\t0.5\t1.0\nobs_b\tcp\tc2\t3\t0.8\n"
      "obs_a\t\tc1\t1\t0.6\n");
  auto problem = PetabProblem::load(files.yaml());
  const petab::Definition& def = problem->definition();
  ASSERT_EQ(def.experiments.size(), 3u);
  const std::vector<double> x = {std::log10(0.55), 1.6};
  const std::vector<double> theta = petab::table_values(def, x);
  for (const char* method : {"cvodes_fsa", "odesd"}) {
    SCOPED_TRACE(method);
    PetabOptions options = tight_two_state(method);
    petab::PreparedSolves alone_solves, shared_solves;
    petab::Preequilibrations shared;
    for (const petab::Experiment& e : def.experiments) {
      const petab::ExperimentSolution alone =
          petab::solve_experiment(alone_solves, def, e, theta, options, true);
      const petab::ExperimentSolution with =
          petab::solve_experiment(shared_solves, def, e, theta, options, true, &shared);
      EXPECT_EQ(with.x, alone.x);
      EXPECT_EQ(with.S, alone.S);
    }
    options.gradient = true;
    options.fim = true;
    const PetabResult one = problem->evaluate(x, options);
    options.threads = 2;
    const PetabResult two = problem->evaluate(x, options);
    EXPECT_EQ(one.nllh, two.nllh);
    EXPECT_EQ(one.gradient, two.gradient);
    EXPECT_EQ(one.fim, two.fim);
    EXPECT_TRUE(std::isfinite(one.nllh));
  }
}

}  // namespace
}  // namespace odesens
