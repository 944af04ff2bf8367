// Method options: a bag of named, typed values set by the caller, and the
// declared specification against which a method reads them.
//
// Options are validated when a method starts (and by the C ABI when they
// are set): a key the method does not declare, or a value of the wrong type,
// outside the allowed set or outside the allowed range, is an Error naming
// the key. Integers are accepted where a double is declared. Each method
// reads its options once, into a typed settings struct of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace odesens {

using OptionValue = std::variant<double, std::int64_t, std::string>;

enum class OptionType { real, integer, text };

struct OptionSpec {
  std::string key;
  OptionType type;
  OptionValue default_value;
  std::string doc;
  std::vector<std::string> choices;  // for text options: the allowed values (empty = any)
  // For real and integer options: the allowed closed range (queryable from
  // C with odesens_method_option_bounds). A value outside is Error(option_type).
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  // For real and integer options allowed only within [min, max] and by a
  // further rule (a set of values, a floor that 0 escapes): the rule as
  // the end of "must be ..." (e.g. "0, 1, 4 or 8"), and its test. Empty:
  // the range alone.
  std::string requirement{};
  std::function<bool(double)> satisfies{};
};

// A flag: an integer option that is 0 or 1.
OptionSpec flag_option(std::string key, bool default_value, std::string doc);
// The spec with the allowed range [min, max].
OptionSpec bounded(OptionSpec spec, double min, double max);
// The spec with a further rule (OptionSpec::requirement, satisfies).
OptionSpec restricted(OptionSpec spec, std::string requirement,
                      std::function<bool(double)> satisfies);

// What an option is, as people write it, for help texts, documentation and
// messages. The type: "real", "integer", "flag" (an integer that is 0 or 1)
// or "text".
std::string option_type_text(const OptionSpec& spec);
// The allowed range of a real or integer option: "> 0" (a lower bound that
// is the smallest positive double), ">= 0", "<= 5", "1 .. 12", "0 or 1"
// (a flag), the requirement where the spec has one; "" when any finite
// number is allowed, and for text options (their allowed values are
// `choices`).
std::string range_text(const OptionSpec& spec);
// A value of an option: 1e-4 as "0.0001", 1e9 as "1e9", text as it is.
std::string option_value_text(const OptionValue& value);

class Options {
 public:
  void set(const std::string& key, double value) { values_[key] = value; }
  void set(const std::string& key, std::int64_t value) { values_[key] = value; }
  void set(const std::string& key, int value) { values_[key] = std::int64_t{value}; }
  void set(const std::string& key, const std::string& value) { values_[key] = value; }
  void set(const std::string& key, const char* value) { values_[key] = std::string(value); }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, OptionValue>& values() const { return values_; }

 private:
  std::map<std::string, OptionValue> values_;
};

// The options of one method, checked against its specification; getters
// return the caller's value or the documented default.
class MethodOptions {
 public:
  // Throws Error(unknown_option) or Error(option_type) naming the key.
  MethodOptions(const std::string& method_id, const std::vector<OptionSpec>& specs,
                const Options& given);

  double get_double(const std::string& key) const;
  std::int64_t get_int(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;

 private:
  const OptionValue& lookup(const std::string& key, OptionType type) const;
  std::string method_id_;
  std::map<std::string, std::pair<OptionType, OptionValue>> values_;
};

}  // namespace odesens
