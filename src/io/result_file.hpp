// A Result written as one of the result documents: JSON (result_json.hpp),
// CSV (result_csv.hpp) or HDF5 (result_h5.hpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "io/run_description.hpp"
#include "odesens/model.hpp"
#include "odesens/result.hpp"

namespace odesens::io {

enum class ResultFormat { json, csv, h5 };

// "json", "csv" or "h5"; an empty `format` is told from PATH's extension
// (.json, .csv, .h5 or .hdf5, in any case). Error(invalid_argument) for any
// other format, or for a PATH whose extension says none.
ResultFormat result_format(const std::string& format, const std::string& path);

// The JSON or CSV document onto `out` (Error(invalid_argument) for h5,
// which is written to a file only).
void write_result_text(std::ostream& out, ResultFormat format, const Model& model,
                       const Result& result, const RunDescription& run);

// The document as the file PATH, replaced whole or not at all (OutputFile;
// HDF5 by way of PATH.partial), with `params` the parameter vector of the
// solve (the HDF5 document's parameters). Error(io_error) naming PATH when
// it cannot be written; an existing PATH is then unchanged.
void write_result_file(const std::string& path, ResultFormat format, const Model& model,
                       const Result& result, const RunDescription& run,
                       const std::vector<double>& params);

}  // namespace odesens::io
