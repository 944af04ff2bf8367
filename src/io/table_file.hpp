// Tables of numbers with a header row of names, as CSV or TSV: the
// parameter sets of an ensemble (parameter_table.hpp) and measurement data
// (data_table.hpp).
//
//   # fits of run 7          <- lines starting with # are comments
//   k1,k2                    <- header: any subset of the names the schema allows
//   0.8,1.7                  <- row 0
//   0.9,nan                  <- row 1 (NaN and Inf are numbers)
//
// The separator follows the file name: ',' for .csv, a tab for .tsv. Blank
// lines and comment lines are skipped anywhere; spaces around a cell are
// ignored, and so are a UTF-8 byte-order mark and the '\r' of CRLF lines.
// Every failure of the content is Error(invalid_argument) naming the file,
// the line and, for a cell, its column and header name: an empty file or
// one without data rows, a ragged row, a cell that is not a number, a
// duplicate, empty or unknown name, a line longer than max_line_bytes, more
// than the schema's max_rows rows.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace odesens::io {

struct NumberTable {
  std::vector<std::string> names;    // the header, in file order
  std::vector<std::size_t> columns;  // the schema's index of each name
  std::size_t header_line = 0;       // its line number, from 1
  std::size_t rows = 0;
  std::vector<double> values;  // rows x names.size(), row after row
};

// The longest line read (a header of a million parameter names fits).
inline constexpr std::size_t max_line_bytes = std::size_t{64} << 20;

// What a table holds, for reading it and for the messages about it.
struct TableSchema {
  std::string flag;                // what names the file in messages: "--params"
  std::string column;              // what a header name is: "parameter"
  std::vector<std::string> names;  // the names the header may use
  std::string owner;               // who has them: "model builtin:chua"
  std::string row;                 // what a row is: "member"
  std::size_t max_rows = 0;
  std::string too_many;       // the rows past max_rows: "parameter sets (members); ..."
  bool empty_is_nan = false;  // an empty cell is NaN (otherwise an error)
};

// Reads PATH (a regular file, .csv or .tsv) as `schema` describes it; the
// header's names are matched to schema.names as soon as it is read (a name
// not there is an error before any row is read). `columns` of the result
// are indices into schema.names. Error(invalid_argument) for a file that
// cannot be opened or is not a regular file and for malformed content,
// Error(io_error) when reading fails.
NumberTable read_table(const std::string& path, const TableSchema& schema);

}  // namespace odesens::io
