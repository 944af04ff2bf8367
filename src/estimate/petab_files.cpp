// The PEtab files odesens writes and reads besides a problem: the
// simulation table of an evaluation and a table of parameter values.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "io/format_double.hpp"
#include "io/output_file.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"
#include "sources/petab/petab_problem.hpp"
#include "sources/petab/petab_tsv.hpp"

namespace odesens {
namespace {

std::string value_text(const petab::Value& v) {
  return v.kind == petab::Value::Kind::id ? v.id : io::format_double(v.number);
}

std::string list_text(const std::vector<petab::Value>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ";" : "") + value_text(values[i]);
  return text;
}


// The table's bytes, at most 64 MiB, from a regular file (a folder would
// read as an empty table, a device or FIFO without end). A file that is
// missing or not a regular file is the command line's error, as
// ensemble's --params file.
std::string read_small_file(const std::string& path) {
  std::error_code error;
  const auto type = std::filesystem::status(path, error).type();
  if (error)
    throw Error(Status::invalid_argument, path + ": cannot be read: " + error.message());
  if (type != std::filesystem::file_type::regular)
    throw Error(Status::invalid_argument,
                path + ": " +
                    (type == std::filesystem::file_type::directory ? "a directory"
                                                                   : "not a regular file") +
                    ", not a parameter table");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Status::invalid_argument, path + ": cannot be opened for reading");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > (std::size_t{64} << 20))
      throw Error(Status::io_error, path + ": larger than 64 MiB, not a parameter table");
  }
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return text;
}

bool parse_number_text(const std::string& text, double& v) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  return r.ec == std::errc() && r.ptr == end && !text.empty();
}

}  // namespace

void PetabProblem::write_simulations(const PetabResult& r, const std::string& path) const {
  if (r.simulations.size() != def_->measurements.size())
    throw Error(Status::invalid_argument,
                "PEtab simulation table: the result is not one of this problem");
  io::OutputFile file(path);
  std::ostream& out = file.stream();
  out << "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\tsimulation\t"
         "observableParameters\tnoiseParameters\n";
  for (std::size_t i = 0; i < def_->measurements.size(); ++i) {
    const petab::MeasurementRow& m = def_->tables.measurements[i];
    out << m.observable_id << '\t' << m.preequilibration_condition << '\t'
        << m.simulation_condition << '\t' << (std::isinf(m.time) ? "inf" : io::format_double(m.time))
        << '\t' << io::format_double(r.simulations[i]) << '\t'
        << list_text(m.observable_parameters) << '\t' << list_text(m.noise_parameters) << '\n';
  }
  file.commit();
}

std::vector<double> read_petab_parameter_values(const PetabProblem& problem,
                                                const std::string& path) {
  std::vector<double> x = problem.nominal_scaled();
  const petab::Tsv table(path, read_small_file(path));
  const auto id_column = table.column("parameterId");
  const auto value_column = table.column("value");
  if (!id_column || !value_column)
    throw Error(Status::parse_error, path + ":1: the header needs the columns parameterId and "
                                           "value (tab-separated)");
  const auto& ids = problem.parameter_ids();
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const std::string where = table.row_place(r).text() + ": ";
    const std::string& id = table.cell(r, *id_column);
    const std::string& text = table.cell(r, *value_column);
    const auto i = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
    if (i == ids.size())
      throw Error(Status::parse_error,
                  where + "'" + id + "' is not an estimated parameter of the problem");
    double v = 0.0;
    if (!parse_number_text(text, v) || !std::isfinite(v))
      throw Error(Status::parse_error, where + "value '" + text + "' is not a finite number");
    x[i] = problem.to_scale(i, v);
    if (!std::isfinite(x[i]))
      throw Error(Status::parse_error, where + "value " + text + " of '" + id +
                                           "' has no value on its " +
                                           problem.parameter_scales()[i] + " scale");
  }
  return x;
}

}  // namespace odesens
