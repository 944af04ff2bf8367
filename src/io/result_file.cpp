#include "io/result_file.hpp"

#include <algorithm>
#include <cctype>

#include "core/quoted_text.hpp"
#include "io/hdf5_handle.hpp"
#include "io/output_file.hpp"
#include "io/result_csv.hpp"
#include "io/result_h5.hpp"
#include "io/result_json.hpp"
#include "odesens/status.hpp"

namespace odesens::io {
namespace {

std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

ResultFormat format_of_extension(const std::string& path) {
  const std::string name = lower_case(path.substr(path.rfind('/') + 1));
  if (ends_with(name, ".json")) return ResultFormat::json;
  if (ends_with(name, ".csv")) return ResultFormat::csv;
  if (ends_with(name, ".h5") || ends_with(name, ".hdf5")) return ResultFormat::h5;
  throw Error(Status::invalid_argument,
              "cannot tell the format of '" + path +
                  "' from its name (.json, .csv, .h5 or .hdf5): give the format, json, csv or h5");
}

}  // namespace

ResultFormat result_format(const std::string& format, const std::string& path) {
  if (format.empty()) return format_of_extension(path);
  if (format == "json") return ResultFormat::json;
  if (format == "csv") return ResultFormat::csv;
  if (format == "h5") return ResultFormat::h5;
  throw Error(Status::invalid_argument,
              "unknown result format " + quoted_text(format) + " (json, csv or h5)");
}

void write_result_text(std::ostream& out, ResultFormat format, const Model& model,
                       const Result& result, const RunDescription& run) {
  if (format == ResultFormat::json) return write_json(out, model, result, run);
  if (format == ResultFormat::csv) return write_csv(out, model, result, run);
  throw Error(Status::invalid_argument, "HDF5 is written to a file, not to a stream");
}

void write_result_file(const std::string& path, ResultFormat format, const Model& model,
                       const Result& result, const RunDescription& run,
                       const std::vector<double>& params) {
  if (path.empty()) throw Error(Status::invalid_argument, "the path of the result file is empty");
  if (format == ResultFormat::h5) {
    require_h5_layout(result);
    // The writer turns HDF5's traces off for good, as the tool wants; a
    // library caller keeps its own setting.
    const QuietHdf5Errors quiet;
    ResultH5File file(
        path,
        {run.model_spec, result.method, model.state_names(), model.param_names(), result.times},
        params, "path");
    file.write(result);
    return;
  }
  OutputFile file(path);
  write_result_text(file.stream(), format, model, result, run);
  file.commit();
}

}  // namespace odesens::io
