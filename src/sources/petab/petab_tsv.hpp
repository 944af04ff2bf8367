// The tab-separated files of a PEtab problem, split into cells; what the
// cells mean is left to the table readers (petab_tables.cpp).
//
// The files are UTF-8 (a byte-order mark is dropped), lines end in LF or
// CRLF, the first line is the header. Empty lines are skipped, as pandas,
// which the PEtab library reads tables with, does. Cells are taken
// literally: PEtab tables hold no quoted cells, and a cell quoted by a
// spreadsheet is then not a valid number or id, which the readers say.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sources/petab/petab_tables.hpp"

namespace odesens::petab {

// The largest PEtab file read: far above real tables (the largest
// benchmark table is a few MiB), small enough that a wrong file fails at
// once instead of taking the memory of the machine.
constexpr std::size_t kFileSizeLimit = std::size_t{256} << 20;

[[noreturn]] void fail(const Place& place, const std::string& rule);
[[noreturn]] void fail_unsupported(const Place& place, const std::string& what);

// The bytes of a file of the problem. Error(unknown_model) when it does
// not exist, Error(io_error) when it is not a regular file, is larger than
// kFileSizeLimit or cannot be read; `role` ("parameter table") leads the
// message.
std::string read_petab_file(const std::string& path, const std::string& role);

class Tsv {
 public:
  // Splits `bytes`, the content of `file`. Error(parse_error) for text that
  // is not UTF-8, an empty file, an empty or repeated header cell, or a row
  // with more (non-empty) cells than the header.
  Tsv(const std::string& file, const std::string& bytes);

  std::size_t rows() const { return rows_.size(); }
  // The cell of data row `r` (0-based) in column `c` (0-based); "" past the
  // end of a short row.
  const std::string& cell(std::size_t r, std::size_t c) const;
  // Where that cell is, for messages (the file's line and 1-based column).
  Place place(std::size_t r, std::size_t c) const;
  Place row_place(std::size_t r) const;
  Place header_place(std::size_t c) const { return Place{file_, 1, c + 1}; }
  const std::vector<std::string>& header() const { return header_; }
  // The column named `name`, if there is one.
  std::optional<std::size_t> column(const std::string& name) const;
  // The same, Error(parse_error) at the header when there is none.
  std::size_t required_column(const std::string& name) const;

 private:
  struct Row {
    std::size_t line;
    std::vector<std::string> cells;
  };
  std::string file_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

}  // namespace odesens::petab
