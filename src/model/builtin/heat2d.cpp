// Two-dimensional heat equation of the adjoint paper, section 4.1 (Eq. 58):
// an Np x Np grid on [0,1]^2 with spacing h = 1/(Np-1), state k = i + Np*j
// for grid point (x_i, y_j); interior points follow the five-point Laplacian
// times alpha, boundary points stay fixed (Dirichlet, u = 0);
// u0 = sin(pi x) sin(pi y), alpha = 1, t in [0, 0.01].
//
// u0 is an eigenvector of the discrete Laplacian with eigenvalue
// lambda_h = -8 sin^2(pi h / 2) / h^2, so the semi-discrete system has the
// exact solution u(t) = e^{alpha lambda_h t} u0 and du/dalpha = lambda_h t u(t).
// The boundary values of u0 are set to exactly 0 so that this holds to
// rounding.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "linalg/csc.hpp"
#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {
namespace {

const double kPi = 3.14159265358979323846;

bool on_boundary(std::size_t i, std::size_t j, std::size_t grid) {
  return i == 0 || j == 0 || i == grid - 1 || j == grid - 1;
}

double initial_value(std::size_t i, std::size_t j, std::size_t grid) {
  if (on_boundary(i, j, grid)) return 0.0;
  const double h = 1.0 / static_cast<double>(grid - 1);
  return std::sin(kPi * static_cast<double>(i) * h) * std::sin(kPi * static_cast<double>(j) * h);
}

// SecondDerivatives, analytic. f = alpha L u with the constant discrete
// Laplacian L (zero rows on the boundary), so J_x = alpha L, J_p = L u:
//   a = J_x f = alpha^2 L^2 u  (autonomous: df/dt = 0, so da/dt = 0),
//   da/dx = J_x J_x + sum_j f_j dJ[:, j]/dx = alpha^2 L^2 (J_x is constant in u),
//   da/dalpha = (dJ_x/dalpha) f + J_x J_p = L (alpha L u) + alpha L (L u)
//             = 2 alpha L^2 u.
// The pattern of da/dx is the structural pattern of L^2 (no cancellation
// occurs: every path k -> j -> m contributes with the same sign), with the
// values of L^2 kept alongside; both are built once, on first use.
class Heat2d final : public BuiltinModel, public SecondDerivatives {
 public:
  explicit Heat2d(std::size_t grid)
      : BuiltinModel("builtin:heat2d:" + std::to_string(grid), numbered_names("u", grid * grid),
                     {"alpha"}, {1.0}, 0.01),
        grid_(grid),
        inv_h2_(static_cast<double>((grid - 1) * (grid - 1))) {
    build_pattern();
  }

  void initial_state(const double*, double* x0, Workspace* ws = nullptr) const override {
    for (std::size_t j = 0; j < grid_; ++j)
      for (std::size_t i = 0; i < grid_; ++i) x0[i + grid_ * j] = initial_value(i, j, grid_);
  }

  void rhs(double, const double* u, const double* p, double* f, Workspace* ws = nullptr) const override {
    laplacian(u, f);
    const std::size_t n = nx();
    for (std::size_t k = 0; k < n; ++k) f[k] *= p[0];
  }

  const SparsityPattern* jac_x_pattern() const override { return &pattern_; }

  void jac_x_values(double, const double*, const double* p, double* values, Workspace* ws = nullptr) const override {
    for (std::size_t q = 0; q < coefficients_.size(); ++q) values[q] = p[0] * coefficients_[q];
  }

  void jac_x(double t, const double* u, const double* p, double* J, Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* values =
        workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::jacobian_values, pattern_.nnz());
    jac_x_values(t, u, p, values);
    linalg::csc_to_dense(pattern_, values, J);
  }

  void jac_p(double, const double* u, const double*, double* Jp, Workspace* ws = nullptr) const override {
    laplacian(u, Jp);
  }

  const SecondDerivatives* second_derivatives() const override { return this; }

  void xddot(double, const double* u, const double* p, double* a,
             Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* lu = workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::product, nx());
    laplacian(u, lu);
    laplacian(lu, a);
    const double s = p[0] * p[0];
    const std::size_t n = nx();
    for (std::size_t k = 0; k < n; ++k) a[k] *= s;
  }

  const SparsityPattern& xddot_jac_x_pattern() const override { return squared().pattern; }

  void xddot_jac_x_values(double, const double*, const double* p, double* values,
                          Workspace* = nullptr) const override {
    const auto& sq = squared();
    const double s = p[0] * p[0];
    for (std::size_t q = 0; q < sq.coefficients.size(); ++q) values[q] = s * sq.coefficients[q];
  }

  void xddot_jac_x(double t, const double* u, const double* p, double* J,
                   Workspace* ws = nullptr) const override {
    const auto& sq = squared();
    std::unique_ptr<Workspace> local;
    double* values = workspace_or_local(*this, ws, local)
                         .scratch(Workspace::Scratch::jacobian_values, sq.pattern.nnz());
    xddot_jac_x_values(t, u, p, values);
    linalg::csc_to_dense(sq.pattern, values, J);
  }

  void xddot_jac_p(double, const double* u, const double* p, double* Ap,
                   Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* lu = workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::product, nx());
    laplacian(u, lu);
    laplacian(lu, Ap);
    const double s = 2.0 * p[0];
    const std::size_t n = nx();
    for (std::size_t k = 0; k < n; ++k) Ap[k] *= s;
  }

  // Autonomous: f does not depend on t.
  void dfdt(double, const double*, const double*, double* out,
            Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

  void xddot_dt(double, const double*, const double*, double* out,
                Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

 private:
  // out = discrete Laplacian of u on interior points, 0 on the boundary.
  void laplacian(const double* u, double* out) const {
    for (std::size_t j = 0; j < grid_; ++j)
      for (std::size_t i = 0; i < grid_; ++i) {
        const std::size_t k = i + grid_ * j;
        out[k] = on_boundary(i, j, grid_)
                     ? 0.0
                     : (u[k - 1] + u[k + 1] + u[k - grid_] + u[k + grid_] - 4.0 * u[k]) * inv_h2_;
      }
  }

  // CSC pattern of the Laplacian: column c holds the interior rows that read u_c.
  void build_pattern() {
    const std::size_t n = grid_ * grid_;
    std::vector<std::vector<std::pair<std::int64_t, double>>> columns(n);
    for (std::size_t j = 0; j < grid_; ++j)
      for (std::size_t i = 0; i < grid_; ++i) {
        if (on_boundary(i, j, grid_)) continue;
        const std::size_t k = i + grid_ * j;
        const auto row = static_cast<std::int64_t>(k);
        columns[k - grid_].push_back({row, inv_h2_});
        columns[k - 1].push_back({row, inv_h2_});
        columns[k].push_back({row, -4.0 * inv_h2_});
        columns[k + 1].push_back({row, inv_h2_});
        columns[k + grid_].push_back({row, inv_h2_});
      }
    pattern_.rows = pattern_.cols = n;
    pattern_.col_ptr.assign(n + 1, 0);
    for (std::size_t c = 0; c < n; ++c) {
      std::sort(columns[c].begin(), columns[c].end());
      for (const auto& [row, coef] : columns[c]) {
        pattern_.row_idx.push_back(row);
        coefficients_.push_back(coef);
      }
      pattern_.col_ptr[c + 1] = static_cast<std::int64_t>(pattern_.row_idx.size());
    }
  }

  struct Squared {
    SparsityPattern pattern;            // structural pattern of L^2
    std::vector<double> coefficients;   // L^2 in pattern order
  };

  const Squared& squared() const { return squared_.get([&] { return build_squared(); }); }

  // L^2 = L L column by column: column c of L^2 is the sum over the entries
  // L_kc of column c of L of L_kc times column k of L (a sparse accumulator
  // over the rows; rows sorted per column as CSC requires).
  Squared build_squared() const {
    const std::size_t n = grid_ * grid_;
    Squared sq;
    sq.pattern.rows = sq.pattern.cols = n;
    sq.pattern.col_ptr.assign(n + 1, 0);
    std::vector<double> acc(n, 0.0);
    std::vector<char> seen(n, 0);
    std::vector<std::int64_t> rows;
    for (std::size_t c = 0; c < n; ++c) {
      rows.clear();
      for (auto q = pattern_.col_ptr[c]; q < pattern_.col_ptr[c + 1]; ++q) {
        const auto k = static_cast<std::size_t>(pattern_.row_idx[q]);
        const double lkc = coefficients_[q];
        for (auto r = pattern_.col_ptr[k]; r < pattern_.col_ptr[k + 1]; ++r) {
          const auto m = pattern_.row_idx[r];
          if (!seen[m]) {
            seen[m] = 1;
            rows.push_back(m);
          }
          acc[m] += coefficients_[r] * lkc;
        }
      }
      std::sort(rows.begin(), rows.end());
      for (const auto m : rows) {
        sq.pattern.row_idx.push_back(m);
        sq.coefficients.push_back(acc[m]);
        acc[m] = 0.0;
        seen[m] = 0;
      }
      sq.pattern.col_ptr[c + 1] = static_cast<std::int64_t>(sq.pattern.row_idx.size());
    }
    return sq;
  }

  std::size_t grid_;
  double inv_h2_;
  SparsityPattern pattern_;
  std::vector<double> coefficients_;  // J_x / alpha in pattern order
  OnceBuilt<Squared> squared_;
};

}  // namespace

void heat2d_exact_solution(std::size_t grid, double alpha, double t, double* x, double* s) {
  const double h = 1.0 / static_cast<double>(grid - 1);
  const double sh = std::sin(kPi * h / 2.0);
  const double lambda = -8.0 * sh * sh / (h * h);
  const double decay = std::exp(alpha * lambda * t);
  for (std::size_t j = 0; j < grid; ++j)
    for (std::size_t i = 0; i < grid; ++i) {
      const std::size_t k = i + grid * j;
      x[k] = decay * initial_value(i, j, grid);
      s[k] = lambda * t * x[k];
    }
}

std::shared_ptr<Model> make_heat2d(std::size_t grid) { return std::make_shared<Heat2d>(grid); }

}  // namespace odesens::builtin
