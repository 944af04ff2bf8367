// The experiments of one evaluation that share a pre-equilibration
// condition share its steady state, solved once (estimate/preequilibrations.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "estimate/petab_experiment.hpp"
#include "estimate/petab_test_support.hpp"
#include "estimate/preequilibrations.hpp"
#include "estimate/prepared_solves.hpp"
#include "estimate/two_state_petab_problem.hpp"
#include "io/temp_folder.hpp"
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


// A <-> B at rates k1 A, k2 B (amounts per time, A and B concentrations) in
// a compartment of size V (1 in the model), A(0) = B(0) = 1: the
// concentrations change by (-k1 A + k2 B) / V. The model's parameter s
// (1) is read by nothing but an observable that names it. The tables but
// the model are the test's; obs is A unless `observed` says otherwise.
class ExchangeProblem {
 public:
  ExchangeProblem(const std::string& conditions, const std::string& measurements,
                  const std::string& parameters, const std::string& observed = "A") {
    write("model.xml", model());
    write("conditions.tsv", conditions);
    write("observables.tsv",
          "observableId\tobservableFormula\tnoiseFormula\nobs\t" + observed + "\t1\n");
    write("measurements.tsv",
          "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\t"
          "measurement\n" + measurements);
    write("parameters.tsv",
          "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n" +
              parameters);
    write("problem.yaml",
          "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
          "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
          "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n");
  }
  std::shared_ptr<const PetabProblem> load() const {
    return PetabProblem::load(folder_.file("problem.yaml"));
  }

 private:
  static std::string law(const char* k, const char* s) {
    return std::string("<kineticLaw><math xmlns=\"http://www.w3.org/1998/Math/MathML\">"
                       "<apply><times/><ci>") + k + "</ci><ci>" + s +
           "</ci></apply></math></kineticLaw>";
  }
  static std::string reaction(const char* id, const char* from, const char* to, const char* k) {
    return std::string("<reaction id=\"") + id + "\" reversible=\"false\"><listOfReactants>" +
           "<speciesReference species=\"" + from + "\"/></listOfReactants><listOfProducts>" +
           "<speciesReference species=\"" + to + "\"/></listOfProducts>" + law(k, from) +
           "</reaction>";
  }
  static std::string model() {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<sbml xmlns=\"http://www.sbml.org/sbml/level2/version4\" level=\"2\" version=\"4\">"
           "<model id=\"m\"><listOfCompartments><compartment id=\"V\" size=\"1\" "
           "constant=\"true\"/></listOfCompartments><listOfSpecies>"
           "<species id=\"A\" compartment=\"V\" initialConcentration=\"1\"/>"
           "<species id=\"B\" compartment=\"V\" initialConcentration=\"1\"/></listOfSpecies>"
           "<listOfParameters><parameter id=\"k1\" value=\"0.8\"/><parameter id=\"k2\" "
           "value=\"0.6\"/><parameter id=\"s\" value=\"1\"/></listOfParameters>"
           "<listOfReactions>" +
           reaction("fwd", "A", "B", "k1") + reaction("rev", "B", "A", "k2") +
           "</listOfReactions></model></sbml>\n";
  }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(folder_.file(name), std::ios::binary) << text;
  }
  io::testing::TempFolder folder_;
};

PetabOptions tight_with_gradient(const char* method) {
  PetabOptions options;
  options.method = method;
  options.rtol = 1e-10;
  options.atol = {1e-12};
  options.gradient = true;
  return options;
}

// Pre-equilibrated at V = 3, then A set to 0.2: a simulation condition that
// leaves V NaN keeps the pre-equilibrated size, as B keeps its
// pre-equilibrated amount (it took the model's V = 1). Analytic: the
// steady state A* = 2 k2 / (k1 + k2), B* = 2 - A*; then A + B stays
// 0.2 + B* and A(t) relaxes to its share k2 / (k1 + k2) at rate (k1 + k2) / V.
TEST(PetabPreequilibrations, ACompartmentLeftNaNKeepsItsPreequilibratedSize) {
  const ExchangeProblem exchange(
      "conditionId\tV\tA\npre\t3\tNaN\nsim\tNaN\t0.2\nsim_v3\t3\t0.2\n",
      "obs\tpre\tsim\t1\t0\nobs\tpre\tsim_v3\t1\t0\nobs\t\tsim\t1\t0\n",
      "k1\tlin\t0\t10\t0.8\t1\nk2\tlin\t0\t10\t0.6\t1\n");
  auto problem = exchange.load();
  const double k1 = 0.8, k2 = 0.6, share = k2 / (k1 + k2);
  const auto relaxed = [&](double a0, double total, double v) {
    return total * share + (a0 - total * share) * std::exp(-(k1 + k2) / v);
  };
  const double b_star = 2.0 - 2.0 * share;
  for (const char* method : {"cvodes_fsa", "odesd"}) {
    SCOPED_TRACE(method);
    PetabOptions options = tight_with_gradient(method);
    const PetabResult r = problem->evaluate({k1, k2}, options);
    ASSERT_EQ(r.simulations.size(), 3u);
    EXPECT_NEAR(r.simulations[0], relaxed(0.2, 0.2 + b_star, 3.0), 1e-7);
    EXPECT_NEAR(r.simulations[1], relaxed(0.2, 0.2 + b_star, 3.0), 1e-7);
    EXPECT_NEAR(r.simulations[2], relaxed(0.2, 1.2, 1.0), 1e-7);  // no pre-equilibration
  }
}

// The gradient at x by `method` (tight tolerances), each entry checked
// against central differences of the likelihood; empty, and a failure, where
// it has not one entry per parameter.
std::vector<double> gradient_checked_by_differences(const PetabProblem& problem,
                                                    const std::vector<double>& x,
                                                    const char* method) {
  PetabOptions options = tight_with_gradient(method);
  const PetabResult r = problem.evaluate(x, options);
  EXPECT_EQ(r.gradient.size(), x.size());
  if (r.gradient.size() != x.size()) return {};
  options.gradient = false;
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(r.gradient[i], test::central_difference(problem, x, i, 1e-5, options), 1e-6)
        << r.parameter_ids[i];
  return r.gradient;
}

// gradient_checked_by_differences by cvodes_fsa, odesd and cvodes_asa;
// entry `moved` of each at least 1e-2 in size (its parameter acts).
void check_gradient_by_every_method(const PetabProblem& problem, const std::vector<double>& x,
                                    std::size_t moved) {
  for (const char* method : {"cvodes_fsa", "odesd", "cvodes_asa"}) {
    SCOPED_TRACE(method);
    const std::vector<double> g = gradient_checked_by_differences(problem, x, method);
    if (g.size() > moved) {
      EXPECT_GT(std::abs(g[moved]), 1e-2);
    }
  }
}

// The simulation condition sets A's initial value to an estimated
// parameter that the pre-equilibration condition leaves NaN: the steady
// state does not depend on it, and A restarts from it with dA/da = 1. The
// gradient (refused before, as a parameter set differently in the two
// conditions) against central differences.
TEST(PetabPreequilibrations, AnEstimatedInitialValueAfterPreequilibrationHasAGradient) {
  const ExchangeProblem exchange(
      "conditionId\tA\npre\tNaN\nsim\ta_init\n",
      "obs\tpre\tsim\t0.5\t0.4\nobs\tpre\tsim\t2\t0.7\n",
      "k1\tlog10\t0.01\t10\t0.8\t1\nk2\tlog10\t0.01\t10\t0.6\t1\na_init\tlin\t0\t5\t0.2\t1\n");
  auto problem = exchange.load();
  const std::vector<double> x = {std::log10(0.8), std::log10(0.6), 0.2};
  for (const char* method : {"cvodes_fsa", "odesd"}) {
    SCOPED_TRACE(method);
    const std::vector<double> g = gradient_checked_by_differences(*problem, x, method);
    if (g.size() == 3) {
      EXPECT_NE(g[2], 0.0);
    }
  }
}

// The pre-equilibration condition sets A's initial value to an estimated
// parameter and the simulation condition leaves it NaN: the steady state's
// total, and so every simulation after it, depends on it (an estimated
// initial amount, then a stimulus). The gradient was refused as "set
// differently in the two conditions"; against central differences, and a
// measurement at steady state beside finite times.
TEST(PetabPreequilibrations, AnInitialValueThePreequilibrationSetsHasAGradient) {
  const ExchangeProblem exchange(
      "conditionId\tA\tk1\npre\ta_init\t0.3\nsim\tNaN\t0.8\n",
      "obs\tpre\tsim\t0.5\t0.4\nobs\tpre\tsim\t2\t0.7\nobs\tpre\tsim\tinf\t0.6\n",
      "k2\tlog10\t0.01\t10\t0.6\t1\na_init\tlin\t0\t5\t0.9\t1\n");
  auto problem = exchange.load();
  const std::vector<double> x = {std::log10(0.6), 0.9};
  check_gradient_by_every_method(*problem, x, 1);
}

// The pre-equilibration condition sets k1 to a number and the simulation
// condition to an estimated parameter (a stimulus off before, estimated
// after): the steady state does not depend on it. Refused before as "set
// differently"; the gradient against central differences.
TEST(PetabPreequilibrations, ANumberBeforeAndAnEstimateAfterHaveAGradient) {
  const ExchangeProblem exchange(
      "conditionId\tk1\npre\t0.3\nsim\tk1_after\n",
      "obs\tpre\tsim\t0.5\t0.4\nobs\tpre\tsim\t2\t0.7\n",
      "k1_after\tlog10\t0.01\t10\t0.8\t1\nk2\tlog10\t0.01\t10\t0.6\t1\n");
  auto problem = exchange.load();
  const std::vector<double> x = {std::log10(0.8), std::log10(0.6)};
  check_gradient_by_every_method(*problem, x, 0);
}

// The two conditions swap the estimated rates: k1 = ka, k2 = kb before,
// k1 = kb, k2 = ka after. The steady state's dx/dka (of k1) goes on in
// k2's column, which ka sets in the simulation. Analytic: A* = 2 kb / s
// (s = ka + kb) before; after, A relaxes from A* to 2 ka / s at rate s, and
// sits there at t = inf. The gradient (log10 scale) against the derivative
// of that nllh (sigma 1), by central differences of the formula, not of
// solves (at h = 1e-5 those carry the solver's error / h, 1e-5).
TEST(PetabPreequilibrations, ParametersSwappedAfterPreequilibrationHaveTheirGradients) {
  const ExchangeProblem exchange(
      "conditionId\tk1\tk2\npre\tka\tkb\nsim\tkb\tka\n",
      "obs\tpre\tsim\t0.5\t0.4\nobs\tpre\tsim\t2\t0.7\nobs\tpre\tsim\tinf\t0.6\n",
      "ka\tlog10\t0.01\t10\t0.3\t1\nkb\tlog10\t0.01\t10\t0.9\t1\n");
  auto problem = exchange.load();
  const auto nllh = [](double lka, double lkb) {
    const double ka = std::pow(10.0, lka), kb = std::pow(10.0, lkb), s = ka + kb;
    const double start = 2 * kb / s, end = 2 * ka / s;
    double sum = 0.0;
    for (const auto& [t, y] : {std::pair{0.5, 0.4}, std::pair{2.0, 0.7}}) {
      const double a = end + (start - end) * std::exp(-s * t);
      sum += 0.5 * (y - a) * (y - a);
    }
    sum += 0.5 * (0.6 - end) * (0.6 - end);
    return sum + 1.5 * std::log(2 * M_PI);
  };
  const std::vector<double> x = {std::log10(0.3), std::log10(0.9)};
  const double h = 1e-6;
  const std::vector<double> expected = {
      (nllh(x[0] + h, x[1]) - nllh(x[0] - h, x[1])) / (2 * h),
      (nllh(x[0], x[1] + h) - nllh(x[0], x[1] - h)) / (2 * h)};
  for (const char* method : {"cvodes_fsa", "odesd", "cvodes_asa"}) {
    SCOPED_TRACE(method);
    const PetabResult r = problem->evaluate(x, tight_with_gradient(method));
    EXPECT_NEAR(r.nllh, nllh(x[0], x[1]), 1e-8);
    ASSERT_EQ(r.gradient.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) EXPECT_NEAR(r.gradient[i], expected[i], 1e-7) << i;
  }
}

// One pre-equilibration shared by simulations that set its parameters
// otherwise (its steady state solved once for both: Preequilibrations), a
// second that sets both rates to ka (two columns into one), and s, which
// only the observable obs = s A reads, set to s_pre before and s_post after
// (s_pre moves nothing). Analytic as above: A* = 2 k2 / (k1 + k2) of the
// pre-equilibration's rates, then A relaxes to 2 k2 / (k1 + k2) of the
// simulation's at rate k1 + k2. The gradient (log10 rates, linear s) of
// every method, those that solve every model parameter among them, against
// central differences of that nllh.
TEST(PetabPreequilibrations, SimulationsThatSetItsParametersOtherwiseShareOneSteadyState) {
  const ExchangeProblem exchange(
      "conditionId\tk1\tk2\ts\npre\tka\tkb\ts_pre\npre_a\tka\tka\ts_pre\n"
      "same\tka\tkb\ts_post\nswap\tkb\tka\ts_post\n",
      "obs\tpre\tsame\t0.5\t0.4\nobs\tpre\tsame\t2\t0.7\nobs\tpre\tswap\t0.5\t0.5\n"
      "obs\tpre\tswap\tinf\t0.6\nobs\tpre_a\tsame\t1\t0.9\n",
      "ka\tlog10\t0.01\t10\t0.3\t1\nkb\tlog10\t0.01\t10\t0.9\t1\n"
      "s_pre\tlin\t0\t5\t2\t1\ns_post\tlin\t0\t5\t1.3\t1\n",
      "s * A");
  auto problem = exchange.load();
  // One experiment's sum of 0.5 (y - s A(t))^2 over (t, y).
  const auto term = [](double k1p, double k2p, double k1, double k2, double s,
                       std::vector<std::pair<double, double>> data) {
    const double start = 2 * k2p / (k1p + k2p), end = 2 * k2 / (k1 + k2);
    double sum = 0.0;
    for (const auto& [t, y] : data) {
      const double a = std::isinf(t) ? end : end + (start - end) * std::exp(-(k1 + k2) * t);
      sum += 0.5 * (y - s * a) * (y - s * a);
    }
    return sum;
  };
  const auto nllh = [&](const std::vector<double>& x) {
    const double ka = std::pow(10.0, x[0]), kb = std::pow(10.0, x[1]), s = x[3];
    const double inf = std::numeric_limits<double>::infinity();
    return term(ka, kb, ka, kb, s, {{0.5, 0.4}, {2.0, 0.7}}) +
           term(ka, kb, kb, ka, s, {{0.5, 0.5}, {inf, 0.6}}) +
           term(ka, ka, ka, kb, s, {{1.0, 0.9}}) + 2.5 * std::log(2 * M_PI);
  };
  const std::vector<double> x = {std::log10(0.3), std::log10(0.9), 2.0, 1.3};
  std::vector<double> expected(4);
  for (std::size_t i = 0; i < 4; ++i) {
    std::vector<double> up = x, down = x;
    up[i] += 1e-6;
    down[i] -= 1e-6;
    expected[i] = (nllh(up) - nllh(down)) / 2e-6;
  }
  EXPECT_EQ(expected[2], 0.0);
  for (const char* method : {"cvodes_fsa", "odesd", "cvodes_asa", "dopri8s", "pbsr"}) {
    SCOPED_TRACE(method);
    PetabOptions options = tight_with_gradient(method);
    options.threads = 2;
    const PetabResult r = problem->evaluate(x, options);
    EXPECT_NEAR(r.nllh, nllh(x), 1e-7);
    ASSERT_EQ(r.gradient.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(r.gradient[i], expected[i], 1e-6) << i;
    EXPECT_EQ(r.gradient[2], 0.0) << "s_pre";
  }
}

// The likelihood of ARateOnlyThePreequilibrationEstimates: A after the
// steady state at rates (k1_before, k2), A + B = 2, then k1 = 0.8, with
// sigma 1; and of the same simulation from A = B = 1 (no pre-equilibration).
double only_before_nllh(double k1_before, double k2, bool also_without) {
  const double k1 = 0.8, rate = k1 + k2, a_inf = 2.0 * k2 / rate;
  auto a_at = [&](double a0, double t) { return a_inf + (a0 - a_inf) * std::exp(-rate * t); };
  const double a = a_at(2.0 * k2 / (k1_before + k2), 0.5);
  double nllh = 0.5 * std::log(2.0 * M_PI) + 0.5 * (0.4 - a) * (0.4 - a);
  if (also_without) {
    const double b = a_at(1.0, 1.0);
    nllh += 0.5 * std::log(2.0 * M_PI) + 0.5 * (0.7 - b) * (0.7 - b);
  }
  return nllh;
}

// An estimated parameter that only the pre-equilibration condition sets,
// on a rate: the steady state depends on it, and the simulation sets no
// model parameter to it. Its sensitivity is carried in a column of its own
// (a parameter of the dynamics that f does not read; it was refused). The
// experiment without pre-equilibration leaves that column zero.
TEST(PetabPreequilibrations, ARateOnlyThePreequilibrationEstimatesHasItsGradient) {
  for (bool also_without : {false, true}) {
    const ExchangeProblem exchange(
        "conditionId\tk1\npre\tk1_before\nsim\t0.8\n",
        std::string("obs\tpre\tsim\t0.5\t0.4\n") + (also_without ? "obs\t\tsim\t1\t0.7\n" : ""),
        "k1_before\tlog10\t0.01\t10\t0.3\t1\nk2\tlog10\t0.01\t10\t0.6\t1\n");
    auto problem = exchange.load();
    const std::vector<double> x = {std::log10(0.3), std::log10(0.6)};
    const double h = 1e-5;
    auto at = [&](double d0, double d1) {
      return only_before_nllh(std::pow(10.0, x[0] + d0), std::pow(10.0, x[1] + d1), also_without);
    };
    const double expected[2] = {(at(h, 0) - at(-h, 0)) / (2 * h), (at(0, h) - at(0, -h)) / (2 * h)};
    for (const char* method : {"cvodes_fsa", "cvodes_asa", "odesd", "dopri8s", "pbsr"}) {
      SCOPED_TRACE(std::string(method) + (also_without ? ", also without" : ""));
      const PetabResult r = problem->evaluate(x, tight_with_gradient(method));
      EXPECT_NEAR(r.nllh, at(0, 0), 1e-7);
      ASSERT_EQ(r.gradient.size(), 2u);
      for (std::size_t i = 0; i < 2; ++i) EXPECT_NEAR(r.gradient[i], expected[i], 1e-6) << i;
      EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    }
  }
}

}  // namespace
}  // namespace odesens
