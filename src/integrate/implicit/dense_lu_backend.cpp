// NewtonMatrix backend: M as an n×n column-major matrix, factored in place by
// LAPACK dgetrf (linalg::lu_factor) and solved by dgetrs with all right-hand
// sides in one call.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "integrate/implicit/newton_backend.hpp"
#include "linalg/dense.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

class DenseLuBackend final : public NewtonBackend {
 public:
  DenseLuBackend(std::size_t n, const std::vector<const SparsityPattern*>& term_patterns)
      : n_(n), lu_(n * n), pivots_(n) {
    for (const SparsityPattern* p : term_patterns)
      patterns_.push_back(p ? std::optional<SparsityPattern>(*p) : std::nullopt);
  }

  void assemble(double c0, const NewtonTerm* terms, std::size_t count) override {
    std::fill(lu_.begin(), lu_.end(), 0.0);
    for (std::size_t i = 0; i < n_; ++i) lu_[i + i * n_] = c0;
    for (std::size_t k = 0; k < count; ++k) {
      const double c = terms[k].coefficient;
      const double* v = terms[k].values;
      if (patterns_[k]) {
        const SparsityPattern& p = *patterns_[k];
        for (std::size_t j = 0; j < n_; ++j)
          for (auto q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q)
            lu_[static_cast<std::size_t>(p.row_idx[q]) + j * n_] += c * v[q];
      } else {
        for (std::size_t q = 0; q < n_ * n_; ++q) lu_[q] += c * v[q];
      }
    }
  }

  bool find_non_finite(std::size_t& row, std::size_t& col) const override {
    for (std::size_t q = 0; q < n_ * n_; ++q) {
      if (!std::isfinite(lu_[q])) {
        row = q % n_;
        col = q / n_;
        return true;
      }
    }
    return false;
  }

  bool factor(NewtonMatrixStats& stats) override {
    ++stats.factorizations;
    return linalg::lu_factor(n_, lu_.data(), pivots_.data());
  }

  void solve(std::size_t nrhs, double* b, bool transposed) override {
    if (transposed)
      linalg::lu_solve_transposed(n_, lu_.data(), pivots_.data(), nrhs, b);
    else
      linalg::lu_solve(n_, lu_.data(), pivots_.data(), nrhs, b);
  }

  std::size_t nnz_matrix() const override { return n_ * n_; }
  std::size_t nnz_factors() const override { return n_ * n_; }
  double predicted_nnz_factors() const override {
    return static_cast<double>(n_) * static_cast<double>(n_);
  }

 private:
  std::size_t n_;
  std::vector<std::optional<SparsityPattern>> patterns_;  // nullopt: dense term
  std::vector<double> lu_;  // M after assemble, its LU factors after factor
  std::vector<int> pivots_;
};

}  // namespace

std::unique_ptr<NewtonBackend> make_dense_lu_backend(
    std::size_t n, const std::vector<const SparsityPattern*>& term_patterns) {
  return std::make_unique<DenseLuBackend>(n, term_patterns);
}

}  // namespace odesens::integrate
