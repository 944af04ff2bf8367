// The parameter sets of `odesens ensemble --params FILE`: one member per
// row, a header row of parameter names.
//
//   # fits of run 7          <- lines starting with # are comments
//   k1,k2                    <- header: any subset of the model's parameters
//   0.8,1.7                  <- member 0
//   0.9,nan                  <- member 1 (a NaN cell: that member fails alone)
//
// The separator follows the file name: ',' for .csv, a tab for .tsv. Blank
// lines and comment lines are skipped anywhere; spaces around a cell are
// ignored, and so are a UTF-8 byte-order mark and the '\r' of CRLF lines.
// Every failure is a UsageError naming the file, the line and, for a cell,
// its column and header name: an empty file or one without data rows, a
// ragged row, a cell that is not a number, a duplicate, empty or unknown
// name, a line longer than max_line_bytes, more than max_members rows.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace odesens::cli {

struct ParameterTable {
  std::vector<std::string> names;    // the header, in file order
  std::vector<std::size_t> columns;  // the model's index of each name
  std::size_t header_line = 0;       // its line number, from 1
  std::size_t rows = 0;              // members
  std::vector<double> values;        // rows x names.size(), row after row
};

// The most members one file may give (the table is held in memory, and
// the output file has a row for each).
inline constexpr std::size_t max_members = 10'000'000;
// The longest line read (a header of a million parameter names fits).
inline constexpr std::size_t max_line_bytes = std::size_t{64} << 20;

// What a table holds, for reading it and for the messages about it.
struct TableSchema {
  std::string flag;                // the flag naming the file: "--params"
  std::string column;              // what a header name is: "parameter"
  std::vector<std::string> names;  // the names the header may use
  std::string owner;               // who has them: "model builtin:chua"
  std::string row;                 // what a row is: "member"
  std::size_t max_rows = 0;
  std::string too_many;            // the rows past max_rows: "parameter sets (members); ..."
  bool empty_is_nan = false;       // an empty cell is NaN (otherwise an error)
};

// Reads PATH (a regular file, .csv or .tsv) as `schema` describes it; the
// header's names are matched to schema.names as soon as it is read (a name
// not there is an error before any row is read). `columns` of the result
// are indices into schema.names. Throws UsageError on malformed content and
// odesens::Error(io_error) when reading fails.
ParameterTable read_table(const std::string& path, const TableSchema& schema);

// read_table for --params: names are the model's parameters.
ParameterTable read_parameter_table(const std::string& path,
                                    const std::vector<std::string>& model_names,
                                    const std::string& model_name);

// The full parameter vectors of rows first .. first + count - 1: `nominal`
// with the table's columns set.
std::vector<std::vector<double>> parameter_sets(const ParameterTable& table,
                                                const std::vector<double>& nominal,
                                                std::size_t first, std::size_t count);

}  // namespace odesens::cli
