// A Problem from the keyword arguments of odesens.solve and Model.solver,
// as the Python layer (odesens/solve.py) gathers them into a dict.
#pragma once

#include <memory>

#include <pybind11/pybind11.h>

#include "odesens/model.hpp"
#include "odesens/problem.hpp"

namespace odesens::python {

// Keys (None or absent: the library's default): "t" (output times), "t0",
// "p", "x0", "rtol", "atol" (a number or one per state), "max_steps",
// "options" (a dict of int, float, bool or str), "weights" (n_t x nx adjoint
// weights), "box" ((lower, upper) for the set-valued methods). Sizes and
// values are checked by the library (validate_problem), not here.
Problem make_problem(const std::shared_ptr<Model>& model, const pybind11::dict& settings);

// Sets one option from a Python value; Error(option_type) for a value that
// is neither a number nor text.
void set_option(Options& options, const std::string& key, const pybind11::handle& value);

}  // namespace odesens::python
