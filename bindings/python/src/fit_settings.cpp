#include "fit_settings.hpp"

#include <cstdint>
#include <string>

#include "petab_settings.hpp"

namespace py = pybind11;

namespace odesens::python {

OptimizerOptions optimizer_options(const py::dict& settings, const py::dict& args) {
  OptimizerOptions o;
  o.evaluation = petab_options(settings);
  // Gradients, FIMs and residuals are what each optimizer asks for, not
  // the caller's to set.
  o.evaluation.gradient = o.evaluation.fim = false;
  auto has = [&](const char* key) { return args.contains(key) && !args[key].is_none(); };
  if (has("optimizer")) o.optimizer = args["optimizer"].cast<std::string>();
  if (has("max_iterations")) o.max_iterations = args["max_iterations"].cast<std::int64_t>();
  if (has("max_seconds")) o.max_seconds = args["max_seconds"].cast<double>();
  if (has("hierarchical")) o.evaluation.hierarchical = args["hierarchical"].cast<bool>();
  return o;
}

}  // namespace odesens::python
