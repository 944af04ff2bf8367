// The method registry as plain data: odesens.methods() and
// odesens.options(method) read it.
#include <variant>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "odesens/methods.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

py::object option_value(const OptionValue& value) {
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

py::dict capabilities(const MethodCapabilities& c) {
  py::dict d;
  d["s_trajectory"] = c.s_trajectory;
  d["final_s"] = c.final_s;
  d["gradient"] = c.gradient;
  d["bounds"] = c.bounds;
  d["integrands"] = c.integrands;
  d["directions"] = c.directions;
  d["rhs_only"] = c.rhs_only;
  d["events"] = c.events;
  d["exact_jacobians"] = c.exact_jacobians;
  d["second_derivatives"] = c.second_derivatives;
  d["parameter_box"] = c.parameter_box;
  return d;
}

py::dict option(const OptionSpec& spec) {
  py::dict d;
  d["key"] = spec.key;
  d["type"] = option_type_text(spec);
  d["default"] = option_value(spec.default_value);
  d["doc"] = spec.doc;
  d["choices"] = py::cast(spec.choices);
  d["range"] = range_text(spec);
  d["min"] = spec.min;
  d["max"] = spec.max;
  return d;
}

py::dict method(const MethodInfo& info) {
  py::dict d;
  d["id"] = info.id;
  d["summary"] = info.summary;
  d["capabilities"] = capabilities(info.capabilities);
  d["default_rtol"] = info.default_rtol;
  d["default_atol"] = info.default_atol;
  py::list options;
  for (const auto& spec : info.options) options.append(option(spec));
  d["options"] = options;
  return d;
}

}  // namespace

void register_methods(py::module_& m) {
  m.def("method_infos", [] {
    py::list infos;
    for (const auto& info : method_infos()) infos.append(method(info));
    return infos;
  });
  // Error(unknown_method) listing the known ids.
  m.def("method_info", [](const std::string& id) { return method(method_info(id)); });
}

}  // namespace odesens::python
