// steady_state(): Newton with S* = -J_x^{-1} J_p on a model with a known
// answer, with the model's conservation laws where J_x is singular by
// them (S* then moving with x0 and p); integration where J_x is singular
// otherwise; the same
// answer from either way on a nonsingular model; clear failures.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "estimate/conservation_laws.hpp"
#include "model/parameter_subset.hpp"
#include "odesens/odesens.hpp"
#include "odesens/steady_state.hpp"

namespace odesens {
namespace {

Problem problem_of(const char* text, const char* name) {
  Problem pr;
  pr.model = load_ode_text(text, name);
  return pr;
}

// x1 made at k1, turned into x2 at k2, x2 removed at k3: x* = (k1/k2, k1/k3).
const char* kChain =
    "param k1 = 2\nparam k2 = 0.5\nparam k3 = 4\n"
    "state x1 = 0\nstate x2 = 1\n"
    "dx1/dt = k1 - k2*x1\ndx2/dt = k2*x1 - k3*x2\n";

// A <-> B: A + B = a0 + b0 is conserved, J_x is singular, and x* depends on
// x0: A* = kr (a0 + b0) / (kf + kr).
const char* kReversible =
    "param kf = 2\nparam kr = 1\nparam a0 = 1\nparam b0 = 0.5\n"
    "state A = a0\nstate B = b0\n"
    "dA/dt = -kf*A + kr*B\ndB/dt = kf*A - kr*B\n";

// Nonlinear and nonsingular: Michaelis-Menten removal of x, y made from x
// and removed in pairs.
const char* kNonlinear =
    "param v = 1\nparam vmax = 3\nparam km = 0.7\nparam k = 0.8\n"
    "state x = 0.1\nstate y = 0.5\n"
    "dx/dt = v - vmax*x/(km + x)\ndy/dt = k*x - y*y\n";

const char* kGrowing = "param k = 1\nstate x = 0\ndx/dt = k\n";

// x grows towards a/b at a rate b y^2, y towards c/d: at x0 = y0 = 0 the
// row of x in J_x is zero (Newton refuses), at x* = (a/b, c/d) J_x is
// regular. dx*/d(a, b, c, d) = (1/b, -a/b^2, 0, 0), dy*/d(...) = (0, 0, 1/d, -c/d^2).
const char* kRegularAtTheEnd =
    "param a = 1\nparam b = 2\nparam c = 1\nparam d = 1\nstate x = 0\nstate y = 0\n"
    "dx/dt = y^2*(a - b*x)\ndy/dt = c - d*y\n";

// A <-> B once Y (from 0) is up, with B leaking away at 1e-10: f is within
// the tolerances at the quasi-steady state A + B = a0 + b0 long before the
// root A = B = 0, and J_x is regular there (the leak), so the formula would
// give the root's S, not that of the x* returned.
const char* kSlowLeak =
    "param kf = 2\nparam kr = 1\nparam kd = 1e-10\nparam a0 = 1\nparam b0 = 0.5\n"
    "state A = a0\nstate B = b0\nstate Y = 0\n"
    "dA/dt = -kf*Y^2*A + kr*Y^2*B\ndB/dt = kf*Y^2*A - kr*Y^2*B - kd*B\ndY/dt = 1 - Y\n";

// The same exchange and leak without Y, starting at the exchange's
// equilibrium (kf a0 = kr b0): f is within the tolerances at x0 already.
const char* kLeakFromQuasiSteady =
    "param kf = 2\nparam kr = 1\nparam kd = 1e-10\nparam a0 = 0.5\nparam b0 = 1\n"
    "state A = a0\nstate B = b0\n"
    "dA/dt = -kf*A + kr*B\ndB/dt = kf*A - kr*B - kd*B\n";

// kRegularAtTheEnd with f reading t (a switch that changes nothing).
const char* kRegularAtTheEndReadingTime =
    "param a = 1\nparam b = 2\nparam c = 1\nparam d = 1\nstate x = 0\nstate y = 0\n"
    "dx/dt = y^2*(a - b*x)\ndy/dt = piecewise(c, t > 0.5, 2*c - c) - d*y\n";

// Rates thirteen decades apart (a slow mode beside a fast one, as in real
// models at parameters a fit explores): J_x's pivots span 1e-4 to 1e9, yet
// it is far from singular: x* = (1e4 a, b / 1e9).
const char* kSpreadRates =
    "param a = 1\nparam b = 2\nstate x = 0\nstate y = 0\n"
    "dx/dt = a - 1e-4*x\ndy/dt = b - 1e9*y\n";

TEST(SteadyState, NewtonOnALinearModelGivesTheAnalyticAnswer) {
  const Problem pr = problem_of(kChain, "chain.ode");
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "newton");
  ASSERT_EQ(ss.attempts.size(), 1u);
  EXPECT_NE(ss.attempts[0].find("converged"), std::string::npos) << ss.attempts[0];
  EXPECT_LE(ss.residual, 1.0);
  EXPECT_EQ(ss.time, 0.0);
  const double k1 = 2, k2 = 0.5, k3 = 4;
  ASSERT_EQ(ss.x.size(), 2u);
  EXPECT_NEAR(ss.x[0], k1 / k2, 1e-9);
  EXPECT_NEAR(ss.x[1], k1 / k3, 1e-9);
  // S[i + j*nx]: d x*_i / d k_j.
  const std::vector<double> S = {1 / k2, 1 / k3, -k1 / (k2 * k2), 0.0, 0.0, -k1 / (k3 * k3)};
  ASSERT_EQ(ss.S.size(), S.size());
  for (std::size_t i = 0; i < S.size(); ++i) EXPECT_NEAR(ss.S[i], S[i], 1e-9) << i;

  SteadyStateOptions no_s;
  no_s.sensitivities = false;
  EXPECT_TRUE(steady_state(pr, no_s).S.empty());
}

// Newton judges singularity on J_x with its rows scaled, not on the spread
// of the rates between rows, which sent such models to an integration over
// 1e5 time units and more.
TEST(SteadyState, RatesDecadesApartAreNotASingularJacobian) {
  const Problem pr = problem_of(kSpreadRates, "spread.ode");
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "newton") << ss.attempts[0];
  ASSERT_EQ(ss.x.size(), 2u);
  EXPECT_NEAR(ss.x[0], 1e4, 1e-9 * 1e4);
  EXPECT_NEAR(ss.x[1], 2e-9, 1e-9 * 2e-9);
  const std::vector<double> S = {1e4, 0.0, 0.0, 1e-9};
  ASSERT_EQ(ss.S.size(), S.size());
  for (std::size_t i = 0; i < S.size(); ++i) EXPECT_NEAR(ss.S[i], S[i], 1e-9 * 1e4) << i;
  EXPECT_NEAR(ss.S[3], 1e-9, 1e-18);
}

// J_x singular at x0 but regular at x*: x integrated alone, S* by Newton's
// formula there (exact for the limit the integrated S approaches).
TEST(SteadyState, SingularAtTheStartRegularAtTheEndTakesSFromTheFormula) {
  const Problem pr = problem_of(kRegularAtTheEnd, "regular_at_end.ode");
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "integration");
  ASSERT_EQ(ss.attempts.size(), 3u);
  EXPECT_NE(ss.attempts[0].find("singular"), std::string::npos) << ss.attempts[0];
  EXPECT_NE(ss.attempts[1].find("x alone"), std::string::npos) << ss.attempts[1];
  EXPECT_NE(ss.attempts[2].find("-J_x^{-1} J_p"), std::string::npos) << ss.attempts[2];
  EXPECT_GT(ss.time, 0.0);
  const double a = 1, b = 2, c = 1, d = 1;
  ASSERT_EQ(ss.x.size(), 2u);
  EXPECT_NEAR(ss.x[0], a / b, 1e-7);
  EXPECT_NEAR(ss.x[1], c / d, 1e-7);
  const std::vector<double> S = {1 / b, 0, -a / (b * b), 0, 0, 1 / d, 0, -c / (d * d)};
  ASSERT_EQ(ss.S.size(), S.size());
  for (std::size_t i = 0; i < S.size(); ++i) EXPECT_NEAR(ss.S[i], S[i], 1e-7) << i;

  SteadyStateOptions integrate_only;  // the integrated S agrees
  integrate_only.try_newton = false;
  const SteadyState integrated = steady_state(pr, integrate_only);
  ASSERT_EQ(integrated.attempts.size(), 1u);
  ASSERT_EQ(integrated.S.size(), S.size());
  for (std::size_t i = 0; i < S.size(); ++i) EXPECT_NEAR(integrated.S[i], S[i], 1e-5) << i;
}

TEST(SteadyState, AQuasiSteadyStateFarFromTheRootIntegratesS) {
  const Problem pr = problem_of(kSlowLeak, "slow_leak.ode");
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "integration");
  ASSERT_EQ(ss.attempts.size(), 4u);
  EXPECT_NE(ss.attempts[1].find("x alone"), std::string::npos) << ss.attempts[1];
  EXPECT_NE(ss.attempts[2].find("not taken: the root of f is"), std::string::npos)
      << ss.attempts[2];
  EXPECT_EQ(ss.attempts[3].find("x alone"), std::string::npos) << ss.attempts[3];
  ASSERT_EQ(ss.x.size(), 3u);
  EXPECT_NEAR(ss.x[0] + ss.x[1], 1.5, 1e-6);  // the leak has barely begun
  // dA*/da0 = kr / (kf + kr) at the quasi-steady state (0 at the root).
  ASSERT_EQ(ss.S.size(), 3u * 5u);
  EXPECT_NEAR(ss.S[0 + 3 * 3], 1.0 / 3.0, 1e-5);
}

// f is within the tolerances at x0, but the Newton step to the root is not
// (1e8 tolerances along the leak): Newton goes on to the root A = B = 0,
// whose S (0: the root moves with no parameter) is then that of the x it
// returns, with S asked for or not.
TEST(SteadyState, NewtonGoesOnToTheRootPastAQuasiSteadyState) {
  const Problem pr = problem_of(kLeakFromQuasiSteady, "leak_from_quasi.ode");
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "newton");
  ASSERT_EQ(ss.attempts.size(), 1u);
  EXPECT_NE(ss.attempts[0].find("converged in"), std::string::npos) << ss.attempts[0];
  EXPECT_EQ(ss.attempts[0].find("converged in 0"), std::string::npos) << ss.attempts[0];
  ASSERT_EQ(ss.x.size(), 2u);
  EXPECT_NEAR(ss.x[0], 0.0, 1e-12);
  EXPECT_NEAR(ss.x[1], 0.0, 1e-12);
  // S of kd is B / kd times O(1): within the tolerances of 0 only loosely.
  ASSERT_EQ(ss.S.size(), 2u * 5u);
  for (std::size_t i = 0; i < ss.S.size(); ++i)
    EXPECT_NEAR(ss.S[i], 0.0, i / 2 == 2 ? 1e-3 : 1e-9) << i;
  SteadyStateOptions no_s;
  no_s.sensitivities = false;
  const SteadyState x_only = steady_state(pr, no_s);
  EXPECT_EQ(x_only.how, "newton");
  EXPECT_EQ(x_only.x, ss.x);
}

// f reads t through a switch at t = 0.5 that changes nothing: J_x and J_p
// at x* are those of every later time, and the formula is taken.
TEST(SteadyState, FReadingTimeSettledTakesTheFormula) {
  const Problem pr = problem_of(kRegularAtTheEndReadingTime, "reading_time.ode");
  ASSERT_TRUE(pr.model->rhs_depends_on_time());
  const SteadyState ss = steady_state(pr);
  ASSERT_EQ(ss.attempts.size(), 3u);
  EXPECT_EQ(ss.attempts[2], "S* = -J_x^{-1} J_p at that x* (dense LU)");
  const std::vector<double> S = {0.5, 0, -0.25, 0, 0, 1, 0, -1};
  ASSERT_EQ(ss.S.size(), S.size());
  for (std::size_t i = 0; i < S.size(); ++i) EXPECT_NEAR(ss.S[i], S[i], 1e-7) << i;
}

// y's production doubles at t = 1e5, after y looks steady (t = 100): f
// and J_p change after x*, so S is integrated (the steady state of the
// span that was reached, as the integration of x finds it).
TEST(SteadyState, FReadingTimeUnsettledIntegratesS) {
  const Problem pr = problem_of(
      "param a = 1\nparam b = 2\nparam c = 1\nparam d = 1\nstate x = 0\nstate y = 0\n"
      "dx/dt = y^2*(a - b*x)\ndy/dt = c*piecewise(1, t < 100000, 2) - d*y\n",
      "late_switch.ode");
  const SteadyState ss = steady_state(pr);
  ASSERT_EQ(ss.attempts.size(), 4u);
  EXPECT_NE(ss.attempts[2].find("not taken (f reads t, and f, J_x or J_p change"),
            std::string::npos)
      << ss.attempts[2];
  EXPECT_LT(ss.time, 1e5);
}

// Central differences of x* in p_j, x0 moving with p.
std::vector<double> fd_sensitivities(const Problem& pr, const SteadyStateOptions& o) {
  const std::vector<double> p0 = pr.model->nominal_params();
  const std::size_t nx = pr.model->nx(), np = p0.size();
  std::vector<double> S(nx * np);
  for (std::size_t j = 0; j < np; ++j) {
    const double h = 1e-4 * std::max(1.0, std::fabs(p0[j]));
    Problem plus = pr, minus = pr;
    plus.params = minus.params = p0;
    plus.params[j] += h;
    minus.params[j] -= h;
    const SteadyState a = steady_state(plus, o), b = steady_state(minus, o);
    for (std::size_t i = 0; i < nx; ++i) S[i + j * nx] = (a.x[i] - b.x[i]) / (2 * h);
  }
  return S;
}

// S* of kReversible (kf = 2, kr = 1, a0 + b0 = 1.5), columns kf, kr, a0,
// b0: dA*/d(kf, kr, a0, b0) = (-kr T, kf T, kr (kf + kr), kr (kf + kr)) /
// (kf + kr)^2, and dB* = -dA* for the rates, 1 - dA* for the initial values.
void expect_reversible_sensitivities(const std::vector<double>& S, double tol) {
  const double kf = 2, kr = 1, total = 1.5, q = (kf + kr) * (kf + kr);
  const std::vector<double> dA = {-kr * total / q, kf * total / q, kr / (kf + kr), kr / (kf + kr)};
  ASSERT_EQ(S.size(), 8u);
  for (std::size_t j = 0; j < 4; ++j) {
    EXPECT_NEAR(S[0 + j * 2], dA[j], tol) << j;
    EXPECT_NEAR(S[1 + j * 2], (j < 2 ? -dA[j] : 1.0 - dA[j]), tol) << j;
  }
}

// Newton converged at once with one conservation law in place of a row.
void expect_newton_with_one_law(const SteadyState& ss) {
  EXPECT_EQ(ss.how, "newton");
  ASSERT_EQ(ss.attempts.size(), 1u);
  EXPECT_NE(ss.attempts[0].find("1 conservation law): converged"), std::string::npos)
      << ss.attempts[0];
}

// A + B is conserved: Newton with the law in place of a row of J_x (its
// right-hand side w^T S0 for S*), the answer analytic and that of the
// integration of x and S.
TEST(SteadyState, ConservationLawTakesNewtonWithTheLaw) {
  Problem pr = problem_of(kReversible, "reversible.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  expect_newton_with_one_law(ss);
  EXPECT_LE(ss.residual, 1.0);
  const double kf = 2, kr = 1, total = 1.5;
  EXPECT_NEAR(ss.x[0], kr * total / (kf + kr), 1e-12);
  EXPECT_NEAR(ss.x[1], kf * total / (kf + kr), 1e-12);
  expect_reversible_sensitivities(ss.S, 1e-12);
  SteadyStateOptions integrate_only;
  integrate_only.try_newton = false;
  const SteadyState integrated = steady_state(pr, integrate_only);
  EXPECT_EQ(integrated.how, "integration");
  for (std::size_t i = 0; i < ss.S.size(); ++i) EXPECT_NEAR(integrated.S[i], ss.S[i], 1e-7) << i;
}

// Newton given no iteration: x integrated alone, then S* by the formula
// with the law (not x and S integrated).
TEST(SteadyState, ConservationLawInTheFormulaAfterIntegration) {
  Problem pr = problem_of(kReversible, "reversible.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  SteadyStateOptions o;
  o.max_newton_iterations = 0;
  const SteadyState ss = steady_state(pr, o);
  EXPECT_EQ(ss.how, "integration");
  ASSERT_EQ(ss.attempts.size(), 3u);
  EXPECT_NE(ss.attempts[1].find("x alone"), std::string::npos) << ss.attempts[1];
  EXPECT_EQ(ss.attempts[2], "S* = -J_x^{-1} J_p at that x* (dense LU, 1 conservation law)");
  expect_reversible_sensitivities(ss.S, 1e-8);
}

// A <-> B where a pulse between t = 2 and 5 feeds A at kin: the total at
// the steady state is 1.5 + 3 kin, not that of x0. f reads t: Newton takes
// no laws, the totals of the integrated x* are not those of x0, so S is
// integrated: dA*/dkin = 3 kr / (kf + kr) = 1, dB*/dkin = 2.
TEST(SteadyState, APulseIntoAConservedPoolIntegratesS) {
  Problem pr = problem_of(
      "param kf = 2\nparam kr = 1\nparam kin = 1\nstate A = 1\nstate B = 0.5\n"
      "dA/dt = -kf*A + kr*B + piecewise(kin, t > 2 && t < 5, 0)\ndB/dt = kf*A - kr*B\n",
      "pulse.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "integration");
  ASSERT_EQ(ss.attempts.size(), 4u);
  EXPECT_EQ(ss.attempts[0].find("conservation law)"), std::string::npos) << ss.attempts[0];
  EXPECT_EQ(ss.attempts[2].find("conservation law)"), std::string::npos) << ss.attempts[2];
  EXPECT_NEAR(ss.x[0] + ss.x[1], 4.5, 1e-6);
  ASSERT_EQ(ss.S.size(), 6u);
  EXPECT_NEAR(ss.S[0 + 2 * 2], 1.0, 1e-5);
  EXPECT_NEAR(ss.S[1 + 2 * 2], 2.0, 1e-5);
}

// A <-> B with an extra conversion of A into B until t = 1: f reads t but
// keeps A + B, and J_p does not read t. Newton takes no laws (f reads t),
// x is integrated, and the formula takes the law at x*, where J_x and J_p
// no longer change and x* kept x0's total.
TEST(SteadyState, ASwitchThatKeepsTheTotalTakesTheFormulaWithTheLaw) {
  Problem pr = problem_of(
      "param kf = 2\nparam kr = 1\nparam a0 = 1\nparam b0 = 0.5\nstate A = a0\n"
      "state B = b0\ndA/dt = -kf*A + kr*B - piecewise(1, t < 1, 0)*A\n"
      "dB/dt = kf*A - kr*B + piecewise(1, t < 1, 0)*A\n",
      "switched_rate.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  ASSERT_EQ(ss.attempts.size(), 3u);
  EXPECT_EQ(ss.attempts[2], "S* = -J_x^{-1} J_p at that x* (dense LU, 1 conservation law)");
  expect_reversible_sensitivities(ss.S, 1e-7);
}

// A <-> B, a pulse into A of size dose between t = 2 and 5.
const char* kDosedPulse =
    "param kf = 2\nparam kr = 1\nparam a0 = 1\nparam b0 = 0.5\nparam dose = 0\n"
    "state A = a0\nstate B = b0\n"
    "dA/dt = -kf*A + kr*B + piecewise(dose, t > 2 && t < 5, 0)\ndB/dt = kf*A - kr*B\n";

// At dose 0 f is autonomous (Model::time_reading_at): with S for the
// other parameters (the dose held, as a PEtab pre-equilibration holds its
// condition's values), Newton takes the law.
TEST(SteadyState, AnInputWithADoseOfZeroTakesNewtonWithTheLaw) {
  Problem pr;
  pr.model = parameter_subset(load_ode_text(kDosedPulse, "pulse.ode"), {0, 1, 2, 3},
                              {0, 0, 0, 0, 0.0});
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  expect_newton_with_one_law(ss);
  expect_reversible_sensitivities(ss.S, 1e-12);
}

// With S for the dose too, its column of J_p is the pulse: the total of x
// stays, that of S moves (d(A* + B*)/d dose = 3). No laws: S is integrated,
// dA*/d dose = 3 kr / (kf + kr) = 1 and dB*/d dose = 2.
TEST(SteadyState, TheColumnOfADoseOfZeroIsIntegrated) {
  Problem pr = problem_of(kDosedPulse, "pulse.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "integration");
  for (const std::string& a : ss.attempts)
    EXPECT_EQ(a.find("conservation law)"), std::string::npos) << a;
  EXPECT_NEAR(ss.x[0] + ss.x[1], 1.5, 1e-8);
  ASSERT_EQ(ss.S.size(), 10u);
  expect_reversible_sensitivities({ss.S.begin(), ss.S.begin() + 8}, 1e-6);
  EXPECT_NEAR(ss.S[0 + 4 * 2], 1.0, 1e-5);
  EXPECT_NEAR(ss.S[1 + 4 * 2], 2.0, 1e-5);
}

// A -> B -> C -> A conserves A + B + C, the constant D is a law of its own,
// E is made from D: two laws; x* and S* against the analytic answer and the
// integrated one. Flux J through the cycle: A* = J / k1, B* = J / k2,
// C* = J / k3 with J (1/k1 + 1/k2 + 1/k3) = a0 + 0.5; E* = kp d0 / kd.
const char* kTwoLaws =
    "param k1 = 1\nparam k2 = 2\nparam k3 = 0.5\nparam a0 = 1\nparam d0 = 0.3\n"
    "param kp = 1\nparam kd = 2\n"
    "state A = a0\nstate B = 0\nstate C = 0.5\nstate D = d0\nstate E = 0\n"
    "dA/dt = -k1*A + k3*C\ndB/dt = k1*A - k2*B\ndC/dt = k2*B - k3*C\ndD/dt = 0\n"
    "dE/dt = kp*D - kd*E\n";

TEST(SteadyState, TwoConservationLawsAndAConstantState) {
  Problem pr = problem_of(kTwoLaws, "two_laws.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "newton");
  EXPECT_NE(ss.attempts[0].find("2 conservation laws): converged"), std::string::npos)
      << ss.attempts[0];
  const double flux = 1.5 / (1.0 + 0.5 + 2.0);
  const std::vector<double> x = {flux, flux / 2, flux / 0.5, 0.3, 1.0 * 0.3 / 2.0};
  ASSERT_EQ(ss.x.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(ss.x[i], x[i], 1e-12) << i;
  const std::size_t nx = 5;
  EXPECT_NEAR(ss.S[0 + 3 * nx], 1.0 / 3.5, 1e-12);  // dA*/da0
  EXPECT_NEAR(ss.S[4 + 4 * nx], 1.0 / 2.0, 1e-12);  // dE*/dd0 = kp / kd
  const std::vector<double> fd = fd_sensitivities(pr, {});
  ASSERT_EQ(fd.size(), ss.S.size());
  for (std::size_t i = 0; i < fd.size(); ++i) EXPECT_NEAR(ss.S[i], fd[i], 1e-6) << i;
  SteadyStateOptions integrate_only;
  integrate_only.try_newton = false;
  const SteadyState integrated = steady_state(pr, integrate_only);
  ASSERT_EQ(integrated.S.size(), ss.S.size());
  for (std::size_t i = 0; i < ss.S.size(); ++i) EXPECT_NEAR(integrated.S[i], ss.S[i], 1e-7) << i;
}

// A dose at t = 5 adds 1 to the total A + B: the law at x0 would give
// the steady state of the total before it, so with events the laws are not
// taken and x is integrated (through the dose).
TEST(SteadyState, EventsRuleConservationLawsOut) {
  Problem pr = problem_of(
      "param kf = 2\nparam kr = 1\nstate A = 1\nstate B = 0.5\n"
      "dA/dt = -kf*A + kr*B\ndB/dt = kf*A - kr*B\nevent dose when t >= 5: A = A + 1\n",
      "dosed.ode");
  SteadyStateOptions o;
  o.sensitivities = false;
  const SteadyState ss = steady_state(pr, o);
  EXPECT_EQ(ss.how, "integration");
  EXPECT_EQ(ss.attempts[0].find("conservation law)"), std::string::npos) << ss.attempts[0];
  ASSERT_EQ(ss.x.size(), 2u);
  EXPECT_NEAR(ss.x[0] + ss.x[1], 2.5, 1e-6);
  EXPECT_NEAR(ss.x[0], 2.5 / 3.0, 1e-6);
}

// The laws are found from J_x near x0, not at it: where J_x is singular at
// x0 alone (a zero row), there are none; where they exist, each annihilates
// f and J_x, and the rows they replace are regular in them.
TEST(SteadyState, ConservationLawsFoundOnlyWhereTheyHold) {
  auto laws_of = [](const char* text) {
    const Problem pr = problem_of(text, "laws.ode");
    const std::vector<double> p = pr.model->nominal_params();
    std::vector<double> x0(pr.model->nx());
    pr.model->initial_state(p.data(), x0.data());
    auto ws = pr.model->make_workspace();
    const Model::TimeReading r = pr.model->time_reading_at(p.data(), nullptr);
    return estimate::find_conservation_laws(*pr.model, 0.0, x0.data(), p.data(),
                                            r.rhs || r.jac_p, ws.get());
  };
  EXPECT_EQ(laws_of(kRegularAtTheEnd).count(), 0u);
  EXPECT_EQ(laws_of(kChain).count(), 0u);
  EXPECT_EQ(laws_of(kSlowLeak).count(), 0u);  // A + B leaks (kd): not a law
  // x's row of J_x is zero everywhere, but f_x = 1: no law.
  EXPECT_EQ(laws_of("state x = 0\nstate y = 1\ndx/dt = 1\ndy/dt = -y\n").count(), 0u);
  // A <-> B with an inflow into A switched on at t = 50: not a law.
  EXPECT_EQ(laws_of("param kf = 2\nparam kr = 1\nstate A = 1\nstate B = 0\n"
                    "dA/dt = -kf*A + kr*B + piecewise(1, t > 50, 0)\ndB/dt = kf*A - kr*B\n")
                .count(),
            0u);
  // An inflow into A whose rate u is 0 here, switched on at t = 50: A + B
  // holds at u = 0, but its S does not keep w^T S0 (d/du feeds A): no law.
  EXPECT_EQ(laws_of("param kf = 2\nparam kr = 1\nparam u = 0\nstate A = 1\nstate B = 0\n"
                    "dA/dt = -kf*A + kr*B + u*piecewise(1, t > 50, 0)\ndB/dt = kf*A - kr*B\n")
                .count(),
            0u);
  // The same switch changing nothing conserved: the law holds at every t.
  EXPECT_EQ(laws_of("param kf = 2\nparam kr = 1\nstate A = 1\nstate B = 0\n"
                    "dA/dt = -piecewise(2, t > 50, 1)*kf*A + kr*B\n"
                    "dB/dt = piecewise(2, t > 50, 1)*kf*A - kr*B\n")
                .count(),
            1u);
  const estimate::ConservationLaws two = laws_of(kTwoLaws);
  ASSERT_EQ(two.count(), 2u);
  const std::vector<double> x = {0.2, 1.1, 0.7, 0.4, 2.0};
  // W restricted to the replaced rows is regular: they can be solved for.
  const auto at = [&](std::size_t l, std::size_t r) { return two.w[l * 5 + two.rows[r]]; };
  EXPECT_GT(std::fabs(at(0, 0) * at(1, 1) - at(0, 1) * at(1, 0)), 1e-3);
  for (std::size_t l = 0; l < 2; ++l) {
    const double* w = two.w.data() + l * 5;
    EXPECT_NEAR(w[4], 0.0, 1e-14);  // E is in no law
    EXPECT_NEAR(w[0], w[1], 1e-14);  // A, B and C enter a law together
    EXPECT_NEAR(w[1], w[2], 1e-14);
  }
  // W x for x as a 5 x 1 matrix: the laws' values at x.
  const std::vector<double> wx = two.times(1, x.data());
  ASSERT_EQ(wx.size(), 2u);
  const double* w0 = two.w.data();
  EXPECT_DOUBLE_EQ(wx[0], w0[0] * 0.2 + w0[1] * 1.1 + w0[2] * 0.7 + w0[3] * 0.4 + w0[4] * 2.0);
}

TEST(SteadyState, NewtonAndIntegrationAgree) {
  Problem pr = problem_of(kNonlinear, "nonlinear.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState newton = steady_state(pr);
  EXPECT_EQ(newton.how, "newton") << newton.attempts[0];
  SteadyStateOptions integrate_only;
  integrate_only.try_newton = false;
  const SteadyState integrated = steady_state(pr, integrate_only);
  EXPECT_EQ(integrated.how, "integration");
  ASSERT_EQ(integrated.attempts.size(), 1u);
  ASSERT_EQ(newton.x.size(), integrated.x.size());
  for (std::size_t i = 0; i < newton.x.size(); ++i)
    EXPECT_NEAR(newton.x[i], integrated.x[i], 1e-7 * std::fabs(newton.x[i])) << i;
  ASSERT_EQ(newton.S.size(), integrated.S.size());
  for (std::size_t i = 0; i < newton.S.size(); ++i)
    EXPECT_NEAR(newton.S[i], integrated.S[i], 1e-6 * std::max(1.0, std::fabs(newton.S[i]))) << i;
}

// x' = k x - x^3 from 0.2: x goes to the stable root sqrt(k) (dx*/dk =
// 1 / (2 sqrt(k))); Newton's first step jumps past the unstable root 0 and
// converges to it, which was returned as the steady state.
TEST(SteadyState, AnUnstableRootNewtonFindsIsNotTheSteadyState) {
  Problem pr = problem_of("param k = 1\nstate x = 0.2\ndx/dt = k*x - x^3\n", "bistable.ode");
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const SteadyState ss = steady_state(pr);
  EXPECT_EQ(ss.how, "integration");
  ASSERT_GE(ss.attempts.size(), 2u);
  EXPECT_NE(ss.attempts[0].find("but at an unstable root (J_x has the eigenvalue 1 there)"),
            std::string::npos)
      << ss.attempts[0];
  ASSERT_EQ(ss.x.size(), 1u);
  EXPECT_NEAR(ss.x[0], 1.0, 1e-7);
  ASSERT_EQ(ss.S.size(), 1u);
  EXPECT_NEAR(ss.S[0], 0.5, 1e-6);
  // Started at the unstable root, x stays there.
  Problem at_root = pr;
  at_root.initial_state = {0.0};
  const SteadyState stays = steady_state(at_root);
  EXPECT_EQ(stays.how, "newton");
  EXPECT_EQ(stays.x, std::vector<double>{0.0});
  // x' = x from 1 grows without end: no steady state, though Newton finds 0.
  try {
    steady_state(problem_of("state x = 1\ndx/dt = x\n", "growth.ode"));
    ADD_FAILURE() << "x' = x from 1 has no steady state";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unstable root"), std::string::npos) << e.what();
  }
}

TEST(SteadyState, NoSteadyStateFailsListingAttempts) {
  const Problem pr = problem_of(kGrowing, "growing.ode");
  try {
    steady_state(pr);
    FAIL() << "dx/dt = 1 has no steady state";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::solver_failed);
    const std::string m = e.what();
    EXPECT_NE(m.find("newton"), std::string::npos) << m;
    EXPECT_NE(m.find("singular"), std::string::npos) << m;
    EXPECT_NE(m.find("integration"), std::string::npos) << m;
    EXPECT_NE(m.find("not steady"), std::string::npos) << m;
  }
}

TEST(SteadyState, BadInputsAreClearErrors) {
  Problem pr = problem_of(kChain, "chain.ode");
  pr.params = {2.0, std::numeric_limits<double>::quiet_NaN(), 4.0};
  try {
    steady_state(pr);
    FAIL() << "NaN parameter accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite);
    EXPECT_NE(std::string(e.what()).find("parameter"), std::string::npos) << e.what();
  }
  Problem fine = problem_of(kChain, "chain.ode");
  SteadyStateOptions o;
  o.max_time = -1;
  EXPECT_THROW(steady_state(fine, o), Error);
  o = {};
  o.rtol = std::nan("");
  EXPECT_THROW(steady_state(fine, o), Error);
}

// KLU (the model's J_x pattern, sparse_threshold lowered): the same
// answers, and the same refusal of a singular J_x.
TEST(SteadyState, KluGivesTheDenseAnswers) {
  Problem dense = problem_of(kNonlinear, "nonlinear.ode");
  Problem sparse = dense;
  sparse.options.set("sparse_threshold", 1);
  ASSERT_NE(sparse.model->jac_x_pattern(), nullptr);
  const SteadyState a = steady_state(dense), b = steady_state(sparse);
  EXPECT_NE(b.attempts[0].find("KLU"), std::string::npos) << b.attempts[0];
  EXPECT_EQ(b.how, "newton");
  for (std::size_t i = 0; i < a.x.size(); ++i) EXPECT_NEAR(b.x[i], a.x[i], 1e-12) << i;
  for (std::size_t i = 0; i < a.S.size(); ++i) EXPECT_NEAR(b.S[i], a.S[i], 1e-10) << i;
  Problem conserved = problem_of(kReversible, "reversible.ode");
  conserved.options.set("sparse_threshold", 1);
  const SteadyState c = steady_state(conserved);
  EXPECT_EQ(c.how, "integration");
  EXPECT_NE(c.attempts[0].find("singular"), std::string::npos) << c.attempts[0];
}

// A given initial state is where the search starts, and x0 no longer
// moves with the parameters.
TEST(SteadyState, StartsFromTheGivenInitialState) {
  Problem pr = problem_of(kReversible, "reversible.ode");
  pr.initial_state = {3.0, 0.0};
  const SteadyState ss = steady_state(pr);
  EXPECT_NEAR(ss.x[0] + ss.x[1], 3.0, 1e-7);
  // x0 is given, so it no longer moves with a0 and b0.
  EXPECT_NEAR(ss.S[0 + 2 * 2], 0.0, 1e-7);
}

}  // namespace
}  // namespace odesens
