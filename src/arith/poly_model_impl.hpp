// The private state of PolyArithmetic, shared by the files that implement
// it (poly_model.cpp: construction and the ring operations;
// monomial_table.cpp: monomials and products of basis functions;
// range_bounder.cpp: the bounders; univariate_enclosure.cpp: apply and the
// operations built on it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arith/poly_model.hpp"

namespace odesens::arith {

// One term of the product of two basis functions: coef * B_target, or a
// term above the order (target == kAbove), which goes to the remainder.
struct ProductTerm {
  std::uint32_t target;
  float coef;  // 2^-m, exact in a float
};
inline constexpr std::uint32_t kAbove = UINT32_MAX;

struct PolyArithmetic::Impl {
  std::size_t n = 0;
  int q = 0;
  Basis basis = Basis::chebyshev;
  RangeBounder bounder = RangeBounder::lsb;
  double max_width = 0.0;
  std::size_t n_mon = 0;

  // Monomials (monomial_table.cpp): exps[k * n + j], deg[k], and the first
  // index of each degree (deg_start[d], d = 0..q+1).
  std::vector<int> exps;
  std::vector<int> deg;
  std::vector<std::size_t> deg_start;
  // Taylor basis: all exponents even, so B_k in [0, 1] on the box.
  std::vector<char> even;
  // Index of xi_j and of the pure square of xi_j, or npos (lsb bounder).
  std::vector<std::size_t> lin_index, sq_index;
  std::vector<char> quad_term;  // k is one of lin_index / sq_index

  // Products: the terms of B_i * B_k are terms[offset[i * n_mon + k] ..
  // offset[i * n_mon + k + 1]). Empty when the table would be too large:
  // mul then forms the terms on the fly (product_terms).
  std::vector<std::uint32_t> offset;
  std::vector<ProductTerm> terms;

  // Bernstein: tensor degree q in each variable; to_bernstein[k * (q+1) + j]
  // is the j-th Bernstein coefficient on [-1, 1] of the univariate basis
  // function of degree k. Empty when bernstein is not used (or falls back).
  std::vector<Interval> to_bernstein;
  mutable std::vector<Interval> tensor, fiber;

  // Scratch (mutable: the arithmetic is not thread-safe by contract).
  mutable std::vector<double> acc, abs_acc;
  mutable std::vector<std::uint32_t> count;
  mutable std::vector<int> e_scratch;
  mutable std::vector<Interval> eval_basis;  // evaluate: B_e(xi_j), n * (q+1)
  mutable PolyModel u, b1, b2, t1, t2, inv_scratch, pow_base, pow_acc, diff, high;

  // monomial_table.cpp
  void build_monomials();
  void build_product_table();
  std::size_t index_of(const int* e) const;
  // Writes the terms of B_i * B_k to out (at most 2^min(n, q) of them),
  // returns their number. Uses e_scratch.
  std::size_t product_terms(std::size_t i, std::size_t k, ProductTerm* out) const;
  mutable std::vector<ProductTerm> pair_terms;  // mul without a table

  // range_bounder.cpp
  void build_bernstein();
  // univariate_enclosure.cpp: the Chebyshev nodes of [-1, 1],
  // cos(theta_i), theta_i = (2i+1) pi / (2(q+1)), and T_k at them,
  // cheb_t[i * (q+1) + k] = cos(k theta_i), enclosed once per arithmetic
  // (MPFR's cosines cost more than the rest of a composition).
  void build_chebyshev_nodes();
  std::vector<Interval> cheb_node, cheb_t;
  Interval bound_naive(const PolyModel& a, bool skip_lsb_terms) const;
  Interval bound_lsb(const PolyModel& a) const;
  Interval bound_bernstein(const PolyModel& a) const;
  Interval bound_polynomial(const PolyModel& a) const;
};

// gamma_m = m u / (1 - m u), u = 2^-52 (directed rounding), rounded upward:
// the relative error bound of a sum of m rounded terms (Higham, 3.1).
double gamma_bound(double m);

// Throws internal_error unless an UpwardRounding scope is active.
void require_upward(const char* operation);

// "[lo, hi]" for messages.
std::string range_text(const Interval& x);

}  // namespace odesens::arith
