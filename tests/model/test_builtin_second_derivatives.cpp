// The analytic second derivatives of the built-in models (SecondDerivatives:
// a = xddot = J_x f + df/dt, da/dx sparse and dense, da/dp, da/dt): a agrees
// with the model's own J_x and f, the derivatives with central differences of
// a, the sparse values with the dense matrix, heat2d's pattern with that of
// L^2, and chua and vanderpol with the equivalent .ode models.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/max_abs.hpp"

namespace odesens {
namespace {

constexpr double kT = 0.3;

// A state near x0 with every component perturbed, so that no term vanishes.
std::vector<double> second_derivative_probe_state(const Model& m, const std::vector<double>& p) {
  std::vector<double> x(m.nx());
  m.initial_state(p.data(), x.data());
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(0.05, 0.3);
  for (auto& v : x) v += u(gen);
  return x;
}

using testing::max_abs;

using testing::max_abs_diff;

// Central difference of a = xddot in variable v (x, p or t), column j.
template <class Eval>
void central_difference(double& v, std::size_t n, Eval&& eval, double* column) {
  const double v0 = v;
  const double h = finite_difference_step(v0);
  std::vector<double> plus(n), minus(n);
  v = v0 + h;
  eval(plus.data());
  v = v0 - h;
  eval(minus.data());
  v = v0;
  for (std::size_t i = 0; i < n; ++i) column[i] = (plus[i] - minus[i]) / (2.0 * h);
}

class BuiltinSecondDerivatives : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    m = make_builtin_model(GetParam());
    sd = m->second_derivatives();
    ASSERT_NE(sd, nullptr) << GetParam() << " lacks SecondDerivatives";
    p = m->nominal_params();
    x = second_derivative_probe_state(*m, p);
    n = m->nx();
    np = m->np();
  }

  std::shared_ptr<Model> m;
  const SecondDerivatives* sd = nullptr;
  std::vector<double> p, x;
  std::size_t n = 0, np = 0;
};

TEST_P(BuiltinSecondDerivatives, XddotIsJacobianTimesRhs) {
  std::vector<double> f(n), J(n * n), a(n), dfdt_fd(n), expected(n, 0.0);
  m->rhs(kT, x.data(), p.data(), f.data());
  m->jac_x(kT, x.data(), p.data(), J.data());
  sd->xddot(kT, x.data(), p.data(), a.data());
  // The built-ins are autonomous: df/dt = 0 (checked by central differences).
  double t = kT;
  central_difference(t, n, [&](double* out) { m->rhs(t, x.data(), p.data(), out); },
                     dfdt_fd.data());
  EXPECT_EQ(max_abs(dfdt_fd), 0.0);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) expected[i] += J[i + j * n] * f[j];
  ASSERT_GT(max_abs(expected), 0.0);
  EXPECT_LT(max_abs_diff(a, expected), 1e-12 * max_abs(expected));
}

TEST_P(BuiltinSecondDerivatives, DerivativesMatchCentralDifferences) {
  std::vector<double> Ja(n * n), Jafd(n * n), Ap(n * np), Apfd(n * np), at(n), atfd(n);
  sd->xddot_jac_x(kT, x.data(), p.data(), Ja.data());
  sd->xddot_jac_p(kT, x.data(), p.data(), Ap.data());
  sd->xddot_dt(kT, x.data(), p.data(), at.data());
  double t = kT;
  auto a_of = [&](double* out) { sd->xddot(t, x.data(), p.data(), out); };
  for (std::size_t j = 0; j < n; ++j) central_difference(x[j], n, a_of, Jafd.data() + j * n);
  for (std::size_t j = 0; j < np; ++j) central_difference(p[j], n, a_of, Apfd.data() + j * n);
  central_difference(t, n, a_of, atfd.data());
  ASSERT_GT(max_abs(Ja), 0.0);
  ASSERT_GT(max_abs(Ap), 0.0);
  EXPECT_LT(max_abs_diff(Ja, Jafd), 1e-6 * max_abs(Ja)) << "da/dx";
  EXPECT_LT(max_abs_diff(Ap, Apfd), 1e-6 * max_abs(Ap)) << "da/dp";
  EXPECT_EQ(max_abs(at), 0.0) << "da/dt";
  EXPECT_EQ(max_abs(atfd), 0.0) << "da/dt by differences";
  // Entry by entry too, each scaled by its row's largest entry, so that a
  // small entry next to a large one is still checked.
  for (std::size_t i = 0; i < n; ++i) {
    double row_scale = 0.0;
    for (std::size_t j = 0; j < n; ++j) row_scale = std::max(row_scale, std::fabs(Ja[i + j * n]));
    for (std::size_t j = 0; j < np; ++j) row_scale = std::max(row_scale, std::fabs(Ap[i + j * n]));
    for (std::size_t j = 0; j < n; ++j)
      EXPECT_NEAR(Ja[i + j * n], Jafd[i + j * n], 1e-6 * row_scale + 1e-12)
          << "da" << i << "/dx" << j;
    for (std::size_t j = 0; j < np; ++j)
      EXPECT_NEAR(Ap[i + j * n], Apfd[i + j * n], 1e-6 * row_scale + 1e-12)
          << "da" << i << "/dp" << j;
  }
}

TEST_P(BuiltinSecondDerivatives, SparseValuesMatchDenseMatrix) {
  const SparsityPattern& pattern = sd->xddot_jac_x_pattern();
  EXPECT_NO_THROW(pattern.validate());
  ASSERT_EQ(pattern.rows, n);
  ASSERT_EQ(pattern.cols, n);
  std::vector<double> Ja(n * n), values(pattern.nnz());
  sd->xddot_jac_x(kT, x.data(), p.data(), Ja.data());
  sd->xddot_jac_x_values(kT, x.data(), p.data(), values.data());
  std::vector<char> in_pattern(n * n, 0);
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q) {
      const auto i = static_cast<std::size_t>(pattern.row_idx[q]);
      in_pattern[i + j * n] = 1;
      EXPECT_EQ(values[q], Ja[i + j * n]) << "entry (" << i << ", " << j << ")";
    }
  for (std::size_t k = 0; k < n * n; ++k) {
    if (!in_pattern[k]) {
      EXPECT_EQ(Ja[k], 0.0) << "non-zero (" << k % n << ", " << k / n << ") outside the pattern";
    }
  }
}

// da/dp on its pattern (models that give one) agrees with the dense form,
// which has no non-zero outside it.
TEST_P(BuiltinSecondDerivatives, SparseParameterValuesMatchDenseMatrix) {
  std::vector<double> Ap(n * np);
  sd->xddot_jac_p(kT, x.data(), p.data(), Ap.data());
  const SparsityPattern* pattern = sd->xddot_jac_p_pattern();
  if (!pattern) {
    std::vector<double> values(n * np);
    sd->xddot_jac_p_values(kT, x.data(), p.data(), values.data());
    EXPECT_EQ(values, Ap);
    return;
  }
  EXPECT_NO_THROW(pattern->validate());
  ASSERT_EQ(pattern->rows, n);
  ASSERT_EQ(pattern->cols, np);
  std::vector<double> values(pattern->nnz());
  auto ws = m->make_workspace();
  sd->xddot_jac_p_values(kT, x.data(), p.data(), values.data(), ws.get());
  std::vector<char> in_pattern(n * np, 0);
  for (std::size_t j = 0; j < np; ++j)
    for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q) {
      const auto i = static_cast<std::size_t>(pattern->row_idx[q]);
      in_pattern[i + j * n] = 1;
      EXPECT_EQ(values[q], Ap[i + j * n]) << "entry (" << i << ", " << j << ")";
    }
  for (std::size_t k = 0; k < n * np; ++k) {
    if (!in_pattern[k]) {
      EXPECT_EQ(Ap[k], 0.0) << "(" << k % n << ", " << k / n << ") outside";
    }
  }
}

// With a workspace (twice, so that its buffers are reused) and without one,
// the results are the same bit for bit.
TEST_P(BuiltinSecondDerivatives, WorkspaceCallsMatchOneOffCalls) {
  auto ws = m->make_workspace();
  const std::size_t nnz = sd->xddot_jac_x_pattern().nnz();
  std::vector<double> a0(n), a1(n), J0(n * n), J1(n * n), v0(nnz), v1(nnz), P0(n * np),
      P1(n * np), d0(n), d1(n);
  sd->xddot(kT, x.data(), p.data(), a0.data());
  sd->xddot_jac_x(kT, x.data(), p.data(), J0.data());
  sd->xddot_jac_x_values(kT, x.data(), p.data(), v0.data());
  sd->xddot_jac_p(kT, x.data(), p.data(), P0.data());
  sd->xddot_dt(kT, x.data(), p.data(), d0.data());
  for (int pass = 0; pass < 2; ++pass) {
    sd->xddot(kT, x.data(), p.data(), a1.data(), ws.get());
    sd->xddot_jac_x(kT, x.data(), p.data(), J1.data(), ws.get());
    sd->xddot_jac_x_values(kT, x.data(), p.data(), v1.data(), ws.get());
    sd->xddot_jac_p(kT, x.data(), p.data(), P1.data(), ws.get());
    sd->xddot_dt(kT, x.data(), p.data(), d1.data(), ws.get());
    EXPECT_EQ(a0, a1);
    EXPECT_EQ(J0, J1);
    EXPECT_EQ(v0, v1);
    EXPECT_EQ(P0, P1);
    EXPECT_EQ(d0, d1);
  }
}

INSTANTIATE_TEST_SUITE_P(AllBuiltins, BuiltinSecondDerivatives,
                         ::testing::Values("chua", "vanderpol", "glv:5", "linear:6", "heat2d:5",
                                           "heat2d:7", "network:10", "network:40"));

TEST(BuiltinSecondDerivativesCapability, EveryBuiltinModelProvidesIt) {
  // glv:N, linear:N, heat2d:Np and network:N at small sizes; no built-in
  // lacks it.
  for (const char* spec : {"chua", "vanderpol", "glv:3", "linear:4", "heat2d:4", "network:5"}) {
    auto m = make_builtin_model(spec);
    EXPECT_NE(m->second_derivatives(), nullptr) << spec;
  }
}

// heat2d: da/dx = alpha^2 L^2, with the structural pattern of L^2 computed
// here independently as a boolean product of J_x's pattern with itself.
TEST(BuiltinSecondDerivativesHeat2d, PatternIsThatOfLaplacianSquared) {
  auto m = make_builtin_model("heat2d:5");
  const auto* sd = m->second_derivatives();
  ASSERT_NE(sd, nullptr);
  const SparsityPattern* L = m->jac_x_pattern();
  ASSERT_NE(L, nullptr);
  const std::size_t n = m->nx();
  std::set<std::pair<std::size_t, std::size_t>> l_entries, l2_entries;
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = L->col_ptr[j]; q < L->col_ptr[j + 1]; ++q)
      l_entries.insert({static_cast<std::size_t>(L->row_idx[q]), j});
  for (const auto& [i, k] : l_entries)
    for (const auto& [k2, j] : l_entries)
      if (k2 == k) l2_entries.insert({i, j});
  const SparsityPattern& P = sd->xddot_jac_x_pattern();
  std::set<std::pair<std::size_t, std::size_t>> p_entries;
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = P.col_ptr[j]; q < P.col_ptr[j + 1]; ++q)
      p_entries.insert({static_cast<std::size_t>(P.row_idx[q]), j});
  EXPECT_EQ(p_entries, l2_entries);
  // 5 x 5 grid, 3 x 3 interior points: L has 9 rows of 5 entries; a row of
  // L^2 reaches the points within two steps whose middle point is interior
  // (or the row's own point): 13 (centre) + 4 * 12 (edge midpoints, one
  // neighbour on the boundary) + 4 * 10 (corners, two) = 101.
  EXPECT_EQ(L->nnz(), 45u);
  EXPECT_EQ(P.nnz(), 101u);
  // The values are alpha^2 L^2 (alpha = 2 here), L from J_x / alpha.
  const std::vector<double> p = {2.0};
  const auto x = second_derivative_probe_state(*m, p);
  std::vector<double> J(n * n), L2(n * n, 0.0), Ja(n * n);
  m->jac_x(kT, x.data(), p.data(), J.data());
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < n; ++i) L2[i + j * n] += J[i + k * n] * J[k + j * n];
  sd->xddot_jac_x(kT, x.data(), p.data(), Ja.data());
  EXPECT_LT(max_abs_diff(Ja, L2), 1e-13 * max_abs(L2));
}

// The .ode files of the shared reference models.
std::string shared_ode_path(const std::string& file) {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return std::string(env ? env : ODESENS_DEFAULT_SHARED_DIR) + "/models/ode/" + file;
}

// Built-in and .ode model agree in names, and in a, da/dx, da/dp and da/dt
// at a probe point (p perturbed off nominal too).
void compare_with_ode_model(const std::string& builtin_spec, const std::string& file) {
  const std::string path = shared_ode_path(file);
  if (!std::ifstream(path).good())
    GTEST_SKIP() << "reference model " << path << " not found (set ODESENS_SHARED_DIR)";
  auto b = make_builtin_model(builtin_spec);
  auto e = load_ode_file(path);
  ASSERT_EQ(b->nx(), e->nx());
  ASSERT_EQ(b->np(), e->np());
  if (b->state_names() != e->state_names() || b->param_names() != e->param_names())
    GTEST_SKIP() << file << " names its states or parameters differently from builtin:"
                 << builtin_spec << "; not compared";
  ASSERT_EQ(b->nominal_params(), e->nominal_params());
  const auto* bs = b->second_derivatives();
  const auto* es = e->second_derivatives();
  ASSERT_NE(bs, nullptr);
  ASSERT_NE(es, nullptr);
  const std::size_t n = b->nx(), np = b->np();
  for (const double scale : {1.0, 1.1}) {
    auto p = b->nominal_params();
    for (auto& v : p) v *= scale;
    const auto x = second_derivative_probe_state(*b, p);
    std::vector<double> ab(n), ae(n), Jb(n * n), Je(n * n), Pb(n * np), Pe(n * np), db(n),
        de(n);
    bs->xddot(kT, x.data(), p.data(), ab.data());
    es->xddot(kT, x.data(), p.data(), ae.data());
    bs->xddot_jac_x(kT, x.data(), p.data(), Jb.data());
    es->xddot_jac_x(kT, x.data(), p.data(), Je.data());
    bs->xddot_jac_p(kT, x.data(), p.data(), Pb.data());
    es->xddot_jac_p(kT, x.data(), p.data(), Pe.data());
    bs->xddot_dt(kT, x.data(), p.data(), db.data());
    es->xddot_dt(kT, x.data(), p.data(), de.data());
    EXPECT_LT(max_abs_diff(ab, ae), 1e-12 * max_abs(ae)) << "a, scale " << scale;
    EXPECT_LT(max_abs_diff(Jb, Je), 1e-12 * max_abs(Je)) << "da/dx, scale " << scale;
    EXPECT_LT(max_abs_diff(Pb, Pe), 1e-12 * max_abs(Pe)) << "da/dp, scale " << scale;
    EXPECT_EQ(max_abs(db), 0.0);
    EXPECT_EQ(max_abs(de), 0.0);
    // Every structural non-zero of the .ode model is in the built-in pattern.
    const SparsityPattern& pe = es->xddot_jac_x_pattern();
    const SparsityPattern& pb = bs->xddot_jac_x_pattern();
    for (std::size_t j = 0; j < n; ++j)
      for (auto q = pe.col_ptr[j]; q < pe.col_ptr[j + 1]; ++q) {
        const auto* begin = pb.row_idx.data() + pb.col_ptr[j];
        const auto* end = pb.row_idx.data() + pb.col_ptr[j + 1];
        EXPECT_TRUE(std::binary_search(begin, end, pe.row_idx[q]))
            << "(" << pe.row_idx[q] << ", " << j << ") missing from the built-in pattern";
      }
  }
}

TEST(BuiltinSecondDerivativesVsOde, ChuaMatchesChuaOde) { compare_with_ode_model("chua", "chua.ode"); }

TEST(BuiltinSecondDerivativesVsOde, VanDerPolMatchesVanderpolOde) {
  compare_with_ode_model("vanderpol", "vanderpol.ode");
}

}  // namespace
}  // namespace odesens
