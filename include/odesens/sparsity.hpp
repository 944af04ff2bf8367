// Compressed-sparse-column structure of a Jacobian: the positions of entries
// that may be non-zero. Values travel separately, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace odesens {

struct SparsityPattern {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<std::int64_t> col_ptr;  // size cols + 1, col_ptr[0] = 0
  std::vector<std::int64_t> row_idx;  // size nnz, sorted within each column

  std::size_t nnz() const { return row_idx.size(); }

  // Throws Error(invalid_argument) unless the arrays describe a valid CSC
  // pattern of rows x cols (monotone pointers, rows in range, no duplicates).
  void validate() const;

  // Dense pattern of rows x cols.
  static SparsityPattern dense(std::size_t rows, std::size_t cols);
};

}  // namespace odesens
