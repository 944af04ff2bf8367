#include "io/result_h5.hpp"

namespace odesens::io {

void require_h5_layout(const Result& result) {
  if (result.bounds.n_monomials > 0)
    throw Error(Status::unsupported, "the HDF5 layout does not hold the enclosures of " +
                                         result.method +
                                         " (its polynomial models and hulls): write JSON or CSV");
}

ResultH5File::ResultH5File(const std::string& path, const EnsembleH5Header& header,
                           const std::vector<double>& params, const std::string& path_label)
    : writer_(path, header, 1, path_label) {
  try {
    writer_.write_parameters(0, {params});
  } catch (...) {
    writer_.discard();
    throw;
  }
}

ResultH5File::~ResultH5File() {
  if (!written_) writer_.discard();
}

void ResultH5File::write(const Result& result) {
  require_h5_layout(result);
  writer_.write_result(0, result);
  writer_.finish();
  written_ = true;
}

}  // namespace odesens::io
