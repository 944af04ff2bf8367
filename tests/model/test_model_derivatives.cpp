// The analytic derivatives of every built-in model agree with central
// differences, and the product services agree with the dense matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "model/finite_differences.hpp"
#include "odesens/odesens.hpp"
#include "support/max_abs.hpp"
#include "support/vjp_accumulate_check.hpp"

namespace odesens {
namespace {

class BuiltinDerivatives : public ::testing::TestWithParam<const char*> {};

// A state near x0 with every component perturbed, so that no term vanishes.
std::vector<double> probe_state(const Model& m, const std::vector<double>& p) {
  std::vector<double> x(m.nx());
  m.initial_state(p.data(), x.data());
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(0.05, 0.3);
  for (auto& v : x) v += u(gen);
  return x;
}

using testing::max_abs_diff;

using testing::max_abs;

TEST_P(BuiltinDerivatives, JacobiansMatchCentralDifferences) {
  auto m = make_builtin_model(GetParam());
  const auto p = m->nominal_params();
  const auto x = probe_state(*m, p);
  const std::size_t n = m->nx(), np = m->np();
  std::vector<double> J(n * n), Jfd(n * n), Jp(n * np), Jpfd(n * np);
  m->jac_x(0.3, x.data(), p.data(), J.data());
  auto ws = m->make_workspace();
  detail::fd_jac_x_dense(*m, 0.3, x.data(), p.data(), Jfd.data(), *ws);
  EXPECT_LT(max_abs_diff(J, Jfd), 1e-7 * (1 + max_abs(J)));
  m->jac_p(0.3, x.data(), p.data(), Jp.data());
  detail::fd_jac_p(*m, 0.3, x.data(), p.data(), Jpfd.data(), *ws);
  EXPECT_LT(max_abs_diff(Jp, Jpfd), 1e-7 * (1 + max_abs(Jp)));
  std::vector<double> S0(n * np), S0fd(n * np);
  m->initial_sensitivity(p.data(), S0.data());
  detail::fd_initial_sensitivity(*m, p.data(), S0fd.data(), *ws);
  EXPECT_LT(max_abs_diff(S0, S0fd), 1e-9 * (1 + max_abs(S0)));
  if (const auto* pattern = m->jac_x_pattern()) {
    std::vector<double> values(pattern->nnz());
    m->jac_x_values(0.3, x.data(), p.data(), values.data());
    for (std::size_t j = 0; j < n; ++j)
      for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
        EXPECT_EQ(values[q], J[pattern->row_idx[q] + j * n]);
    double nnz_sum = 0.0, dense_sum = 0.0;
    for (double v : values) nnz_sum += std::fabs(v);
    for (double v : J) dense_sum += std::fabs(v);
    EXPECT_DOUBLE_EQ(nnz_sum, dense_sum) << "pattern misses non-zero entries";
  }
}

TEST_P(BuiltinDerivatives, ProductsMatchDenseJacobians) {
  auto m = make_builtin_model(GetParam());
  const auto p = m->nominal_params();
  const auto x = probe_state(*m, p);
  const std::size_t n = m->nx(), np = m->np(), nv = 3;
  std::vector<double> J(n * n), Jp(n * np), V(n * nv);
  m->jac_x(0.1, x.data(), p.data(), J.data());
  m->jac_p(0.1, x.data(), p.data(), Jp.data());
  std::mt19937 gen(3);
  std::normal_distribution<double> g;
  for (auto& v : V) v = g(gen);
  std::vector<double> jv(n * nv), vj(n * nv), vjp(np * nv);
  m->jvp(0.1, x.data(), p.data(), nv, V.data(), jv.data());
  m->vjp_x(0.1, x.data(), p.data(), nv, V.data(), vj.data());
  m->vjp_p(0.1, x.data(), p.data(), nv, V.data(), vjp.data());
  for (std::size_t k = 0; k < nv; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      double a = 0.0, b = 0.0;
      for (std::size_t j = 0; j < n; ++j) {
        a += J[i + j * n] * V[j + k * n];
        b += J[j + i * n] * V[j + k * n];
      }
      EXPECT_NEAR(jv[i + k * n], a, 1e-10 * (1 + std::fabs(a)));
      EXPECT_NEAR(vj[i + k * n], b, 1e-10 * (1 + std::fabs(b)));
    }
    for (std::size_t j = 0; j < np; ++j) {
      double c = 0.0;
      for (std::size_t i = 0; i < n; ++i) c += Jp[i + j * n] * V[i + k * n];
      EXPECT_NEAR(vjp[j + k * np], c, 1e-10 * (1 + std::fabs(c)));
    }
  }
}

// The fused product (glv's own, the default elsewhere) reproduces vjp_x
// and vjp_p, with and without a workspace.
TEST_P(BuiltinDerivatives, VjpAccumulateMatchesSeparateProducts) {
  auto m = make_builtin_model(GetParam());
  const auto p = m->nominal_params();
  const auto x = probe_state(*m, p);
  auto ws = m->make_workspace();
  testing::expect_vjp_accumulate_consistent(*m, 0.1, x, p, ws.get(), {});
  testing::expect_vjp_accumulate_consistent(*m, 0.1, x, p, nullptr, {});
}

// glv's vjp_accumulate is its vjp_x for out_x, bit for bit.
TEST(GlvModel, VjpAccumulateIsVjpXAndAddsVjpP) {
  auto m = make_builtin_model("glv:10");
  const auto p = m->nominal_params();
  const auto x = probe_state(*m, p);
  auto ws = m->make_workspace();
  testing::VjpAccumulateExactness exact;
  exact.out_x_bitwise = true;
  testing::expect_vjp_accumulate_consistent(*m, 0.1, x, p, ws.get(), exact);
}

// The default df/dt (central differences in t) agrees with ExprModel's
// symbolic one on a non-autonomous f, away from t = 0 and at a large t
// (where the step scales with |t|).
TEST(ModelDerivatives, DefaultDfdtMatchesTheSymbolicOne) {
  const auto m = load_ode_text(
      "param a = 2\nstate x = 1\nstate y = 0.5\n"
      "dx/dt = -a*x*sin(3*t) + exp(-t/4)*y\ndy/dt = t^2*x - cos(t)*y^2\n",
      "nonautonomous.ode");
  const std::vector<double> p = m->nominal_params(), x = {0.7, -1.3};
  auto ws = m->make_workspace();
  for (double t : {0.0, 0.37, 4.5, 60.0}) {
    std::vector<double> exact(2), by_default(2);
    m->dfdt(t, x.data(), p.data(), exact.data(), ws.get());
    m->Model::dfdt(t, x.data(), p.data(), by_default.data(), ws.get());
    EXPECT_GT(max_abs(exact), 0.1) << "t = " << t;
    EXPECT_LT(max_abs_diff(by_default, exact), 1e-8 * (1 + max_abs(exact))) << "t = " << t;
  }
  // Without a workspace the default makes its own.
  std::vector<double> exact(2), by_default(2);
  m->dfdt(1.0, x.data(), p.data(), exact.data());
  m->Model::dfdt(1.0, x.data(), p.data(), by_default.data());
  EXPECT_LT(max_abs_diff(by_default, exact), 1e-8 * (1 + max_abs(exact)));
}

// The built-ins are autonomous: their df/dt is zero, and so is the default's
// difference of f at t +- h, which confirms that f ignores t.
TEST(ModelDerivatives, DfdtIsZeroForTheAutonomousBuiltins) {
  for (const char* name :
       {"chua", "vanderpol", "glv:6", "linear:5", "heat2d:6", "network:20"}) {
    auto m = make_builtin_model(name);
    const auto p = m->nominal_params();
    const auto x = probe_state(*m, p);
    std::vector<double> d(m->nx(), 1.0), by_default(m->nx(), 1.0);
    m->dfdt(2.5, x.data(), p.data(), d.data());
    m->Model::dfdt(2.5, x.data(), p.data(), by_default.data());
    EXPECT_EQ(max_abs(d), 0.0) << name;
    EXPECT_EQ(max_abs(by_default), 0.0) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(AllBuiltins, BuiltinDerivatives,
                         ::testing::Values("chua", "vanderpol", "glv:6", "linear:5", "heat2d:6"));


// vjp_p_accumulate_points: the sum over points of J_p^T W_q, from dense
// J_p, for the default (one vjp_p per point) and glv's one-gemm form.
TEST(ModelDerivatives, ParameterProductsOverSeveralPointsAreTheirSum) {
  for (const char* name : {"builtin:glv:7", "builtin:chua", "builtin:network:20"}) {
    const auto model = load_model(name);
    const std::size_t nx = model->nx(), np = model->np(), n = 5, nw = 3;
    const std::vector<double> p = model->nominal_params();
    std::vector<double> t(n), X(nx * n), W(nx * nw * n), out(np * nw), want(np * nw);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (auto& v : X) v = 0.2 + 0.1 * u(rng);
    for (auto& v : W) v = u(rng);
    for (std::size_t q = 0; q < n; ++q) t[q] = 0.1 * static_cast<double>(q);
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = want[k] = u(rng);
    std::vector<double> jp(nx * np);
    for (std::size_t q = 0; q < n; ++q) {
      model->jac_p(t[q], X.data() + q * nx, p.data(), jp.data());
      for (std::size_t k = 0; k < nw; ++k)
        for (std::size_t j = 0; j < np; ++j)
          for (std::size_t i = 0; i < nx; ++i)
            want[j + k * np] += jp[i + j * nx] * W[i + (q * nw + k) * nx];
    }
    auto ws = model->make_workspace();
    model->vjp_p_accumulate_points(n, t.data(), X.data(), p.data(), nw, W.data(), out.data(),
                                   ws.get());
    const double scale = testing::largest_magnitude(want);
    testing::expect_block(out, want, false, 1e-13, scale, name);
    // The Model default gives the same sum.
    std::vector<double> by_default(np * nw, 0.0), reference(np * nw, 0.0);
    model->Model::vjp_p_accumulate_points(n, t.data(), X.data(), p.data(), nw, W.data(),
                                          by_default.data(), ws.get());
    model->vjp_p_accumulate_points(n, t.data(), X.data(), p.data(), nw, W.data(),
                                   reference.data(), ws.get());
    testing::expect_block(by_default, reference, false, 1e-13, scale, name);
  }
  EXPECT_TRUE(load_model("builtin:glv:3")->batches_parameter_products());
  EXPECT_FALSE(load_model("builtin:chua")->batches_parameter_products());
}

// Whether x0 depends on p, as models know it; where they say no, dx0/dp is
// indeed zero, where they say yes it is not.
TEST(ModelDerivatives, ModelsKnowWhetherTheInitialStateDependsOnTheParameters) {
  struct Case {
    std::shared_ptr<const Model> model;
    bool depends;
  };
  const Case cases[] = {
      {load_model("builtin:glv:4"), false},
      {load_model("builtin:chua"), false},
      {load_model("builtin:vanderpol"), true},
      {load_ode_text("param a = 2\nstate x = 1\ndx/dt = -a*x\n", "c.ode"), false},
      {load_ode_text("param a = 2\nstate x = 3*a\ndx/dt = -a*x\n", "d.ode"), true}};
  for (const Case& c : cases) {
    EXPECT_EQ(c.model->initial_state_depends_on_params(), c.depends) << c.model->name();
    std::vector<double> s0(c.model->nx() * c.model->np(), 1.0);
    c.model->initial_sensitivity(c.model->nominal_params().data(), s0.data());
    const bool nonzero = std::any_of(s0.begin(), s0.end(), [](double v) { return v != 0.0; });
    EXPECT_EQ(nonzero, c.depends) << c.model->name();
  }
}

}  // namespace
}  // namespace odesens
