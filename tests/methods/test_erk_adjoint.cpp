// erk_adjoint: the gradient and S(T) are those of the discrete ERK solution,
// exactly (central differences of replayed solves, Richardson-extrapolated),
// and approach the true ones as the tolerance falls (cvodes_fsa reference).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "methods/erk_adjoint/checkpoint_schedule.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"
#include "support/sanitized.hpp"

namespace odesens {
namespace {

using testing::builtin_problem;
using testing::linspace;

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q) {
    diff = std::max(diff, std::fabs(a[q] - b[q]));
    scale = std::max(scale, std::fabs(b[q]));
  }
  return diff / scale;
}

// x(T) of a solve with parameters p.
std::vector<double> final_state(Problem problem, const std::vector<double>& p) {
  problem.params = p;
  problem.options.set("final_sensitivity", std::int64_t{0});
  const Result r = solve(problem, "erk_adjoint");
  return std::vector<double>(r.x.end() - static_cast<std::ptrdiff_t>(r.nx), r.x.end());
}

// d x(T) / d p_j by central differences at delta and delta/2, Richardson
// extrapolated (error O(delta^4)).
std::vector<double> difference_column(const Problem& problem, std::size_t j, double rel) {
  const std::vector<double> p0 = effective_params(problem);
  const double delta = rel * std::max(1.0, std::fabs(p0[j]));
  auto central = [&](double d) {
    std::vector<double> plus = p0, minus = p0;
    plus[j] += d;
    minus[j] -= d;
    const auto xp = final_state(problem, plus), xm = final_state(problem, minus);
    std::vector<double> c(xp.size());
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = (xp[i] - xm[i]) / (2 * d);
    return c;
  };
  const auto coarse = central(delta), fine = central(delta / 2);
  std::vector<double> out(coarse.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = (4 * fine[i] - coarse[i]) / 3;
  return out;
}

// Fixed steps make the step sequence independent of p, so differences of
// whole solves differentiate the discrete map itself: every tableau.
TEST(ErkAdjoint, FixedStepSensitivitiesAreThoseOfTheDiscreteMap) {
  for (const char* tableau : {"euler", "rk4", "bs3", "cash_karp", "dopri5", "dop853"}) {
    for (const char* model : {"glv:6", "chua"}) {
      auto problem = builtin_problem(model, linspace(0, 2, 3));
      problem.options.set("tableau", std::string(tableau));
      problem.options.set("h_fixed", std::string(tableau) == "euler" ? 0.002 : 0.02);
      const Result r = solve(problem, "erk_adjoint");
      ASSERT_EQ(r.s_times.size(), 1u);
      for (std::size_t j = 0; j < r.np; ++j) {
        const auto column = difference_column(problem, j, 1e-3);
        const std::vector<double> s_column(r.s.begin() + static_cast<std::ptrdiff_t>(j * r.nx),
                                           r.s.begin() + static_cast<std::ptrdiff_t>((j + 1) * r.nx));
        EXPECT_LT(max_relative_difference(s_column, column), 1e-9)
            << tableau << " " << model << " p_" << j;
      }
      // G = sum_i x_i(T): the gradient is the column sums of S(T).
      for (std::size_t j = 0; j < r.np; ++j) {
        double sum = 0.0;
        for (std::size_t i = 0; i < r.nx; ++i) sum += r.s_at(0, i, j);
        EXPECT_NEAR(r.gradient[j], sum, 1e-12 * (1 + std::fabs(sum))) << tableau << " " << model;
      }
    }
  }
}

// f(t, x, p) of a model at given parameters, for replays.
class ReplayRhs final : public integrate::erk::ErkSystem {
 public:
  ReplayRhs(const Model& m, const std::vector<double>& p) : m_(m), p_(p), ws_(m.make_workspace()) {}
  void rhs(double t, const double* X, double* F) override { m_.rhs(t, X, p_.data(), F, ws_.get()); }

 private:
  const Model& m_;
  const std::vector<double>& p_;
  std::unique_ptr<Workspace> ws_;
};

// The forward pass of a problem's erk_adjoint solve (its accepted steps).
erk_adjoint::ForwardTrajectory forward_of(const Problem& problem, const char* tableau) {
  const Model& model = *problem.model;
  const std::vector<double> p0 = effective_params(problem);
  integrate::erk::ErkSettings settings;
  settings.tolerances.rtol = *problem.rtol;
  settings.tolerances.atol = problem.atol[0];
  auto ws = model.make_workspace();
  std::vector<double> x0(model.nx()), xs(model.nx() * problem.output_times.size());
  model.initial_state(p0.data(), x0.data(), ws.get());
  return erk_adjoint::run_forward(model, p0.data(), ws.get(), problem.t0, x0.data(),
                                  problem.output_times, *integrate::erk::find_tableau(tableau),
                                  settings, xs.data());
}

struct ReplayCase {
  const char* model;
  double t_end;
  double tolerance;  // of the gradient against the extrapolated differences
};
// vanderpol's x0 depends on mu: a looser check, as its differences carry
// the cancellation of a stiff solve.
const ReplayCase kReplayCases[] = {
    {"chua", 5.0, 1e-10}, {"glv:10", 10.0, 1e-10}, {"vanderpol", 0.5, 1e-8}};

// Adaptive steps: the gradient of the discrete solution for the accepted
// step sequence, checked by replaying that sequence (take_step) at p +- d.
TEST(ErkAdjoint, AdaptiveGradientIsExactForTheAcceptedSteps) {
  for (const ReplayCase& c : kReplayCases) {
    for (const char* tableau : {"bs3", "dopri5", "cash_karp", "dop853"}) {
      auto problem = builtin_problem(c.model, linspace(0, c.t_end, 6));
      problem.options.set("tableau", std::string(tableau));
      // The replay below steps by accuracy alone (forward_of).
      problem.options.set("stability_limit", std::int64_t{0});
      problem.rtol = 1e-7;
      problem.atol = {1e-9};
      const Result r = solve(problem, "erk_adjoint");
      const Model& model = *problem.model;
      const std::size_t nx = model.nx();
      const std::vector<double> p0 = effective_params(problem);
      const auto& tab = *integrate::erk::find_tableau(tableau);
      const auto trajectory = forward_of(problem, tableau);
      ASSERT_EQ(static_cast<double>(trajectory.steps()), r.stats.steps);
      ASSERT_GT(trajectory.steps(), 5u) << tableau;
      // G(p) = sum_i x_i(T) of the replayed step sequence.
      auto objective = [&](const std::vector<double>& p) {
        ReplayRhs rhs(model, p);
        integrate::erk::ErkWorkspace w(tab, nx, 1);
        integrate::erk::ErkSettings fixed;
        fixed.h_fixed = 1.0;  // steps come from take_step
        fixed.max_steps = 1L << 40;
        integrate::erk::ErkEngine engine(rhs, w, fixed);
        std::vector<double> start(nx);
        model.initial_state(p.data(), start.data(), nullptr);
        engine.reset(0.0, start.data(), c.t_end);
        for (std::size_t n = 0; n < trajectory.steps(); ++n) engine.take_step(trajectory.h[n]);
        double g = 0.0;
        for (std::size_t i = 0; i < nx; ++i) g += engine.x()[i];
        return g;
      };
      for (std::size_t j = 0; j < p0.size(); ++j) {
        const double d = 1e-3 * std::max(1.0, std::fabs(p0[j]));
        auto central = [&](double dd) {
          std::vector<double> plus = p0, minus = p0;
          plus[j] += dd;
          minus[j] -= dd;
          return (objective(plus) - objective(minus)) / (2 * dd);
        };
        const double reference = (4 * central(d / 2) - central(d)) / 3;
        EXPECT_NEAR(r.gradient[j], reference, c.tolerance * (std::fabs(reference) + 1e-3))
            << c.model << " " << tableau << " p_" << j;
      }
    }
  }
}

// The discrete tangent-linear model on the same stages: S_n carried
// forward by dY_i = S_n + h sum_j a_ij dk_j, dk_i = J_x(Y_i) dY_i + J_p(Y_i),
// S_{n+1} = S_n + h sum_i b_i dk_i, is the same derivative as the reverse
// sweep's S(T), to rounding.
TEST(ErkAdjoint, FinalSensitivityEqualsTheDiscreteTangentLinearSweep) {
  for (const ReplayCase& c : kReplayCases) {
    for (const char* tableau : {"dopri5", "cash_karp", "dop853"}) {
      auto problem = builtin_problem(c.model, linspace(0, c.t_end, 4));
      problem.options.set("tableau", std::string(tableau));
      problem.options.set("stability_limit", std::int64_t{0});  // as forward_of steps
      problem.rtol = 1e-7;
      problem.atol = {1e-9};
      const Result r = solve(problem, "erk_adjoint");
      const Model& model = *problem.model;
      const std::size_t nx = model.nx(), np = model.np(), block = nx * np;
      const std::vector<double> p = effective_params(problem);
      const auto& tab = *integrate::erk::find_tableau(tableau);
      const auto trajectory = forward_of(problem, tableau);
      // Stage values of a step, replayed.
      class Capture final : public integrate::erk::ErkObserver {
       public:
        explicit Capture(std::vector<std::vector<double>>& y) : y_(y) {}
        void on_stage(int i, double, const double* Y, const double*) override {
          if (static_cast<std::size_t>(i) < y_.size()) y_[i].assign(Y, Y + y_[i].size());
        }
        std::vector<std::vector<double>>& y_;
      };
      const int s = tab.stages;
      std::vector<std::vector<double>> Y(s, std::vector<double>(nx));
      Capture capture(Y);
      ReplayRhs rhs(model, p);
      integrate::erk::ErkWorkspace w(tab, nx, 1);
      integrate::erk::ErkSettings fixed;
      fixed.h_fixed = 1.0;
      fixed.max_steps = 1L << 40;
      integrate::erk::ErkEngine engine(rhs, w, fixed, &capture);
      std::vector<double> S(block), dY(block), jp(block);
      std::vector<std::vector<double>> dk(s, std::vector<double>(block));
      model.initial_sensitivity(p.data(), S.data());
      for (std::size_t n = 0; n < trajectory.steps(); ++n) {
        const double t = trajectory.t[n], h = trajectory.h[n];
        engine.reset(t, trajectory.x.data() + n * nx, t + h);
        engine.take_step(h);
        for (int i = 0; i < s; ++i) {
          dY = S;
          for (int j = 0; j < i; ++j)
            if (tab.a_at(i, j) != 0.0)
              for (std::size_t q = 0; q < block; ++q) dY[q] += h * tab.a_at(i, j) * dk[j][q];
          model.jvp(t + tab.c[i] * h, Y[i].data(), p.data(), np, dY.data(), dk[i].data());
          model.jac_p(t + tab.c[i] * h, Y[i].data(), p.data(), jp.data());
          for (std::size_t q = 0; q < block; ++q) dk[i][q] += jp[q];
        }
        for (int i = 0; i < s; ++i)
          if (tab.b[i] != 0.0)
            for (std::size_t q = 0; q < block; ++q) S[q] += h * tab.b[i] * dk[i][q];
      }
      EXPECT_LT(max_relative_difference(r.s, S), 1e-12) << c.model << " " << tableau;
    }
  }
}

// The discrete gradient converges to the true one: glv:10 and chua against
// cvodes_fsa at rtol 1e-12.
TEST(ErkAdjoint, ApproachesForwardSensitivitiesAsTheToleranceFalls) {
  for (const ReplayCase& c : kReplayCases) {
    auto reference_problem = builtin_problem(c.model, linspace(0, c.t_end, 6));
    reference_problem.rtol = 1e-12;
    reference_problem.atol = {1e-14};
    const Result ref = solve(reference_problem, "cvodes_fsa");
    const std::vector<double> s_ref(ref.s.end() - static_cast<std::ptrdiff_t>(ref.nx * ref.np),
                                    ref.s.end());
    // G = sum_i x_i(T): its gradient is the column sums of S(T).
    std::vector<double> g_ref(ref.np, 0.0);
    for (std::size_t j = 0; j < ref.np; ++j)
      for (std::size_t i = 0; i < ref.nx; ++i) g_ref[j] += s_ref[i + j * ref.nx];
    double previous = 1.0;
    for (double tol : {1e-6, 1e-8, 1e-10}) {
      auto problem = builtin_problem(c.model, linspace(0, c.t_end, 6));
      problem.rtol = tol;
      problem.atol = {tol * 1e-2};
      const Result r = solve(problem, "erk_adjoint");
      const double error = max_relative_difference(r.s, s_ref);
      EXPECT_LT(error, previous) << c.model << " tol " << tol;
      previous = error;
      if (tol == 1e-10) {
        EXPECT_LT(error, 1e-6) << c.model;
        EXPECT_LT(max_relative_difference(r.gradient, g_ref), 1e-6) << c.model;
      }
    }
  }
}

// Intermediate output times enter the objective where their weights say.
TEST(ErkAdjoint, WeightsAtEarlierOutputTimesMatchCvodesAdjoint) {
  auto problem = builtin_problem("glv:5", linspace(0, 4, 5));
  problem.adjoint_weights.assign(5 * 5, 0.0);
  for (std::size_t k = 0; k < 5; ++k) problem.adjoint_weights[k * 5 + k] = 1.0 + k;
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const Result erk = solve(problem, "erk_adjoint");
  const Result cvodes = solve(problem, "cvodes_asa");
  EXPECT_LT(max_relative_difference(erk.gradient, cvodes.gradient), 1e-6);
}

// x' = x^2 blows up at t = 1: the step size collapses there and the
// message says what that may mean.
TEST(ErkAdjoint, BlowUpIsASolverFailureNamingItsTime) {
  Problem problem;
  problem.model = load_ode_text("param a = 1\nstate x = 1\ndx/dt = a*x^2\n", "blow_up.ode");
  problem.output_times = linspace(0, 2, 3);
  try {
    solve(problem, "erk_adjoint");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::solver_failed);
    const std::string m = e.what();
    EXPECT_NE(m.find("blow up"), std::string::npos) << m;
    EXPECT_NE(m.find("t = 1"), std::string::npos) << m;
  }
}

// x rests at its equilibrium 1 under a fast rate k = 1000: the error
// estimate is 0, so accuracy alone lets a step cover [0, 1], where R(hJ) is
// astronomically large and dx(1)/dx0 (truly e^-1000) is garbage. The
// stability limit keeps h k <= 0.9 * 3.3 and S(T) is that of cvodes_fsa.
TEST(ErkAdjoint, StabilityLimitKeepsTheAdjointOfARestingFastModeRight) {
  Problem problem;
  problem.model = load_ode_text(
      "param k = 1000\nparam a = 0.5\nparam x0 = 1\nstate x = x0\nstate y = 0\n"
      "dx/dt = -k*(x - 1)\ndy/dt = a*x\n", "resting.ode");
  problem.output_times = {0.0, 1.0};
  const Result fsa = solve(problem, "cvodes_fsa");
  const Result adj = solve(problem, "erk_adjoint");
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_NEAR(adj.s_at(0, i, j), fsa.s_at(1, i, j), 1e-5) << i << " " << j;
  EXPECT_GT(adj.stats.steps, 250);  // 1 / (0.9 * 3.3 / 1000) steps at least
  problem.options.set("stability_limit", std::int64_t{0});
  try {
    const Result off = solve(problem, "erk_adjoint");
    EXPECT_LT(off.stats.steps, 20);  // accuracy alone
    double worst = 0;
    for (std::size_t q = 0; q < off.s.size(); ++q)
      worst = std::max(worst, std::fabs(off.s[q] - adj.s[q]));
    EXPECT_GT(worst, 1e-2);  // the unstable steps' adjoint is wrong
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite) << e.what();
  }
}

// STIFF DETEST E3 over [0, 500]: the forward pass's stiffness test ends it
// early and names the implicit methods; with the test off the same problem
// runs to the end (an explicit method can, at its stability limit).
TEST(ErkAdjoint, StiffProblemEndsEarlyNamingImplicitMethods) {
  for (const char* tableau : {"dopri5", "dop853"}) {
    Problem problem;
    problem.model = load_ode_text(
        "param a1 = 55\nparam a2 = 65\nparam a3 = 0.0785\nparam a4 = 0.1\n"
        "state y1 = 1\nstate y2 = 1\nstate y3 = 0\n"
        "dy1/dt = -(a1 + y3)*y1 + a2*y2\ndy2/dt = a3*(y1 - y2)\ndy3/dt = a4*y1\n",
        "stiff_e3.ode");
    problem.output_times = linspace(0, 500, 3);
    problem.options.set("tableau", std::string(tableau));
    try {
      solve(problem, "erk_adjoint");
      ADD_FAILURE() << tableau << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::stiff) << e.what();
      for (const char* named : {"cvodes_asa", "cvodes_fsa", "odesd", "stiffness_check=0", tableau})
        EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
    problem.options.set("stiffness_check", std::int64_t{0});
    const Result r = solve(problem, "erk_adjoint");
    EXPECT_GT(r.stats.steps, 2000) << tableau;
    EXPECT_EQ(r.gradient.size(), 4u);
  }
}

TEST(ErkAdjoint, BadInputIsRefusedWithAClearStatus) {
  auto problem = builtin_problem("glv:3", linspace(0, 1, 3));
  problem.options.set("tableau", std::string("rk4"));
  try {
    solve(problem, "erk_adjoint");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::option_type);
    EXPECT_NE(std::string(e.what()).find("h_fixed"), std::string::npos);
  }
  problem.options.set("tableau", std::string("rk5"));
  EXPECT_THROW(solve(problem, "erk_adjoint"), Error);
  problem.options.set("tableau", std::string("dopri5"));
  problem.options.set("h_fixed", -1.0);
  EXPECT_THROW(solve(problem, "erk_adjoint"), Error);
  problem.options.set("h_fixed", 0.0);
  problem = builtin_problem("chua", linspace(0, 10, 2));
  problem.max_steps = 5;
  problem.rtol = 1e-12;
  try {
    solve(problem, "erk_adjoint");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::too_much_work);
  }
}

// heat2d with fixed steps: u0 is an eigenvector of the discrete Laplacian
// (eigenvalue lambda_h), so u_N = R(z)^N u0 with z = alpha lambda_h dt and
// R the stability polynomial, and du_N/dalpha = N R(z)^(N-1) R'(z) lambda_h
// dt u0 exactly (the discrete solution's own derivative).
TEST(ErkAdjoint, HeatEquationWithFixedStepsMatchesTheStabilityPolynomial) {
  const std::size_t grid = 10;
  const double pi = 3.14159265358979323846, h = 1.0 / (grid - 1), dt = 5e-5;
  const double lambda_h = -8.0 * std::sin(pi * h / 2) * std::sin(pi * h / 2) / (h * h);
  const double z = lambda_h * dt;  // alpha = 1
  const int steps = 200;           // [0, 0.01]
  struct Case {
    const char* tableau;
    double r, dr;
  };
  const Case cases[] = {{"euler", 1 + z, 1.0},
                        {"rk4", 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24,
                         1 + z + z * z / 2 + z * z * z / 6}};
  for (const Case& c : cases) {
    auto problem = builtin_problem("heat2d:10", {0.01});
    problem.options.set("tableau", std::string(c.tableau));
    problem.options.set("h_fixed", dt);
    const Result r = solve(problem, "erk_adjoint");
    EXPECT_EQ(r.stats.steps, steps) << c.tableau;
    const double factor = steps * std::pow(c.r, steps - 1) * c.dr * lambda_h * dt;
    auto x0 = std::vector<double>(grid * grid);
    problem.model->initial_state(nullptr, x0.data());
    double worst = 0.0;
    for (std::size_t i = 0; i < grid * grid; ++i) {
      const double expected = factor * x0[i];
      worst = std::max(worst, std::fabs(r.s_at(0, i, 0) - expected) / std::fabs(factor));
      EXPECT_NEAR(r.x_at(0, i), std::pow(c.r, steps) * x0[i], 1e-13) << c.tableau;
    }
    EXPECT_LT(worst, 1e-12) << c.tableau;
  }
}

// The adjoint paper's Tables 1-2, adjoint column: the relative error (59)
// of dx(t_f)/dalpha from S(T) against the closed form (57) of the heat
// equation (u0 = sin(pi x) sin(pi y): only gamma_11 = 1), fixed steps of
// 5e-5 over [0, 0.01], in units of 1e-1 % as the tables give it.
TEST(ErkAdjoint, HeatEquationReproducesTheAdjointColumnOfTables1And2) {
  ODESENS_SKIP_WHEN_SANITIZED("HeatEquationWithFixedStepsMatchesTheStabilityPolynomial runs the same sweep");
  const double pi = 3.14159265358979323846, t_f = 0.01;
  struct Case {
    const char* tableau;
    std::size_t grid;
    double table;
  };
  const Case cases[] = {{"euler", 10, 7.260}, {"euler", 30, 0.104},
                        {"rk4", 10, 8.135},   {"rk4", 30, 0.785}};
  for (const Case& c : cases) {
    auto problem = builtin_problem("heat2d:" + std::to_string(c.grid), {t_f});
    problem.options.set("tableau", std::string(c.tableau));
    problem.options.set("h_fixed", 5e-5);
    const Result r = solve(problem, "erk_adjoint");
    const double h = 1.0 / static_cast<double>(c.grid - 1);
    double diff = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < c.grid * c.grid; ++k) {
      const double x = static_cast<double>(k % c.grid) * h, y = static_cast<double>(k / c.grid) * h;
      const double exact = -2 * pi * pi * t_f * std::sin(pi * x) * std::sin(pi * y) *
                           std::exp(-2 * pi * pi * t_f);  // Eq. 57, alpha = 1
      diff = std::max(diff, std::fabs(r.s_at(0, k, 0) - exact));
      scale = std::max(scale, std::fabs(exact));
    }
    const double eps_r = diff / scale / 1e-3;  // Eq. 59, in 1e-1 %
    EXPECT_NEAR(eps_r, c.table, 6e-4) << c.tableau << " Np = " << c.grid;
  }
}

// The three checkpointing modes give the same numbers to the bit; states
// keep (nx + 2) doubles per step, revolve at most C states and recomputes
// exactly Griewank's binomial count of steps.
TEST(ErkAdjoint, CheckpointingModesAgreeBitwise) {
  for (const char* model : {"chua", "glv:8"}) {
    auto problem = builtin_problem(model, linspace(0, 6, 4));
    problem.options.set("checkpointing", std::string("states"));
    const Result states = solve(problem, "erk_adjoint");
    const double steps = states.stats.steps;
    const double nx = static_cast<double>(states.nx);
    EXPECT_EQ(states.stats.extra.at("trajectory_bytes"), (nx + 2) * 8 * steps);
    EXPECT_EQ(states.stats.extra.at("recomputed_steps"), steps);
    problem.options.set("checkpointing", std::string("stages"));
    const Result stages = solve(problem, "erk_adjoint");
    EXPECT_EQ(stages.stats.extra.at("recomputed_steps"), 0.0);
    EXPECT_EQ(stages.gradient, states.gradient) << model;
    EXPECT_EQ(stages.s, states.s) << model;
    for (std::int64_t c : {1, 2, 5, 40}) {
      problem.options.set("checkpointing", std::string("revolve"));
      problem.options.set("checkpoints", c);
      const Result revolve = solve(problem, "erk_adjoint");
      EXPECT_EQ(revolve.gradient, states.gradient) << model << " C = " << c;
      EXPECT_EQ(revolve.s, states.s) << model << " C = " << c;
      const auto n = static_cast<long long>(steps);
      EXPECT_EQ(revolve.stats.extra.at("recomputed_steps"),
                static_cast<double>(n + erk_adjoint::revolve_advances(n, c)))
          << model << " C = " << c;
      // The step sequence, x0, C checkpoints and three work states.
      EXPECT_LE(revolve.stats.extra.at("trajectory_bytes"), 8 * (2 * steps + (c + 4) * nx));
    }
  }
}

// T(l, c) is the optimum of the recursion that defines it (any first split
// j, then the right part with one checkpoint fewer), checked exhaustively.
TEST(ErkAdjoint, RevolveCountIsTheBinomialOptimum) {
  const int max_l = 60, max_c = 5;
  std::vector<std::vector<long long>> best(max_l + 1, std::vector<long long>(max_c + 1, 0));
  for (int l = 2; l <= max_l; ++l) {
    best[l][0] = static_cast<long long>(l) * (l - 1) / 2;
    for (int c = 1; c <= max_c; ++c) {
      long long b = -1;
      for (int j = 1; j < l; ++j) {
        const long long cost = j + best[l - j][c - 1] + best[j][c];
        if (b < 0 || cost < b) b = cost;
      }
      best[l][c] = b;
    }
  }
  for (int l = 1; l <= max_l; ++l)
    for (int c = 0; c <= max_c; ++c)
      EXPECT_EQ(erk_adjoint::revolve_advances(l, c), best[l][c]) << "l = " << l << " c = " << c;
}

// ---- several objectives, running costs, lanes and threads ----

// Two states, three parameters, x0 depending on p, transcendental terms in
// f and in the outputs that serve as running costs.
const char* kCostModel =
    "param a = 1.3\nparam b = 0.7\nparam c = 0.4\n"
    "state u = 1\nstate v = 0.5*a\n"
    "let w = sin(u)*exp(-c*v)\n"
    "du/dt = -a*u + b*w + 0.1*t\n"
    "dv/dt = a*u*v/(1 + v^2) - c*v + w\n"
    "output cost = (u - 0.3)^2 + b*log(1 + v^2)\n"
    "output energy = u*v + exp(c*u)\n";

Problem cost_problem() {
  Problem problem;
  problem.model = load_ode_text(kCostModel, "cost.ode");
  problem.output_times = {0.5, 1.0, 2.0};
  problem.options.set("tableau", std::string("dopri5"));
  problem.options.set("h_fixed", 0.01);
  // psi_0 = int cost + 2 v(0.5) - u(2); psi_1 = int energy + u(1);
  // psi_2 = int u (a state as running cost, no weights).
  problem.n_objectives = 3;
  problem.integrand = observable_integrand(problem.model, {"cost", "energy", "u"});
  problem.adjoint_weights.assign(2 * 3 * 3, 0.0);
  problem.adjoint_weights[1 + 0 * 2 + 0 * 6] = 2.0;
  problem.adjoint_weights[0 + 2 * 2 + 0 * 6] = -1.0;
  problem.adjoint_weights[0 + 1 * 2 + 1 * 6] = 1.0;
  return problem;
}

// psi(p) and psi(x0) of whole solves: with fixed steps these differentiate
// the discrete map, quadrature included.
std::vector<double> objectives_at(Problem problem, const std::vector<double>& p,
                                  const std::vector<double>& x0 = {}) {
  problem.params = p;
  problem.initial_state = x0;
  problem.options.set("final_sensitivity", std::int64_t{0});
  return solve(problem, "erk_adjoint").objective_values;
}

TEST(ErkAdjoint, GradientsOfSeveralObjectivesWithRunningCostsAreExact) {
  const Problem problem = cost_problem();
  const Result r = solve(problem, "erk_adjoint");
  const std::size_t nx = 2, np = 3, m = 3;
  ASSERT_EQ(r.gradient.size(), np * m);
  ASSERT_EQ(r.gradient_x0.size(), nx * m);
  ASSERT_EQ(r.objective_values.size(), m);
  const std::vector<double> p0 = effective_params(problem);
  auto richardson = [](auto&& f, double d) {
    auto central = [&](double dd) {
      const auto plus = f(dd), minus = f(-dd);
      std::vector<double> c(plus.size());
      for (std::size_t k = 0; k < c.size(); ++k) c[k] = (plus[k] - minus[k]) / (2 * dd);
      return c;
    };
    const auto coarse = central(d), fine = central(d / 2);
    std::vector<double> out(coarse.size());
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = (4 * fine[k] - coarse[k]) / 3;
    return out;
  };
  for (std::size_t j = 0; j < np; ++j) {
    const auto reference = richardson(
        [&](double d) {
          auto p = p0;
          p[j] += d;
          return objectives_at(problem, p);
        },
        1e-3);
    for (std::size_t k = 0; k < m; ++k)
      EXPECT_NEAR(r.gradient[j + k * np], reference[k], 1e-9 * (1 + std::fabs(reference[k])))
          << "objective " << k << " p_" << j;
  }
  // d psi / d x0, with x0 given (then it no longer depends on p).
  const std::vector<double> x0 = {r.x_at(0, 0) * 0 + 1.0, 0.5 * p0[0]};
  for (std::size_t i = 0; i < nx; ++i) {
    const auto reference = richardson(
        [&](double d) {
          auto x = x0;
          x[i] += d;
          return objectives_at(problem, p0, x);
        },
        1e-3);
    for (std::size_t k = 0; k < m; ++k)
      EXPECT_NEAR(r.gradient_x0[i + k * nx], reference[k], 1e-9 * (1 + std::fabs(reference[k])))
          << "objective " << k << " x0_" << i;
  }
  // S(T) is unchanged by the objectives: the same as with the default one.
  Problem single = problem;
  single.n_objectives = 1;
  single.integrand = nullptr;
  single.adjoint_weights.clear();
  const Result s = solve(single, "erk_adjoint");
  EXPECT_EQ(s.s, r.s);
}

// The quadrature is the tableau's: at tight tolerance the objective value
// and its gradient approach those of an accurate solve (cvodes_fsa's S
// integrated by a fine trapezoid rule would do; here: psi_2 = int u, whose
// gradient must equal the integral of S_u, approximated by dopri5 itself
// at two tolerances converging to each other).
TEST(ErkAdjoint, RunningCostGradientConvergesWithTheTolerance) {
  Problem problem = cost_problem();
  problem.options.set("h_fixed", 0.0);
  problem.rtol = 1e-6;
  problem.atol = {1e-8};
  const Result coarse = solve(problem, "erk_adjoint");
  problem.rtol = 1e-11;
  problem.atol = {1e-13};
  const Result fine = solve(problem, "erk_adjoint");
  EXPECT_LT(max_relative_difference(coarse.gradient, fine.gradient), 1e-4);
  EXPECT_LT(max_relative_difference(coarse.objective_values, fine.objective_values), 1e-5);
}

TEST(ErkAdjoint, FunctionIntegrandOnABuiltinModel) {
  // R = x_1^2 + r_1 x_2 on glv:4 (p_0 = r_1), fixed steps.
  auto problem = builtin_problem("glv:4", {1.0, 2.0});
  problem.options.set("tableau", std::string("rk4"));
  problem.options.set("h_fixed", 0.05);
  constexpr std::size_t nx = 4;
  const std::size_t np = problem.model->np();
  problem.integrand = function_integrand(
      1, [np](double, const double* x, const double* p, double* r, double* rx, double* rp) {
        if (r) r[0] = x[0] * x[0] + p[0] * x[1];
        if (rx) {
          for (std::size_t i = 0; i < nx; ++i) rx[i] = 0.0;
          rx[0] = 2 * x[0];
          rx[1] = p[0];
        }
        if (rp) {
          for (std::size_t j = 0; j < np; ++j) rp[j] = 0.0;
          rp[0] = x[1];
        }
      });
  const Result r = solve(problem, "erk_adjoint");
  const std::vector<double> p0 = effective_params(problem);
  for (std::size_t j : {std::size_t{0}, std::size_t{1}, std::size_t{4}, np - 1}) {
    auto at = [&](double d) {
      auto p = p0;
      p[j] += d;
      return objectives_at(problem, p)[0];
    };
    const double d = 1e-3;
    const double reference =
        (4 * (at(d / 2) - at(-d / 2)) / d - (at(d) - at(-d)) / (2 * d)) / 3;
    EXPECT_NEAR(r.gradient[j], reference, 1e-9 * (1 + std::fabs(reference))) << "p_" << j;
  }
}

// Lanes and threads change how the adjoint vectors are grouped, never a bit
// of any of them.
TEST(ErkAdjoint, LanesAndThreadsAgreeBitwise) {
  Problem problem = cost_problem();
  problem.options.set("h_fixed", 0.0);
  problem.rtol = 1e-8;
  // 40 objectives: the three above, repeated with scaled weights.
  const std::size_t per = problem.adjoint_weights.size();
  problem.n_objectives = 40;
  std::vector<std::string> names;
  std::vector<double> weights;
  for (std::size_t k = 0; k < 40; ++k) {
    names.push_back(k % 3 == 0 ? "cost" : k % 3 == 1 ? "energy" : "v");
    for (std::size_t q = 0; q < per / 3; ++q)
      weights.push_back(problem.adjoint_weights[q + (k % 3) * (per / 3)] * (1.0 + 0.1 * k));
  }
  problem.adjoint_weights = weights;
  problem.integrand = observable_integrand(problem.model, names);
  problem.options.set("lanes", std::int64_t{1});
  problem.options.set("threads", std::int64_t{1});
  const Result reference = solve(problem, "erk_adjoint");
  EXPECT_EQ(reference.stats.extra.at("threads"), 1.0);
  std::vector<std::int64_t> widths = {1};
  if (widest_expr_lane_width() >= 4) widths.push_back(4);
  if (widest_expr_lane_width() >= 8) widths.push_back(8);
  for (std::int64_t lanes : widths) {
    for (std::int64_t threads : {1, 2, 3}) {
      for (const char* mode : {"states", "revolve"}) {
        Problem variant = problem;
        variant.options.set("lanes", lanes);
        variant.options.set("threads", threads);
        variant.options.set("checkpointing", std::string(mode));
        variant.options.set("checkpoints", std::int64_t{3});
        const Result r = solve(variant, "erk_adjoint");
        EXPECT_EQ(r.stats.extra.at("lanes"), static_cast<double>(lanes));
        EXPECT_EQ(r.stats.extra.at("threads"), static_cast<double>(threads));
        EXPECT_EQ(r.gradient, reference.gradient) << lanes << " lanes, " << threads << " threads";
        EXPECT_EQ(r.gradient_x0, reference.gradient_x0) << lanes << " lanes";
        EXPECT_EQ(r.s, reference.s) << lanes << " lanes, " << threads << " threads";
        EXPECT_EQ(r.objective_values, reference.objective_values);
      }
    }
  }
}

TEST(ErkAdjoint, ObjectivesAndIntegrandsAreCheckedAndOtherMethodsRefuseThem) {
  Problem problem = cost_problem();
  for (const char* method : {"cvodes_asa", "cvodes_fsa", "pbsr"}) {
    try {
      solve(problem, method);
      ADD_FAILURE() << method << " took several objectives";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unsupported) << method;
      EXPECT_NE(std::string(e.what()).find("erk_adjoint"), std::string::npos) << e.what();
    }
  }
  auto expect_invalid = [](const Problem& p, const std::string& fragment) {
    try {
      solve(p, "erk_adjoint");
      ADD_FAILURE() << "accepted: " << fragment;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  Problem wrong_count = problem;
  wrong_count.n_objectives = 2;
  expect_invalid(wrong_count, "adjoint weights");
  wrong_count.adjoint_weights.clear();
  expect_invalid(wrong_count, "one per objective");
  Problem zero = problem;
  zero.n_objectives = 0;
  expect_invalid(zero, "n_objectives");
  EXPECT_THROW(observable_integrand(problem.model, {"nosuch"}), Error);
  EXPECT_THROW(observable_integrand(problem.model, {}), Error);
  Problem lanes = problem;
  lanes.options.set("lanes", std::int64_t{3});
  EXPECT_THROW(solve(lanes, "erk_adjoint"), Error);
  // A failing running cost ends the solve with its error, from any thread.
  Problem failing = problem;
  failing.integrand = function_integrand(3, [](double t, const double*, const double*, double* r,
                                               double*, double*) {
    if (t > 1.0) throw Error(Status::callback_failed, "running cost failed at t > 1");
    if (r) r[0] = r[1] = r[2] = 0.0;
  });
  failing.options.set("threads", std::int64_t{2});
  try {
    solve(failing, "erk_adjoint");
    ADD_FAILURE() << "a failing integrand went unnoticed";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::callback_failed);
  }
}

}  // namespace
}  // namespace odesens
