// Positions in .ode text and the error every parse failure throws:
// Error(parse_error, "FILE:LINE:COLUMN: message"), lines and columns from 1.
#pragma once

#include <string>

namespace odesens::expr {

struct SourceLocation {
  int line = 1;
  int column = 1;
};

[[noreturn]] void throw_parse_error(const std::string& file, SourceLocation at,
                                    const std::string& message);

// A name or token quoted for a message; bytes that are not printable ASCII
// are written as \xNN.
std::string quoted(const std::string& text);

}  // namespace odesens::expr
