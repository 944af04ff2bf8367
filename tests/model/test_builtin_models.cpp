// Built-in models: generated data matches BUILTIN_MODELS.md bit for bit, and
// the closed-form solutions used as references really solve the systems.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "model/builtin/builtin_reference.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

struct GlvChecksum {
  std::size_t n;
  double sum, abs_sum;
  std::size_t nonzeros;
  double a01, a_last;
};

TEST(GlvModel, InteractionMatrixMatchesPublishedChecksums) {
  const GlvChecksum table[] = {
      {3, -3.3030248680670629, 5.3948786798174009, 8, 0.70610342134855897, -1.0329260105531248},
      {10, -9.8040703661511159, 16.663988542019318, 50, 0.38674877180418055,
       -0.86945615171469426},
      {55, -56.75623080771058, 164.13981289997864, 1525, 0.16491023039660763,
       -1.0621977140789804},
      {100, -94.411614991724022, 375.25793684692286, 5051, 0.12230070011739186,
       -0.93881626184653799},
      {200, -194.27826018342196, 997.64006138747277, 20155, 0.086479654396870179,
       -0.96813174853802852},
  };
  for (const auto& c : table) {
    const auto a = builtin::glv_interaction_matrix(c.n);
    double sum = 0.0, abs_sum = 0.0;
    std::size_t nonzeros = 0;
    for (double v : a) {
      sum += v;
      abs_sum += std::fabs(v);
      nonzeros += v != 0.0;
    }
    EXPECT_NEAR(sum, c.sum, 1e-12 * std::fabs(c.sum)) << "N = " << c.n;
    EXPECT_NEAR(abs_sum, c.abs_sum, 1e-12 * c.abs_sum) << "N = " << c.n;
    EXPECT_EQ(nonzeros, c.nonzeros) << "N = " << c.n;
    EXPECT_EQ(a[1], c.a01) << "N = " << c.n;
    EXPECT_EQ(a[c.n * c.n - 1], c.a_last) << "N = " << c.n;
  }
}

TEST(GlvModel, ParametersAreGrowthRatesThenRowMajorInteractions) {
  auto m = make_builtin_model("glv:3");
  ASSERT_EQ(m->np(), 12u);
  EXPECT_EQ(m->param_names()[0], "r1");
  EXPECT_EQ(m->param_names()[3], "A1_1");
  EXPECT_EQ(m->param_names()[4], "A1_2");
  EXPECT_EQ(m->param_names()[11], "A3_3");
  const auto p = m->nominal_params();
  EXPECT_EQ(p[0], 0.1);
  EXPECT_EQ(p[4], builtin::glv_interaction_matrix(3)[1]);
}

TEST(SplitMix64, UniformsAreInOpenUnitInterval) {
  builtin::SplitMix64 s(42);
  for (int i = 0; i < 10000; ++i) {
    const double u = s.uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(LinearModel, MatrixIsSymmetricNegativeDefinite) {
  const auto d = builtin::linear_system_data(6);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_LT(d.a[i + i * 6], 0.0);
    for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(d.a[i + j * 6], d.a[j + i * 6]);
  }
}

// A = -B^T B with each entry's sum over k in ascending order, as drawn:
// the same bit for bit as the plain sum (B from the stream, row-major).
TEST(LinearModel, MatrixIsTheSumOverBsRowsInOrder) {
  const std::size_t n = 7;
  const auto d = builtin::linear_system_data(n);
  builtin::SplitMix64 stream(42);
  std::vector<double> b(n * n);
  for (auto& v : b) v = stream.uniform();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k < n; ++k) sum += b[k * n + i] * b[k * n + j];
      EXPECT_EQ(d.a[i + j * n], -sum) << i << ", " << j;
    }
}

// The exact solution satisfies x' = f(x): compare a central difference in
// time with the right-hand side.
TEST(LinearModel, ExactSolutionSolvesTheSystem) {
  const std::size_t n = 5;
  auto m = make_builtin_model("linear:5");
  const auto p = m->nominal_params();
  std::vector<double> x(n), xp(n), xm(n), s(n * n), f(n);
  const double t = 1.3, h = 1e-5;
  builtin::linear_exact_solution(n, p.data(), t, x.data(), s.data());
  builtin::linear_exact_solution(n, p.data(), t + h, xp.data(), s.data());
  builtin::linear_exact_solution(n, p.data(), t - h, xm.data(), s.data());
  m->rhs(t, x.data(), p.data(), f.data());
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_NEAR((xp[i] - xm[i]) / (2 * h), f[i], 1e-7 * (1 + std::fabs(f[i])));
  std::vector<double> x0(n);
  builtin::linear_exact_solution(n, p.data(), 0.0, x0.data(), s.data());
  for (double v : x0) EXPECT_EQ(v, 0.0);
}

TEST(Heat2dModel, InitialStateIsAnEigenvectorOfTheDiscreteLaplacian) {
  const std::size_t grid = 9;
  auto m = make_builtin_model("heat2d:9");
  ASSERT_EQ(m->nx(), grid * grid);
  std::vector<double> u0(m->nx()), f(m->nx()), x(m->nx()), s(m->nx());
  const std::vector<double> p{1.0};
  m->initial_state(p.data(), u0.data());
  m->rhs(0.0, u0.data(), p.data(), f.data());
  const double h = 1.0 / (grid - 1);
  const double lambda = -8.0 * std::pow(std::sin(M_PI * h / 2), 2) / (h * h);
  for (std::size_t k = 0; k < m->nx(); ++k) EXPECT_NEAR(f[k], lambda * u0[k], 1e-10);
  builtin::heat2d_exact_solution(grid, 1.0, 0.0, x.data(), s.data());
  for (std::size_t k = 0; k < m->nx(); ++k) EXPECT_EQ(x[k], u0[k]);
}

TEST(BuiltinModels, UnknownNamesAndBadSizesAreRejected) {
  for (const char* bad : {"nosuch", "glv", "glv:", "glv:0", "glv:x", "glv:-3", "chua:2",
                          "heat2d:2", "linear:99999999999"}) {
    try {
      make_builtin_model(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unknown_model) << bad;
    }
  }
  EXPECT_THROW(load_model("chua"), Error);
  EXPECT_EQ(load_model("builtin:chua")->nx(), 3u);
}

}  // namespace
}  // namespace odesens
