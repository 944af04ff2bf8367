#include "core/number_text.hpp"

#include <cstdio>
#include <cstdlib>

namespace odesens {

std::string number_text(double v) {
  char buffer[32];
  // 17 significant digits always round-trip; fewer are tried first so that
  // the text is as short as it can be.
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    if (digits == 17 || std::strtod(buffer, nullptr) == v) break;
  }
  return buffer;
}

}  // namespace odesens
