// The HDF5 document of a fit, in the style of the ensemble's
// (io/ensemble_h5.hpp): one row per start, in the waterfall's order (sorted
// by final nlpost, failed starts last), K starts, n estimated parameters:
//
//   start          (K, n)  the start point, on the parameters' scales
//   end            (K, n)  the point the start ended on
//   nllh, nlpost   (K)     at end (NaN for a failed start)
//   gradient_norm  (K)     largest projected-gradient component at end
//   iterations, evaluations, start_index (K) int64
//   status         (K) int32   the odesens status code, 0 = ok
//   exit_reason    (K) UTF-8 strings
//   seconds        (K)
//   parameter_ids, parameter_scales (n) UTF-8 strings
//   lower, upper   (n)     the bounds on the parameters' scales
//   attributes of /: problem, optimizer, odesens_version (strings), seed,
//                    starts_planned, starts_at_best (int64), stopped (int64 0/1)
//
// Written whole to PATH.partial and renamed over PATH (io/partial_file.hpp).
#pragma once

#include <string>

#include "odesens/fit.hpp"

namespace odesens::fitting {

// Error(invalid_argument) for a PATH that is standard output or not a
// regular file (named after path_label, "--out"), Error(io_error) naming
// the file and the reason when it cannot be written.
void write_fit_h5(const std::string& path, const PetabProblem& problem, const FitResult& fit,
                  const std::string& path_label);

}  // namespace odesens::fitting
