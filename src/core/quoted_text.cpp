#include "core/quoted_text.hpp"

#include <cstdio>

namespace odesens {

std::string printable_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const unsigned char ch : text) {
    if (ch >= 0x20 && ch < 0x7f) {
      out += static_cast<char>(ch);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(ch));
      out += buf;
    }
  }
  return out;
}

std::string quoted_text(const std::string& text) { return "'" + printable_text(text) + "'"; }

}  // namespace odesens
