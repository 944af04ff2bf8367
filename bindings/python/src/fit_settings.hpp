// The settings of one local optimization (odesens::OptimizerOptions) from
// the Python layer: shared by fits and profiles, so that both re-optimize
// in the same way for the same arguments.
#pragma once

#include <pybind11/pybind11.h>

#include "odesens/fit.hpp"

namespace odesens::python {

// `settings`: the problem's simulation settings (petab_options; threads is
// left to the library, which runs each start on one). `args` keys:
// optimizer, max_iterations, max_seconds (None or absent: the defaults).
OptimizerOptions optimizer_options(const pybind11::dict& settings, const pybind11::dict& args);

}  // namespace odesens::python
