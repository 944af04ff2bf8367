#include "sources/ode/ode_source.hpp"

#include "core/quoted_text.hpp"
#include "odesens/status.hpp"

namespace odesens::expr {

void throw_parse_error(const std::string& file, SourceLocation at, const std::string& message) {
  throw Error(Status::parse_error, file + ":" + std::to_string(at.line) + ":" +
                                       std::to_string(at.column) + ": " + message);
}

std::string quoted(const std::string& text) { return quoted_text(text); }

}  // namespace odesens::expr
