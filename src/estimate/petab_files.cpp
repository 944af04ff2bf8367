// The PEtab files odesens writes and reads besides a problem: the
// simulation table of an evaluation and a table of parameter values.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text_encoding.hpp"
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

// CRLF and lone CR line ends as LF, as the PEtab tables' reader takes
// them (a table of lone CRs was one header line: every value nominal).
std::string with_line_feeds(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 == text.size() || text[i + 1] != '\n') {
      out += '\n';
    }
  }
  return out;
}

std::vector<std::string> split_tabs(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    cells.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return cells;
    start = tab + 1;
  }
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
  refuse_other_unicode(text, path);
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return text;
}

bool parse_number_text(const std::string& text, double& v) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  return r.ec == std::errc() && r.ptr == end && !text.empty();
}

// The columns read by name must each be one column: of two, which one is
// meant cannot be told (the first and the last were each taken).
void refuse_repeated_columns(const std::vector<std::string>& header, const std::string& where) {
  for (const char* name : {"parameterId", "value", "nominalValue"})
    if (std::count(header.begin(), header.end(), name) > 1)
      throw Error(Status::parse_error,
                  where + "the column " + name + " appears more than once in the header");
}

// A row of a PEtab parameter table for a parameter the problem does not
// estimate: a fixed parameter of the problem keeps the problem's value, so a
// different value here would be ignored without a word; an id the problem's
// table lacks is a typo or another problem's table.
void check_fixed_row(const PetabProblem& problem, const std::string& id, const std::string& text,
                     const std::string& where) {
  const auto& rows = problem.definition().tables.parameters;
  const auto row = std::find_if(rows.begin(), rows.end(),
                                [&id](const petab::ParameterRow& p) { return p.id == id; });
  if (row == rows.end())
    throw Error(Status::parse_error,
                where + "'" + id + "' is not a parameter of the problem's parameter table");
  double v = 0.0;
  if (!parse_number_text(text, v) || v == row->nominal ||
      std::abs(v - row->nominal) <= 1e-12 * std::abs(row->nominal))
    return;  // as the problem has it (an empty or "nan" cell says nothing)
  throw Error(Status::parse_error,
              where + "'" + id + "' is fixed in the problem (estimate 0) at " +
                  io::format_double(row->nominal) + "; " + text +
                  " here would be ignored: change it in the problem's parameter table");
}

// A cell as the tables' reader reads it back: in double quotes (a quote in
// it doubled) where it holds a tab, a quote or a line break.
std::string tsv_cell(const std::string& text) {
  if (text.find_first_of("\t\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

}  // namespace

void PetabProblem::write_simulations(const PetabResult& r, const std::string& path) const {
  if (r.simulations.size() != def_->measurements.size())
    throw Error(Status::invalid_argument,
                "PEtab simulation table: the result is not one of this problem");
  const auto& rows = def_->tables.measurements;
  const auto any = [&rows](std::string petab::MeasurementRow::*id) {
    return std::any_of(rows.begin(), rows.end(),
                       [id](const petab::MeasurementRow& m) { return !(m.*id).empty(); });
  };
  const bool datasets = any(&petab::MeasurementRow::dataset_id);
  const bool replicates = any(&petab::MeasurementRow::replicate_id);
  io::OutputFile file(path);
  std::ostream& out = file.stream();
  out << "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\tsimulation\t"
         "observableParameters\tnoiseParameters"
      << (datasets ? "\tdatasetId" : "") << (replicates ? "\treplicateId" : "") << '\n';
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const petab::MeasurementRow& m = rows[i];
    out << m.observable_id << '\t' << m.preequilibration_condition << '\t'
        << m.simulation_condition << '\t' << (std::isinf(m.time) ? "inf" : io::format_double(m.time))
        << '\t' << io::format_double(r.simulations[i]) << '\t'
        << list_text(m.observable_parameters) << '\t' << list_text(m.noise_parameters);
    if (datasets) out << '\t' << tsv_cell(m.dataset_id);
    if (replicates) out << '\t' << tsv_cell(m.replicate_id);
    out << '\n';
  }
  file.commit();
}

void PetabProblem::write_parameter_table(const std::vector<double>& x,
                                         const std::string& path) const {
  if (x.size() != ids_.size())
    throw Error(Status::invalid_argument, "PEtab parameter table: " + std::to_string(x.size()) +
                                              " values given, the problem estimates " +
                                              std::to_string(ids_.size()));
  const std::string& source = def_->tables.parameters.at(0).place.file;
  const petab::Tsv table(source, petab::read_petab_file(source, "parameter table"));
  const std::size_t id_column = table.required_column("parameterId");
  const std::size_t value_column = table.required_column("nominalValue");
  io::OutputFile file(path);
  std::ostream& out = file.stream();
  const auto& header = table.header();
  for (std::size_t c = 0; c < header.size(); ++c) out << (c ? "\t" : "") << header[c];
  out << '\n';
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const std::string& id = table.cell(r, id_column);
    const auto estimated = std::find(ids_.begin(), ids_.end(), id);
    for (std::size_t c = 0; c < header.size(); ++c) {
      out << (c ? "\t" : "");
      if (c == value_column && estimated != ids_.end()) {
        const auto i = static_cast<std::size_t>(estimated - ids_.begin());
        out << io::format_double(petab::unscale(x[i], def_->tables.parameters[def_->estimated[i]].scale));
      } else {
        out << table.cell(r, c);
      }
    }
    out << '\n';
  }
  file.commit();
}

std::vector<double> read_petab_parameter_values(const PetabProblem& problem,
                                                const std::string& path) {
  std::vector<double> x = problem.nominal_scaled();
  std::istringstream in(with_line_feeds(read_small_file(path)));
  std::string line;
  std::size_t row = 0, id_column = 0, value_column = 0, columns = 0;
  bool have_header = false;
  bool parameter_table = false;  // a PEtab parameter table: fixed parameters' rows skipped
  std::vector<std::size_t> row_of(x.size(), 0);  // the row that set each value
  while (std::getline(in, line)) {
    ++row;
    const std::vector<std::string> cells = split_tabs(line);
    const std::string where = path + ":" + std::to_string(row) + ": ";
    if (!have_header) {
      refuse_repeated_columns(cells, where);
      bool id_found = false, value_found = false;
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (cells[c] == "parameterId") id_column = c, id_found = true;
        if (cells[c] == "value") value_column = c, value_found = true;
      }
      for (std::size_t c = 0; c < cells.size() && !value_found; ++c)
        if (cells[c] == "nominalValue") value_column = c, value_found = parameter_table = true;
      if (!id_found || !value_found)
        throw Error(Status::parse_error, where + "the header needs the columns parameterId and "
                                                "value (tab-separated)");
      have_header = true;
      columns = cells.size();
      continue;
    }
    if (cells.size() == 1 && cells[0].empty()) continue;
    if (cells.size() <= std::max(id_column, value_column))
      throw Error(Status::parse_error, where + "fewer cells than the header has columns");
    // as the problem's tables: a cell past the header is a shifted row
    for (std::size_t c = columns; c < cells.size(); ++c)
      if (!cells[c].empty())
        throw Error(Status::parse_error, where + "the row has more cells than the header has "
                                                 "columns (" + std::to_string(columns) + ")");
    const auto& ids = problem.parameter_ids();
    const std::string& id = cells[id_column];
    std::size_t i = 0;
    while (i < ids.size() && ids[i] != id) ++i;
    if (i == ids.size() && parameter_table) {
      check_fixed_row(problem, id, cells[value_column], where);
      continue;
    }
    if (i == ids.size())
      throw Error(Status::parse_error,
                  where + "'" + id + "' is not an estimated parameter of the problem");
    if (row_of[i] != 0)
      throw Error(Status::parse_error, where + "'" + id + "' is given again (row " +
                                           std::to_string(row_of[i]) + " gave it)");
    row_of[i] = row;
    double v = 0.0;
    if (!parse_number_text(cells[value_column], v) || !std::isfinite(v))
      throw Error(Status::parse_error, where + "value '" + cells[value_column] +
                                           "' is not a finite number");
    x[i] = problem.to_scale(i, v);
    if (!std::isfinite(x[i]))
      throw Error(Status::parse_error, where + "value " + cells[value_column] + " of '" + id +
                                           "' has no value on its " +
                                           problem.parameter_scales()[i] + " scale");
  }
  if (!have_header) throw Error(Status::parse_error, path + ": empty parameter table");
  if (!row_of.empty() &&
      std::all_of(row_of.begin(), row_of.end(), [](std::size_t r) { return r == 0; }))
    throw Error(Status::parse_error, path + ": no row gives an estimated parameter's value "
                                            "(a table of one point: parameterId and value)");
  return x;
}

}  // namespace odesens
