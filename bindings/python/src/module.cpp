// _odesens: the compiled half of the Python package odesens. Users import
// odesens (odesens/__init__.py), whose classes wrap the objects made here.
#include "bindings.hpp"
#include "odesens/version.hpp"

PYBIND11_MODULE(_odesens, m) {
  m.doc() = "The compiled part of odesens; use the package odesens instead.";
  m.attr("__version__") = ODESENS_VERSION_STRING;
  odesens::python::register_errors(m);
  odesens::python::register_models(m);
  odesens::python::register_methods(m);
  odesens::python::register_solves(m);
  odesens::python::register_ensembles(m);
  odesens::python::register_petab(m);
  odesens::python::register_fit(m);
  odesens::python::register_profile(m);
}
