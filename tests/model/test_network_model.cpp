// network:N: the generated data reproduces BUILTIN_MODELS.md's checksums, and
// the sparse J_x, J_p and J_p^T W agree with central differences of f and
// with each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "model/builtin/builtin_reference.hpp"
#include "odesens/odesens.hpp"
#include "support/vjp_accumulate_check.hpp"

namespace odesens {
namespace {

struct NetworkChecksum {
  std::size_t n;
  double sum_k, sum_x0, sum_f;
  std::size_t nnz_jx, bindings;
};

TEST(NetworkModel, ReproducesPublishedChecksums) {
  const NetworkChecksum table[] = {
      {10, 80.04901537500606, 21.717656133968006, -33.84412625377408, 45, 10},
      {100, 1246.9292159753616, 222.90267302325785, -264.78639535912896, 537, 101},
      {1000, 12727.70835393669, 2176.5237156609896, -5263.695979913984, 5448, 962},
  };
  for (const auto& c : table) {
    auto m = make_builtin_model("network:" + std::to_string(c.n));
    ASSERT_EQ(m->nx(), c.n);
    ASSERT_EQ(m->np(), 2 * c.n);
    const auto p = m->nominal_params();
    std::vector<double> x0(c.n), f(c.n);
    m->initial_state(p.data(), x0.data());
    m->rhs(0.0, x0.data(), p.data(), f.data());
    const double sum_k = std::accumulate(p.begin(), p.end(), 0.0);
    const double sum_x0 = std::accumulate(x0.begin(), x0.end(), 0.0);
    const double sum_f = std::accumulate(f.begin(), f.end(), 0.0);
    EXPECT_NEAR(sum_k, c.sum_k, 1e-12 * std::fabs(c.sum_k)) << "N = " << c.n;
    EXPECT_NEAR(sum_x0, c.sum_x0, 1e-12 * std::fabs(c.sum_x0)) << "N = " << c.n;
    EXPECT_NEAR(sum_f, c.sum_f, 1e-12 * std::fabs(c.sum_f)) << "N = " << c.n;
    ASSERT_NE(m->jac_x_pattern(), nullptr);
    EXPECT_EQ(m->jac_x_pattern()->nnz(), c.nnz_jx) << "N = " << c.n;
    const auto data = builtin::network_data(c.n);
    const auto bindings = std::count_if(data.reactions.begin(), data.reactions.end(),
                                        [](const auto& r) { return r.b >= 0; });
    EXPECT_EQ(static_cast<std::size_t>(bindings), c.bindings) << "N = " << c.n;
    EXPECT_EQ(m->default_t_end(), 100.0);
  }
}

// A state away from x0 so that no product term vanishes.
std::vector<double> network_probe_state(const Model& m) {
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> u(0.2, 3.0);
  std::vector<double> x(m.nx());
  for (auto& v : x) v = u(gen);
  return x;
}

// A network model with its dense J_x and J_p at a probe state.
struct Probe {
  explicit Probe(const std::string& spec)
      : model(make_builtin_model(spec)), n(model->nx()), np(model->np()),
        p(model->nominal_params()), x(network_probe_state(*model)), J(n * n), Jp(n * np) {
    model->jac_x(0.0, x.data(), p.data(), J.data());
    model->jac_p(0.0, x.data(), p.data(), Jp.data());
  }
  std::shared_ptr<Model> model;
  std::size_t n, np;
  std::vector<double> p, x, J, Jp;
};

TEST(NetworkModel, JacobiansAgreeWithCentralDifferences) {
  Probe probe("network:30");
  const std::size_t n = probe.n;
  std::vector<double> xv = probe.x, pv = probe.p;
  // Column j of d f / d var by central differences, var perturbed in place.
  auto fd_column = [&](std::vector<double>& var, std::size_t j) {
    const double v0 = var[j], h = 1e-6 * std::max(std::fabs(v0), 1.0);
    std::vector<double> fp(n), fm(n), out(n);
    var[j] = v0 + h;
    probe.model->rhs(0.0, xv.data(), pv.data(), fp.data());
    var[j] = v0 - h;
    probe.model->rhs(0.0, xv.data(), pv.data(), fm.data());
    var[j] = v0;
    for (std::size_t i = 0; i < n; ++i) out[i] = (fp[i] - fm[i]) / (2 * h);
    return out;
  };
  // max |analytic - central difference| over all columns, against max |analytic|.
  auto check = [&](const std::vector<double>& analytic, std::vector<double>& var,
                   const char* what) {
    double worst = 0.0, scale = 0.0;
    for (std::size_t j = 0; j < var.size(); ++j) {
      const auto fd = fd_column(var, j);
      for (std::size_t i = 0; i < n; ++i) {
        worst = std::max(worst, std::fabs(fd[i] - analytic[i + j * n]));
        scale = std::max(scale, std::fabs(analytic[i + j * n]));
      }
    }
    EXPECT_LT(worst, 1e-7 * scale) << what;
  };
  check(probe.J, xv, "J_x");
  check(probe.Jp, pv, "J_p");
}

TEST(NetworkModel, SparseServicesAgreeWithDenseMatrices) {
  Probe probe("network:25");
  const std::size_t n = probe.n, np = probe.np;
  const auto& m = probe.model;
  const auto& p = probe.p;
  const auto& x = probe.x;
  const auto& J = probe.J;
  const auto& Jp = probe.Jp;
  // Every non-zero of J lies in the pattern; J_p's values match its pattern.
  const SparsityPattern* px = m->jac_x_pattern();
  std::vector<char> in_pattern(n * n, 0);
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = px->col_ptr[j]; q < px->col_ptr[j + 1]; ++q) in_pattern[px->row_idx[q] + j * n] = 1;
  for (std::size_t k = 0; k < n * n; ++k)
    if (!in_pattern[k]) {
      EXPECT_EQ(J[k], 0.0) << "entry " << k << " outside the pattern";
    }
  const SparsityPattern* pp = m->jac_p_pattern();
  ASSERT_NE(pp, nullptr);
  pp->validate();
  std::vector<double> values(pp->nnz());
  m->jac_p_values(0.0, x.data(), p.data(), values.data());
  std::vector<double> dense(n * np, 0.0);
  for (std::size_t r = 0; r < np; ++r)
    for (auto q = pp->col_ptr[r]; q < pp->col_ptr[r + 1]; ++q) dense[pp->row_idx[q] + r * n] = values[q];
  EXPECT_EQ(dense, Jp);
  // J_p^T W for three vectors against the dense product.
  const std::size_t nw = 3;
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> W(n * nw), out(np * nw);
  for (auto& v : W) v = u(gen);
  m->vjp_p(0.0, x.data(), p.data(), nw, W.data(), out.data());
  for (std::size_t k = 0; k < nw; ++k)
    for (std::size_t r = 0; r < np; ++r) {
      double s = 0.0;
      for (std::size_t i = 0; i < n; ++i) s += Jp[i + r * n] * W[i + k * n];
      EXPECT_NEAR(out[r + k * np], s, 1e-12 * (1.0 + std::fabs(s)));
    }
}

// network's vjp_accumulate: the default J_x^T W and its own J_p^T W added in place.
TEST(NetworkModel, VjpAccumulateMatchesSeparateProducts) {
  Probe probe("network:25");
  auto ws = probe.model->make_workspace();
  testing::VjpAccumulateExactness exact;
  exact.out_x_bitwise = true;  // vjp_x itself
  testing::expect_vjp_accumulate_consistent(*probe.model, 0.0, probe.x, probe.p, ws.get(), exact);
}

}  // namespace
}  // namespace odesens
