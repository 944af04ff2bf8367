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

// Throws Error as the first evaluation would for the method, tolerances
// and options of `settings` (an option with "auto" is cvodes_fsa's, as in
// the tool), so that odesens.petab.Problem refuses them when made, not
// at its first evaluation worded as a condition's failure.
void check_petab_settings(const pybind11::dict& settings);

}  // namespace odesens::python
