#include "sources/ode/ode_source.hpp"

#include <cstdio>

#include "odesens/status.hpp"

namespace odesens::expr {

void throw_parse_error(const std::string& file, SourceLocation at, const std::string& message) {
  throw Error(Status::parse_error, file + ":" + std::to_string(at.line) + ":" +
                                       std::to_string(at.column) + ": " + message);
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (unsigned char ch : text) {
    if (ch >= 0x20 && ch < 0x7f) {
      out += static_cast<char>(ch);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(ch));
      out += buf;
    }
  }
  return out + "'";
}

}  // namespace odesens::expr
