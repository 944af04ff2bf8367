// odesens::Error as the Python exception odesens.Error (odesens/_errors.py).
#pragma once

#include "odesens/status.hpp"

namespace odesens::python {

// The status's enumerator name ("invalid_argument", "not_finite", ...),
// what odesens.Error.status holds.
const char* status_name(Status status) noexcept;

}  // namespace odesens::python
