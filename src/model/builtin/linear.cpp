// Random linear system, PBS paper section 6, generated as BUILTIN_MODELS.md
// prescribes: dx/dt = A x + p∘p + 1, A = -B^T B, x(0) = 0, t in [0, 10].
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "linalg/dense.hpp"
#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {

LinearSystemData linear_system_data(std::size_t n, std::uint64_t seed) {
  SplitMix64 stream(seed);
  std::vector<double> b(n * n);  // row-major, as drawn
  for (auto& v : b) v = stream.uniform();
  LinearSystemData d;
  d.p.resize(n);
  for (auto& v : d.p) v = stream.uniform();
  // A = -B^T B; (B^T B)_{ij} = sum_k B_ki B_kj, each sum over k in
  // ascending order so that the matrix is the same bit for bit on every
  // machine. Column i of the upper triangle at once, walking B's rows
  // (a sum per entry walked B by columns: 48 s for N = 1500); the lower
  // triangle is its mirror (B_ki B_kj = B_kj B_ki exactly).
  d.a.assign(n * n, 0.0);
  std::vector<double> column(n);
  for (std::size_t j = 0; j < n; ++j) {
    std::fill(column.begin(), column.begin() + static_cast<std::ptrdiff_t>(j + 1), 0.0);
    for (std::size_t k = 0; k < n; ++k) {
      const double bkj = b[k * n + j];
      const double* row = b.data() + k * n;
      for (std::size_t i = 0; i <= j; ++i) column[i] += row[i] * bkj;
    }
    for (std::size_t i = 0; i <= j; ++i) d.a[i + j * n] = d.a[j + i * n] = -column[i];
  }
  return d;
}

void linear_exact_solution(std::size_t n, const double* p, double t, double* x, double* s,
                           std::uint64_t seed) {
  // A = V diag(lambda) V^T, so int_0^t e^{A(t-tau)} dtau = V diag(phi) V^T
  // with phi = (e^{lambda t} - 1) / lambda (= t when lambda = 0).
  auto data = linear_system_data(n, seed);
  std::vector<double> v = data.a, lambda(n);
  linalg::symmetric_eigen(n, v.data(), lambda.data());
  std::vector<double> phi_vt(n * n);  // diag(phi) V^T
  for (std::size_t i = 0; i < n; ++i) {
    const double l = lambda[i];
    const double phi = l == 0.0 ? t : std::expm1(l * t) / l;
    for (std::size_t j = 0; j < n; ++j) phi_vt[i + j * n] = phi * v[j + i * n];
  }
  std::vector<double> integral(n * n);
  linalg::gemm(linalg::Trans::no, linalg::Trans::no, n, n, n, 1.0, v.data(), n, phi_vt.data(),
               n, 0.0, integral.data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    double xi = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      xi += integral[i + j * n] * (p[j] * p[j] + 1.0);
      s[i + j * n] = integral[i + j * n] * 2.0 * p[j];
    }
    x[i] = xi;
  }
}

namespace {

// SecondDerivatives, analytic. f = A x + p.p + 1 with constant A, so
// J_x = A, J_p = diag(2p), and nothing in J_x depends on x or p:
//   a = A f  (autonomous: df/dt = 0, so da/dt = 0),
//   da/dx = A J_x = A^2 (constant; A = -B^T B is full, so A^2 is too and
//           the pattern is dense; both are built once, on first use),
//   da/dp = (dA/dp) f + A J_p = A diag(2p): column m is 2 p_m A[:, m].
class Linear final : public BuiltinModel, public SecondDerivatives {
 public:
  explicit Linear(std::size_t n, LinearSystemData data)
      : BuiltinModel("builtin:linear:" + std::to_string(n), numbered_names("x", n),
                     numbered_names("p", n), data.p, 10.0),
        n_(n),
        a_(std::move(data.a)) {}

  const SecondDerivatives* second_derivatives() const override { return this; }

  void initial_state(const double*, double* x0, Workspace* ws = nullptr) const override {
    std::fill(x0, x0 + n_, 0.0);
  }

  bool has_constant_jacobians() const override { return true; }

  void rhs(double, const double* x, const double* p, double* f, Workspace* ws = nullptr) const override {
    for (std::size_t i = 0; i < n_; ++i) f[i] = p[i] * p[i] + 1.0;
    for (std::size_t j = 0; j < n_; ++j)
      for (std::size_t i = 0; i < n_; ++i) f[i] += a_[i + j * n_] * x[j];
  }

  void jac_x(double, const double*, const double*, double* J, Workspace* ws = nullptr) const override {
    std::copy(a_.begin(), a_.end(), J);
  }

  void jac_p(double, const double*, const double* p, double* Jp, Workspace* ws = nullptr) const override {
    std::fill(Jp, Jp + n_ * n_, 0.0);
    for (std::size_t i = 0; i < n_; ++i) Jp[i + i * n_] = 2.0 * p[i];
  }

  void xddot(double t, const double* x, const double* p, double* a,
             Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* f = workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::product, n_);
    rhs(t, x, p, f);
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, 1, n_, 1.0, a_.data(), n_, f, n_,
                 0.0, a, n_);
  }

  const SparsityPattern& xddot_jac_x_pattern() const override {
    return dense_pattern_.get([&] { return SparsityPattern::dense(n_, n_); });
  }

  // The dense pattern lists the entries column by column, as the dense matrix.
  void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override {
    xddot_jac_x(t, x, p, values, ws);
  }

  void xddot_jac_x(double, const double*, const double*, double* Ja,
                   Workspace* = nullptr) const override {
    const auto& a2 = a_squared();
    std::copy(a2.begin(), a2.end(), Ja);
  }

  void xddot_jac_p(double, const double*, const double* p, double* Ap,
                   Workspace* = nullptr) const override {
    for (std::size_t m = 0; m < n_; ++m) {
      const double s = 2.0 * p[m];
      for (std::size_t i = 0; i < n_; ++i) Ap[i + m * n_] = s * a_[i + m * n_];
    }
  }

  // Autonomous: f does not depend on t.
  void dfdt(double, const double*, const double*, double* out,
            Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

  void xddot_dt(double, const double*, const double*, double* out,
                Workspace* = nullptr) const override {
    std::fill(out, out + n_, 0.0);
  }

 private:
  const std::vector<double>& a_squared() const {
    return a_squared_.get([&] {
      std::vector<double> a2(n_ * n_);
      linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, n_, n_, 1.0, a_.data(), n_,
                   a_.data(), n_, 0.0, a2.data(), n_);
      return a2;
    });
  }

  std::size_t n_;
  std::vector<double> a_;  // column-major
  OnceBuilt<SparsityPattern> dense_pattern_;
  OnceBuilt<std::vector<double>> a_squared_;  // A^2, column-major
};

}  // namespace

std::shared_ptr<Model> make_linear(std::size_t n) {
  return std::make_shared<Linear>(n, linear_system_data(n));
}

}  // namespace odesens::builtin
