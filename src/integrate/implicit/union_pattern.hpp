// The pattern of M = c0·I + Σ c_k A_k: the union I ∪ P(A_1) ∪ ..., merged
// once, with the position in the union of every entry of every term, so that
// assembling M for new values is a scatter-add without searching.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "odesens/sparsity.hpp"

namespace odesens::integrate {

struct UnionPattern {
  SparsityPattern pattern;                    // n×n, sorted rows, always holds the diagonal
  std::vector<std::int64_t> diagonal;         // diagonal[j]: union position of (j, j)
  std::vector<std::vector<std::int64_t>> term_positions;  // [k][q]: union position of entry q of A_k
};

// term_patterns[k] must be valid n×n patterns (dense terms: pass SparsityPattern::dense).
UnionPattern merge_identity_and_terms(std::size_t n,
                                      const std::vector<const SparsityPattern*>& term_patterns);

}  // namespace odesens::integrate
