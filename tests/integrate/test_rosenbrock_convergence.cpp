// Measured orders with fixed steps: GRK4A's nominal trajectory has order 4
// (and loses it without the h² f_t terms), and the difference quotients of
// perturbed lanes converge at order 1 with frozen Jacobians and at order 4
// with corrected ones (Van der Pol, mu = 1, against CVODES at rtol 1e-12).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "integrate/implicit/model_rosenbrock_system.hpp"
#include "integrate/implicit/rosenbrock_engine.hpp"
#include "odesens/odesens.hpp"
#include "rosenbrock_test_problems.hpp"

namespace odesens::integrate {
namespace {

using testing::RiccatiSystem;

// Global error at t_end = 2 of N fixed steps on x' = -2 t x^2, y' = x.
double riccati_error(int steps, bool ignore_time, std::size_t lanes = 1,
                     RosenbrockJacobian mode = RosenbrockJacobian::corrected) {
  RiccatiSystem system(lanes, ignore_time);
  RosenbrockWorkspace ws(grk4a(), 2, lanes, nullptr);
  RosenbrockSettings settings;
  const double t_end = 2.0;
  settings.h_fixed = t_end / steps;
  settings.jacobian = mode;
  RosenbrockEngine engine(system, ws, settings);
  std::vector<double> x0(2 * lanes);
  for (std::size_t l = 0; l < lanes; ++l) {
    x0[l] = 1.0;
    x0[lanes + l] = 0.0;
  }
  engine.reset(0.0, x0.data(), t_end);
  engine.integrate_to(t_end);
  EXPECT_EQ(engine.stats().accepted, steps);
  double exact[2];
  RiccatiSystem::exact(0.0, 1.0, 0.0, t_end, exact);
  double err = 0;
  for (std::size_t l = 0; l < lanes; ++l)
    for (std::size_t i = 0; i < 2; ++i)
      err = std::fmax(err, std::fabs(engine.x()[i * lanes + l] - exact[i]));
  return err;
}

TEST(RosenbrockConvergence, NominalHasOrderFour) {
  double previous = riccati_error(10, false);
  for (int steps = 20; steps <= 160; steps *= 2) {
    const double err = riccati_error(steps, false);
    const double order = std::log2(previous / err);
    std::printf("N = %3d  error %.3e  order %.2f\n", steps, err, order);
    if (steps >= 40) {
      EXPECT_GT(order, 3.7) << "N = " << steps;
      EXPECT_LT(order, 4.6) << "N = " << steps;
    }
    previous = err;
  }
}

// Without γ_i h² f_t a non-autonomous problem loses the order.
TEST(RosenbrockConvergence, WithoutTheTimeDerivativeTheOrderDrops) {
  const double coarse = riccati_error(40, true), fine = riccati_error(80, true);
  const double order = std::log2(coarse / fine);
  std::printf("ignoring f_t: order %.2f\n", order);
  EXPECT_LT(order, 2.5);
  EXPECT_GT(coarse, 100 * riccati_error(40, false));
}

// Lanes that start where the nominal does stay on it in both modes.
TEST(RosenbrockConvergence, IdenticalLanesFollowTheNominal) {
  for (RosenbrockJacobian mode : {RosenbrockJacobian::frozen, RosenbrockJacobian::corrected}) {
    const double alone = riccati_error(40, false);
    const double with_lanes = riccati_error(40, false, 3, mode);
    EXPECT_NEAR(with_lanes, alone, 1e-13);
  }
}

// ---- Van der Pol sensitivities ---------------------------------------------

constexpr double kMu = 1.0;
constexpr double kEnd = 2.0;

// x and dx/dmu at kEnd (x0 depends on mu) from CVODES forward sensitivities.
Result vanderpol_reference() {
  Problem problem;
  problem.model = make_builtin_model("vanderpol");
  problem.params = {kMu};
  problem.output_times = {kEnd};
  problem.rtol = 1e-12;
  problem.atol = {1e-12};
  problem.max_steps = 1000000;
  return solve(problem, "cvodes_fsa");
}

// One fixed-step run of four lanes: the nominal (mu), mu + eps_one for a
// one-sided difference quotient (lane − nominal)/eps_one as the
// internal-difference method forms it, and mu ± eps_two for a central one,
// whose O(eps²) truncation and smaller rounding floor show the engine's
// own order where the one-sided quotient has reached its O(eps) floor.
// Each lane starts at x0(its mu).
struct LaneErrors {
  double x = 0, one_sided = 0, central = 0;
};

LaneErrors vanderpol_lane_errors(int steps, RosenbrockJacobian mode, const Result& ref) {
  constexpr double eps_one = 1e-7, eps_two = 1e-5;
  constexpr std::size_t m = 4;
  auto model = make_builtin_model("vanderpol");
  auto mws = model->make_workspace();
  const double params[m] = {kMu, kMu + eps_one, kMu + eps_two, kMu - eps_two};
  ModelRosenbrockSystem system(*model, m, params, *mws);
  RosenbrockWorkspace ws(grk4a(), 2, m, system.jacobian_pattern());
  RosenbrockSettings settings;
  settings.h_fixed = kEnd / steps;
  settings.jacobian = mode;
  RosenbrockEngine engine(system, ws, settings);
  double X0[2 * m];
  for (std::size_t l = 0; l < m; ++l) {
    double x0[2];
    model->initial_state(&params[l], x0);
    X0[l] = x0[0];
    X0[m + l] = x0[1];
  }
  engine.reset(0.0, X0, kEnd);
  engine.integrate_to(kEnd);
  EXPECT_EQ(engine.stats().accepted, steps);
  const double* X = engine.x();
  LaneErrors e;
  for (std::size_t i = 0; i < 2; ++i) {
    const double* row = X + i * m;
    e.x = std::fmax(e.x, std::fabs(row[0] - ref.x[i]));
    e.one_sided = std::fmax(e.one_sided, std::fabs((row[1] - row[0]) / eps_one - ref.s[i]));
    e.central =
        std::fmax(e.central, std::fabs((row[2] - row[3]) / (2 * eps_two) - ref.s[i]));
  }
  return e;
}

// Franz & Kiehl's frozen Jacobian makes the perturbed lanes a W-method, and
// GRK4A is not one (Σ b_i α_i ≠ 1/2): the sensitivity converges at order 1
// while x has order 4. The corrected stages restore order 4.
TEST(RosenbrockConvergence, VanDerPolSensitivityOrderFrozenOneCorrectedFour) {
  const Result ref = vanderpol_reference();
  std::vector<int> n;
  std::vector<LaneErrors> frozen, corrected;
  for (int steps = 20; steps <= 320; steps *= 2) {
    n.push_back(steps);
    frozen.push_back(vanderpol_lane_errors(steps, RosenbrockJacobian::frozen, ref));
    corrected.push_back(vanderpol_lane_errors(steps, RosenbrockJacobian::corrected, ref));
  }
  auto order = [](double coarse, double fine) { return std::log2(coarse / fine); };
  std::printf("  N    x error    frozen (order)     corrected (order)  central (order)\n");
  for (std::size_t k = 0; k < n.size(); ++k) {
    const bool first = k == 0;
    std::printf("%4d  %.2e  %.2e (%5.2f)  %.2e (%5.2f)  %.2e (%5.2f)\n", n[k], corrected[k].x,
                frozen[k].one_sided,
                first ? 0.0 : order(frozen[k - 1].one_sided, frozen[k].one_sided),
                corrected[k].one_sided,
                first ? 0.0 : order(corrected[k - 1].one_sided, corrected[k].one_sided),
                corrected[k].central,
                first ? 0.0 : order(corrected[k - 1].central, corrected[k].central));
  }
  const std::size_t last = n.size() - 1;
  for (std::size_t k = 1; k <= last; ++k) {
    // The nominal: order 4 in both modes (the lanes do not change it).
    EXPECT_GT(order(corrected[k - 1].x, corrected[k].x), 3.7) << "N = " << n[k];
    EXPECT_NEAR(frozen[k].x, corrected[k].x, 1e-12) << "N = " << n[k];
    // Frozen: order 1 over the whole range.
    const double f = order(frozen[k - 1].one_sided, frozen[k].one_sided);
    EXPECT_GT(f, 0.8) << "N = " << n[k];
    EXPECT_LT(f, 1.4) << "N = " << n[k];
    // Corrected, central quotient: order 4 over the whole range.
    EXPECT_GT(order(corrected[k - 1].central, corrected[k].central), 3.5) << "N = " << n[k];
  }
  // Corrected, one-sided quotient: order 4 until the O(eps) floor near 1e-7.
  for (std::size_t k = 1; k <= 2; ++k)
    EXPECT_GT(order(corrected[k - 1].one_sided, corrected[k].one_sided), 3.5) << "N = " << n[k];
  EXPECT_LT(corrected[last].one_sided, 1e-3 * frozen[last].one_sided);
  EXPECT_LT(corrected[0].one_sided, 0.1 * frozen[0].one_sided);
}

}  // namespace
}  // namespace odesens::integrate
