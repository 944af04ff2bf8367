// The simulation settings of a PEtab problem, as odesens/petab.py gathers
// them into a dict: shared by evaluate(), fit() and profile(), so that a
// fit runs its simulations exactly as an evaluation would.
#pragma once

#include <pybind11/pybind11.h>

#include "odesens/petab.hpp"

namespace odesens::python {

// Keys: method, rtol, atol, max_steps, options, gradient, fim, threads
// (None or absent: PetabOptions' defaults).
PetabOptions petab_options(const pybind11::dict& settings);

}  // namespace odesens::python
