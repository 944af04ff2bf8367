// The guard every result passes before it leaves a method: a NaN or Inf in
// x, S, S·R, a gradient or an objective is never returned as a number.
#pragma once

#include <string>

#include "odesens/model.hpp"
#include "odesens/result.hpp"

namespace odesens::methods {

// Throws Error(not_finite) naming the method, the array and the first
// non-finite entry (its time, state and parameter by name) when one of the
// result's arrays holds NaN or Inf. Set-valued enclosures (Result::bounds)
// are not checked: an unbounded enclosure is reported by its own status.
void check_result_finite(const Result& result, const Model& model, const std::string& method);

}  // namespace odesens::methods
