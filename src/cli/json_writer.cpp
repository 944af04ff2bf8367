#include "cli/json_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace odesens::cli {

std::string format_double(double d) {
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

void JsonWriter::separator() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ',';
    first_.back() = false;
  }
}

void JsonWriter::begin_object() {
  separator();
  out_ << '{';
  first_.push_back(true);
}

void JsonWriter::end_object() {
  first_.pop_back();
  out_ << '}';
}

void JsonWriter::begin_array() {
  separator();
  out_ << '[';
  first_.push_back(true);
}

void JsonWriter::end_array() {
  first_.pop_back();
  out_ << ']';
}

void JsonWriter::key(const std::string& k) {
  value(k);
  out_ << ':';
  after_key_ = true;
}

void JsonWriter::value(const std::string& s) {
  separator();
  out_ << '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out_ << "\\\""; break;
      case '\\': out_ << "\\\\"; break;
      case '\n': out_ << "\\n"; break;
      case '\t': out_ << "\\t"; break;
      case '\r': out_ << "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out_ << buf;
        } else {
          out_ << c;
        }
    }
  }
  out_ << '"';
}

void JsonWriter::value(double d) {
  separator();
  if (std::isfinite(d))
    out_ << format_double(d);
  else
    out_ << "null";
}

void JsonWriter::value(std::int64_t i) {
  separator();
  out_ << i;
}

void JsonWriter::array(const std::vector<double>& v) {
  begin_array();
  for (double d : v) value(d);
  end_array();
}

void JsonWriter::array(const std::vector<std::string>& v) {
  begin_array();
  for (const auto& s : v) value(s);
  end_array();
}

}  // namespace odesens::cli
