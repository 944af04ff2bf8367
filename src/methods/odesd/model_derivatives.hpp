// What odeSD reads from the model, and only through the Model interface and
// its SecondDerivatives capability: f, a = ẍ, and the Jacobian set
// J = ∂f/∂x, J_a = ∂a/∂x (the paper's J_Jf, Eq. 9), F_p = ∂f/∂p,
// A_p = ∂a/∂p at one point. J and J_a are kept dense (n²) or as values on
// the model's sparsity patterns, whichever the Newton matrix's backend
// wants; the products J·V and J_a·V use the same storage. With sparse
// storage F_p and A_p are kept on their patterns too, where the model gives
// them, so that memory and work scale with their non-zeros. Counts every
// evaluation for the statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "odesens/model.hpp"
#include "odesens/sparsity.hpp"
#include "odesens/workspace.hpp"

namespace odesens::odesd {

struct EvaluationCounts {
  std::size_t f = 0, a = 0, jacobian_sets = 0, parameter_jacobians = 0;
};

class ModelDerivatives {
 public:
  // sparse: keep J and J_a on the model's patterns (J's pattern must exist).
  // with_parameters: also F_p and A_p on every Jacobian set.
  ModelDerivatives(const Model& model, const double* p, Workspace* ws, bool sparse,
                   bool with_parameters);

  std::size_t n() const { return n_; }
  std::size_t np() const { return np_; }
  bool sparse() const { return sparse_; }

  void f(double t, const double* x, double* out);
  void a(double t, const double* x, double* out);
  // ∂a/∂t at fixed x.
  void a_dt(double t, const double* x, double* out);

  // J, J_a (and F_p, A_p) at (t, x); the version then increases.
  void evaluate_jacobians(double t, const double* x);
  // Counts Jacobian sets: 0 before the first, never reused for other values.
  std::uint64_t version() const { return version_; }
  double jacobian_time() const { return jacobian_t_; }

  // Patterns for the Newton matrix: null for dense storage.
  const SparsityPattern* j_pattern() const { return sparse_ ? &j_pattern_ : nullptr; }
  const SparsityPattern* ja_pattern() const { return sparse_ ? &ja_pattern_ : nullptr; }
  const double* j_values() const { return j_.data(); }
  const double* ja_values() const { return ja_.data(); }
  std::size_t nnz_j() const;
  std::size_t nnz_ja() const;

  // The diagonal of the held J (n values; 0 where J's pattern has none).
  void j_diagonal(double* out) const;

  // out (n x nv) = J V and J_a V with the held Jacobians.
  void multiply_j(std::size_t nv, const double* V, double* out) const;
  void multiply_ja(std::size_t nv, const double* V, double* out) const;
  // out (n x np, dense) += c F_p and += c A_p. F_p and A_p are held on the
  // model's patterns when it gives both (sparse storage), else dense.
  void add_fp(double c, double* out) const;
  void add_ap(double c, double* out) const;
  bool sparse_parameter_jacobians() const { return sparse_parameters_; }

  const EvaluationCounts& counts() const { return counts_; }

 private:
  const Model& model_;
  const SecondDerivatives& sd_;
  const double* p_;
  Workspace* ws_;
  std::size_t n_, np_;
  bool sparse_, with_parameters_;
  bool sparse_parameters_ = false;  // F_p, A_p on fp_pattern_, ap_pattern_
  SparsityPattern j_pattern_, ja_pattern_, fp_pattern_, ap_pattern_;
  std::vector<std::int64_t> j_diagonal_at_;  // sparse: J_ii's position in j_, or -1
  std::vector<double> j_, ja_, fp_, ap_;
  std::uint64_t version_ = 0;
  double jacobian_t_ = 0.0;
  EvaluationCounts counts_;
};

}  // namespace odesens::odesd
