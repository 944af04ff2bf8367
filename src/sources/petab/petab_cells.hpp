// The values PEtab cells hold: numbers, ids, and cells that may be either.
// Numbers are read strictly and without the locale: the whole cell, in
// decimal or exponent notation with an optional sign, or inf, infinity and
// nan in any case (as the PEtab library, through pandas, reads them).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sources/petab/petab_tables.hpp"

namespace odesens::petab {

// `cell` quoted for a message, cut after 60 characters: a cell can be
// megabytes long.
std::string shown(const std::string& cell);

// `text` without spaces at either end: the items of ';'-separated lists may
// have them ("0; 0.001" in Lang_PLOSComputBiol2024), as the PEtab library
// strips them.
std::string trimmed(const std::string& text);

// [A-Za-z_][A-Za-z0-9_]*
bool is_id(const std::string& text);

// The number `text` is, NaN and infinities included; nullopt when it is
// not one.
std::optional<double> number_of(const std::string& text);
// Why number_of(text) gave nothing: "is not a number", or that it lies
// beyond a double's range (1e999, 1e-400).
std::string not_a_number_reason(const std::string& text);

// Error(parse_error, "<place>: <column> ...") when `cell` is not an id.
std::string read_id(const std::string& cell, const Place& place, const std::string& column);
// "nan" in any case: what pandas writes an empty cell as.
bool reads_as_nan(const std::string& cell);
// "" for an empty cell or NaN (as pandas writes an empty one), else as
// read_id().
std::string read_optional_id(const std::string& cell, const Place& place,
                             const std::string& column);

// Empty, a number (NaN when `nan_allowed`), or an id.
Value read_value(const std::string& cell, const Place& place, const std::string& column,
                 bool nan_allowed);

// A ';'-separated list of numbers and ids (spaces around each are
// dropped); an empty cell or NaN is the empty list, an empty item an error.
std::vector<Value> read_value_list(const std::string& cell, const Place& place,
                                   const std::string& column);

}  // namespace odesens::petab
