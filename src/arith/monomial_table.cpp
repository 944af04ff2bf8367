// Monomials in graded lexicographic order and the table of products of
// basis functions (poly_model.hpp). Products of Chebyshev polynomials
// follow T_a T_b = (T_{a+b} + T_{|a-b|}) / 2 in each variable (Rajyaguru et
// al. 2017, section 3), so a product of two monomials of degree <= q has
// 2^m terms (m = variables where both exponents are non-zero), some of them
// of lower degree; power-basis products have the single term xi^(a+b).
#include <algorithm>
#include <cstdlib>

#include "arith/poly_model_impl.hpp"
#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

// All exponent vectors of total degree d in n variables, earlier variables'
// exponents larger first, appended to exps.
void append_degree(std::size_t n, int d, std::vector<int>& e, std::size_t j,
                   std::vector<int>& exps) {
  if (j + 1 == n) {
    e[j] = d;
    exps.insert(exps.end(), e.begin(), e.end());
    return;
  }
  for (int ej = d; ej >= 0; --ej) {
    e[j] = ej;
    append_degree(n, d - ej, e, j + 1, exps);
  }
}

// Above this many monomial pairs mul forms products on the fly instead of
// keeping a table (memory: ~8 bytes a term, up to 2^min(n, q) terms a pair).
constexpr std::size_t kMaxTablePairs = std::size_t{4} << 20;

}  // namespace

void PolyArithmetic::Impl::build_monomials() {
  exps.clear();
  deg.clear();
  deg_start.assign(static_cast<std::size_t>(q) + 2, 0);
  std::vector<int> e(n, 0);
  for (int d = 0; d <= q; ++d) {
    deg_start[static_cast<std::size_t>(d)] = deg.size();
    if (n == 0) {  // constants only
      if (d == 0) deg.push_back(0);
      continue;
    }
    const std::size_t before = deg.size();
    append_degree(n, d, e, 0, exps);
    deg.insert(deg.end(), exps.size() / n - before, d);
  }
  n_mon = deg.size();
  deg_start[static_cast<std::size_t>(q) + 1] = n_mon;

  even.assign(n_mon, 1);
  for (std::size_t k = 0; k < n_mon; ++k)
    for (std::size_t j = 0; j < n; ++j)
      if (exps[k * n + j] % 2 != 0) even[k] = 0;

  lin_index.assign(n, PolyArithmetic::npos);
  sq_index.assign(n, PolyArithmetic::npos);
  e_scratch.assign(n, 0);
  std::vector<int> unit(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    unit[j] = 1;
    lin_index[j] = index_of(unit.data());
    unit[j] = 2;
    sq_index[j] = index_of(unit.data());
    unit[j] = 0;
  }
  quad_term.assign(n_mon, 0);
  for (std::size_t j = 0; j < n; ++j) {
    if (lin_index[j] != PolyArithmetic::npos) quad_term[lin_index[j]] = 1;
    if (sq_index[j] != PolyArithmetic::npos) quad_term[sq_index[j]] = 1;
  }
}

// Binary search inside the block of the monomial's degree, whose entries are
// sorted by decreasing lexicographic order of their exponent vectors.
std::size_t PolyArithmetic::Impl::index_of(const int* e) const {
  int d = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (e[j] < 0) return PolyArithmetic::npos;
    d += e[j];
  }
  if (d > q) return PolyArithmetic::npos;
  if (n == 0) return 0;
  std::size_t lo = deg_start[static_cast<std::size_t>(d)];
  std::size_t hi = deg_start[static_cast<std::size_t>(d) + 1];
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const int* m = &exps[mid * n];
    const int cmp = [&] {
      for (std::size_t j = 0; j < n; ++j)
        if (m[j] != e[j]) return m[j] > e[j] ? -1 : 1;  // larger first
      return 0;
    }();
    if (cmp == 0) return mid;
    if (cmp < 0) lo = mid + 1;
    else hi = mid;
  }
  return PolyArithmetic::npos;
}

std::size_t PolyArithmetic::Impl::product_terms(std::size_t i, std::size_t k,
                                                ProductTerm* out) const {
  const int* ei = n ? &exps[i * n] : nullptr;
  const int* ek = n ? &exps[k * n] : nullptr;
  if (basis == Basis::taylor) {
    if (deg[i] + deg[k] > q) {
      out[0] = {kAbove, 1.0f};
      return 1;
    }
    for (std::size_t j = 0; j < n; ++j) e_scratch[j] = ei[j] + ek[j];
    out[0] = {static_cast<std::uint32_t>(index_of(e_scratch.data())), 1.0f};
    return 1;
  }
  // Chebyshev: the variables where both factors have a non-zero degree
  // split into T_{a+b} and T_{|a-b|}; enumerate the 2^m choices.
  std::size_t split[64];
  std::size_t m = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (ei[j] != 0 && ek[j] != 0) split[m++] = j;
  const float coef = 1.0f / static_cast<float>(std::size_t{1} << m);
  for (std::size_t mask = 0; mask < (std::size_t{1} << m); ++mask) {
    for (std::size_t j = 0; j < n; ++j) e_scratch[j] = ei[j] + ek[j];
    int d = deg[i] + deg[k];
    for (std::size_t s = 0; s < m; ++s)
      if (mask & (std::size_t{1} << s)) {
        const std::size_t j = split[s];
        e_scratch[j] = std::abs(ei[j] - ek[j]);
        d -= ei[j] + ek[j] - e_scratch[j];
      }
    const std::size_t t = d > q ? PolyArithmetic::npos : index_of(e_scratch.data());
    out[mask] = {t == PolyArithmetic::npos ? kAbove : static_cast<std::uint32_t>(t), coef};
  }
  return std::size_t{1} << m;
}

void PolyArithmetic::Impl::build_product_table() {
  // m <= min(n, q) variables split, so a pair has at most 2^min(n, q) terms.
  const std::size_t max_terms = basis == Basis::taylor
                                    ? 1
                                    : std::size_t{1} << std::min<std::size_t>(n, static_cast<std::size_t>(q));
  pair_terms.resize(max_terms);
  offset.clear();
  terms.clear();
  if (n_mon * n_mon > kMaxTablePairs) return;  // products on the fly
  offset.reserve(n_mon * n_mon + 1);
  offset.push_back(0);
  for (std::size_t i = 0; i < n_mon; ++i)
    for (std::size_t k = 0; k < n_mon; ++k) {
      const std::size_t c = product_terms(i, k, pair_terms.data());
      terms.insert(terms.end(), pair_terms.begin(), pair_terms.begin() + static_cast<std::ptrdiff_t>(c));
      if (terms.size() >= UINT32_MAX)
        throw Error(Status::option_type, "polynomial model product table too large");
      offset.push_back(static_cast<std::uint32_t>(terms.size()));
    }
}

}  // namespace odesens::arith
