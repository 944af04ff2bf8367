// What NewtonMatrix asks of a linear-algebra backend: assemble M from the
// terms, factor it, solve with it. The KLU and dense LU implementations live
// in their .cpp files so that <klu.h> stays out of every header.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "integrate/implicit/newton_matrix.hpp"
#include "odesens/sparsity.hpp"

namespace odesens::integrate {

class NewtonBackend {
 public:
  virtual ~NewtonBackend() = default;

  // M = c0·I + Σ terms[k].coefficient · A_k (count terms, values non-null).
  virtual void assemble(double c0, const NewtonTerm* terms, std::size_t count) = 0;
  // Position of the first NaN/Inf entry of the assembled M; false when all are finite.
  virtual bool find_non_finite(std::size_t& row, std::size_t& col) const = 0;
  // Factors the assembled M, counting into stats; false when exactly singular.
  virtual bool factor(NewtonMatrixStats& stats) = 0;
  // M X = B (transposed: Mᵀ X = B) in place for nrhs columns of length n.
  virtual void solve(std::size_t nrhs, double* b, bool transposed) = 0;

  virtual std::size_t nnz_matrix() const = 0;
  virtual std::size_t nnz_factors() const = 0;
  // nnz(L + U) foreseen before any factorization (KLU: from its symbolic
  // analysis); n² for a dense LU.
  virtual double predicted_nnz_factors() const = 0;
};

// term_patterns[k] == nullptr marks a dense term; patterns are already validated.
std::unique_ptr<NewtonBackend> make_dense_lu_backend(
    std::size_t n, const std::vector<const SparsityPattern*>& term_patterns);
std::unique_ptr<NewtonBackend> make_klu_backend(
    std::size_t n, const std::vector<const SparsityPattern*>& term_patterns,
    double refactor_min_rcond);

}  // namespace odesens::integrate
