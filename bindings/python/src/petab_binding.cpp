// PEtab problems: loading, the estimated parameters, evaluate() with the
// GIL released, and the measurement table for plots.
#include <memory>
#include <string>
#include <utility>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "numpy_arrays.hpp"
#include "petab_settings.hpp"
#include "result_binding.hpp"
#include "odesens/petab.hpp"
#include "sources/petab/petab_problem.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

// pybind11 holds objects by non-const pointers; every member used is const.
using Problem = std::shared_ptr<PetabProblem>;

Problem load_petab_releasing_gil(const std::string& yaml) {
  py::gil_scoped_release unlocked;
  return std::const_pointer_cast<PetabProblem>(PetabProblem::load(yaml));
}

py::dict evaluation_to_dict(PetabResult&& r) {
  py::dict d;
  d["method"] = r.method;
  d["llh"] = r.llh;
  d["nllh"] = r.nllh;
  d["chi2"] = r.chi2;
  d["log_prior"] = r.log_prior;
  d["nlpost"] = r.nlpost;
  d["has_priors"] = r.has_priors;
  d["parameter_ids"] = py::cast(r.parameter_ids);
  d["gradient"] = owned_vector(std::move(r.gradient));
  const auto n = static_cast<py::ssize_t>(r.parameter_ids.size());
  d["fim"] = r.fim.empty() ? py::object(py::none())
                           : py::object(owned_array(std::move(r.fim), {n, n}, {n, 1}));
  d["simulations"] = owned_vector(std::move(r.simulations));
  d["sigmas"] = owned_vector(std::move(r.sigmas));
  d["residuals"] = owned_vector(std::move(r.residuals));
  const auto m = static_cast<py::ssize_t>(r.least_squares_residuals.size());
  d["residual_jacobian"] =
      r.residual_jacobian.empty()
          ? py::object(py::none())
          : py::object(owned_array(std::move(r.residual_jacobian), {m, n}, {n, 1}));
  d["least_squares_residuals"] = owned_vector(std::move(r.least_squares_residuals));
  d["stats"] = stats_to_dict(r.stats);
  d["n_experiments"] = r.n_experiments;
  d["warnings"] = py::cast(r.warnings);
  return d;
}

py::dict evaluate(const Problem& problem, const py::handle& x, const py::dict& settings) {
  const std::vector<double> theta = to_vector(x, "x");
  const PetabOptions options = petab_options(settings);
  PetabResult result;
  {
    py::gil_scoped_release unlocked;
    result = problem->evaluate(theta, options);
  }
  return evaluation_to_dict(std::move(result));
}

// The measurement table as the evaluation orders it: observable,
// simulation and pre-equilibration condition, time, value.
py::dict measurements(const Problem& problem) {
  const petab::Definition& def = problem->definition();
  py::list observable, condition, preequilibration;
  std::vector<double> time, value;
  for (const auto& m : def.measurements) {
    const petab::Experiment& e = def.experiments[m.experiment];
    observable.append(def.observables[m.observable].id);
    condition.append(def.conditions[e.simulation].id);
    preequilibration.append(e.preequilibration < 0
                                ? std::string()
                                : def.conditions[static_cast<std::size_t>(e.preequilibration)].id);
    time.push_back(m.time);
    value.push_back(m.value);
  }
  py::dict d;
  d["observable"] = observable;
  d["condition"] = condition;
  d["preequilibration"] = preequilibration;
  d["time"] = owned_vector(std::move(time));
  d["measurement"] = owned_vector(std::move(value));
  return d;
}

}  // namespace

void register_petab(py::module_& m) {
  py::class_<PetabProblem, Problem>(m, "PetabProblem", "A PEtab problem (see odesens.petab).")
      .def_property_readonly("parameter_ids", &PetabProblem::parameter_ids)
      .def_property_readonly("scales", &PetabProblem::parameter_scales)
      .def_property_readonly("lower", &PetabProblem::lower_scaled)
      .def_property_readonly("upper", &PetabProblem::upper_scaled)
      .def_property_readonly("nominal", &PetabProblem::nominal_scaled)
      .def_property_readonly("inner_parameters", &PetabProblem::inner_parameters)
      .def_property_readonly("n_measurements", &PetabProblem::n_measurements)
      .def_property_readonly("n_experiments", &PetabProblem::n_experiments)
      .def_property_readonly("file", &PetabProblem::file)
      .def_property_readonly("has_least_squares_form", &PetabProblem::has_least_squares_form)
      .def("evaluate", &evaluate, py::arg("x"), py::arg("settings"))
      .def("measurements", &measurements);
  m.def("load_petab", &load_petab_releasing_gil, py::arg("yaml"));
  m.def("check_petab_settings", &check_petab_settings, py::arg("settings"));
}

}  // namespace odesens::python
