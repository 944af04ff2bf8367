// Default derivative services of Model, in terms of rhs and of each other.
#include "odesens/model.hpp"

#include <algorithm>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "model/finite_differences.hpp"
#include "odesens/status.hpp"

namespace odesens {

using Scratch = Workspace::Scratch;

void BatchedRhs::jvp_on_first_parameters(double, const double*, const double*, const double*,
                                         std::size_t, const double*, double*, Workspace*) const {
  throw Error(Status::unsupported,
              "jvp_on_first_parameters: the model has no comparisons of parameters alone");
}

std::unique_ptr<Workspace> Model::make_workspace(int) const {
  return std::make_unique<Workspace>(1, this);
}

const std::vector<std::pair<std::string, std::string>>& Model::source_details() const {
  static const std::vector<std::pair<std::string, std::string>> none;
  return none;
}

std::string ObservableSet::observable_switch(std::size_t) const { return {}; }

void EventSystem::vjp_on_branches(double, const double*, const double*, const double*,
                                  std::size_t, const double*, double*, double*,
                                  Workspace*) const {
  throw Error(Status::unsupported, "this model cannot differentiate f on given branches");
}

void ObservableSet::observable_gradients(double, const double*, const double*, std::size_t,
                                         const std::size_t*, double*, double*,
                                         Workspace*) const {
  throw Error(Status::unsupported, "this model cannot differentiate its observables");
}

void Model::initial_sensitivity(const double*, double* dx0_dp, Workspace*) const {
  std::fill(dx0_dp, dx0_dp + nx() * np(), 0.0);
}

void Model::jac_x(double t, const double* x, const double* p, double* J, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  detail::fd_jac_x_dense(*this, t, x, p, J, workspace_or_local(*this, ws, local));
}

void Model::jac_x_values(double t, const double* x, const double* p, double* values,
                         Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  const SparsityPattern* pattern = jac_x_pattern();
  const std::size_t n = nx();
  double* dense = w.scratch(Scratch::dense_jacobian, n * n);
  jac_x(t, x, p, dense, &w);
  if (!pattern) {
    std::copy(dense, dense + n * n, values);
    return;
  }
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
      values[q] = dense[pattern->row_idx[q] + j * n];
}

void Model::dfdt(double t, const double* x, const double* p, double* out, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  detail::fd_dfdt(*this, t, x, p, out, workspace_or_local(*this, ws, local));
}

void Model::jac_p(double t, const double* x, const double* p, double* Jp, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  detail::fd_jac_p(*this, t, x, p, Jp, workspace_or_local(*this, ws, local));
}

void Model::jac_p_values(double t, const double* x, const double* p, double* values,
                         Workspace* ws) const {
  const SparsityPattern* pattern = jac_p_pattern();
  const std::size_t n = nx(), m = np();
  if (!pattern) {
    jac_p(t, x, p, values, ws);
    return;
  }
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  double* dense = w.scratch(Scratch::dense_jacobian, n * m);
  jac_p(t, x, p, dense, &w);
  for (std::size_t j = 0; j < m; ++j)
    for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
      values[q] = dense[pattern->row_idx[q] + j * n];
}

void Model::jvp(double t, const double* x, const double* p, std::size_t nv, const double* V,
                double* out, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  const std::size_t n = nx();
  if (const SparsityPattern* pattern = jac_x_pattern()) {
    double* values = w.scratch(Scratch::jacobian_values, pattern->nnz());
    jac_x_values(t, x, p, values, &w);
    linalg::csc_multiply(*pattern, values, nv, V, out);
    return;
  }
  double* J = w.scratch(Scratch::product, n * n);
  jac_x(t, x, p, J, &w);
  linalg::gemm(linalg::Trans::no, linalg::Trans::no, n, nv, n, 1.0, J, n, V, n, 0.0, out, n);
}

void Model::vjp_x(double t, const double* x, const double* p, std::size_t nw, const double* W,
                  double* out, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  const std::size_t n = nx();
  if (const SparsityPattern* pattern = jac_x_pattern()) {
    double* values = w.scratch(Scratch::jacobian_values, pattern->nnz());
    jac_x_values(t, x, p, values, &w);
    linalg::csc_multiply_transposed(*pattern, values, nw, W, out);
    return;
  }
  double* J = w.scratch(Scratch::product, n * n);
  jac_x(t, x, p, J, &w);
  linalg::gemm(linalg::Trans::yes, linalg::Trans::no, n, nw, n, 1.0, J, n, W, n, 0.0, out, n);
}

void Model::vjp_p(double t, const double* x, const double* p, std::size_t nw, const double* W,
                  double* out, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  const std::size_t n = nx(), m = np();
  if (m == 0) return;
  double* Jp = w.scratch(Scratch::product, n * m);
  jac_p(t, x, p, Jp, &w);
  linalg::gemm(linalg::Trans::yes, linalg::Trans::no, m, nw, n, 1.0, Jp, n, W, n, 0.0, out, m);
}

void Model::vjp_accumulate(double t, const double* x, const double* p, std::size_t nw,
                           const double* W, double* out_x, double* out_p, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  vjp_x(t, x, p, nw, W, out_x, &w);
  const std::size_t m = np();
  if (!out_p || m == 0) return;
  // A slot of its own: vjp_p's defaults use product and the fd_* slots.
  double* JptW = w.scratch(Scratch::accumulate, m * nw);
  vjp_p(t, x, p, nw, W, JptW, &w);
  for (std::size_t k = 0; k < m * nw; ++k) out_p[k] += JptW[k];
}

void Model::vjp_p_accumulate_points(std::size_t n, const double* t, const double* X,
                                    const double* p, std::size_t nw, const double* W,
                                    double* out_p, Workspace* ws) const {
  std::unique_ptr<Workspace> local;
  Workspace& w = workspace_or_local(*this, ws, local);
  const std::size_t nx_ = nx(), m = np();
  if (m == 0) return;
  // A slot of its own: vjp_p's defaults use product and the fd_* slots.
  double* JptW = w.scratch(Scratch::point_products, m * nw);
  for (std::size_t q = 0; q < n; ++q) {
    vjp_p(t[q], X + q * nx_, p, nw, W + q * nx_ * nw, JptW, &w);
    for (std::size_t k = 0; k < m * nw; ++k) out_p[k] += JptW[k];
  }
}

void SecondDerivatives::xddot_jac_p_values(double t, const double* x, const double* p,
                                           double* values, Workspace* ws) const {
  if (xddot_jac_p_pattern())
    throw Error(Status::internal_error,
                "a model gives the pattern of d(xddot)/dp but not its values "
                "(SecondDerivatives::xddot_jac_p_values)");
  xddot_jac_p(t, x, p, values, ws);
}

}  // namespace odesens
