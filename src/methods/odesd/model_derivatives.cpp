#include "methods/odesd/model_derivatives.hpp"

#include <algorithm>
#include <cmath>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "odesens/status.hpp"

namespace odesens::odesd {

namespace {
const SecondDerivatives& second_derivatives_of(const Model& model) {
  const SecondDerivatives* sd = model.second_derivatives();
  if (!sd)
    throw Error(Status::unsupported, "method 'odesd' needs the second derivatives of model " +
                                         model.name());
  return *sd;
}
}  // namespace

ModelDerivatives::ModelDerivatives(const Model& model, const double* p, Workspace* ws,
                                   bool sparse, bool with_parameters)
    : model_(model),
      sd_(second_derivatives_of(model)),
      p_(p),
      ws_(ws),
      n_(model.nx()),
      np_(model.np()),
      sparse_(sparse),
      with_parameters_(with_parameters) {
  if (sparse_) {
    const SparsityPattern* jp = model.jac_x_pattern();
    if (!jp)
      throw Error(Status::unsupported, "linear_solver=klu needs the sparsity pattern of J_x, "
                                       "which model " + model.name() + " does not give");
    j_pattern_ = *jp;
    ja_pattern_ = sd_.xddot_jac_x_pattern();
    j_.assign(j_pattern_.nnz(), 0.0);
    ja_.assign(ja_pattern_.nnz(), 0.0);
    j_diagonal_at_.assign(n_, -1);
    for (std::size_t col = 0; col < n_; ++col)
      for (auto q = j_pattern_.col_ptr[col]; q < j_pattern_.col_ptr[col + 1]; ++q)
        if (static_cast<std::size_t>(j_pattern_.row_idx[q]) == col) j_diagonal_at_[col] = q;
  } else {
    j_.assign(n_ * n_, 0.0);
    ja_.assign(n_ * n_, 0.0);
  }
  if (with_parameters_) {
    const SparsityPattern* fp = model.jac_p_pattern();
    const SparsityPattern* ap = sd_.xddot_jac_p_pattern();
    sparse_parameters_ = sparse_ && fp && ap;
    if (sparse_parameters_) {
      fp_pattern_ = *fp;
      ap_pattern_ = *ap;
      fp_.assign(fp_pattern_.nnz(), 0.0);
      ap_.assign(ap_pattern_.nnz(), 0.0);
    } else {
      fp_.assign(n_ * np_, 0.0);
      ap_.assign(n_ * np_, 0.0);
    }
  }
}

void ModelDerivatives::f(double t, const double* x, double* out) {
  ++counts_.f;
  model_.rhs(t, x, p_, out, ws_);
}

void ModelDerivatives::a(double t, const double* x, double* out) {
  ++counts_.a;
  sd_.xddot(t, x, p_, out, ws_);
}

void ModelDerivatives::a_dt(double t, const double* x, double* out) {
  sd_.xddot_dt(t, x, p_, out, ws_);
}

void ModelDerivatives::evaluate_jacobians(double t, const double* x) {
  if (sparse_) {
    model_.jac_x_values(t, x, p_, j_.data(), ws_);
    sd_.xddot_jac_x_values(t, x, p_, ja_.data(), ws_);
  } else {
    model_.jac_x(t, x, p_, j_.data(), ws_);
    sd_.xddot_jac_x(t, x, p_, ja_.data(), ws_);
  }
  if (with_parameters_ && np_ > 0) {
    if (sparse_parameters_) {
      model_.jac_p_values(t, x, p_, fp_.data(), ws_);
      sd_.xddot_jac_p_values(t, x, p_, ap_.data(), ws_);
    } else {
      model_.jac_p(t, x, p_, fp_.data(), ws_);
      sd_.xddot_jac_p(t, x, p_, ap_.data(), ws_);
    }
    ++counts_.parameter_jacobians;
  }
  ++counts_.jacobian_sets;
  ++version_;
  jacobian_t_ = t;
}

void ModelDerivatives::j_diagonal(double* out) const {
  if (!sparse_) {
    for (std::size_t i = 0; i < n_; ++i) out[i] = j_[i + i * n_];
    return;
  }
  for (std::size_t i = 0; i < n_; ++i)
    out[i] = j_diagonal_at_[i] < 0 ? 0.0 : j_[static_cast<std::size_t>(j_diagonal_at_[i])];
}

namespace {
// out (n x cols, dense) += c V, V dense (pattern null) or on the pattern.
void add_scaled(const SparsityPattern* pattern, std::size_t n, std::size_t cols, double c,
                const double* v, double* out) {
  if (!pattern) {
    for (std::size_t q = 0; q < n * cols; ++q) out[q] += c * v[q];
    return;
  }
  for (std::size_t j = 0; j < cols; ++j)
    for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
      out[static_cast<std::size_t>(pattern->row_idx[q]) + j * n] += c * v[q];
}

}  // namespace

void ModelDerivatives::add_fp(double c, double* out) const {
  add_scaled(sparse_parameters_ ? &fp_pattern_ : nullptr, n_, np_, c, fp_.data(), out);
}

void ModelDerivatives::add_ap(double c, double* out) const {
  add_scaled(sparse_parameters_ ? &ap_pattern_ : nullptr, n_, np_, c, ap_.data(), out);
}

std::size_t ModelDerivatives::nnz_j() const { return sparse_ ? j_pattern_.nnz() : n_ * n_; }
std::size_t ModelDerivatives::nnz_ja() const { return sparse_ ? ja_pattern_.nnz() : n_ * n_; }

void ModelDerivatives::multiply_j(std::size_t nv, const double* V, double* out) const {
  if (nv == 0) return;
  if (sparse_)
    linalg::csc_multiply(j_pattern_, j_.data(), nv, V, out);
  else
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, nv, n_, 1.0, j_.data(), n_, V, n_,
                 0.0, out, n_);
}

void ModelDerivatives::multiply_ja(std::size_t nv, const double* V, double* out) const {
  if (nv == 0) return;
  if (sparse_)
    linalg::csc_multiply(ja_pattern_, ja_.data(), nv, V, out);
  else
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, n_, nv, n_, 1.0, ja_.data(), n_, V, n_,
                 0.0, out, n_);
}

}  // namespace odesens::odesd
