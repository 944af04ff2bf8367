// The verified arithmetic the set-valued methods compute with (src/arith/:
// intervals, polynomial models, the model's functions evaluated over them),
// with its names visible in the methods' namespace.
#pragma once

#include "arith/interval.hpp"
#include "arith/model_functions.hpp"
#include "arith/poly_evaluation.hpp"
#include "arith/poly_model.hpp"

namespace odesens::bounds {
using namespace odesens::arith;  // NOLINT(google-build-using-namespace): one vocabulary
}  // namespace odesens::bounds
