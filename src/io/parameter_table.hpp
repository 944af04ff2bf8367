// The parameter sets of an ensemble (`odesens ensemble --params FILE`): a
// table (table_file.hpp) with one member per row and a header row of
// parameter names, any subset of the model's; the others keep their
// nominal values.
//
//   k1,k2
//   0.8,1.7                  <- member 0
//   0.9,nan                  <- member 1 (a NaN cell: that member fails alone)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "io/table_file.hpp"

namespace odesens::io {

// The most members one file may give (the table is held in memory, and
// the output file has a row for each).
inline constexpr std::size_t max_members = 10'000'000;

// read_table with the model's parameters (`model_names`) as the names;
// `flag` names the file in messages ("--params"), `model_name` the model.
NumberTable read_parameter_table(const std::string& path,
                                 const std::vector<std::string>& model_names,
                                 const std::string& model_name, const std::string& flag);

// The full parameter vectors of rows first .. first + count - 1: `nominal`
// with the table's columns set.
std::vector<std::vector<double>> parameter_sets(const NumberTable& table,
                                                const std::vector<double>& nominal,
                                                std::size_t first, std::size_t count);

}  // namespace odesens::io
