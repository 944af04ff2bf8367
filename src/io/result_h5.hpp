// One Result as the HDF5 document with one member (ensemble_h5.hpp,
// docs/hdf5-output.md): `odesens run --format h5`, odesens_result_write.
//
// The layout holds t, x, S and S_times (when the method gives S), the
// gradient, the parameters, the names and the attributes; it has no place
// for the enclosures of the set-valued methods (refused), for S·R or for
// observables (left out).
#pragma once

#include <string>
#include <vector>

#include "io/ensemble_h5.hpp"
#include "odesens/result.hpp"

namespace odesens::io {

// Error(unsupported) for a result the layout cannot hold (one with
// enclosures), before anything is written.
void require_h5_layout(const Result& result);

class ResultH5File {
 public:
  // Creates PATH.partial as EnsembleH5Writer does, for one member with
  // parameter vector `params` (the model's np values).
  ResultH5File(const std::string& path, const EnsembleH5Header& header,
               const std::vector<double>& params, const std::string& path_label);
  // Removes PATH.partial unless write() succeeded.
  ~ResultH5File();
  ResultH5File(const ResultH5File&) = delete;
  ResultH5File& operator=(const ResultH5File&) = delete;

  // Writes `result` as the member and renames PATH.partial to PATH.
  void write(const Result& result);

 private:
  EnsembleH5Writer writer_;
  bool written_ = false;
};

}  // namespace odesens::io
