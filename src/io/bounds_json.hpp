// The enclosures of a set-valued method (BoundsResult) in the JSON result
// document.
#pragma once

#include "io/json_values.hpp"
#include "odesens/result.hpp"

namespace odesens::io {

// Every field of BoundsResult, named as there: exponents[c][j],
// x_coef[k][i][c], x_rem and x_hull[k][i] = [lower, upper], x_shape[k][r][c]
// (empty for interval remainders), s_*[k][i][j], gradient_*[j].
Json bounds_json(const Result& r);

}  // namespace odesens::io
