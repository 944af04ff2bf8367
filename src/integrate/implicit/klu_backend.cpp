// NewtonMatrix backend: M on the union pattern I ∪ P(A_1) ∪ ..., factored by
// SuiteSparse KLU (the 64-bit-index klu_l_* interface, matching
// SparsityPattern's int64_t indices).
//
// Life of the factorization:
//   constructor   merge the union pattern, klu_analyze once (ordering, BTF)
//   first factor  klu_factor (allocates the numeric object: KLU's own malloc)
//   later factors klu_refactor with the same pivot order (no allocation);
//                 if it fails or klu_rcond < refactor_min_rcond, the pivots
//                 have collapsed for the new values: free and klu_factor anew
//   singular      the numeric object is freed, the next factor is fresh
//   destructor    free numeric, symbolic
#include <klu.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "integrate/implicit/newton_backend.hpp"
#include "integrate/implicit/union_pattern.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

static_assert(std::is_same_v<SuiteSparse_long, std::int64_t>,
              "klu_l_* is called with SparsityPattern's int64_t arrays");

class KluBackend final : public NewtonBackend {
 public:
  KluBackend(std::size_t n, const std::vector<const SparsityPattern*>& term_patterns,
             double refactor_min_rcond)
      : n_(n), refactor_min_rcond_(refactor_min_rcond) {
    // Dense terms take part with a full pattern (correct, just not sparse).
    std::vector<SparsityPattern> full_patterns;
    full_patterns.reserve(term_patterns.size());
    std::vector<const SparsityPattern*> merged_inputs;
    for (const SparsityPattern* p : term_patterns) {
      if (!p) {
        full_patterns.push_back(SparsityPattern::dense(n, n));
        p = &full_patterns.back();
      }
      merged_inputs.push_back(p);
    }
    union_ = merge_identity_and_terms(n, merged_inputs);
    values_.assign(union_.pattern.nnz(), 0.0);

    klu_l_defaults(&common_);
    symbolic_ = klu_l_analyze(static_cast<SuiteSparse_long>(n), col_ptr(), row_idx(), &common_);
    if (!symbolic_)
      throw Error(Status::internal_error,
                  "klu_analyze failed with status " + std::to_string(common_.status));
  }

  ~KluBackend() override {
    if (numeric_) klu_l_free_numeric(&numeric_, &common_);
    if (symbolic_) klu_l_free_symbolic(&symbolic_, &common_);
  }

  KluBackend(const KluBackend&) = delete;
  KluBackend& operator=(const KluBackend&) = delete;

  void assemble(double c0, const NewtonTerm* terms, std::size_t count) override {
    std::fill(values_.begin(), values_.end(), 0.0);
    for (std::int64_t d : union_.diagonal) values_[d] = c0;
    for (std::size_t k = 0; k < count; ++k) {
      const double c = terms[k].coefficient;
      const double* v = terms[k].values;
      const std::vector<std::int64_t>& to = union_.term_positions[k];
      for (std::size_t q = 0; q < to.size(); ++q) values_[to[q]] += c * v[q];
    }
  }

  bool find_non_finite(std::size_t& row, std::size_t& col) const override {
    const SparsityPattern& p = union_.pattern;
    for (std::size_t j = 0; j < n_; ++j) {
      for (auto q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) {
        if (!std::isfinite(values_[q])) {
          row = static_cast<std::size_t>(p.row_idx[q]);
          col = j;
          return true;
        }
      }
    }
    return false;
  }

  bool factor(NewtonMatrixStats& stats) override {
    if (numeric_) {
      ++stats.refactorizations;
      if (refactor_kept()) return true;
      ++stats.refactor_fallbacks;
      klu_l_free_numeric(&numeric_, &common_);
    }
    return fresh_factor(stats);
  }

  void solve(std::size_t nrhs, double* b, bool transposed) override {
    const auto ld = static_cast<SuiteSparse_long>(n_);
    const auto nr = static_cast<SuiteSparse_long>(nrhs);
    const SuiteSparse_long ok = transposed
                                    ? klu_l_tsolve(symbolic_, numeric_, ld, nr, b, &common_)
                                    : klu_l_solve(symbolic_, numeric_, ld, nr, b, &common_);
    if (!ok)
      throw Error(Status::internal_error,
                  std::string(transposed ? "klu_tsolve" : "klu_solve") + " failed with status " +
                      std::to_string(common_.status));
  }

  std::size_t nnz_matrix() const override { return union_.pattern.nnz(); }

  // klu_analyze's estimate for its fill-reducing order, counted as nnz_factors.
  double predicted_nnz_factors() const override {
    return symbolic_->lnz + symbolic_->unz - static_cast<double>(n_) +
           static_cast<double>(symbolic_->nzoff);
  }

  // nnz(L + U) as stored: KLU counts the unit diagonal of L in lnz and the
  // diagonal of U in unz, so one n is subtracted; entries in the off-diagonal
  // blocks of the block-triangular form (nzoff) are stored apart and added.
  std::size_t nnz_factors() const override {
    if (!numeric_) return 0;
    return static_cast<std::size_t>(numeric_->lnz + numeric_->unz - numeric_->n +
                                    numeric_->nzoff);
  }

 private:
  SuiteSparse_long* col_ptr() { return union_.pattern.col_ptr.data(); }
  SuiteSparse_long* row_idx() { return union_.pattern.row_idx.data(); }

  // klu_refactor on the new values with the old pivots; false when a pivot
  // became zero or klu_rcond says the old pivot order no longer fits.
  bool refactor_kept() {
    if (!klu_l_refactor(col_ptr(), row_idx(), values_.data(), symbolic_, numeric_, &common_) ||
        common_.status != KLU_OK)
      return false;
    if (!klu_l_rcond(symbolic_, numeric_, &common_)) return false;
    return std::isfinite(common_.rcond) && common_.rcond >= refactor_min_rcond_;
  }

  bool fresh_factor(NewtonMatrixStats& stats) {
    ++stats.factorizations;
    numeric_ = klu_l_factor(col_ptr(), row_idx(), values_.data(), symbolic_, &common_);
    if (numeric_ && common_.status == KLU_OK) return true;
    const auto status = common_.status;
    if (numeric_) klu_l_free_numeric(&numeric_, &common_);
    if (status == KLU_SINGULAR) return false;
    throw Error(Status::internal_error, "klu_factor failed with status " + std::to_string(status) +
                                            (status == KLU_OUT_OF_MEMORY ? " (out of memory)" : ""));
  }

  std::size_t n_;
  double refactor_min_rcond_;
  UnionPattern union_;
  std::vector<double> values_;  // M on union_.pattern; KLU never writes it
  klu_l_common common_{};
  klu_l_symbolic* symbolic_ = nullptr;
  klu_l_numeric* numeric_ = nullptr;
};

}  // namespace

std::unique_ptr<NewtonBackend> make_klu_backend(
    std::size_t n, const std::vector<const SparsityPattern*>& term_patterns,
    double refactor_min_rcond) {
  return std::make_unique<KluBackend>(n, term_patterns, refactor_min_rcond);
}

}  // namespace odesens::integrate
