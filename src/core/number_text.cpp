#include "core/number_text.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace odesens {

std::string number_text(double v) {
  // "nan" whatever its sign bit: printf writes "-nan", which means nothing.
  if (std::isnan(v)) return "nan";
  char buffer[32];
  // 17 significant digits always round-trip; fewer are tried first so that
  // the text is as short as it can be.
  int digits = 1;
  for (; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    if (digits == 17 || std::strtod(buffer, nullptr) == v) break;
  }
  // Whole numbers below 1e15 without an exponent (10, not 1e+01): %g writes
  // one when the exponent reaches the precision, so the precision covers
  // every digit before the point.
  const double magnitude = std::fabs(v);
  if (magnitude >= 1.0 && magnitude < 1e15) {
    const int before_point = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
    if (before_point > digits) std::snprintf(buffer, sizeof buffer, "%.*g", before_point, v);
  }
  return buffer;
}

std::string rounded_number_text(double v, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
  return buffer;
}

bool decimal_number_text(const std::string& text) {
  return text.find_first_of("xX") == std::string::npos &&
         !(!text.empty() && std::isspace(static_cast<unsigned char>(text[0])));
}

}  // namespace odesens
