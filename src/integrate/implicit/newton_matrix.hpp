// The Newton-iteration matrix of implicit methods,
//
//     M = c0·I + c1·A1 + c2·A2 + c3·A3        (up to three terms),
//
// e.g. odeSD's two-derivative rule M = I − h/2·J + h²/12·J_a, or the
// Rosenbrock GRK4A matrix M = I − hγ·J. Each term is dense (n×n,
// column-major) or sparse (values in the order of a SparsityPattern fixed at
// construction). One object is one factorization workspace of one solve:
//
//     NewtonMatrix m(n, {&jac_pattern, &jac_a_pattern});
//     m.set(1.0, {{-h / 2, J, j_version}, {h * h / 12, Ja, ja_version}});
//     m.factor_or_throw(t);        // or: if (!m.factor()) reduce h and retry
//     m.solve(nrhs, B);            // M X = B in place, one multi-RHS call
//
// Backends: dense LAPACK LU (dgetrf/dgetrs) or SuiteSparse KLU. KLU merges
// the union pattern I ∪ P(A1) ∪ ... once at construction, runs klu_analyze
// once, klu_factor for the first numeric factorization and klu_refactor
// afterwards (see NewtonMatrixOptions::refactor_min_rcond for the fallback).
//
// Reuse: set() compares the coefficients and the callers' value versions with
// those of the matrix it holds; when nothing changed it does nothing and the
// next factor() keeps the existing factorization.
//
// Allocation: everything is sized in the constructor; set, factor and solve
// allocate nothing, except KLU's own allocation of a fresh numeric
// factorization (the first factor(), and the fallback after collapsed pivots
// or a singular matrix). klu_refactor and the solves do not allocate.
//
// Failure behaviour:
//   - exactly singular M (a zero pivot: dgetrf info > 0, KLU status
//     KLU_SINGULAR): factor() returns false, factor_or_throw(t) throws
//     Error(solver_failed, "... singular ... at t=..."); implicit methods
//     usually react by reducing h, so this is not an exception by default.
//   - NaN or Inf in a coefficient or in the assembled M: set() throws
//     Error(not_finite) naming the entry.
//   - misuse (wrong number of terms, null values, solve without a successful
//     factor): Error(invalid_argument) or Error(internal_error).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "odesens/sparsity.hpp"

namespace odesens::integrate {

enum class NewtonBackendKind {
  dense_lu,  // LAPACK dgetrf/dgetrs on an n×n matrix
  klu,       // SuiteSparse KLU on the union pattern
  automatic  // klu when n >= sparse_threshold, every term is sparse, and the union and
             // the factors klu_analyze foresees are sparse enough
};

struct NewtonMatrixOptions {
  NewtonBackendKind backend = NewtonBackendKind::automatic;
  // automatic: the smallest n for which KLU is chosen. Below it the O(n³)
  // dense LU is cheaper than KLU's bookkeeping.
  std::size_t sparse_threshold = 100;
  // automatic: the largest nnz(M)/n² for which KLU is chosen.
  double max_sparse_density = 0.2;
  // automatic: the largest nnz(L+U)/n² that klu_analyze foresees for which
  // KLU is kept; above it the dense LU is used. A sparse M can still fill
  // in. odeSD's I − h/2 J + h²/12 J_a, states only, rtol 1e-6: network:1000
  // (M 2.4 % non-zeros, factors 47 % foreseen) KLU 10.2 s, dense 3.9 s;
  // network:300 (56 %) KLU 0.25 s, dense 0.19 s; heat2d:20 (9.5 %) KLU
  // 0.02 s, dense 0.13 s.
  double max_factor_density = 0.25;
  // KLU: after klu_refactor (which reuses the old pivot order), a fresh
  // klu_factor with new pivoting is done when klu_rcond — the cheap estimate
  // min|U_ii| / max|U_ii| — falls below this. Same rule and threshold
  // (unit roundoff^(2/3)) as SUNDIALS' SUNLinSol_KLU.
  double refactor_min_rcond = 3.67e-11;
};

// One term c·A of M. `values` holds n² doubles (column-major) for a dense
// term, or pattern.nnz() doubles in pattern order for a sparse one.
// `version` is the caller's promise: the same version means the same values
// (e.g. the count of Jacobian evaluations). always_changed disables reuse.
struct NewtonTerm {
  static constexpr std::uint64_t always_changed = 0;
  double coefficient = 0.0;
  const double* values = nullptr;
  std::uint64_t version = always_changed;
};

struct NewtonMatrixStats {
  std::size_t assemblies = 0;          // set() calls that rebuilt M
  std::size_t symbolic_analyses = 0;   // klu_analyze calls: 1 for KLU, 0 for dense
  std::size_t factorizations = 0;      // fresh numeric factorizations (dgetrf | klu_factor)
  std::size_t refactorizations = 0;    // klu_refactor calls (including those that fell back)
  std::size_t refactor_fallbacks = 0;  // klu_refactor whose pivots collapsed → fresh klu_factor
  std::size_t singular = 0;            // factor() calls that found M singular
  std::size_t solves = 0;              // solve and solve_transposed calls
  std::size_t solved_columns = 0;      // right-hand sides over all those calls
  std::size_t nnz_matrix = 0;          // nnz(M): n² dense, the union pattern for KLU
  std::size_t nnz_factors = 0;         // nnz(L+U) of the last factorization (n² dense)
};

class NewtonBackend;

class NewtonMatrix {
 public:
  static constexpr std::size_t max_terms = 3;

  // term_patterns[k] is the pattern of A_k (n×n), or nullptr for a dense
  // term. Patterns are copied; the caller's may go away. Throws
  // Error(invalid_argument) for n = 0, more than max_terms terms or a
  // pattern that is invalid or not n×n.
  NewtonMatrix(std::size_t n, const std::vector<const SparsityPattern*>& term_patterns,
               const NewtonMatrixOptions& options = {});
  ~NewtonMatrix();
  NewtonMatrix(NewtonMatrix&&) noexcept;
  NewtonMatrix& operator=(NewtonMatrix&&) noexcept;
  NewtonMatrix(const NewtonMatrix&) = delete;
  NewtonMatrix& operator=(const NewtonMatrix&) = delete;

  // Assembles M = c0·I + Σ terms[k].coefficient · A_k, one term per pattern
  // given at construction, in that order. Returns false, doing nothing, when
  // c0, every coefficient and every version equal those of the matrix already
  // held (and no version is always_changed); true when M was rebuilt and needs
  // factor(). Throws Error(not_finite) for NaN/Inf (then M holds nothing).
  bool set(double c0, std::initializer_list<NewtonTerm> terms);

  // Factors M unless the current M is already factored. Returns false when M
  // is exactly singular (a zero pivot); set() new coefficients to retry.
  bool factor();
  // factor(), throwing Error(solver_failed, "... singular ... at t=<t>") instead of returning false.
  void factor_or_throw(double t);

  // Solves M X = B (or Mᵀ X = B) in place; b is n × nrhs, column-major.
  // Requires a successful factor() since the last set() that changed M.
  void solve(std::size_t nrhs, double* b);
  void solve_transposed(std::size_t nrhs, double* b);

  std::size_t size() const { return n_; }
  std::size_t term_count() const { return term_count_; }
  NewtonBackendKind backend() const { return kind_; }  // never automatic
  const NewtonMatrixStats& stats() const { return stats_; }

 private:
  enum class State { empty, assembled, factored, singular };

  bool same_as_held(double c0, std::initializer_list<NewtonTerm> terms) const;
  void require_factored(const char* caller) const;

  std::size_t n_ = 0;
  std::size_t term_count_ = 0;
  NewtonBackendKind kind_ = NewtonBackendKind::dense_lu;
  std::unique_ptr<NewtonBackend> backend_;
  State state_ = State::empty;
  double held_c0_ = 0.0;
  std::array<NewtonTerm, max_terms> held_terms_{};
  std::array<bool, max_terms> term_empty_{};  // a pattern without entries (values may be null)
  NewtonMatrixStats stats_;
};

}  // namespace odesens::integrate
