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

// Reads PATH (a regular file, .csv or .tsv), the header's names matched to
// `model_names` as soon as it is read (a name the model `model_name` does
// not have is an error before any row is read). Throws UsageError on
// malformed content and odesens::Error(io_error) when reading fails.
ParameterTable read_parameter_table(const std::string& path,
                                    const std::vector<std::string>& model_names,
                                    const std::string& model_name);

// The full parameter vectors of rows first .. first + count - 1: `nominal`
// with the table's columns set.
std::vector<std::vector<double>> parameter_sets(const ParameterTable& table,
                                                const std::vector<double>& nominal,
                                                std::size_t first, std::size_t count);

}  // namespace odesens::cli
