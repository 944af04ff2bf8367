// What a result document says beyond the Result itself: how the model was
// named, which of the method's outputs to show, and the observables.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace odesens::io {

struct RunDescription {
  std::string model_spec;  // the model as the user named it (a path, builtin:chua)
  bool gradient_method = false;
  // Observables: the names as given and their values at the output times
  // (values[n][k]); no names, no observables in the output.
  std::vector<std::string> observable_names;
  std::vector<std::vector<double>> observable_values;
  // Objectives differentiated (Problem::n_objectives).
  std::size_t n_objectives = 1;
};

}  // namespace odesens::io
