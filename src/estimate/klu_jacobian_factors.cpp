// J_x on the model's sparsity pattern (jac_x_values), factored by KLU: the
// pattern is analysed once, the values factored at each point.
#include <klu.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/number_text.hpp"
#include "estimate/jacobian_factors.hpp"
#include "odesens/status.hpp"

namespace odesens::estimate {
namespace {

class KluJacobianFactors final : public JacobianFactors {
 public:
  KluJacobianFactors(const Model& model, Workspace* ws, const SparsityPattern& pattern)
      : model_(model),
        ws_(ws),
        n_(model.nx()),
        col_ptr_(pattern.col_ptr.begin(), pattern.col_ptr.end()),
        row_idx_(pattern.row_idx.begin(), pattern.row_idx.end()),
        values_(pattern.nnz()) {
    klu_l_defaults(&common_);
    symbolic_ = klu_l_analyze(static_cast<SuiteSparse_long>(n_), col_ptr_.data(),
                              row_idx_.data(), &common_);
    if (!symbolic_) throw Error(Status::internal_error, "KLU could not analyse J_x's pattern");
  }
  ~KluJacobianFactors() override {
    if (numeric_) klu_l_free_numeric(&numeric_, &common_);
    klu_l_free_symbolic(&symbolic_, &common_);
  }
  KluJacobianFactors(const KluJacobianFactors&) = delete;
  KluJacobianFactors& operator=(const KluJacobianFactors&) = delete;

  bool factor(double t, const double* x, const double* p) override {
    model_.jac_x_values(t, x, p, values_.data(), ws_);
    if (!std::all_of(values_.begin(), values_.end(), [](double v) { return std::isfinite(v); })) {
      why_not_ = "J_x has NaN or Inf";
      return false;
    }
    if (numeric_) klu_l_free_numeric(&numeric_, &common_);
    numeric_ = klu_l_factor(col_ptr_.data(), row_idx_.data(), values_.data(), symbolic_, &common_);
    if (!numeric_) {
      why_not_ = common_.status == KLU_SINGULAR
                     ? "J_x singular (a zero pivot in KLU; conservation laws?)"
                     : "KLU failed to factor J_x (status " + std::to_string(common_.status) + ")";
      return false;
    }
    // rcond: KLU's min |u_ii| / max |u_ii|, the dense pivot test's ratio.
    klu_l_rcond(symbolic_, numeric_, &common_);
    if (!(common_.rcond > singular_pivot_ratio)) {
      why_not_ = "J_x singular (KLU's rcond " + number_text(common_.rcond) +
                 "; conservation laws?)";
      return false;
    }
    return true;
  }

  void solve(std::size_t nrhs, double* b) override {
    klu_l_solve(symbolic_, numeric_, static_cast<SuiteSparse_long>(n_),
                static_cast<SuiteSparse_long>(nrhs), b, &common_);
  }

  const char* kind() const override { return "KLU"; }

 private:
  const Model& model_;
  Workspace* ws_;
  const std::size_t n_;
  std::vector<SuiteSparse_long> col_ptr_, row_idx_;
  std::vector<double> values_;
  klu_l_common common_{};
  klu_l_symbolic* symbolic_ = nullptr;
  klu_l_numeric* numeric_ = nullptr;
};

}  // namespace

std::unique_ptr<JacobianFactors> make_jacobian_factors(const Model& model, Workspace* ws,
                                                       std::size_t sparse_threshold) {
  const SparsityPattern* pattern = model.jac_x_pattern();
  if (pattern && model.nx() >= sparse_threshold)
    return std::make_unique<KluJacobianFactors>(model, ws, *pattern);
  return make_dense_jacobian_factors(model, ws);
}

}  // namespace odesens::estimate
