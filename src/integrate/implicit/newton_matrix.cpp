#include "integrate/implicit/newton_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "integrate/implicit/newton_backend.hpp"
#include "integrate/implicit/union_pattern.hpp"
#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

void check_patterns(std::size_t n, const std::vector<const SparsityPattern*>& term_patterns) {
  if (n == 0) throw Error(Status::invalid_argument, "NewtonMatrix: size n must be positive");
  if (term_patterns.size() > NewtonMatrix::max_terms)
    throw Error(Status::invalid_argument,
                "NewtonMatrix: " + std::to_string(term_patterns.size()) +
                    " terms given, at most " + std::to_string(NewtonMatrix::max_terms));
  for (std::size_t k = 0; k < term_patterns.size(); ++k) {
    const SparsityPattern* p = term_patterns[k];
    if (!p) continue;
    if (p->rows != n || p->cols != n)
      throw Error(Status::invalid_argument,
                  "NewtonMatrix: pattern of term " + std::to_string(k + 1) + " is " +
                      std::to_string(p->rows) + "x" + std::to_string(p->cols) + ", expected " +
                      std::to_string(n) + "x" + std::to_string(n));
    p->validate();
  }
}

// automatic: KLU pays off only for large, sparse M with every term sparse.
NewtonBackendKind resolve_backend(std::size_t n,
                                  const std::vector<const SparsityPattern*>& term_patterns,
                                  const NewtonMatrixOptions& options) {
  if (options.backend != NewtonBackendKind::automatic) return options.backend;
  if (n < options.sparse_threshold) return NewtonBackendKind::dense_lu;
  for (const SparsityPattern* p : term_patterns)
    if (!p) return NewtonBackendKind::dense_lu;
  const double nnz = static_cast<double>(merge_identity_and_terms(n, term_patterns).pattern.nnz());
  const double density = nnz / (static_cast<double>(n) * static_cast<double>(n));
  return density <= options.max_sparse_density ? NewtonBackendKind::klu
                                               : NewtonBackendKind::dense_lu;
}

}  // namespace

NewtonMatrix::NewtonMatrix(std::size_t n, const std::vector<const SparsityPattern*>& term_patterns,
                           const NewtonMatrixOptions& options)
    : n_(n), term_count_(term_patterns.size()) {
  check_patterns(n, term_patterns);
  for (std::size_t k = 0; k < term_patterns.size(); ++k)
    term_empty_[k] = term_patterns[k] && term_patterns[k]->nnz() == 0;
  kind_ = resolve_backend(n, term_patterns, options);
  backend_ = kind_ == NewtonBackendKind::klu
                 ? make_klu_backend(n, term_patterns, options.refactor_min_rcond)
                 : make_dense_lu_backend(n, term_patterns);
  const double n2 = static_cast<double>(n) * static_cast<double>(n);
  if (options.backend == NewtonBackendKind::automatic && kind_ == NewtonBackendKind::klu &&
      backend_->predicted_nnz_factors() > options.max_factor_density * n2) {
    kind_ = NewtonBackendKind::dense_lu;
    backend_ = make_dense_lu_backend(n, term_patterns);
  }
  if (kind_ == NewtonBackendKind::klu) stats_.symbolic_analyses = 1;
  stats_.nnz_matrix = backend_->nnz_matrix();
}

NewtonMatrix::~NewtonMatrix() = default;
NewtonMatrix::NewtonMatrix(NewtonMatrix&&) noexcept = default;
NewtonMatrix& NewtonMatrix::operator=(NewtonMatrix&&) noexcept = default;

bool NewtonMatrix::same_as_held(double c0, std::initializer_list<NewtonTerm> terms) const {
  if (state_ == State::empty || c0 != held_c0_) return false;
  std::size_t k = 0;
  for (const NewtonTerm& t : terms) {
    const NewtonTerm& held = held_terms_[k++];
    if (t.version == NewtonTerm::always_changed || t.version != held.version ||
        t.coefficient != held.coefficient)
      return false;
  }
  return true;
}

bool NewtonMatrix::set(double c0, std::initializer_list<NewtonTerm> terms) {
  if (terms.size() != term_count_)
    throw Error(Status::invalid_argument,
                "NewtonMatrix::set: " + std::to_string(terms.size()) + " terms given, " +
                    std::to_string(term_count_) + " declared at construction");
  if (same_as_held(c0, terms)) return false;

  state_ = State::empty;  // until M is assembled and checked
  if (!std::isfinite(c0))
    throw Error(Status::not_finite, "NewtonMatrix::set: coefficient c0 = " + number_text(c0));
  std::size_t k = 0;
  for (const NewtonTerm& t : terms) {
    ++k;
    if (!t.values && !term_empty_[k - 1])
      throw Error(Status::invalid_argument,
                  "NewtonMatrix::set: term " + std::to_string(k) + " has no values");
    if (!std::isfinite(t.coefficient))
      throw Error(Status::not_finite, "NewtonMatrix::set: coefficient of term " +
                                          std::to_string(k) + " = " + number_text(t.coefficient));
  }

  backend_->assemble(c0, terms.begin(), terms.size());
  ++stats_.assemblies;
  std::size_t row = 0, col = 0;
  if (backend_->find_non_finite(row, col))
    throw Error(Status::not_finite, "NewtonMatrix: entry (" + std::to_string(row) + ", " +
                                        std::to_string(col) +
                                        ") is not finite (NaN or Inf in a Jacobian term)");

  held_c0_ = c0;
  std::copy(terms.begin(), terms.end(), held_terms_.begin());
  state_ = State::assembled;
  return true;
}

bool NewtonMatrix::factor() {
  switch (state_) {
    case State::empty:
      throw Error(Status::internal_error, "NewtonMatrix::factor called before a successful set");
    case State::factored:
      return true;
    case State::singular:
      return false;
    case State::assembled:
      break;
  }
  const bool ok = backend_->factor(stats_);
  state_ = ok ? State::factored : State::singular;
  if (!ok) ++stats_.singular;
  stats_.nnz_factors = ok ? backend_->nnz_factors() : 0;
  return ok;
}

void NewtonMatrix::factor_or_throw(double t) {
  if (factor()) return;
  throw Error(Status::solver_failed,
              "the Newton matrix c0*I + sum c_k*A_k is singular at t=" + number_text(t) + " (c0 = " +
                  number_text(held_c0_) + ", n = " + std::to_string(n_) + ")");
}

void NewtonMatrix::require_factored(const char* caller) const {
  if (state_ != State::factored)
    throw Error(Status::internal_error,
                std::string("NewtonMatrix::") + caller +
                    " called without a successful factor() of the current matrix");
}

void NewtonMatrix::solve(std::size_t nrhs, double* b) {
  require_factored("solve");
  if (nrhs == 0) return;
  backend_->solve(nrhs, b, false);
  ++stats_.solves;
  stats_.solved_columns += nrhs;
}

void NewtonMatrix::solve_transposed(std::size_t nrhs, double* b) {
  require_factored("solve_transposed");
  if (nrhs == 0) return;
  backend_->solve(nrhs, b, true);
  ++stats_.solves;
  stats_.solved_columns += nrhs;
}

}  // namespace odesens::integrate
