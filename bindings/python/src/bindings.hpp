// The parts of the extension module _odesens, one register function per
// topic (module.cpp calls them in order).
#pragma once

#include <pybind11/pybind11.h>

namespace odesens::python {

void register_errors(pybind11::module_& m);
void register_models(pybind11::module_& m);
void register_methods(pybind11::module_& m);
void register_solves(pybind11::module_& m);
void register_ensembles(pybind11::module_& m);
void register_petab(pybind11::module_& m);
void register_fit(pybind11::module_& m);
void register_profile(pybind11::module_& m);

}  // namespace odesens::python
