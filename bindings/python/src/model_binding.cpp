// Models: odesens.load() and what odesens.Model reads of one.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "numpy_arrays.hpp"
#include "odesens/builtin_models.hpp"
#include "odesens/model.hpp"
#include "odesens/model_loader.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

std::shared_ptr<Model> load_model_releasing_gil(
    const std::string& spec, const std::optional<std::vector<std::string>>& sens_params) {
  LoadOptions options;
  options.sbml_sensitivity_params = sens_params;
  py::gil_scoped_release unlocked;  // SBML documents can take a while
  return load_model(spec, options);
}

py::dict model_facts(const Model& model) {
  py::dict facts;
  facts["name"] = model.name();
  facts["nx"] = model.nx();
  facts["np"] = model.np();
  facts["t0"] = model.default_t0();
  facts["t_end"] = model.default_t_end();
  facts["exact_jacobians"] = model.has_analytic_jacobians();
  facts["second_derivatives"] = model.second_derivatives() != nullptr;
  const auto* pattern = model.jac_x_pattern();
  facts["jacobian_nonzeros"] = pattern ? pattern->nnz() : model.nx() * model.nx();
  const auto* events = model.event_system();
  facts["events"] = events ? events->events().size() : 0;
  py::dict details;
  for (const auto& [what, value] : model.source_details()) details[py::str(what)] = value;
  facts["source"] = details;
  return facts;
}

}  // namespace

void register_models(py::module_& m) {
  py::class_<Model, std::shared_ptr<Model>>(m, "Model", "A loaded model (see odesens.Model).")
      .def_property_readonly("name", &Model::name)
      .def_property_readonly("nx", &Model::nx)
      .def_property_readonly("np", &Model::np)
      .def_property_readonly("state_names", &Model::state_names)
      .def_property_readonly("param_names", &Model::param_names)
      .def_property_readonly("nominal",
                             [](const Model& model) { return owned_vector(model.nominal_params()); })
      .def_property_readonly("t0", &Model::default_t0)
      .def_property_readonly("t_end", &Model::default_t_end)
      .def("facts", &model_facts);
  m.def("load_model", &load_model_releasing_gil, py::arg("spec"),
        py::arg("sens_params") = py::none());
  m.def("builtin_model_names", &builtin_model_names);
}

}  // namespace odesens::python
