// Generalized Lotka-Volterra, adjoint paper section 4.3, generated as
// BUILTIN_MODELS.md prescribes: dx_i/dt = x_i (r_i + sum_j A_ij x_j),
// r_i = 0.1, x_i(0) = 0.1, t in [0, 10]; parameters r (N) then A row-major (N^2).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "linalg/dense.hpp"
#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {

std::vector<double> glv_interaction_matrix(std::size_t n, std::uint64_t seed) {
  const double connectance = 0.5;
  const double sigma = 0.5 / std::sqrt(static_cast<double>(n) * connectance);
  const double pi = 3.14159265358979323846;
  SplitMix64 stream(seed);
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const double uc = stream.uniform();
      const double u1 = stream.uniform();
      const double u2 = stream.uniform();
      const double g = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * pi * u2);
      const double gij = uc < connectance ? g : 0.0;
      a[i * n + j] = (i == j ? -1.0 : 0.0) + sigma * gij;
    }
  }
  return a;
}

namespace {

std::vector<std::string> glv_param_names(std::size_t n) {
  std::vector<std::string> names = numbered_names("r", n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      names.push_back("A" + std::to_string(i + 1) + "_" + std::to_string(j + 1));
  return names;
}

std::vector<double> glv_nominal(std::size_t n) {
  std::vector<double> p(n, 0.1);
  const auto a = glv_interaction_matrix(n);
  p.insert(p.end(), a.begin(), a.end());
  return p;
}

// SecondDerivatives, analytic. With g = r + A x, f_i = x_i g_i and
// J_ij = delta_ij g_i + x_i A_ij:
//   a = J f:  a_i = g_i f_i + x_i (A f)_i  (autonomous: df/dt = 0, da/dt = 0),
//   da/dx = J J + H, H_ik = sum_j f_j dJ_ij/dx_k; dJ_ij/dx_k =
//           delta_ij A_ik + delta_ik A_ij gives H = diag(f) A + diag(A f),
//   da/dp_m = (dJ/dp_m) f + J (df/dp_m):
//     r_m:   dJ_ij/dr_m = delta_ij delta_im, df/dr_m = x_m e_m:
//            da/dr_m = f_m e_m + x_m J[:, m],
//     A_mn:  dJ_ij/dA_mn = delta_im (delta_ij x_n + x_i delta_jn),
//            df/dA_mn = x_m x_n e_m:
//            da/dA_mn = (x_n f_m + x_m f_n) e_m + x_m x_n J[:, m].
// J^2 is full in general, so da/dx uses the dense pattern (built once, on
// first use). da/dp is dense N x (N + N^2), as the interface asks; one
// evaluation writes N^3 + N^2 numbers.
class Glv final : public BuiltinModel, public SecondDerivatives {
 public:
  explicit Glv(std::size_t n)
      : BuiltinModel("builtin:glv:" + std::to_string(n), numbered_names("x", n),
                     glv_param_names(n), glv_nominal(n), 10.0),
        n_(n) {}

  const SecondDerivatives* second_derivatives() const override { return this; }

  void initial_state(const double*, double* x0, Workspace* ws = nullptr) const override {
    for (std::size_t i = 0; i < n_; ++i) x0[i] = 0.1;
  }

  void rhs(double, const double* x, const double* p, double* f, Workspace* ws = nullptr) const override {
    for (std::size_t i = 0; i < n_; ++i) f[i] = x[i] * growth(i, x, p);
  }

  void jac_x(double, const double* x, const double* p, double* J, Workspace* ws = nullptr) const override {
    for (std::size_t j = 0; j < n_; ++j)
      for (std::size_t i = 0; i < n_; ++i) J[i + j * n_] = x[i] * a(p, i, j);
    for (std::size_t i = 0; i < n_; ++i) J[i + i * n_] += growth(i, x, p);
  }

  void jac_p(double, const double* x, const double*, double* Jp, Workspace* ws = nullptr) const override {
    std::fill(Jp, Jp + n_ * np(), 0.0);
    for (std::size_t i = 0; i < n_; ++i) {
      Jp[i + i * n_] = x[i];
      for (std::size_t j = 0; j < n_; ++j) Jp[i + (n_ + i * n_ + j) * n_] = x[i] * x[j];
    }
  }

  // J V = diag(r + A x) V + diag(x) A V, with A V as one BLAS-3 product.
  void jvp(double, const double* x, const double* p, std::size_t nv, const double* V,
           double* out, Workspace* ws = nullptr) const override {
    // A is row-major in p, i.e. A^T column-major.
    linalg::gemm(linalg::Trans::yes, linalg::Trans::no, n_, nv, n_, 1.0, p + n_, n_, V, n_, 0.0,
                 out, n_);
    std::unique_ptr<Workspace> local;
    double* g =
        workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::fd_shift, n_);
    for (std::size_t i = 0; i < n_; ++i) g[i] = growth(i, x, p);
    for (std::size_t k = 0; k < nv; ++k)
      for (std::size_t i = 0; i < n_; ++i)
        out[i + k * n_] = x[i] * out[i + k * n_] + g[i] * V[i + k * n_];
  }

  // J^T W = diag(r + A x) W + A^T diag(x) W.
  void vjp_x(double, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* xw =
        workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::dense_jacobian, n_ * nw);
    for (std::size_t k = 0; k < nw; ++k)
      for (std::size_t i = 0; i < n_; ++i) xw[i + k * n_] = x[i] * W[i + k * n_];
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, nw, n_, 1.0, p + n_, n_, xw, n_,
                 0.0, out, n_);
    for (std::size_t i = 0; i < n_; ++i) {
      const double g = growth(i, x, p);
      for (std::size_t k = 0; k < nw; ++k) out[i + k * n_] += g * W[i + k * n_];
    }
  }

  void vjp_p(double, const double* x, const double*, std::size_t nw, const double* W,
             double* out, Workspace* ws = nullptr) const override {
    parameter_products<false>(x, nw, W, out);
  }

  // vjp_x, and J_p^T W added into out_p as it is formed: out_p's np x nw
  // block, the bulk of an adjoint sweep's memory traffic, is read and
  // written once, with no temporary of its size.
  void vjp_accumulate(double t, const double* x, const double* p, std::size_t nw,
                      const double* W, double* out_x, double* out_p,
                      Workspace* ws = nullptr) const override {
    vjp_x(t, x, p, nw, W, out_x, ws);
    if (out_p) parameter_products<true>(x, nw, W, out_p);
  }

  // Summed over n points, J_p^T W is a rank-n update per vector. Viewed
  // with leading dimension N, out_p (np = N (N + 1) rows per vector) is an
  // N x nw (N + 1) matrix whose column k (N + 1) holds vector k's r part
  // and whose columns k (N + 1) + 1 + i hold its A row i, (A_i.)_j =
  // sum_q W_q,k[i] X_q[i] X_q[j]: all A rows of all vectors are one gemm,
  //   out_p += X V,  V (n x nw (N + 1)), V[q, k (N + 1) + 1 + i] = W_q,k[i] X_q[i],
  // the r columns getting 0 from it and their own sum afterwards.
  void vjp_p_accumulate_points(std::size_t n, const double*, const double* X, const double*,
                               std::size_t nw, const double* W, double* out_p,
                               Workspace* ws = nullptr) const override {
    const std::size_t cols = nw * (n_ + 1);
    std::unique_ptr<Workspace> local;
    double* V = workspace_or_local(*this, ws, local)
                    .scratch(Workspace::Scratch::point_products, n * cols);
    for (std::size_t k = 0; k < nw; ++k) {
      for (std::size_t q = 0; q < n; ++q) {
        const double* x = X + q * n_;
        const double* w = W + (q * nw + k) * n_;
        V[q + k * (n_ + 1) * n] = 0.0;
        for (std::size_t i = 0; i < n_; ++i) V[q + (k * (n_ + 1) + 1 + i) * n] = w[i] * x[i];
      }
    }
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, cols, n, 1.0, X, n_, V, n, 1.0, out_p,
                 n_);
    for (std::size_t k = 0; k < nw; ++k) {
      double* r = out_p + k * np();
      for (std::size_t q = 0; q < n; ++q) {
        const double* x = X + q * n_;
        const double* w = W + (q * nw + k) * n_;
        for (std::size_t i = 0; i < n_; ++i) r[i] += x[i] * w[i];
      }
    }
  }
  bool batches_parameter_products() const override { return true; }

  void xddot(double, const double* x, const double* p, double* out,
             Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* f = workspace_or_local(*this, ws, local).scratch(Workspace::Scratch::product, n_);
    for (std::size_t i = 0; i < n_; ++i) {
      const double g = growth(i, x, p);
      f[i] = x[i] * g;
      out[i] = g * f[i];  // g_i f_i; the x_i (A f)_i term once f is complete
    }
    for (std::size_t i = 0; i < n_; ++i) out[i] += x[i] * row_dot(p, i, f);
  }

  const SparsityPattern& xddot_jac_x_pattern() const override {
    return dense_pattern_.get([&] { return SparsityPattern::dense(n_, n_); });
  }

  // The dense pattern lists the entries column by column, as the dense matrix.
  void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override {
    xddot_jac_x(t, x, p, values, ws);
  }

  void xddot_jac_x(double t, const double* x, const double* p, double* Ja,
                   Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    Workspace& w = workspace_or_local(*this, ws, local);
    double* J = w.scratch(Workspace::Scratch::dense_jacobian, n_ * n_);
    double* f = w.scratch(Workspace::Scratch::product, n_);
    jac_x(t, x, p, J);
    rhs(t, x, p, f);
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, n_, n_, 1.0, J, n_, J, n_, 0.0, Ja,
                 n_);
    // + diag(f) A + diag(A f)
    for (std::size_t k = 0; k < n_; ++k)
      for (std::size_t i = 0; i < n_; ++i) Ja[i + k * n_] += f[i] * a(p, i, k);
    for (std::size_t i = 0; i < n_; ++i) Ja[i + i * n_] += row_dot(p, i, f);
  }

  void xddot_jac_p(double t, const double* x, const double* p, double* Ap,
                   Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    Workspace& w = workspace_or_local(*this, ws, local);
    double* J = w.scratch(Workspace::Scratch::dense_jacobian, n_ * n_);
    double* f = w.scratch(Workspace::Scratch::product, n_);
    jac_x(t, x, p, J);
    rhs(t, x, p, f);
    for (std::size_t m = 0; m < n_; ++m) {
      const double* Jm = J + m * n_;
      double* col = Ap + m * n_;  // r_m
      for (std::size_t i = 0; i < n_; ++i) col[i] = x[m] * Jm[i];
      col[m] += f[m];
      for (std::size_t n = 0; n < n_; ++n) {
        double* cmn = Ap + (n_ + m * n_ + n) * n_;  // A_mn
        const double s = x[m] * x[n];
        for (std::size_t i = 0; i < n_; ++i) cmn[i] = s * Jm[i];
        cmn[m] += x[n] * f[m] + x[m] * f[n];
      }
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
  double a(const double* p, std::size_t i, std::size_t j) const { return p[n_ + i * n_ + j]; }

  // (J_p^T w)_{r_i} = x_i w_i, (J_p^T w)_{A_ij} = w_i x_i x_j, stored into
  // out or added to it (vjp_accumulate). Per vector and state i the A_i.
  // row is an axpy of x scaled by w_i x_i, contiguous in j.
  template <bool Add>
  void parameter_products(const double* x, std::size_t nw, const double* W, double* out) const {
    const std::size_t m = np();
    for (std::size_t k = 0; k < nw; ++k) {
      const double* w = W + k * n_;
      double* o = out + k * m;
      for (std::size_t i = 0; i < n_; ++i) {
        const double wx = w[i] * x[i];
        double* row = o + n_ + i * n_;
        if (Add) {
          o[i] += x[i] * w[i];
          for (std::size_t j = 0; j < n_; ++j) row[j] += wx * x[j];
        } else {
          o[i] = x[i] * w[i];
          for (std::size_t j = 0; j < n_; ++j) row[j] = wx * x[j];
        }
      }
    }
  }

  double growth(std::size_t i, const double* x, const double* p) const {
    double s = p[i];
    for (std::size_t j = 0; j < n_; ++j) s += a(p, i, j) * x[j];
    return s;
  }

  // (A v)_i, with A row-major in p.
  double row_dot(const double* p, std::size_t i, const double* v) const {
    const double* row = p + n_ + i * n_;
    double s = 0.0;
    for (std::size_t j = 0; j < n_; ++j) s += row[j] * v[j];
    return s;
  }

  std::size_t n_;
  OnceBuilt<SparsityPattern> dense_pattern_;
};

}  // namespace

std::shared_ptr<Model> make_glv(std::size_t n) { return std::make_shared<Glv>(n); }

}  // namespace odesens::builtin
