// check_result_finite (finite_result.hpp).
#include "methods/common/finite_result.hpp"

#include <cmath>
#include <cstddef>
#include <sstream>
#include <vector>

#include "odesens/result_arrays.hpp"
#include "odesens/status.hpp"

namespace odesens::methods {

namespace {

// The first non-finite entry of v, or v.size().
std::size_t first_non_finite(const std::vector<double>& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) return i;
  return v.size();
}

std::string value_word(double v) { return std::isnan(v) ? "NaN" : "Inf"; }

std::string name_or_index(const std::vector<std::string>& names, std::size_t i) {
  return i < names.size() ? "'" + names[i] + "'" : "#" + std::to_string(i + 1);
}

std::string time_text(const std::vector<double>& times, std::size_t k) {
  std::ostringstream s;
  s << "t = " << (k < times.size() ? times[k] : 0.0);
  return s.str();
}

// Where flat entry `flat` of an array is: each axis's index by name
// ("state 'x', parameter 'k', t = 0.5").
std::string entry_place(const ResultArrayView& view, std::size_t flat, const Result& r,
                        const Model& model) {
  // The time arrays themselves: their entry's number (its time is the NaN).
  if (view.data == &r.times || view.data == &r.s_times) return "entry " + std::to_string(flat + 1);
  std::string out;
  for (std::size_t a = 0; a < view.extents.size(); ++a) {
    const std::size_t extent = view.extents[a];
    const std::size_t i = extent ? (flat / view.strides[a]) % extent : 0;
    std::string part;
    switch (view.spec->axes[a]) {
      case ResultAxis::time: part = time_text(r.times, i); break;
      case ResultAxis::s_time: part = time_text(r.s_times, i); break;
      case ResultAxis::state: part = "state " + name_or_index(model.state_names(), i); break;
      case ResultAxis::parameter:
        part = "parameter " + name_or_index(model.param_names(), i);
        break;
      default: part = std::string(axis_name(view.spec->axes[a])) + " " + std::to_string(i + 1);
    }
    out += (out.empty() ? "" : ", ") + part;
  }
  return out;
}

[[noreturn]] void fail(const std::string& method, const std::string& what) {
  throw Error(Status::not_finite,
              "method '" + method + "' produced " + what +
                  "; the result is withheld (a tighter tolerance or another method may "
                  "avoid it: odesens methods lists them)");
}

}  // namespace

void check_result_finite(const Result& r, const Model& model, const std::string& method) {
  // Every array of the result's table but the enclosures (whose hulls are
  // checked as they are built: Status::unbounded).
  for (const ResultArrayView& view : result_arrays(r)) {
    if (*view.spec->group != '\0') continue;
    const std::vector<double>& v = *view.data;
    if (std::size_t i = first_non_finite(v); i < v.size())
      fail(method, value_word(v[i]) + " in " + view.spec->name + " (" + view.spec->doc + ") at " +
                       entry_place(view, i, r, model));
  }
}

}  // namespace odesens::methods
