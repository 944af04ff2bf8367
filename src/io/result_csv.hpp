// A Result as the CSV result document (`odesens run --format csv`,
// odesens_result_write).
#pragma once

#include <ostream>

#include "io/run_description.hpp"
#include "odesens/model.hpp"
#include "odesens/result.hpp"

namespace odesens::io {

// CSV: a header `t,<states>,d<state>/d<param>...,d<state>/dr<j>...,<observables>`
// and one row per output time (sensitivity cells empty where S is not given
// at that time; the S·R columns d<state>/dr1.. only with Result::ns > 0,
// direction slowest); for gradient methods a blank line and a `parameter,gradient` table
// follow (`parameter,gradient_1,...,gradient_M` for M > 1 objectives), and
// from the methods that give objective values another blank line and an
// `objective,value` table (objectives numbered from 1); for the set-valued
// methods a blank line and the table of the hulls of x and S at each output
// time (`t,<state>_lower,<state>_upper,...`), then a blank line and
// `parameter,gradient_lower,gradient_upper`.
void write_csv(std::ostream& out, const Model& model, const Result& result,
               const RunDescription& run);

}  // namespace odesens::io
