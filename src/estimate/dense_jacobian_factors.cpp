// J_x by the model's dense jac_x, factored by LAPACK (linalg::lu_factor).
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/number_text.hpp"
#include "estimate/jacobian_factors.hpp"
#include "linalg/dense.hpp"

namespace odesens::estimate {
namespace {

class DenseJacobianFactors final : public JacobianFactors {
 public:
  DenseJacobianFactors(const Model& model, Workspace* ws)
      : model_(model), ws_(ws), n_(model.nx()), lu_(n_ * n_), pivots_(n_), row_scale_(n_) {}

  bool factor(double t, const double* x, const double* p) override {
    model_.jac_x(t, x, p, lu_.data(), ws_);
    for (std::size_t l = 0; l < laws_.count(); ++l)
      for (std::size_t j = 0; j < n_; ++j) lu_[laws_.rows[l] + j * n_] = laws_.w[l * n_ + j];
    if (!std::all_of(lu_.begin(), lu_.end(), [](double v) { return std::isfinite(v); })) {
      why_not_ = "J_x has NaN or Inf";
      return false;
    }
    if (!scale_rows()) {
      why_not_ = "J_x singular (a row of zeros; conservation laws?)";
      return false;
    }
    if (!linalg::lu_factor(n_, lu_.data(), pivots_.data())) {
      why_not_ = "J_x singular (a zero pivot; conservation laws?)";
      return false;
    }
    double smallest = INFINITY, largest = 0.0;
    for (std::size_t i = 0; i < n_; ++i) {
      const double u = std::fabs(lu_[i + i * n_]);
      smallest = std::min(smallest, u);
      largest = std::max(largest, u);
    }
    if (smallest <= singular_pivot_ratio * largest) {
      why_not_ = "J_x singular (pivots from " + number_text(smallest) + " to " +
                 number_text(largest) + "; conservation laws?)";
      return false;
    }
    return true;
  }

  void solve(std::size_t nrhs, double* b) override {
    for (std::size_t k = 0; k < nrhs; ++k)
      for (std::size_t i = 0; i < n_; ++i) b[i + k * n_] *= row_scale_[i];
    linalg::lu_solve(n_, lu_.data(), pivots_.data(), nrhs, b);
  }

  const char* kind() const override { return "dense LU"; }

  bool can_constrain() const override { return true; }
  void constrain(const ConservationLaws& laws) override { laws_ = laws; }

 private:
  // Divides each row of J_x by its largest magnitude (as KLU scales by
  // default), so that the pivot test judges singularity, not the spread of
  // the model's rates between rows; false for a row of zeros.
  bool scale_rows() {
    for (std::size_t i = 0; i < n_; ++i) {
      double m = 0.0;
      for (std::size_t j = 0; j < n_; ++j) m = std::max(m, std::fabs(lu_[i + j * n_]));
      if (!(m > 0.0)) return false;
      row_scale_[i] = 1.0 / m;
      for (std::size_t j = 0; j < n_; ++j) lu_[i + j * n_] *= row_scale_[i];
    }
    return true;
  }

  const Model& model_;
  Workspace* ws_;
  const std::size_t n_;
  std::vector<double> lu_;
  std::vector<int> pivots_;
  std::vector<double> row_scale_;
  ConservationLaws laws_;  // none unless constrain() gave some
};

}  // namespace

std::unique_ptr<JacobianFactors> make_dense_jacobian_factors(const Model& model, Workspace* ws) {
  return std::make_unique<DenseJacobianFactors>(model, ws);
}

}  // namespace odesens::estimate
