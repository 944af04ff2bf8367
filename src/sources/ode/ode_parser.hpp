// The .ode text format (design/MODEL_FORMAT.md) to a symbolic model.
// A file that breaks any rule is rejected as a whole with
// Error(parse_error, "FILE:LINE:COLUMN: message"); nothing is half-loaded.
//
// Extensions of the format, all backward compatible: `param` and `time t0`
// values may carry a sign; lets may refer to lets declared later (an
// assignment-rule reading), which makes a cycle among lets an error of its
// own; conditions may be combined with && || ! and parentheses.
#pragma once

#include <string>

#include "expr/symbolic_model.hpp"

namespace odesens::expr {

SymbolicModel parse_ode(const std::string& text, const std::string& file);

}  // namespace odesens::expr
