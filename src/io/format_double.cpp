#include "io/format_double.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace odesens::io {

std::string format_double(double d) {
  // "nan" whatever its sign bit (printf's "-nan" is no number to many
  // readers of CSV); inf and -inf print as such.
  if (std::isnan(d)) return "nan";
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

}  // namespace odesens::io
