#include "integrate/implicit/union_pattern.hpp"

#include <algorithm>

namespace odesens::integrate {

UnionPattern merge_identity_and_terms(std::size_t n,
                                      const std::vector<const SparsityPattern*>& term_patterns) {
  UnionPattern u;
  SparsityPattern& p = u.pattern;
  p.rows = p.cols = n;
  p.col_ptr.assign(n + 1, 0);

  // Column by column: gather the diagonal and every term's rows, sort,
  // drop repeats. Terms' columns are sorted already, but a k-way merge would
  // buy nothing here: this runs once per object.
  std::vector<std::int64_t> rows;
  for (std::size_t j = 0; j < n; ++j) {
    rows.clear();
    rows.push_back(static_cast<std::int64_t>(j));
    for (const SparsityPattern* t : term_patterns)
      for (auto q = t->col_ptr[j]; q < t->col_ptr[j + 1]; ++q) rows.push_back(t->row_idx[q]);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    p.row_idx.insert(p.row_idx.end(), rows.begin(), rows.end());
    p.col_ptr[j + 1] = static_cast<std::int64_t>(p.row_idx.size());
  }

  // Positions: within column j, where_in_column[row] is the union index of
  // (row, j); every term entry and the diagonal just read it.
  std::vector<std::int64_t> where_in_column(n, -1);
  u.diagonal.resize(n);
  u.term_positions.resize(term_patterns.size());
  for (std::size_t k = 0; k < term_patterns.size(); ++k)
    u.term_positions[k].resize(term_patterns[k]->nnz());
  for (std::size_t j = 0; j < n; ++j) {
    for (auto q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) where_in_column[p.row_idx[q]] = q;
    u.diagonal[j] = where_in_column[j];
    for (std::size_t k = 0; k < term_patterns.size(); ++k) {
      const SparsityPattern& t = *term_patterns[k];
      for (auto q = t.col_ptr[j]; q < t.col_ptr[j + 1]; ++q)
        u.term_positions[k][q] = where_in_column[t.row_idx[q]];
    }
  }
  return u;
}

}  // namespace odesens::integrate
