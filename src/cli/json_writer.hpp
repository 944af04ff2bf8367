// A minimal streaming JSON writer for the tool's output: objects, arrays,
// strings, integers and doubles (shortest round-trip form; NaN and Inf,
// which JSON cannot express, as null).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace odesens::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(const std::string& k);
  void value(const std::string& s);
  void value(const char* s) { value(std::string(s)); }
  void value(double d);
  void value(std::int64_t i);
  void value(std::size_t i) { value(static_cast<std::int64_t>(i)); }
  void array(const std::vector<double>& v);
  void array(const std::vector<std::string>& v);

 private:
  void separator();
  std::ostream& out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Shortest decimal form of d that reads back to the same double.
std::string format_double(double d);

}  // namespace odesens::cli
