#include "odesens/sparsity.hpp"

#include <string>

#include "odesens/status.hpp"

namespace odesens {

void SparsityPattern::validate() const {
  auto fail = [](const std::string& what) {
    throw Error(Status::invalid_argument, "sparsity pattern: " + what);
  };
  if (col_ptr.size() != cols + 1)
    fail("col_ptr has " + std::to_string(col_ptr.size()) + " entries, expected cols + 1 = " +
         std::to_string(cols + 1));
  if (col_ptr[0] != 0) fail("col_ptr[0] must be 0");
  for (std::size_t j = 0; j < cols; ++j) {
    if (col_ptr[j + 1] < col_ptr[j]) fail("col_ptr decreases at column " + std::to_string(j));
  }
  if (static_cast<std::size_t>(col_ptr[cols]) != row_idx.size())
    fail("col_ptr[cols] = " + std::to_string(col_ptr[cols]) + " but row_idx has " +
         std::to_string(row_idx.size()) + " entries");
  for (std::size_t j = 0; j < cols; ++j) {
    for (auto q = col_ptr[j]; q < col_ptr[j + 1]; ++q) {
      if (row_idx[q] < 0 || static_cast<std::size_t>(row_idx[q]) >= rows)
        fail("row index " + std::to_string(row_idx[q]) + " out of range in column " +
             std::to_string(j));
      if (q > col_ptr[j] && row_idx[q] <= row_idx[q - 1])
        fail("row indices not strictly increasing in column " + std::to_string(j));
    }
  }
}

SparsityPattern SparsityPattern::dense(std::size_t rows, std::size_t cols) {
  SparsityPattern p;
  p.rows = rows;
  p.cols = cols;
  p.col_ptr.resize(cols + 1);
  p.row_idx.reserve(rows * cols);
  for (std::size_t j = 0; j <= cols; ++j) p.col_ptr[j] = static_cast<std::int64_t>(j * rows);
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i) p.row_idx.push_back(static_cast<std::int64_t>(i));
  return p;
}

}  // namespace odesens
