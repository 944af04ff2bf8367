// CVODES return flags in odesens' terms: one Status per failure, for every
// user of CVODES (the methods, the bounds' integrators, backward problems).
#pragma once

#include <string>

#include "odesens/status.hpp"

namespace odesens::cvodes {

// The status a negative CVODES flag ends a solve with.
Status status_for_flag(int flag);
// What a negative flag means, in a user's words ("the Newton iteration did
// not converge, however small the step"): what messages say, never the
// flag's name (a flag without a description here: "CVODES error N").
std::string flag_text(int flag);
// Failures that NaN or Inf from the model may have caused (repeated
// evaluation or convergence failures, too much work), which are then
// reported as not_finite.
bool may_come_from_nonfinite(int flag);
// Throws Error(status_for_flag) for a negative flag of a call that has no
// session to ask for CVODES' message (set-up calls): "`call` failed: TEXT".
void check_flag(int flag, const char* call);

}  // namespace odesens::cvodes
