// Hierarchical evaluation (PetabOptions::hierarchical): which parameters
// are inner, that their values are the optimum with the others held (no
// value of theirs gives a lower nllh; within the bounds), and that the
// gradient in the others is the derivative of that profile by differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "estimate/petab_test_support.hpp"
#include "estimate/two_state_petab_problem.hpp"
#include "odesens/petab.hpp"
#include "sources/petab_temp_problem.hpp"

namespace odesens {
namespace {

// The two-state model (A' = u - k1 A, B' = k1 A - k2 B) observed through
// formulas of every kind: a scaling by placeholder (scale_b), an offset
// named in the formula (offset_a), a noise parameter (sd_a), a scaling on a
// log scale (scale_c), an affine term on a log scale (scale_e: not inner,
// log(s A + 0.1) has no closed-form optimum), a scaling and an offset in one formula
// (s1 inner, s2 not: one affine parameter per row), a scaling with a prior
// (scale_p: not inner), and the dynamics' kc (not inner).
class InnerProblem {
 public:
  explicit InnerProblem(const std::string& offset_bounds = "-5\t5") {
    files_.write("model.xml", test::kTwoStateModel);
    files_.write("parameters.tsv",
                 "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
                 "objectivePriorType\tobjectivePriorParameters\n"
                 "kc\tlog10\t1e-3\t1e3\t0.4\t1\t\t\n"
                 "k2\tlin\t0\t10\t0.2\t0\t\t\n"
                 "scale_b\tlog10\t1e-2\t1e2\t1.3\t1\t\t\n"
                 "offset_a\tlin\t" + offset_bounds + "\t0.1\t1\t\t\n"
                 "sd_a\tlog10\t1e-3\t1e2\t0.1\t1\t\t\n"
                 "scale_c\tlog10\t1e-2\t1e2\t1\t1\t\t\n"
                 "s1\tlin\t-10\t10\t1\t1\t\t\n"
                 "s2\tlin\t-10\t10\t0\t1\t\t\n"
                 "scale_e\tlog10\t1e-2\t1e2\t1\t1\t\t\n"
                 "scale_p\tlin\t0.1\t10\t1\t1\tnormal\t1;0.5\n");
    files_.write("conditions.tsv", "conditionId\tk1\tu\nc0\tkc\t0.1\nc1\tkc\t0.5\n");
    files_.write("observables.tsv",
                 "observableId\tobservableFormula\tnoiseFormula\tobservableTransformation\n"
                 "obs_a\tA + offset_a\tnoiseParameter1_obs_a\tlin\n"
                 "obs_b\tobservableParameter1_obs_b * B\t0.05\tlin\n"
                 "obs_c\tscale_c * A\t0.1\tlog10\n"
                 "obs_d\ts1 * B + s2\t0.1\tlin\n"
                 "obs_p\tscale_p * A * B\t0.1\tlin\n"
                 "obs_e\tscale_e * A + 0.1\t0.1\tlog10\n");
    std::string m =
        "observableId\tsimulationConditionId\ttime\tmeasurement\tobservableParameters\t"
        "noiseParameters\n";
    const char* obs[] = {"obs_a", "obs_b", "obs_c", "obs_d", "obs_p", "obs_e"};
    for (int c = 0; c < 2; ++c)
      for (int k = 1; k <= 4; ++k)
        for (int o = 0; o < 6; ++o) {
          const double y = 0.3 + 0.2 * o + 0.1 * k * (c + 1) + 0.05 * ((k + o) % 3);
          m += std::string(obs[o]) + "\tc" + std::to_string(c) + "\t" + std::to_string(k) +
               "\t" + std::to_string(y) + "\t" + (o == 1 ? "scale_b" : "") + "\t" +
               (o == 0 ? "sd_a" : "") + "\n";
        }
    files_.write("measurements.tsv", m);
    problem_ = PetabProblem::load(files_.path("problem.yaml"));
  }
  const PetabProblem& operator*() const { return *problem_; }
  const PetabProblem* operator->() const { return problem_.get(); }
  std::size_t index(const std::string& id) const {
    const auto& ids = problem_->parameter_ids();
    return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
  }

 private:
  testing::TempProblem files_;
  std::shared_ptr<const PetabProblem> problem_;
};

PetabOptions hierarchical(bool gradient) {
  PetabOptions o = test::tight_two_state("cvodes_fsa");
  o.hierarchical = true;
  o.gradient = gradient;
  return o;
}

// A point away from the optimum of everything.
std::vector<double> some_point(const InnerProblem& p) {
  std::vector<double> x = p->nominal_scaled();
  x[p.index("kc")] = std::log10(0.7);
  return x;
}

TEST(PetabHierarchical, InnerParametersAreTheScalingsOffsetsAndSigmasByForm) {
  InnerProblem p;
  std::vector<std::string> inner;
  for (std::size_t i : p->inner_parameters()) inner.push_back(p->parameter_ids()[i]);
  std::sort(inner.begin(), inner.end());
  EXPECT_EQ(inner, (std::vector<std::string>{"offset_a", "s1", "scale_b", "scale_c", "sd_a"}));
}

TEST(PetabHierarchical, InnerValuesAreTheOptimumWithTheOthersHeld) {
  InnerProblem p;
  const std::vector<double> x = some_point(p);
  const PetabResult h = p->evaluate(x, hierarchical(true));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const bool inner = std::count(p->inner_parameters().begin(), p->inner_parameters().end(), i);
    if (!inner) {
      EXPECT_EQ(h.point[i], x[i]) << p->parameter_ids()[i];
      continue;
    }
    // Interior optimum: its own gradient entry vanishes, and moving it
    // (the others held, without the hierarchical step) raises nllh.
    EXPECT_LT(std::abs(h.gradient[i]), 1e-6) << p->parameter_ids()[i];
    PetabOptions plain = hierarchical(true);  // the same solves (S in the error test)
    plain.hierarchical = false;
    EXPECT_NEAR(p->evaluate(h.point, plain).nllh, h.nllh, 1e-12 * std::abs(h.nllh));
    for (double step : {-1e-3, 1e-3}) {
      std::vector<double> moved = h.point;
      moved[i] += step;
      EXPECT_GT(p->evaluate(moved, plain).nllh, h.nllh) << p->parameter_ids()[i] << step;
    }
  }
}

TEST(PetabHierarchical, GradientIsTheProfilesDerivative) {
  InnerProblem p;
  const std::vector<double> x = some_point(p);
  const PetabResult h = p->evaluate(x, hierarchical(true));
  for (const char* id : {"kc", "scale_e", "s2", "scale_p"}) {
    const std::size_t i = p.index(id);
    const double fd = test::central_difference(*p, x, i, 1e-5, hierarchical(false));
    EXPECT_NEAR(h.gradient[i], fd, 1e-5 * std::max(1.0, std::abs(fd))) << id;
  }
}

TEST(PetabHierarchical, OptimumOutsideTheBoundsIsTheNearerBound) {
  InnerProblem p("0.9\t1");  // the data ask for an offset near 0.3
  const PetabResult h = p->evaluate(some_point(p), hierarchical(true));
  EXPECT_EQ(h.point[p.index("offset_a")], 0.9);
  EXPECT_GT(h.gradient[p.index("offset_a")], 0.0);  // nllh falls toward the bound
}

TEST(PetabHierarchical, HeldParameterKeepsItsValue) {
  InnerProblem p;
  std::vector<double> x = some_point(p);
  x[p.index("offset_a")] = 2.5;
  PetabOptions o = hierarchical(false);
  o.hold.assign(x.size(), false);
  o.hold[p.index("offset_a")] = true;
  const PetabResult h = p->evaluate(x, o);
  EXPECT_EQ(h.point[p.index("offset_a")], 2.5);
  EXPECT_NE(h.point[p.index("scale_b")], x[p.index("scale_b")]);
  o.hold.pop_back();
  EXPECT_THROW(p->evaluate(x, o), Error);
}

// A noise parameter whose rows the simulations match exactly, with 0 as its
// lower bound: nllh falls without bound as it goes to 0. No optimum, an
// error naming it (the value was sigma 0 and nllh NaN, status ok).
TEST(PetabHierarchical, NoiseParameterWithoutAnOptimumIsAnError) {
  testing::TempProblem files;
  files.write("model.xml", test::kTwoStateModel);
  files.write("parameters.tsv",
              "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n"
              "kc\tlog10\t1e-3\t1e3\t0.4\t1\nk2\tlin\t0\t10\t0.2\t0\n"
              "sd\tlin\t0\t10\t1\t1\n");
  files.write("conditions.tsv", "conditionId\tk1\tu\nc0\tkc\t0.1\n");
  files.write("observables.tsv",
              "observableId\tobservableFormula\tnoiseFormula\nobs_one\t1 + 0 * A\tsd\n");
  files.write("measurements.tsv",
              "observableId\tsimulationConditionId\ttime\tmeasurement\n"
              "obs_one\tc0\t1\t1\nobs_one\tc0\t2\t1\n");
  auto problem = PetabProblem::load(files.path("problem.yaml"));
  ASSERT_EQ(problem->inner_parameters().size(), 1u);
  try {
    problem->evaluate(problem->nominal_scaled(), hierarchical(true));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite);
    EXPECT_NE(std::string(e.what()).find("inner noise parameter 'sd'"), std::string::npos)
        << e.what();
  }
}

TEST(PetabHierarchical, AnAdjointMethodRunsForwardAndAgrees) {
  InnerProblem p;
  const std::vector<double> x = some_point(p);
  PetabOptions adjoint = hierarchical(true);
  adjoint.method = "cvodes_asa";
  const PetabResult a = p->evaluate(x, adjoint);
  const PetabResult f = p->evaluate(x, hierarchical(true));
  ASSERT_EQ(a.gradient.size(), f.gradient.size());
  for (std::size_t i = 0; i < a.gradient.size(); ++i)
    EXPECT_NEAR(a.gradient[i], f.gradient[i], 1e-7 * std::max(1.0, std::abs(f.gradient[i])));
  EXPECT_EQ(a.point, f.point);
}

// The shared problems with inner parameters of every kind: at the nominal
// point the inner optimum never raises nllh, the point it reports gives its
// value when evaluated plainly, and the kinds found are those of the
// problem's formulas (Bachmann: noise parameters, log10 scalings and an
// offset; Weber: scalings and noise parameters).
TEST(PetabHierarchicalShared, NominalPointsOfTheSharedProblems) {
  const std::pair<const char*, std::size_t> problems[] = {
      {"Bachmann_MSB2011", 17}, {"Weber_BMC2015", 10}, {"Brannmark_JBC2010", 7},
      {"Laske_PLOSComputBiol2019", 5}, {"Boehm_JProteomeRes2014", 3}};
  for (const auto& [name, n_inner] : problems) {
    const std::string dir = test::benchmark_problem(name);
    if (!test::exists(dir)) GTEST_SKIP() << "shared PEtab problems absent: " << dir;
    SCOPED_TRACE(name);
    auto problem = PetabProblem::load(dir);
    EXPECT_EQ(problem->inner_parameters().size(), n_inner);
    PetabOptions options;
    const PetabResult plain = problem->evaluate(problem->nominal_scaled(), options);
    options.hierarchical = true;
    const PetabResult h = problem->evaluate(problem->nominal_scaled(), options);
    const double tol = 1e-8 * (1.0 + std::abs(plain.nllh));
    EXPECT_LE(h.nllh, plain.nllh + tol);
    options.hierarchical = false;
    EXPECT_NEAR(problem->evaluate(h.point, options).nllh, h.nllh, tol);
  }
}

}  // namespace
}  // namespace odesens
