#include "io/data_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/format_double.hpp"
#include "io/table_file.hpp"
#include "odesens/problem.hpp"
#include "odesens/status.hpp"

namespace odesens::io {
namespace {

// The table: a column t and any of the model's states (column index i + 1
// is state i).
NumberTable read_data_table(const std::string& path, const Model& model, const std::string& flag) {
  TableSchema schema;
  schema.flag = flag;
  schema.column = "state";
  schema.names = model.state_names();
  schema.names.insert(schema.names.begin(), "t");
  schema.owner = "model " + model.name();
  schema.row = "output time";
  schema.max_rows = max_output_times;
  schema.too_many = "rows (output times)";
  schema.empty_is_nan = true;
  return read_table(path, schema);
}

[[noreturn]] void refuse(const std::string& flag, const std::string& what) {
  throw Error(Status::invalid_argument, flag + ": " + what);
}

// Row k's values into m (its t checked against, or appended to, m.times).
void read_row(const NumberTable& table, std::size_t k, std::size_t c_t, bool times_from_file,
              std::size_t nx, const std::string& path, const std::string& flag, Measurements& m) {
  const std::size_t n_columns = table.columns.size();
  const double* row = table.values.data() + k * n_columns;
  const auto row_name = [k] { return "row " + std::to_string(k + 1); };
  const double t = row[c_t];
  if (std::isnan(t)) refuse(flag, path + ": " + row_name() + " has no t");
  if (times_from_file) m.times.push_back(t);
  if (!(std::fabs(t - m.times[k]) <= 1e-12 * std::max(1.0, std::fabs(m.times[k]))))
    refuse(flag, path + ": " + row_name() + " has t = " + format_double(t) +
                     ", not the output time " + format_double(m.times[k]));
  for (std::size_t c = 0; c < n_columns; ++c) {
    if (c == c_t) continue;
    if (std::isinf(row[c]))
      refuse(flag, path + ": " + row_name() + ", column " + std::to_string(c + 1) + ": " +
                       format_double(row[c]) +
                       " is not a measurement (NaN or an empty cell marks a missing one)");
    m.values[table.columns[c] - 1 + k * nx] = row[c];
  }
}

}  // namespace

Measurements read_measurements(const std::string& path, const Model& model,
                               const DataTableOptions& options) {
  const NumberTable table = read_data_table(path, model, options.flag);
  const auto t_column = std::find(table.columns.begin(), table.columns.end(), 0);
  if (t_column == table.columns.end())
    refuse(options.flag, path + ": no column 't' (the output times)");
  Measurements m;
  m.times = options.times;
  if (!m.times.empty() && m.times.size() != table.rows)
    refuse(options.flag, path + " has " + std::to_string(table.rows) + " rows, but " +
                             options.times_flag + " gives " + std::to_string(m.times.size()) +
                             " output times (one row each)");
  const bool times_from_file = m.times.empty();
  const std::size_t nx = model.nx();
  m.values.assign(table.rows * nx, std::numeric_limits<double>::quiet_NaN());
  const auto c_t = static_cast<std::size_t>(t_column - table.columns.begin());
  for (std::size_t k = 0; k < table.rows; ++k)
    read_row(table, k, c_t, times_from_file, nx, path, options.flag, m);
  return m;
}

}  // namespace odesens::io
