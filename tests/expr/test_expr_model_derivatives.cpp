// Every derivative service of ExprModel on the reference models (pka and
// camkii in particular) against central differences, and the sparsity
// patterns against known structures.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

using expr_testing::central_jacobian;
using expr_testing::ode_model_path;
using expr_testing::scaled_difference;

class ReferenceModelDerivatives : public expr_testing::ReferenceModelTest {
 protected:
  const double t = 0.37;
};

TEST_P(ReferenceModelDerivatives, JacobiansMatchCentralDifferences) {
  auto fx = [&](const std::vector<double>& in, std::vector<double>& out) {
    m->rhs(t, in.data(), p.data(), out.data());
  };
  auto fp = [&](const std::vector<double>& in, std::vector<double>& out) {
    m->rhs(t, x.data(), in.data(), out.data());
  };
  std::vector<double> J(n * n), Jp(n * np);
  m->jac_x(t, x.data(), p.data(), J.data());
  m->jac_p(t, x.data(), p.data(), Jp.data());
  EXPECT_LT(scaled_difference(J, central_jacobian(fx, x, n)), 1e-7);
  EXPECT_LT(scaled_difference(Jp, central_jacobian(fp, p, n)), 1e-7);
}

TEST_P(ReferenceModelDerivatives, SparseValuesAgreeWithDenseJacobians) {
  std::vector<double> J(n * n), Jp(n * np);
  m->jac_x(t, x.data(), p.data(), J.data());
  m->jac_p(t, x.data(), p.data(), Jp.data());
  const SparsityPattern& sx = *m->jac_x_pattern();
  sx.validate();
  std::vector<double> vx(sx.nnz());
  m->jac_x_values(t, x.data(), p.data(), vx.data());
  EXPECT_EQ(expr_testing::dense_from_pattern(sx, vx), J);
  const SparsityPattern& sp = *m->jac_p_pattern();
  sp.validate();
  std::vector<double> vp(sp.nnz());
  m->jac_p_values(t, x.data(), p.data(), vp.data());
  EXPECT_EQ(expr_testing::dense_from_pattern(sp, vp), Jp);
}

TEST_P(ReferenceModelDerivatives, PatternCoversEveryNonZeroOfTheDifferenceJacobian) {
  auto fx = [&](const std::vector<double>& in, std::vector<double>& out) {
    m->rhs(t, in.data(), p.data(), out.data());
  };
  const auto fd = central_jacobian(fx, x, n);
  const double scale = std::max(1.0, expr_testing::max_abs(fd));
  const SparsityPattern& s = *m->jac_x_pattern();
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i)
      if (std::fabs(fd[i + j * n]) > 1e-9 * scale) {
        EXPECT_TRUE(expr_testing::in_pattern(s, i, j)) << "(" << i << ", " << j << ")";
      }
}

TEST_P(ReferenceModelDerivatives, InitialSensitivityMatchesCentralDifferences) {
  auto x0 = [&](const std::vector<double>& in, std::vector<double>& out) {
    m->initial_state(in.data(), out.data());
  };
  std::vector<double> S0(n * np);
  m->initial_sensitivity(p.data(), S0.data());
  EXPECT_LT(scaled_difference(S0, central_jacobian(x0, p, n)), 1e-8);
}

// xddot = d/dh f(t + h, x + h f(t, x)) at h = 0.
TEST_P(ReferenceModelDerivatives, SecondTimeDerivativeIsTheDerivativeAlongTheFlow) {
  std::vector<double> f(n), xdd(n);
  m->rhs(t, x.data(), p.data(), f.data());
  m->xddot(t, x.data(), p.data(), xdd.data());
  auto along = [&](const std::vector<double>& h, std::vector<double>& out) {
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i] + h[0] * f[i];
    m->rhs(t + h[0], y.data(), p.data(), out.data());
  };
  const double h_scale = 1.0 / std::max(1.0, expr_testing::max_abs(f));
  std::vector<double> fd(n), plus(n), minus(n);
  const double h = 1e-5 * h_scale;
  along({h}, plus);
  along({-h}, minus);
  for (std::size_t i = 0; i < n; ++i) fd[i] = (plus[i] - minus[i]) / (2 * h);
  EXPECT_LT(scaled_difference(xdd, fd), 1e-6);
  // And exactly the product it is defined as.
  std::vector<double> J(n * n), dfdt(n), Jf(n, 0.0);
  m->jac_x(t, x.data(), p.data(), J.data());
  m->dfdt(t, x.data(), p.data(), dfdt.data());
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) Jf[i] += J[i + j * n] * f[j];
  for (std::size_t i = 0; i < n; ++i) Jf[i] += dfdt[i];
  EXPECT_LT(scaled_difference(xdd, Jf), 1e-12);
}

TEST_P(ReferenceModelDerivatives, SecondDerivativeJacobiansMatchCentralDifferences) {
  auto gx = [&](const std::vector<double>& in, std::vector<double>& out) {
    m->xddot(t, in.data(), p.data(), out.data());
  };
  auto gp = [&](const std::vector<double>& in, std::vector<double>& out) {
    m->xddot(t, x.data(), in.data(), out.data());
  };
  std::vector<double> JJ(n * n), JJp(n * np);
  m->xddot_jac_x(t, x.data(), p.data(), JJ.data());
  m->xddot_jac_p(t, x.data(), p.data(), JJp.data());
  EXPECT_LT(scaled_difference(JJ, central_jacobian(gx, x, n)), 1e-7);
  EXPECT_LT(scaled_difference(JJp, central_jacobian(gp, p, n)), 1e-7);
  const SparsityPattern& s = m->xddot_jac_x_pattern();
  s.validate();
  std::vector<double> values(s.nnz());
  m->xddot_jac_x_values(t, x.data(), p.data(), values.data());
  EXPECT_EQ(expr_testing::dense_from_pattern(s, values), JJ);
  const SparsityPattern* sp = m->xddot_jac_p_pattern();
  ASSERT_NE(sp, nullptr);
  sp->validate();
  ASSERT_EQ(sp->rows, n);
  ASSERT_EQ(sp->cols, np);
  std::vector<double> p_values(sp->nnz());
  m->xddot_jac_p_values(t, x.data(), p.data(), p_values.data());
  EXPECT_EQ(expr_testing::dense_from_pattern(*sp, p_values), JJp);
}

INSTANTIATE_TEST_SUITE_P(All, ReferenceModelDerivatives,
                         ::testing::ValuesIn(expr_testing::shared_ode_files()),
                         [](const auto& param_info) {
                           std::string s = param_info.param;
                           return s.substr(0, s.find('.'));
                         });

std::size_t nnz_of(const std::string& file) {
  return load_ode_file(ode_model_path(file))->jac_x_pattern()->nnz();
}

TEST(ExprSparsity, PatternsAreExactForKnownStructures) {
  ODESENS_REQUIRE_SHARED_MODEL("detest_c1.ode");
  EXPECT_EQ(nnz_of("chua.ode"), 6u);              // J = [* * 0; * * *; 0 * 0]
  EXPECT_EQ(nnz_of("detest_c1.ode"), 18u);        // bidiagonal, no y10 term in dy10/dt
  EXPECT_EQ(nnz_of("michaelis_menten.ode"), 10u); // three full rows over x1..x3, x4' = k3 x3
  EXPECT_EQ(nnz_of("stiff_e3.ode"), 6u);          // (0,0) (0,1) (0,2) (1,0) (1,1) (2,0)
}

TEST(ExprSparsity, InitialSensitivityOfParameterDependentInitialStates) {
  ODESENS_REQUIRE_SHARED_MODEL("vanderpol.ode");
  auto m = load_ode_file(ode_model_path("vanderpol.ode"));
  const double mu = 1000.0;
  double S0[2];
  m->initial_sensitivity(&mu, S0);
  EXPECT_EQ(S0[0], 0.0);
  EXPECT_NEAR(S0[1], -10.0 / (81 * mu * mu) + 2 * 292.0 / (2187 * mu * mu * mu), 1e-20);
  auto c = load_ode_file(ode_model_path("cubic_oscillator.ode"));
  const double pc[2] = {2.0, 0.0};
  double Sc[6];
  c->initial_sensitivity(pc, Sc);
  EXPECT_EQ(std::vector<double>(Sc, Sc + 6), (std::vector<double>{1, 0, 0, 0, 1, 0}));
}

}  // namespace
}  // namespace odesens
