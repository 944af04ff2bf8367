// A Result as a dict of numpy arrays (moved, not copied) and plain values,
// from which odesens.Result is built.
#pragma once

#include <pybind11/pybind11.h>

#include "odesens/result.hpp"

namespace odesens::python {

// Keys: method, method_choice, stats (dict), warnings (list), arrays (every
// array of the result's table by name, shaped in the documents' order), sr
// (arrays["SR"], or None without directions), bounds (basis, remainder,
// order, n_monomials and the enclosures' arrays, or None).
// Must be called with the GIL held.
pybind11::dict result_to_dict(Result&& result);
// Stats as a dict: the fixed counters, then the method's own.
pybind11::dict stats_to_dict(const Stats& stats);

}  // namespace odesens::python
