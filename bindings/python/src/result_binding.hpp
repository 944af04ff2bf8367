// A Result as a dict of numpy arrays (moved, not copied) and plain values,
// from which odesens.Result is built.
#pragma once

#include <pybind11/pybind11.h>

#include "odesens/result.hpp"

namespace odesens::python {

// Keys: method, t, x (n_t x nx), s_times, S (n_s x nx x np), sr
// (n_t x nx x ns), gradient (np, or np x M for M objectives), gradient_x0,
// objective_values, stats (dict), warnings (list), bounds (dict, or None).
// Must be called with the GIL held.
pybind11::dict result_to_dict(Result&& result);
// Stats as a dict: the fixed counters, then the method's own.
pybind11::dict stats_to_dict(const Stats& stats);

}  // namespace odesens::python
