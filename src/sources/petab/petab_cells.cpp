#include "sources/petab/petab_cells.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "core/quoted_text.hpp"
#include "sources/petab/petab_tsv.hpp"

namespace odesens::petab {

std::string shown(const std::string& cell) {
  constexpr std::size_t kShown = 60;
  if (cell.size() <= kShown) return quoted_text(cell);
  return quoted_text(cell.substr(0, kShown)) + "... (" + std::to_string(cell.size()) +
         " bytes)";
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return std::string();
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

bool is_id(const std::string& text) {
  if (text.empty()) return false;
  const auto letter = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  if (!letter(text[0])) return false;
  for (char c : text)
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

namespace {

std::string lower_ascii(const std::string& text) {
  std::string s = text;
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// A table's number: its sign, and the rest in lower case; `value` and
// `error` are from_chars' where the rest is digits, '.', an exponent and
// its sign (from_chars would also take "nan(...)" and such).
struct NumberText {
  bool negative = false, digits = false;
  std::string rest;
  double value = 0.0;
  std::errc error = std::errc::invalid_argument;
};

NumberText read_number_text(const std::string& text) {
  NumberText n;
  const bool sign = !text.empty() && (text[0] == '+' || text[0] == '-');
  n.negative = sign && text[0] == '-';
  n.rest = lower_ascii(text.substr(sign ? 1 : 0));
  const std::string& r = n.rest;
  n.digits = !r.empty() && r.find_first_not_of("0123456789.e+-") == std::string::npos &&
             ((r[0] >= '0' && r[0] <= '9') || r[0] == '.');
  if (!n.digits) return n;
  const auto [end, error] = std::from_chars(r.data(), r.data() + r.size(), n.value);
  n.error = end == r.data() + r.size() ? error : std::errc::invalid_argument;
  return n;
}

}  // namespace

std::optional<double> number_of(const std::string& text) {
  const NumberText n = read_number_text(text);
  if (n.rest == "inf" || n.rest == "infinity")
    return n.negative ? -std::numeric_limits<double>::infinity()
                      : std::numeric_limits<double>::infinity();
  if (n.rest == "nan") return std::numeric_limits<double>::quiet_NaN();
  // Out of range (1e999) is refused rather than rounded to inf or 0.
  if (n.error != std::errc()) return std::nullopt;
  return n.negative ? -n.value : n.value;
}

std::string not_a_number_reason(const std::string& text) {
  if (read_number_text(text).error == std::errc::result_out_of_range)
    return "is beyond the range of a double (magnitudes from about 4.9e-324 to 1.8e308, or 0)";
  return "is not a number";
}

std::string read_id(const std::string& cell, const Place& place, const std::string& column) {
  if (cell.empty()) fail(place, column + " is empty");
  if (!is_id(cell))
    fail(place, column + " " + shown(cell) +
                    " is not an id (a letter or '_', then letters, digits or '_')");
  return cell;
}

// NaN where a cell may be empty: what pandas, and with it the PEtab tools,
// read an empty cell as and write it back as ("a standard deviation or NaN
// if the corresponding sigma is a model parameter", PEtab v1's
// noiseParameters).
bool reads_as_nan(const std::string& cell) { return lower_ascii(cell) == "nan"; }

namespace {
bool empty_or_nan(const std::string& cell) { return cell.empty() || reads_as_nan(cell); }
}  // namespace

std::string read_optional_id(const std::string& cell, const Place& place,
                             const std::string& column) {
  return empty_or_nan(cell) ? std::string() : read_id(cell, place, column);
}

Value read_value(const std::string& cell, const Place& place, const std::string& column,
                 bool nan_allowed) {
  Value v;
  v.place = place;
  if (cell.empty()) return v;
  if (const auto number = number_of(cell)) {
    if (std::isnan(*number) && !nan_allowed) fail(place, column + " may not be NaN");
    v.kind = Value::Kind::number;
    v.number = *number;
    return v;
  }
  if (!is_id(cell)) fail(place, column + " " + shown(cell) + " is neither a number nor an id");
  v.kind = Value::Kind::id;
  v.id = cell;
  return v;
}

std::vector<Value> read_value_list(const std::string& cell, const Place& place,
                                   const std::string& column) {
  std::vector<Value> values;
  if (empty_or_nan(cell)) return values;
  std::size_t start = 0;
  while (true) {
    const std::size_t semicolon = cell.find(';', start);
    const std::string item = trimmed(cell.substr(start, semicolon - start));
    if (item.empty())
      fail(place, column + " " + shown(cell) + ": item " + std::to_string(values.size() + 1) +
                      " is empty");
    values.push_back(read_value(item, place, column, false));
    // as NaN: a parameter of the observable or noise formula must be a number
    if (values.back().kind == Value::Kind::number && std::isinf(values.back().number))
      fail(place, column + " " + shown(cell) + ": item " + std::to_string(values.size()) +
                      " is infinite");
    if (semicolon == std::string::npos) return values;
    start = semicolon + 1;
  }
}

}  // namespace odesens::petab
