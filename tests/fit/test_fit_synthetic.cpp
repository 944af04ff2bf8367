// Fits of a small problem with a known optimum (synthetic_petab_problem.hpp)
// by both optimizers: the optimum recovered from random starts, the bounds
// respected, a start at the optimum ending at once, fixed parameters held,
// failed simulations survived, and the refusals of bad input.
#include <atomic>
#include <fstream>

#include "estimate/synthetic_petab_problem.hpp"
#include "io/temp_folder.hpp"
#include "odesens/fit.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

constexpr double kLog2Pi = 1.8378770664093453;

// nlpost at the optimum of exact data with sd = 0.1: 13 terms 1/2 log(2 pi sd^2).
const double kOptimum = 13 * 0.5 * (kLog2Pi + 2.0 * std::log(0.1));

FitOptions fit_options(const std::string& optimizer, std::size_t starts) {
  FitOptions o;
  o.optimizer.optimizer = optimizer;
  o.starts = starts;
  o.seed = 7;
  o.threads = 2;
  return o;
}

class EachOptimizer : public ::testing::TestWithParam<const char*> {};

TEST_P(EachOptimizer, RecoverTheKnownOptimumFromRandomStarts) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult r = fit(*problem, fit_options(GetParam(), 6));
  ASSERT_EQ(r.starts.size(), 6u);
  EXPECT_EQ(r.optimizer, GetParam());
  const StartResult& best = r.starts[0];
  EXPECT_NEAR(best.end[0], std::log10(0.3), 1e-4) << best.exit_reason;
  EXPECT_NEAR(best.end[1], 2.0, 1e-4) << best.exit_reason;
  EXPECT_NEAR(best.nlpost, kOptimum, 1e-6);
  EXPECT_GE(r.starts_at_best, 3u);
  for (std::size_t k = 1; k < r.starts.size(); ++k)
    EXPECT_LE(r.starts[k - 1].nlpost, r.starts[k].nlpost);  // the waterfall
}

TEST_P(EachOptimizer, EndOnTheBoundWhenTheOptimumLiesOutsideTheBox) {
  test::SyntheticOptions o;
  o.k1_upper = 0.2;  // the optimum is k1 = 0.3
  o.k1_nominal = 0.1;
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult r = fit(*problem, fit_options(GetParam(), 4));
  for (const StartResult& s : r.starts) {
    for (std::size_t i = 0; i < s.end.size(); ++i) {
      EXPECT_GE(s.end[i], problem->lower_scaled()[i]);
      EXPECT_LE(s.end[i], problem->upper_scaled()[i]);
    }
  }
  EXPECT_NEAR(r.starts[0].end[0], std::log10(0.2), 1e-6) << r.starts[0].exit_reason;
  // The projected gradient. ceres_lm alone: where Ceres' cost (1/2 sum of
  // r^2) is 16.5 and its curvature along the free parameter about 510
  // (from two end points' gradients), Ceres' function tolerance (a step
  // gaining less than 1e-8 of the cost) can end LM with a Gauss-Newton
  // step's gain of 1.65e-7 left, a gradient of about sqrt(2 * 510 *
  // 1.65e-7) = 0.013 (0.0025 seen, 6e-9 above the constrained optimum).
  const bool lm_alone = std::string(GetParam()) == "ceres_lm";
  EXPECT_LT(r.starts[0].gradient_norm, lm_alone ? 2e-2 : 1e-3) << r.starts[0].exit_reason;
  for (const StartResult& s : r.starts)  // every start finds that optimum
    EXPECT_NEAR(s.nlpost, r.starts[0].nlpost, 1e-6) << s.exit_reason;
}

TEST_P(EachOptimizer, StopAtOnceFromTheOptimum) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = GetParam();
  const StartResult s = optimize(*problem, {std::log10(0.3), 2.0}, {}, o);
  // At the optimum the residuals are the integrator's error (about 1e-7
  // over sigma 0.1), and the gradient near Ceres' tolerance of 1e-5: LM may
  // first take one step of 1e-9, after which L-BFGS takes one.
  EXPECT_LE(s.iterations, 3) << s.exit_reason << ", gradient " << s.gradient_norm;
  EXPECT_LE(s.evaluations, 10) << s.exit_reason;
  EXPECT_NEAR(s.nlpost, kOptimum, 1e-8);
}

// The iterations a start reports stay within its limit: Ceres' own count
// (its iteration 0, the start point, is not a step).
TEST_P(EachOptimizer, ReportNoMoreIterationsThanTheLimit) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = GetParam();
  for (std::int64_t limit : {1, 2, 3}) {
    o.max_iterations = limit;
    const StartResult s = optimize(*problem, {std::log10(0.3) + 1.5, 0.5}, {}, o);
    EXPECT_LE(s.iterations, limit) << s.exit_reason;
    EXPECT_GE(s.iterations, 1) << s.exit_reason;
  }
}

TEST_P(EachOptimizer, HoldFixedParametersAtTheirStartValues) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = GetParam();
  const StartResult s = optimize(*problem, {0.5, 2.0}, {false, true}, o);
  EXPECT_EQ(s.end[1], 2.0);
  EXPECT_NEAR(s.end[0], std::log10(0.3), 1e-4) << s.exit_reason;
}

// lowerBound = upperBound: the parameter is held there (Ceres refused the
// bound as infeasible and ended every start unoptimized with status ok).
TEST_P(EachOptimizer, HoldAParameterWhoseBoundsMeet) {
  test::SyntheticOptions o;
  o.k1_lower = o.k1_upper = o.k1_nominal = 0.3;
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult r = fit(*problem, fit_options(GetParam(), 3));
  for (const StartResult& s : r.starts) {
    EXPECT_EQ(s.status, Status::ok) << s.exit_reason;
    EXPECT_GT(s.iterations, 0) << s.exit_reason;
    EXPECT_EQ(s.end[0], std::log10(0.3));
    EXPECT_NEAR(s.end[1], 2.0, 1e-4) << s.exit_reason;
    EXPECT_NEAR(s.nlpost, kOptimum, 1e-6);
  }
}

// A start whose objective is not finite where it ends is failed, whatever
// the optimizer said of its run (nlopt said "converged" with nllh NaN).
TEST_P(EachOptimizer, ANonFiniteObjectiveIsAFailedStart) {
  test::SyntheticOptions o;
  o.sd = 0.0;  // sigma 0: the likelihood is not defined
  test::SyntheticProblem synthetic(o);
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult r = fit(*problem, fit_options(GetParam(), 2));
  for (const StartResult& s : r.starts) {
    EXPECT_NE(s.status, Status::ok) << s.exit_reason;
    EXPECT_FALSE(std::isfinite(s.nlpost));
  }
}

TEST_P(EachOptimizer, SurviveFailedSimulations) {
  test::SyntheticOptions so;
  so.blow_up = true;  // fails for k1 > 1/6, about 40 % of the box
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o = fit_options(GetParam(), 8);
  o.optimizer.evaluation.max_steps = 2000;
  const FitResult r = fit(*problem, o);
  ASSERT_EQ(r.starts.size(), 8u);
  std::size_t failed = 0;
  for (const StartResult& s : r.starts) {
    if (s.status != Status::ok) {
      ++failed;
      EXPECT_TRUE(std::isnan(s.nlpost));
      EXPECT_NE(s.exit_reason.find("could not be simulated"), std::string::npos) << s.exit_reason;
    } else {
      EXPECT_TRUE(std::isfinite(s.nlpost)) << s.exit_reason;
      EXPECT_LT(s.end[0], std::log10(1.0 / 6.0)) << s.exit_reason;
    }
  }
  EXPECT_GT(failed, 0u);
  EXPECT_LT(failed, 8u);
  EXPECT_EQ(r.starts.back().status != Status::ok, true);  // failed ones last
}

// resample_failed: the starts whose point cannot be simulated run from
// points drawn again in the box instead (about 40 % of draws fail here, so
// 20 tries leave none failed), and say so; the draws depend on the seed and
// the start's index alone: one thread and three give the same fit.
TEST_P(EachOptimizer, FailedStartPointsAreDrawnAgain) {
  test::SyntheticOptions so;
  so.blow_up = true;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions o = fit_options(GetParam(), 8);
  o.optimizer.evaluation.max_steps = 2000;
  const FitResult plain = fit(*problem, o);
  o.resample_failed = 20;
  o.threads = 1;
  const FitResult redrawn = fit(*problem, o);
  o.threads = 3;
  const FitResult on_three = fit(*problem, o);
  ASSERT_EQ(redrawn.starts.size(), 8u);
  std::size_t drawn_again = 0;
  for (std::size_t k = 0; k < 8; ++k) {
    const StartResult& s = redrawn.starts[k];
    EXPECT_EQ(s.status, Status::ok) << s.exit_reason;
    EXPECT_TRUE(std::isfinite(s.nlpost)) << s.exit_reason;
    const auto same_index = std::find_if(plain.starts.begin(), plain.starts.end(),
                                         [&](const StartResult& p) { return p.index == s.index; });
    ASSERT_NE(same_index, plain.starts.end());
    if (same_index->status != Status::ok) {
      ++drawn_again;
      EXPECT_NE(s.start, same_index->start) << s.index;
      EXPECT_NE(s.exit_reason.find("start point drawn again"), std::string::npos) << s.exit_reason;
      for (std::size_t i = 0; i < s.start.size(); ++i) {
        EXPECT_GE(s.start[i], problem->lower_scaled()[i]);
        EXPECT_LE(s.start[i], problem->upper_scaled()[i]);
      }
    } else {
      EXPECT_EQ(s.start, same_index->start) << s.index;  // a start that ran is kept
    }
    EXPECT_EQ(s.start, on_three.starts[k].start) << k;
    EXPECT_EQ(s.end, on_three.starts[k].end) << k;
  }
  EXPECT_GT(drawn_again, 0u);
}

// The evaluations' interrupt (OptimizerOptions::evaluation) ends a start
// as the stop flag does, wherever it falls: in a trial step's evaluation,
// in a Jacobian's (Ceres then gives back the point its solve began from),
// in L-BFGS's line search. The start keeps the best point it evaluated, so
// that a later interrupt never ends higher than an earlier one (the run is
// the same up to the earlier one), and says why it ended. It is asked
// before each experiment and every 64 right-hand sides of CVODES' solves.
TEST_P(EachOptimizer, AnInterruptedStartKeepsTheBestPointItEvaluated) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const std::vector<double> x0 = {std::log10(0.3) + 1.5, 0.5};
  PetabOptions with_gradient;  // as the start's final evaluation
  with_gradient.gradient = true;
  const double nlpost0 = problem->evaluate(x0, with_gradient).nlpost;
  OptimizerOptions whole;
  whole.optimizer = GetParam();
  int asks = 0;  // in the whole run: before each experiment, and within its solves
  whole.evaluation.interrupt = [&] { return ++asks < 0; };
  const StartResult full = optimize(*problem, x0, {}, whole);
  ASSERT_GT(full.evaluations, 12) << full.exit_reason;
  ASSERT_GT(asks, 40);
  double previous = nlpost0;
  for (int k = 0; k < asks; k += 1 + asks / 80) {
    OptimizerOptions o = whole;
    int asked = 0;
    o.evaluation.interrupt = [&] { return ++asked > k; };
    const StartResult s = optimize(*problem, x0, {}, o);
    const std::string what = "interrupted at ask " + std::to_string(k + 1) + ": " + s.exit_reason;
    EXPECT_EQ(s.status, Status::ok) << what;
    EXPECT_NE(s.exit_reason.find("stopped by the evaluations' interrupt function"),
              std::string::npos) << what;
    EXPECT_TRUE(std::isfinite(s.nlpost)) << what;
    // Within the solves' tolerance: the optimizer compares residuals
    // solved without S, the result is nlpost solved with it.
    EXPECT_LE(s.nlpost, previous + 1e-7 * (1.0 + std::abs(previous))) << what;
    // +1: the whole run's final evaluation is its last one's, kept, where an
    // interrupted run's is one more.
    EXPECT_LE(s.evaluations, full.evaluations + 1) << what;
    previous = s.nlpost;
  }
  EXPECT_LT(previous, nlpost0 - 100.0);
}

// A stop flag set before the start: its first evaluation ends before its
// experiment, and the start ends at its start point (the final evaluation
// gives its nllh) without Ceres' first iteration.
TEST(Fit, AStopFlagSetBeforehandEndsTheStartAtItsFirstEvaluation) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  std::atomic<bool> stop{true};
  OptimizerOptions o;
  o.optimizer = "ceres_lm";
  const std::vector<double> x0 = {0.5, 1.0};
  const StartResult s = optimize(*problem, x0, {}, o, &stop);
  EXPECT_EQ(s.status, Status::ok);
  EXPECT_EQ(s.exit_reason, "stopped by request");
  EXPECT_EQ(s.iterations, 0);
  EXPECT_EQ(s.evaluations, 1);  // the final one, of nlpost alone: a stop was asked for
  EXPECT_EQ(s.end, x0);
  EXPECT_EQ(s.nlpost, problem->evaluate(x0, PetabOptions{}).nlpost);
  EXPECT_TRUE(std::isnan(s.gradient_norm));
}

INSTANTIATE_TEST_SUITE_P(Fit, EachOptimizer,
                         ::testing::Values("ceres_lm", "nlopt_lbfgs", "ceres_lm_lbfgs", "lbfgsb"),
                         [](const auto& param_info) { return std::string(param_info.param); });

// With bounds Ceres asks for each step's point up to three times (its
// projected line search, the candidate's cost, the accepted point's
// Jacobian); ceres_lm simulates it once. From a start whose steps stay
// inside the box: one evaluation an iteration, and the final one (16
// evaluations for 7 iterations when every request was simulated).
TEST(Fit, CeresLmSimulatesEachPointOnce) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = "ceres_lm";
  const StartResult s = optimize(*problem, {std::log10(0.3) + 0.3, 1.7}, {}, o);
  ASSERT_GE(s.iterations, 3) << s.exit_reason;
  EXPECT_NEAR(s.end[0], std::log10(0.3), 1e-4) << s.exit_reason;
  // The start point, each iteration's point, the final evaluation.
  EXPECT_LE(s.evaluations, s.iterations + 2) << s.exit_reason;
}

// Z' = 1 - sqrt(Z), Z(0) = z0 estimated (lin, 0..1), observed as s * Z (s
// log10, 0.01..100) at t = 0.1, 0.2, 0.3 with data a little below Z(t) from
// z0 = 0: the optimum lies at the bound z0 = 0, where the states solve but
// their sensitivities do not (J_x = -1 / (2 sqrt(Z)) is infinite at Z = 0),
// while the residuals' derivatives stay finite near it.
class SqrtGrowthProblem {
 public:
  SqrtGrowthProblem() {
    write("problem.yaml",
          "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
          "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
          "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n");
    write("conditions.tsv", "conditionId\nc0\n");
    write("observables.tsv", "observableId\tobservableFormula\tnoiseFormula\nobs\ts * Z\t0.1\n");
    write("measurements.tsv",
          "observableId\tsimulationConditionId\ttime\tmeasurement\n"
          "obs\tc0\t0.1\t0.0798\nobs\tc0\t0.2\t0.1461\nobs\tc0\t0.3\t0.2043\n");
    write("parameters.tsv",
          "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n"
          "z0\tlin\t0\t1\t0.5\t1\ns\tlog10\t0.01\t100\t1\t1\n");
    write("model.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">
  <model id="sqrt_growth">
    <listOfCompartments>
      <compartment id="cell" size="1" constant="true"/>
    </listOfCompartments>
    <listOfSpecies>
      <species id="Z" compartment="cell" initialConcentration="0.5"/>
    </listOfSpecies>
    <listOfParameters>
      <parameter id="z0" value="0.5" constant="true"/>
    </listOfParameters>
    <listOfInitialAssignments>
      <initialAssignment symbol="Z">
        <math xmlns="http://www.w3.org/1998/Math/MathML"><ci> z0 </ci></math>
      </initialAssignment>
    </listOfInitialAssignments>
    <listOfReactions>
      <reaction id="growth" reversible="false">
        <listOfProducts><speciesReference species="Z"/></listOfProducts>
        <kineticLaw>
          <math xmlns="http://www.w3.org/1998/Math/MathML">
            <apply><minus/><cn> 1 </cn><apply><root/><ci> Z </ci></apply></apply>
          </math>
        </kineticLaw>
      </reaction>
    </listOfReactions>
  </model>
</sbml>
)");
  }
  std::string yaml() const { return folder_.file("problem.yaml"); }

 private:
  void write(const std::string& name, const std::string& text) {
    std::ofstream(folder_.file(name), std::ios::binary) << text;
  }
  io::testing::TempFolder folder_;
};

// Ceres accepts a step to z0 = 0 on its cost and fails on its Jacobian
// there. The start goes on, such steps rejected, and ends near the bound on
// a tolerance, not on "Ceres failed" (Borghans_BiophysChem1997's initial
// state Z under Z^n with n < 1 did so).
TEST(Fit, CeresLmGoesOnPastAPointWithoutAJacobian) {
  SqrtGrowthProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = "ceres_lm";
  const StartResult s = optimize(*problem, {0.5, 0.3}, {}, o);
  EXPECT_EQ(s.status, Status::ok) << s.exit_reason;
  EXPECT_EQ(s.exit_reason.find("failed"), std::string::npos) << s.exit_reason;
  ASSERT_EQ(s.end.size(), 2u);
  EXPECT_GT(s.end[0], 0.0) << s.exit_reason;  // a point with a Jacobian
  EXPECT_LT(s.end[0], 1e-3) << s.exit_reason;
}

// A start whose sigma (1e-13) is below what the least-squares form holds
// (sqrt(log(2 pi sigma^2) + C), 5.5e-12) but whose nlpost is finite:
// ceres_lm cannot start there, ceres_lm_lbfgs runs L-BFGS first and LM
// from where it ends, to the optimum a start inside the form reaches.
TEST(Fit, CeresLmLbfgsStartsWithLbfgsWhereTheLeastSquaresFormFails) {
  test::SyntheticOptions so;
  so.sd_estimated = true;
  so.sd_lower = 1e-15;
  so.perturbation = 0.05;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = "ceres_lm";
  const std::vector<double> tiny_sigma = {0.0, 1.0, -13.0};
  EXPECT_NE(optimize(*problem, tiny_sigma, {}, o).status, Status::ok);
  o.optimizer = "ceres_lm_lbfgs";
  const StartResult s = optimize(*problem, tiny_sigma, {}, o);
  const StartResult inside = optimize(*problem, {0.0, 1.0, -1.0}, {}, o);
  ASSERT_EQ(inside.status, Status::ok) << inside.exit_reason;
  EXPECT_EQ(s.status, Status::ok) << s.exit_reason;
  EXPECT_NEAR(s.nlpost, inside.nlpost, 1e-6) << s.exit_reason;
  // LM runs from L-BFGS' end whatever ended it (here its gradient rule;
  // elsewhere its line search gives up where LM goes on).
  const StartResult ended = optimize(*problem, {0.0, 1.0, -12.0}, {}, o);
  EXPECT_EQ(ended.exit_reason.rfind("cycle 2: ceres_lm: ", 0), 0u) << ended.exit_reason;
  EXPECT_NEAR(ended.nlpost, inside.nlpost, 1e-6) << ended.exit_reason;
}

// At offset = 0 the likelihood is finite and its derivative in offset is
// not (sqrt): the evaluation says so, and a start there fails with every
// optimizer, is not counted near the best, and leaves no best point.
TEST(Fit, AStartWhoseGradientIsNotFiniteFails) {
  test::SyntheticOptions so;
  so.sqrt_offset = true;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const std::vector<double> x0 = {std::log10(0.3), 2.0, 0.0};
  PetabOptions with_gradient;
  with_gradient.gradient = true;
  const PetabResult r = problem->evaluate(x0, with_gradient);
  EXPECT_TRUE(std::isfinite(r.nlpost));
  EXPECT_FALSE(std::isfinite(r.gradient[2]));
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings.front().find("derivative of the simulation"), std::string::npos)
      << r.warnings.front();
  EXPECT_NE(r.warnings.front().find("'offset'"), std::string::npos) << r.warnings.front();
  for (const char* optimizer : {"ceres_lm", "nlopt_lbfgs", "ceres_lm_lbfgs", "lbfgsb"}) {
    FitOptions o = fit_options(optimizer, 1);
    o.start_points = {x0, x0};
    const FitResult f = fit(*problem, o);
    ASSERT_EQ(f.starts.size(), 2u);
    for (const StartResult& s : f.starts) {
      EXPECT_NE(s.status, Status::ok) << optimizer << ": " << s.exit_reason;
      EXPECT_FALSE(start_succeeded(s)) << optimizer;
      // No values of a failed start: not nllh at a point whose gradient
      // failed, nor a norm projected from infinite entries.
      EXPECT_TRUE(std::isnan(s.nllh) && std::isnan(s.nlpost) && std::isnan(s.gradient_norm))
          << optimizer << ": " << s.nllh << " " << s.nlpost << " " << s.gradient_norm;
    }
    EXPECT_EQ(f.starts_at_best, 0u) << optimizer;
  }
}

// A uniform prior whose support lies outside the box: nlpost is infinite
// at every point, nllh finite. Each start fails, with no values (an
// infinite nlpost beside a finite nllh read as the numbers of a point).
TEST(Fit, AStartWhoseNlpostIsInfiniteHasNoValues) {
  test::SyntheticOptions so;
  so.k1_prior = "uniform\t1e7;1e8";
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  // Drawn, such starts are refused before the fit: the prior lies outside
  // k1's box. Given, each start has no value.
  try {
    fit(*problem, fit_options("ceres_lm", 2));
    ADD_FAILURE() << "starts drawn where nlpost is infinite";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("lies outside its bounds"), std::string::npos) << e.what();
  }
  for (const char* optimizer : {"ceres_lm", "nlopt_lbfgs", "ceres_lm_lbfgs", "lbfgsb"}) {
    FitOptions options = fit_options(optimizer, 2);
    options.start_points = {problem->nominal_scaled(), problem->nominal_scaled()};
    const FitResult f = fit(*problem, options);
    ASSERT_EQ(f.starts.size(), 2u);
    for (const StartResult& s : f.starts) {
      EXPECT_EQ(s.status, Status::not_finite) << optimizer << ": " << s.exit_reason;
      EXPECT_TRUE(std::isnan(s.nllh) && std::isnan(s.nlpost) && std::isnan(s.gradient_norm))
          << optimizer << ": " << s.nllh << " " << s.nlpost << " " << s.gradient_norm;
    }
  }
}

// NLopt's L-BFGS moves a start value a little inside a bound onto the bound
// before its first evaluation. With offset 1e-12 above its bound 0 that
// point has no finite gradient (sqrt), where the start itself has: the
// start is no failed one, and ends no higher than it began (a start of
// ceres_lm_lbfgs lost the point LM ended on to a noise parameter moved to
// sigma = 0).
TEST(Fit, AStartBesideABoundIsKeptWhereNloptMovesItOntoTheBound) {
  test::SyntheticOptions so;
  so.sqrt_offset = true;
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const std::vector<double> x0 = {std::log10(0.3), 2.0, 1e-12};
  PetabOptions with_gradient;
  with_gradient.gradient = true;
  const PetabResult at_start = problem->evaluate(x0, with_gradient);
  ASSERT_TRUE(std::isfinite(at_start.gradient[2]));
  for (const char* optimizer : {"nlopt_lbfgs", "ceres_lm_lbfgs"}) {
    OptimizerOptions o;
    o.optimizer = optimizer;
    const StartResult s = optimize(*problem, x0, {}, o);
    EXPECT_EQ(s.status, Status::ok) << optimizer << ": " << s.exit_reason;
    EXPECT_TRUE(std::isfinite(s.nlpost)) << optimizer << ": " << s.exit_reason;
    EXPECT_LE(s.nlpost, at_start.nlpost) << optimizer << ": " << s.exit_reason;
    o.max_iterations = 1;  // the start's own value is no iteration
    EXPECT_LE(optimize(*problem, x0, {}, o).iterations, 1) << optimizer;
  }
}

// A wall time used up before the first evaluation ended is said by every
// optimizer (ceres_lm_lbfgs said nothing), and the start has no value: one
// more whole evaluation for it ran a start of Chen_MSB2009 22 s past its 40.
TEST_P(EachOptimizer, AWallTimeUsedUpAtOnceIsSaid) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  o.optimizer = GetParam();
  o.max_seconds = 1e-9;
  const StartResult s = optimize(*problem, {0.5, 1.0}, {}, o);
  EXPECT_EQ(s.status, Status::too_much_work) << s.exit_reason;
  EXPECT_NE(s.exit_reason.find("Maximum solver time reached"), std::string::npos)
      << s.exit_reason;
  EXPECT_NE(s.exit_reason.find("no evaluation ended within the start's time"),
            std::string::npos)
      << s.exit_reason;
  EXPECT_TRUE(std::isnan(s.nlpost) && std::isnan(s.nllh));
  EXPECT_EQ(s.evaluations, 0);  // none begun within 1e-9 s, and no final one
  // Not drawn again as a start point that cannot be simulated: another
  // would take as long.
  FitOptions f = fit_options(GetParam(), 1);
  f.optimizer.max_seconds = 1e-9;
  f.resample_failed = 3;
  const FitResult r = fit(*problem, f);
  ASSERT_EQ(r.starts.size(), 1u);
  EXPECT_EQ(r.starts[0].exit_reason.find("drawn again"), std::string::npos)
      << r.starts[0].exit_reason;
}

TEST(Fit, EstimatedNoiseAndPriorsAreFitted) {
  test::SyntheticOptions so;
  so.sd_estimated = true;
  so.perturbation = 0.05;
  so.scale_prior = "normal\t2;1";
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult lm = fit(*problem, fit_options("ceres_lm", 6));
  const FitResult lbfgs = fit(*problem, fit_options("nlopt_lbfgs", 6));
  EXPECT_NEAR(lm.starts[0].nlpost, lbfgs.starts[0].nlpost, 1e-5);
  // sd at the optimum is about the perturbation.
  EXPECT_NEAR(std::pow(10.0, lm.starts[0].end[2]), 0.05, 0.01);
}

// Where the gradient goes by the adjoint, Levenberg-Marquardt's residual
// Jacobian would take forward sensitivities at many times its cost: auto
// runs L-BFGS (a large S under PEtab's auto: PetabAutomatic tests).
TEST(Fit, AutoTakesLbfgsWhereTheGradientGoesByTheAdjoint) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  OptimizerOptions o;
  EXPECT_EQ(resolve_optimizer(*problem, o), "ceres_lm_lbfgs");
  o.evaluation.method = "cvodes_asa";
  EXPECT_TRUE(problem->gradient_by_adjoint(o.evaluation));
  EXPECT_EQ(resolve_optimizer(*problem, o), "nlopt_lbfgs");
  o.optimizer = "ceres_lm";  // named: kept
  EXPECT_EQ(resolve_optimizer(*problem, o), "ceres_lm");
  o.optimizer = "auto";
  o.evaluation.method = "cvodes_fsa";
  EXPECT_FALSE(problem->gradient_by_adjoint(o.evaluation));
  EXPECT_EQ(resolve_optimizer(*problem, o), "ceres_lm_lbfgs");
  // Hierarchical evaluations and experiments after a pre-equilibration take
  // forward sensitivities whatever the method: LM's Jacobian costs no more.
  o.evaluation.method = "cvodes_asa";
  o.evaluation.hierarchical = true;
  EXPECT_FALSE(problem->gradient_by_adjoint(o.evaluation));
  EXPECT_EQ(resolve_optimizer(*problem, o), "ceres_lm_lbfgs");
  {
    test::SyntheticProblem preequilibrated;
    std::ofstream(preequilibrated.path("measurements.tsv"))
        << "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\tmeasurement\n"
           "obs\tc0\tc0\t1\t1.5\n";
    auto q = PetabProblem::load(preequilibrated.yaml());
    PetabOptions asa;
    asa.method = "cvodes_asa";
    EXPECT_FALSE(q->gradient_by_adjoint(asa));
  }
  FitOptions f = fit_options("auto", 2);
  f.optimizer.evaluation.method = "cvodes_asa";
  const FitResult r = fit(*problem, f);
  EXPECT_EQ(r.optimizer, "nlopt_lbfgs");
  EXPECT_NEAR(r.starts[0].end[0], std::log10(0.3), 1e-3) << r.starts[0].exit_reason;
}

TEST(Fit, LaplaceNoiseIsFittedByLbfgsUnderAuto) {
  test::SyntheticOptions so;
  so.noise = "laplace";
  test::SyntheticProblem synthetic(so);
  auto problem = PetabProblem::load(synthetic.yaml());
  const FitResult r = fit(*problem, fit_options("auto", 4));
  EXPECT_EQ(r.optimizer, "nlopt_lbfgs");
  EXPECT_NEAR(r.starts[0].end[0], std::log10(0.3), 1e-3) << r.starts[0].exit_reason;
  const FitResult b = fit(*problem, fit_options("lbfgsb", 4));
  EXPECT_NEAR(b.starts[0].end[0], std::log10(0.3), 1e-3) << b.starts[0].exit_reason;
  for (const char* optimizer : {"ceres_lm", "ceres_lm_lbfgs"}) {
    // Refused once, by fit() as by optimize(), not as starts that all fail.
    try {
      fit(*problem, fit_options(optimizer, 2));
      ADD_FAILURE() << "fit: no error for " << optimizer;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unsupported) << e.what();
    }
    OptimizerOptions o;
    o.optimizer = optimizer;
    try {
      optimize(*problem, problem->nominal_scaled(), {}, o);
      ADD_FAILURE() << "no error for " << optimizer;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find(optimizer), std::string::npos) << e.what();
    }
  }
}

TEST(Fit, SameSeedSameStartsOnAnyThreadCount) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions one = fit_options("ceres_lm", 5), two = one;
  one.threads = 1;
  two.threads = 2;
  FitResult a = fit(*problem, one), b = fit(*problem, two);
  auto by_index = [](FitResult& r) {
    std::sort(r.starts.begin(), r.starts.end(),
              [](const StartResult& x, const StartResult& y) { return x.index < y.index; });
  };
  by_index(a);
  by_index(b);
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(a.starts[k].start, b.starts[k].start);
    EXPECT_EQ(a.starts[k].end, b.starts[k].end);
  }
}

TEST(Fit, DrawStartsGivesTheStartsAFitDraws) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  FitOptions options = fit_options("ceres_lm", 4);
  options.seed = 11;
  FitResult r = fit(*problem, options);
  const std::vector<std::vector<double>> drawn = draw_starts(*problem, 4, 11);
  ASSERT_EQ(drawn.size(), 4u);
  for (const StartResult& s : r.starts) EXPECT_EQ(s.start, drawn.at(s.index));
  EXPECT_NE(draw_starts(*problem, 4, 12), drawn);
  EXPECT_THROW(draw_starts(*problem, 0, 11), Error);
}

TEST(Fit, StopFlagSkipsTheStartsNotBegun) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  std::atomic<bool> stop{true};
  const FitResult r = fit(*problem, fit_options("ceres_lm", 5), {}, &stop);
  EXPECT_TRUE(r.stopped);
  EXPECT_TRUE(r.starts.empty());
  EXPECT_EQ(r.starts_planned, 5u);
  // Set after the second start: the others are skipped, the two kept.
  std::atomic<bool> later{false};
  FitOptions o = fit_options("ceres_lm", 5);
  o.threads = 1;
  const FitResult part = fit(*problem, o, [&](std::size_t done, std::size_t, double) {
    if (done == 2) later = true;
  }, &later);
  EXPECT_EQ(part.starts.size(), 2u);
}

TEST(Fit, ProgressReportsEveryStartAndTheBestSoFar) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  std::size_t calls = 0;
  double last_best = 0;
  fit(*problem, fit_options("ceres_lm", 3), [&](std::size_t done, std::size_t total, double best) {
    ++calls;
    EXPECT_EQ(total, 3u);
    EXPECT_EQ(done, calls);
    last_best = best;
  });
  EXPECT_EQ(calls, 3u);
  EXPECT_NEAR(last_best, kOptimum, 1e-6);
}

template <class Call>
void expect_refusal(Call call, Status status, const std::string& part) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one with '" << part << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Fit, BadInputIsRefusedClearly) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const auto inv = Status::invalid_argument;
  expect_refusal([&] { fit(*problem, fit_options("ceres_lm", 0)); }, inv, "no starts");
  expect_refusal([&] { fit(*problem, fit_options("newton", 2)); }, inv, "unknown optimizer");
  FitOptions outside = fit_options("ceres_lm", 1);
  outside.start_points = {{5.0, 1.0}};
  expect_refusal([&] { fit(*problem, outside); }, inv, "outside its bounds");
  FitOptions short_start = outside;
  short_start.start_points = {{0.0}};
  expect_refusal([&] { fit(*problem, short_start); }, inv, "1 values");
  FitOptions nan_start = outside;
  nan_start.start_points = {{std::nan(""), 1.0}};
  expect_refusal([&] { fit(*problem, nan_start); }, inv, "outside its bounds");
  OptimizerOptions o;
  o.max_iterations = 0;
  expect_refusal([&] { optimize(*problem, {0.0, 1.0}, {}, o); }, inv, "max_iterations");
  expect_refusal([&] { optimize(*problem, {0.0, 1.0}, {true}, {}); }, inv, "fixed mask");
  const double inf = std::numeric_limits<double>::infinity();
  expect_refusal([&] { latin_hypercube({0.0, -inf}, {1.0, 1.0}, 3, 0); }, inv, "finite box");
}

// The simulations' tolerances and step limit are checked once, before any
// start: each start failed with them before, and the fit ended "no start
// succeeded" after simulating nothing.
TEST(Fit, BadSimulationSettingsAreRefusedBeforeTheStarts) {
  test::SyntheticProblem synthetic;
  auto problem = PetabProblem::load(synthetic.yaml());
  const auto inv = Status::invalid_argument;
  const auto with = [&](auto set) {
    FitOptions o = fit_options("ceres_lm", 2);
    set(o.optimizer.evaluation);
    return o;
  };
  const FitOptions zero_rtol = with([](PetabOptions& e) { e.rtol = 0.0; });
  const FitOptions tiny_rtol = with([](PetabOptions& e) { e.rtol = 1e-30; });
  const FitOptions nan_rtol = with([](PetabOptions& e) { e.rtol = std::nan(""); });
  const FitOptions negative_atol = with([](PetabOptions& e) { e.atol = {-1.0}; });
  const FitOptions no_steps = with([](PetabOptions& e) { e.max_steps = 0; });
  expect_refusal([&] { fit(*problem, zero_rtol); }, inv, "rtol must be in (0, 1), got 0");
  expect_refusal([&] { fit(*problem, tiny_rtol); }, inv, "below the machine epsilon");
  expect_refusal([&] { fit(*problem, nan_rtol); }, Status::not_finite, "rtol is NaN");
  expect_refusal([&] { fit(*problem, negative_atol); }, inv, "atol must not be negative");
  expect_refusal([&] { fit(*problem, no_steps); }, inv, "max_steps must be positive");
  const PetabOptions& no_steps_evaluation = no_steps.optimizer.evaluation;
  expect_refusal([&] { problem->evaluate(problem->nominal_scaled(), no_steps_evaluation); }, inv,
                 "max_steps must be positive");
}

TEST(LatinHypercube, UsesEveryStratumOnceAndRepeatsWithTheSeed) {
  const std::size_t n = 16;
  const auto a = latin_hypercube({-1.0, 0.0, 2.0}, {1.0, 10.0, 2.0}, n, 42);
  EXPECT_EQ(a, latin_hypercube({-1.0, 0.0, 2.0}, {1.0, 10.0, 2.0}, n, 42));
  EXPECT_NE(a, latin_hypercube({-1.0, 0.0, 2.0}, {1.0, 10.0, 2.0}, n, 43));
  for (std::size_t i = 0; i < 2; ++i) {
    const double lo = i == 0 ? -1.0 : 0.0, hi = i == 0 ? 1.0 : 10.0;
    std::vector<int> used(n, 0);
    for (const auto& p : a) {
      ASSERT_GE(p[i], lo);
      ASSERT_LE(p[i], hi);
      ++used[std::min(n - 1, static_cast<std::size_t>((p[i] - lo) / (hi - lo) * n))];
    }
    for (int u : used) EXPECT_EQ(u, 1);
  }
  for (const auto& p : a) EXPECT_EQ(p[2], 2.0);  // a zero-width range
}

// A box whose width overflows (bounds near the largest doubles) still has
// its strata: every start was at the upper bound.
TEST(LatinHypercube, ABoxWiderThanTheLargestDoubleIsStillCut) {
  const double big = 1.7e308;
  const auto a = latin_hypercube({-big}, {big}, 8, 3);
  int below = 0;
  for (const auto& p : a) {
    ASSERT_TRUE(std::isfinite(p[0]));
    ASSERT_GE(p[0], -big);
    ASSERT_LE(p[0], big);
    below += p[0] < 0.0;
  }
  EXPECT_EQ(below, 4);
}

}  // namespace
}  // namespace odesens
