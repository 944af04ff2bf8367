#include "petab_settings.hpp"

#include <string>

#include "odesens/methods.hpp"
#include "odesens/options.hpp"
#include "problem_settings.hpp"

namespace py = pybind11;

namespace odesens::python {

PetabOptions petab_options(const py::dict& s) {
  PetabOptions o;
  auto has = [&](const char* key) { return s.contains(key) && !s[key].is_none(); };
  if (has("method")) o.method = s["method"].cast<std::string>();
  if (has("rtol")) o.rtol = s["rtol"].cast<double>();
  if (has("atol")) o.atol = {s["atol"].cast<double>()};
  if (has("max_steps")) o.max_steps = s["max_steps"].cast<std::int64_t>();
  if (has("gradient")) o.gradient = s["gradient"].cast<bool>();
  if (has("fim")) o.fim = s["fim"].cast<bool>();
  if (has("least_squares")) o.least_squares = s["least_squares"].cast<bool>();
  if (has("residual_jacobian")) o.residual_jacobian = s["residual_jacobian"].cast<bool>();
  if (has("state_check")) o.state_check = s["state_check"].cast<bool>();
  if (has("threads")) o.threads = s["threads"].cast<unsigned>();
  if (has("options"))
    for (const auto& [key, value] : s["options"].cast<py::dict>())
      set_option(o.options, key.cast<std::string>(), value);
  return o;
}

void check_petab_settings(const py::dict& settings) {
  const PetabOptions o = petab_options(settings);
  check_petab_method(o.method);
  check_petab_tolerances(o);
  const MethodInfo& info = method_info(o.method == "auto" ? "cvodes_fsa" : o.method);
  static_cast<void>(MethodOptions(info.id, info.options, o.options));
}

}  // namespace odesens::python
