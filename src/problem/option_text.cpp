// Option types, ranges and values as people write them: "> 0" rather than
// "[2.2250738585072014e-308, inf]", "1 .. 1e9" rather than "[1, 1000000000]".
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "core/number_text.hpp"
#include "odesens/options.hpp"

namespace odesens {
namespace {

// "1e+09" -> "1e9", "1e-05" -> "1e-5": the exponent without its sign when
// positive and without leading zeros.
std::string tidy_exponent(const std::string& text) {
  const auto e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
  const auto first_digit = exponent.find_first_not_of('0');
  exponent = first_digit == std::string::npos ? "0" : exponent.substr(first_digit);
  return text.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
}

// The shortest scientific text that reads back as v ("1e9", "2.5e-7").
std::string scientific_text(double v) {
  char buffer[40];
  for (int digits = 0; digits <= 16; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*e", digits, v);
    if (std::strtod(buffer, nullptr) == v) break;
  }
  return tidy_exponent(buffer);
}

// Whole numbers of a million and more are written with an exponent when
// that is shorter (1e9, not 1000000000); others as number_text writes them.
std::string readable_number(double v) {
  const std::string plain = tidy_exponent(number_text(v));
  if (std::fabs(v) < 1e6 || v != std::floor(v)) return plain;
  const std::string scientific = scientific_text(v);
  return scientific.size() < plain.size() ? scientific : plain;
}

// A lower bound above zero but at most the smallest normal double stands
// for "positive" (such a spec cannot say > 0 with a closed range).
bool means_positive(double lower) {
  return lower > 0.0 && lower <= std::numeric_limits<double>::min();
}

bool means_negative(double upper) {
  return upper < 0.0 && upper >= -std::numeric_limits<double>::min();
}

}  // namespace

std::string option_type_text(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::real: return "real";
    case OptionType::integer: return spec.min == 0.0 && spec.max == 1.0 ? "flag" : "integer";
    case OptionType::text: return "text";
  }
  return "?";
}

std::string range_text(const OptionSpec& spec) {
  if (spec.type == OptionType::text) return "";
  if (!spec.requirement.empty()) return spec.requirement;
  if (spec.type == OptionType::integer && spec.min == 0.0 && spec.max == 1.0) return "0 or 1";
  const bool has_min = std::isfinite(spec.min), has_max = std::isfinite(spec.max);
  const std::string lower = means_positive(spec.min) ? "> 0" : ">= " + readable_number(spec.min);
  const std::string upper = means_negative(spec.max) ? "< 0" : "<= " + readable_number(spec.max);
  if (has_min && has_max) {
    if (means_positive(spec.min) || means_negative(spec.max)) return lower + " and " + upper;
    return readable_number(spec.min) + " .. " + readable_number(spec.max);
  }
  if (has_min) return lower;
  if (has_max) return upper;
  return "";
}

std::string option_value_text(const OptionValue& value) {
  if (const auto* d = std::get_if<double>(&value)) return readable_number(*d);
  if (const auto* i = std::get_if<std::int64_t>(&value))
    return readable_number(static_cast<double>(*i));
  return std::get<std::string>(value);
}

}  // namespace odesens
