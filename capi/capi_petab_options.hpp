// The simulation settings of PEtab calls (a method id and tolerances),
// read from C arguments the same way by odesens_petab_evaluate and the
// fit options, so that both accept and refuse the same values.
#pragma once

#include "odesens/petab.hpp"

namespace odesens::capi {

// NULL or "" is "auto"; another id must name a method
// (Error(unknown_method) otherwise).
std::string petab_method(const char* method);

// <= 0 keeps the default; NaN or Inf is Error(not_finite) naming rtol or
// atol; rtol >= 1 is Error(invalid_argument). Checked in that order, and
// `options` is changed only when both are accepted.
void set_petab_tolerances(PetabOptions& options, double rtol, double atol);

}  // namespace odesens::capi
