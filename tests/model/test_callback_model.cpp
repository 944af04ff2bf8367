// CallbackModel: the finite-difference fallbacks agree with analytic
// derivatives, and bad specifications and failing callbacks are reported.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/vjp_accumulate_check.hpp"

namespace odesens {
namespace {

// A tridiagonal nonlinear chain: f_i = -x_i^3 + p0 (x_{i-1} - 2 x_i + x_{i+1}) + p1 sin(x_i).
constexpr std::size_t kChain = 12;

int chain_rhs(double, const double* x, const double* p, double* f, void*) {
  for (std::size_t i = 0; i < kChain; ++i) {
    const double left = i > 0 ? x[i - 1] : 0.0, right = i + 1 < kChain ? x[i + 1] : 0.0;
    f[i] = -x[i] * x[i] * x[i] + p[0] * (left - 2 * x[i] + right) + p[1] * std::sin(x[i]);
  }
  return 0;
}

void chain_jacobian(const double* x, const double* p, double* J) {
  std::fill(J, J + kChain * kChain, 0.0);
  for (std::size_t i = 0; i < kChain; ++i) {
    J[i + i * kChain] = -3 * x[i] * x[i] - 2 * p[0] + p[1] * std::cos(x[i]);
    if (i > 0) J[i + (i - 1) * kChain] = p[0];
    if (i + 1 < kChain) J[i + (i + 1) * kChain] = p[0];
  }
}

SparsityPattern tridiagonal(std::size_t n) {
  SparsityPattern s;
  s.rows = s.cols = n;
  s.col_ptr.push_back(0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = j > 0 ? j - 1 : 0; i <= std::min(j + 1, n - 1); ++i)
      s.row_idx.push_back(static_cast<std::int64_t>(i));
    s.col_ptr.push_back(static_cast<std::int64_t>(s.row_idx.size()));
  }
  return s;
}

CallbackModelSpec chain_spec() {
  CallbackModelSpec spec;
  spec.nx = kChain;
  spec.np = 2;
  spec.nominal_params = {0.7, 0.4};
  spec.f = chain_rhs;
  return spec;
}

std::vector<double> chain_state() {
  std::vector<double> x(kChain);
  for (std::size_t i = 0; i < kChain; ++i) x[i] = 0.3 + 0.1 * std::sin(1.0 + i);
  return x;
}

TEST(CallbackModel, DenseFiniteDifferenceJacobianMatchesAnalytic) {
  auto m = make_callback_model(chain_spec());
  EXPECT_FALSE(m->has_analytic_jacobians());
  const auto x = chain_state();
  const std::vector<double> p{0.7, 0.4};
  std::vector<double> J(kChain * kChain), exact(kChain * kChain);
  m->jac_x(0.0, x.data(), p.data(), J.data());
  chain_jacobian(x.data(), p.data(), exact.data());
  for (std::size_t q = 0; q < J.size(); ++q) EXPECT_NEAR(J[q], exact[q], 1e-9);
}

TEST(CallbackModel, GroupedSparseFiniteDifferencesMatchAnalytic) {
  auto spec = chain_spec();
  spec.pattern = tridiagonal(kChain);
  int calls = 0;
  spec.user = &calls;
  spec.f = [](double t, const double* x, const double* p, double* f, void* user) {
    ++*static_cast<int*>(user);
    return chain_rhs(t, x, p, f, nullptr);
  };
  auto m = make_callback_model(spec);
  const auto x = chain_state();
  const std::vector<double> p{0.7, 0.4};
  const auto* pattern = m->jac_x_pattern();
  ASSERT_NE(pattern, nullptr);
  std::vector<double> values(pattern->nnz()), exact(kChain * kChain);
  m->jac_x_values(0.0, x.data(), p.data(), values.data());
  // A tridiagonal pattern needs three groups: six evaluations, not 2 * 12.
  EXPECT_EQ(calls, 6);
  chain_jacobian(x.data(), p.data(), exact.data());
  for (std::size_t j = 0; j < kChain; ++j)
    for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
      EXPECT_NEAR(values[q], exact[pattern->row_idx[q] + j * kChain], 1e-9);
}

TEST(CallbackModel, ParameterJacobianAndInitialSensitivityFallbacks) {
  auto spec = chain_spec();
  spec.initial_state = [](const double* p, double* x0, void*) {
    for (std::size_t i = 0; i < kChain; ++i) x0[i] = p[0] * p[0] * static_cast<double>(i);
    return 0;
  };
  auto m = make_callback_model(spec);
  const auto x = chain_state();
  const std::vector<double> p{0.7, 0.4};
  std::vector<double> Jp(kChain * 2), S0(kChain * 2);
  m->jac_p(0.0, x.data(), p.data(), Jp.data());
  for (std::size_t i = 0; i < kChain; ++i) {
    const double left = i > 0 ? x[i - 1] : 0.0, right = i + 1 < kChain ? x[i + 1] : 0.0;
    EXPECT_NEAR(Jp[i], left - 2 * x[i] + right, 1e-9);
    EXPECT_NEAR(Jp[i + kChain], std::sin(x[i]), 1e-9);
  }
  m->initial_sensitivity(p.data(), S0.data());
  for (std::size_t i = 0; i < kChain; ++i) {
    EXPECT_NEAR(S0[i], 2 * 0.7 * static_cast<double>(i), 1e-9);
    EXPECT_NEAR(S0[i + kChain], 0.0, 1e-12);
  }
}

// The default vjp_accumulate on finite differences (dense, and grouped by a
// pattern), with and without a workspace.
TEST(CallbackModel, VjpAccumulateWithoutProductsUsesTheDefaults) {
  const auto x = chain_state();
  const std::vector<double> p{0.7, 0.4};
  auto sparse = chain_spec();
  sparse.pattern = tridiagonal(kChain);
  for (const auto& spec : {chain_spec(), sparse}) {
    auto m = make_callback_model(spec);
    auto ws = m->make_workspace();
    testing::expect_vjp_accumulate_consistent(*m, 0.2, x, p, ws.get(), {});
    testing::expect_vjp_accumulate_consistent(*m, 0.2, x, p, nullptr, {});
  }
}

// J_x^T W and J_p^T W of the chain, for the vjp callback.
int chain_vjp(double, const double* x, const double* p, std::int64_t nw, const double* W,
              double* out_x, double* out_p, void*) {
  std::vector<double> J(kChain * kChain);
  chain_jacobian(x, p, J.data());
  for (std::int64_t k = 0; k < nw; ++k) {
    const double* w = W + k * static_cast<std::int64_t>(kChain);
    double s0 = 0.0, s1 = 0.0;
    for (std::size_t j = 0; j < kChain; ++j) {
      double s = 0.0;
      for (std::size_t i = 0; i < kChain; ++i) s += J[i + j * kChain] * w[i];
      if (out_x) out_x[j + static_cast<std::size_t>(k) * kChain] = s;
      const double left = j > 0 ? x[j - 1] : 0.0, right = j + 1 < kChain ? x[j + 1] : 0.0;
      s0 += (left - 2 * x[j] + right) * w[j];
      s1 += std::sin(x[j]) * w[j];
    }
    if (out_p) {
      out_p[2 * k] = s0;
      out_p[2 * k + 1] = s1;
    }
  }
  return 0;
}

// With the user's vjp (and exact Jacobians for the dense reference): the
// default calls it for each product, its failure is reported as any
// callback's.
TEST(CallbackModel, VjpAccumulateWithUserProducts) {
  auto spec = chain_spec();
  spec.vjp = chain_vjp;
  spec.jac_x = [](double, const double* x, const double* p, double* J, void*) {
    chain_jacobian(x, p, J);
    return 0;
  };
  spec.jac_p = [](double, const double* x, const double*, double* Jp, void*) {
    for (std::size_t i = 0; i < kChain; ++i) {
      const double left = i > 0 ? x[i - 1] : 0.0, right = i + 1 < kChain ? x[i + 1] : 0.0;
      Jp[i] = left - 2 * x[i] + right;
      Jp[i + kChain] = std::sin(x[i]);
    }
    return 0;
  };
  auto m = make_callback_model(spec);
  const auto x = chain_state();
  const std::vector<double> p{0.7, 0.4};
  auto ws = m->make_workspace();
  testing::expect_vjp_accumulate_consistent(*m, 0.2, x, p, ws.get(), {});
  spec.vjp = [](double, const double*, const double*, std::int64_t, const double*, double*,
                double*, void*) { return 5; };
  auto failing = make_callback_model(spec);
  std::vector<double> W(kChain, 1.0), out_x(kChain), out_p(2);
  try {
    failing->vjp_accumulate(0.5, x.data(), p.data(), 1, W.data(), out_x.data(), out_p.data(),
                            ws.get());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::callback_failed);
    EXPECT_NE(std::string(e.what()).find("'vjp' returned 5"), std::string::npos) << e.what();
  }
}

TEST(CallbackModel, FailingCallbackNamesItself) {
  auto spec = chain_spec();
  spec.jac_p = [](double, const double*, const double*, double*, void*) { return 7; };
  auto m = make_callback_model(spec);
  const auto x = chain_state();
  const std::vector<double> p{0.7, 0.4};
  std::vector<double> Jp(kChain * 2);
  try {
    m->jac_p(1.5, x.data(), p.data(), Jp.data());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::callback_failed);
    EXPECT_NE(std::string(e.what()).find("'jac_p' returned 7 at t = 1.5"), std::string::npos)
        << e.what();
  }
  // The time with every digit it needs: two failures at distinct times read
  // differently (not both "1.23457").
  try {
    m->jac_p(1.2345678901234567, x.data(), p.data(), Jp.data());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at t = 1.2345678901234567"), std::string::npos)
        << e.what();
  }
}

TEST(CallbackModel, InvalidSpecificationsAreRejected) {
  auto expect_invalid = [](CallbackModelSpec spec, const char* fragment) {
    try {
      make_callback_model(std::move(spec));
      ADD_FAILURE() << "accepted; expected: " << fragment;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  auto s = chain_spec();
  s.f = nullptr;
  expect_invalid(s, "right-hand side f is required");
  s = chain_spec();
  s.state_names = {"a", "b"};
  expect_invalid(s, "2 names given for 12");
  s = chain_spec();
  s.nominal_params = {1.0};
  expect_invalid(s, "1 nominal parameter values for np = 2");
  s = chain_spec();
  s.nominal_params = {1.0, NAN};
  expect_invalid(s, "NaN or Inf");
  s = chain_spec();
  s.pattern = tridiagonal(kChain);
  s.pattern.row_idx[1] = 99;
  expect_invalid(s, "out of range");
  s = chain_spec();
  s.pattern = tridiagonal(kChain);
  std::swap(s.pattern.row_idx[0], s.pattern.row_idx[1]);
  expect_invalid(s, "not strictly increasing");
  s = chain_spec();
  s.jac_x_sparse = [](double, const double*, const double*, double*, void*) { return 0; };
  expect_invalid(s, "needs a sparsity pattern");
}

}  // namespace
}  // namespace odesens
