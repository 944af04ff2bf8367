// check_result_finite (finite_result.hpp).
#include "methods/common/finite_result.hpp"

#include <cmath>
#include <cstddef>
#include <sstream>
#include <vector>

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

std::string at_time(const std::vector<double>& times, std::size_t k) {
  if (k >= times.size()) return "";
  std::ostringstream s;
  s << " at t = " << times[k];
  return s.str();
}

[[noreturn]] void fail(const std::string& method, const std::string& what) {
  throw Error(Status::not_finite,
              "method '" + method + "' produced " + what +
                  "; the result is withheld (a tighter tolerance or another method may "
                  "avoid it: odesens methods lists them)");
}

}  // namespace

void check_result_finite(const Result& r, const Model& model, const std::string& method) {
  const std::vector<std::string>& states = model.state_names();
  const std::vector<std::string>& params = model.param_names();
  const std::size_t nx = r.nx, np = r.np;
  if (std::size_t i = first_non_finite(r.x); i < r.x.size())
    fail(method, value_word(r.x[i]) + " in state " + name_or_index(states, i % nx) +
                     at_time(r.times, i / nx));
  if (std::size_t i = first_non_finite(r.s); i < r.s.size()) {
    const std::size_t block = i % (nx * np);
    fail(method, value_word(r.s[i]) + " in S, d " + name_or_index(states, block % nx) + " / d " +
                     name_or_index(params, block / nx) + at_time(r.s_times, i / (nx * np)));
  }
  if (std::size_t i = first_non_finite(r.sr); i < r.sr.size())
    fail(method, value_word(r.sr[i]) + " in S·R, state " + name_or_index(states, i % nx) +
                     at_time(r.times, r.ns ? i / (nx * r.ns) : 0));
  if (std::size_t i = first_non_finite(r.gradient); i < r.gradient.size())
    fail(method, value_word(r.gradient[i]) + " in the gradient, d psi / d " +
                     name_or_index(params, np ? i % np : i));
  if (std::size_t i = first_non_finite(r.gradient_x0); i < r.gradient_x0.size())
    fail(method, value_word(r.gradient_x0[i]) + " in the gradient with respect to x(t0), state " +
                     name_or_index(states, nx ? i % nx : i));
  if (std::size_t i = first_non_finite(r.objective_values); i < r.objective_values.size())
    fail(method, value_word(r.objective_values[i]) + " in objective " + std::to_string(i + 1));
}

}  // namespace odesens::methods
