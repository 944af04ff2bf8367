#include "core/quoted_text.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace odesens {

std::string printable_text(const std::string& text) {
  // A caller's 10 MB name is not repeated whole in a message.
  constexpr std::size_t kShown = 1024;
  std::string out;
  out.reserve(std::min(text.size(), kShown) + 32);
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (k == kShown) {
      out += "... (" + std::to_string(text.size()) + " bytes)";
      break;
    }
    const auto ch = static_cast<unsigned char>(text[k]);
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

std::string first_names(const std::vector<std::string>& names, std::size_t shown) {
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > shown) list += " and " + std::to_string(names.size() - shown) + " more";
  return list;
}

}  // namespace odesens
