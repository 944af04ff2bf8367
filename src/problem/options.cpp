#include "odesens/options.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/number_text.hpp"
#include "core/quoted_text.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

const char* type_name(OptionType t) {
  switch (t) {
    case OptionType::real: return "a real number";
    case OptionType::integer: return "an integer";
    case OptionType::text: return "a string";
  }
  return "?";
}

// Converts a given value to the declared type, or returns false.
bool coerce(const OptionValue& given, OptionType type, OptionValue& out) {
  switch (type) {
    case OptionType::real:
      if (auto d = std::get_if<double>(&given)) { out = *d; return true; }
      if (auto i = std::get_if<std::int64_t>(&given)) { out = static_cast<double>(*i); return true; }
      return false;
    case OptionType::integer:
      if (auto i = std::get_if<std::int64_t>(&given)) { out = *i; return true; }
      return false;
    case OptionType::text:
      if (auto s = std::get_if<std::string>(&given)) { out = *s; return true; }
      return false;
  }
  return false;
}

// "from 1 to 12", ">= 0", "0 or 1": the range as the end of "must be ...".
std::string range_requirement(const OptionSpec& spec) {
  const std::string range = range_text(spec);
  const auto dots = range.find(" .. ");
  if (dots == std::string::npos) return range;
  return "from " + range.substr(0, dots) + " to " + range.substr(dots + 4);
}

}  // namespace

OptionSpec flag_option(std::string key, bool default_value, std::string doc) {
  OptionSpec spec{std::move(key), OptionType::integer, std::int64_t{default_value ? 1 : 0},
                  std::move(doc), {}};
  spec.min = 0;
  spec.max = 1;
  return spec;
}

OptionSpec bounded(OptionSpec spec, double min, double max) {
  spec.min = min;
  spec.max = max;
  return spec;
}

OptionSpec restricted(OptionSpec spec, std::string requirement,
                      std::function<bool(double)> satisfies) {
  spec.requirement = std::move(requirement);
  spec.satisfies = std::move(satisfies);
  return spec;
}

MethodOptions::MethodOptions(const std::string& method_id, const std::vector<OptionSpec>& specs,
                             const Options& given)
    : method_id_(method_id) {
  for (const auto& spec : specs) values_[spec.key] = {spec.type, spec.default_value};
  for (const auto& entry : given.values()) {
    // Not a structured binding: C++17 lets no lambda capture one (clang refuses).
    const std::string& key = entry.first;
    const auto& value = entry.second;
    auto it = std::find_if(specs.begin(), specs.end(),
                           [&](const OptionSpec& s) { return s.key == key; });
    if (it == specs.end()) {
      std::string known;
      for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.key;
      throw Error(Status::unknown_option, "method '" + method_id + "' has no option " +
                                              quoted_text(key) + " (options: " + (known.empty() ? "none" : known) +
                                              ")");
    }
    OptionValue converted;
    if (!coerce(value, it->type, converted))
      throw Error(Status::option_type, "option '" + key + "' of method '" + method_id +
                                           "' must be " + type_name(it->type));
    if (auto d = std::get_if<double>(&converted); d && !std::isfinite(*d))
      throw Error(Status::option_type, "option '" + key + "' must be finite");
    if (it->type != OptionType::text) {
      const double v = it->type == OptionType::real
                           ? std::get<double>(converted)
                           : static_cast<double>(std::get<std::int64_t>(converted));
      if (v < it->min || v > it->max || (it->satisfies && !it->satisfies(v)))
        throw Error(Status::option_type, "option '" + key + "' of method '" + method_id +
                                             "' must be " + range_requirement(*it) + " (got " +
                                             number_text(v) + ")");
    }
    if (auto s = std::get_if<std::string>(&converted); s && !it->choices.empty() &&
        std::find(it->choices.begin(), it->choices.end(), *s) == it->choices.end()) {
      std::string allowed;
      for (const auto& c : it->choices) allowed += (allowed.empty() ? "" : ", ") + c;
      throw Error(Status::option_type, "option '" + key + "' of method '" + method_id +
                                           "' must be one of: " + allowed + " (got " + quoted_text(*s) +
                                           ")");
    }
    values_[key].second = converted;
  }
}

const OptionValue& MethodOptions::lookup(const std::string& key, OptionType type) const {
  auto it = values_.find(key);
  if (it == values_.end() || it->second.first != type)
    throw Error(Status::internal_error,
                "method '" + method_id_ + "' reads undeclared option '" + key + "'");
  return it->second.second;
}

double MethodOptions::get_double(const std::string& key) const {
  return std::get<double>(lookup(key, OptionType::real));
}
std::int64_t MethodOptions::get_int(const std::string& key) const {
  return std::get<std::int64_t>(lookup(key, OptionType::integer));
}
const std::string& MethodOptions::get_string(const std::string& key) const {
  return std::get<std::string>(lookup(key, OptionType::text));
}

}  // namespace odesens
