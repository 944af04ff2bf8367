// The condition, measurement and observable tables.
#include <cmath>
#include <cstdint>

#include "sources/petab/petab_cells.hpp"
#include "sources/petab/petab_readers.hpp"

namespace odesens::petab {
namespace {

// Where each column of a condition file goes in the table, which holds the
// union of the columns of all its files.
std::vector<std::size_t> condition_columns(const Tsv& t, ConditionTable& into,
                                           std::size_t id, std::optional<std::size_t> name) {
  std::vector<std::size_t> slot(t.header().size(), SIZE_MAX);
  for (std::size_t c = 0; c < t.header().size(); ++c) {
    if (c == id || c == name) continue;
    const std::string& column = t.header()[c];
    if (!is_id(column))
      fail(t.header_place(c), "condition table column " + shown(column) + " is not a model id");
    std::size_t k = 0;
    while (k < into.columns.size() && into.columns[k] != column) ++k;
    if (k == into.columns.size()) {
      into.columns.push_back(column);
      into.column_places.push_back(t.header_place(c));
    }
    slot[c] = k;
  }
  for (auto& row : into.rows) row.values.resize(into.columns.size());
  return slot;
}

}  // namespace

void read_condition_table(const std::string& file, ConditionTable& into) {
  const Tsv t(file, read_petab_file(file, "condition table"));
  const std::size_t id = t.required_column("conditionId");
  const std::optional<std::size_t> name = t.column("conditionName");
  IdSet ids("conditionId");
  for (const auto& row : into.rows) ids.add(row.id, row.place);
  const std::vector<std::size_t> slot = condition_columns(t, into, id, name);
  for (std::size_t r = 0; r < t.rows(); ++r) {
    ConditionTable::Row row;
    row.place = t.row_place(r);
    row.id = read_id(t.cell(r, id), t.place(r, id), "conditionId");
    if (reads_as_nan(row.id))
      fail(t.place(r, id), "conditionId '" + row.id + "' reads as NaN, an empty cell, where a "
                           "measurement names it (preequilibrationConditionId; pandas and the "
                           "PEtab tools read it so too): name the condition otherwise");
    ids.add(row.id, t.place(r, id));
    if (name) row.name = t.cell(r, *name);
    row.values.resize(into.columns.size());
    for (std::size_t c = 0; c < slot.size(); ++c)
      if (slot[c] != SIZE_MAX)
        row.values[slot[c]] = read_value(t.cell(r, c), t.place(r, c), t.header()[c], true);
    into.rows.push_back(std::move(row));
  }
}

namespace {

// Time is finite and >= 0, or inf for a steady-state measurement.
double read_time(const Tsv& t, std::size_t r, std::size_t c) {
  const double time = required_number(t, r, c);
  if (!(time >= 0)) fail(t.place(r, c), "time must be >= 0 (or inf)");
  return time;
}

struct MeasurementColumns {
  std::size_t observable, condition, time, measurement;
  std::optional<std::size_t> preequilibration, observable_parameters, noise_parameters;
  std::optional<std::size_t> dataset, replicate;
  explicit MeasurementColumns(const Tsv& t)
      : observable(t.required_column("observableId")),
        condition(t.required_column("simulationConditionId")),
        time(t.required_column("time")),
        measurement(t.required_column("measurement")),
        preequilibration(t.column("preequilibrationConditionId")),
        observable_parameters(t.column("observableParameters")),
        noise_parameters(t.column("noiseParameters")),
        dataset(t.column("datasetId")),
        replicate(t.column("replicateId")) {}
};

std::vector<Value> value_list(const Tsv& t, std::size_t r, std::optional<std::size_t> c) {
  if (!c) return {};
  return read_value_list(t.cell(r, *c), t.place(r, *c), t.header()[*c]);
}

MeasurementRow read_measurement(const Tsv& t, std::size_t r, const MeasurementColumns& c) {
  MeasurementRow m;
  m.place = t.row_place(r);
  m.observable_id = read_id(t.cell(r, c.observable), t.place(r, c.observable), "observableId");
  m.simulation_condition =
      read_id(t.cell(r, c.condition), t.place(r, c.condition), "simulationConditionId");
  m.time = read_time(t, r, c.time);
  m.measurement = required_number(t, r, c.measurement);
  if (!std::isfinite(m.measurement)) fail(t.place(r, c.measurement), "measurement must be finite");
  if (const auto p = c.preequilibration)
    m.preequilibration_condition =
        read_optional_id(t.cell(r, *p), t.place(r, *p), "preequilibrationConditionId");
  m.observable_parameters = value_list(t, r, c.observable_parameters);
  m.noise_parameters = value_list(t, r, c.noise_parameters);
  if (c.dataset) m.dataset_id = t.cell(r, *c.dataset);
  if (c.replicate) m.replicate_id = t.cell(r, *c.replicate);
  return m;
}

}  // namespace

void read_measurement_table(const std::string& file, std::vector<MeasurementRow>& into) {
  const Tsv t(file, read_petab_file(file, "measurement table"));
  const MeasurementColumns c(t);
  into.reserve(into.size() + t.rows());
  for (std::size_t r = 0; r < t.rows(); ++r) into.push_back(read_measurement(t, r, c));
}

namespace {

Transformation read_transformation(const Tsv& t, std::size_t r, std::optional<std::size_t> c) {
  const std::string s = c ? t.cell(r, *c) : std::string();
  if (s.empty() || s == "lin") return Transformation::lin;
  if (s == "log") return Transformation::log;
  if (s == "log10") return Transformation::log10;
  fail(t.place(r, *c), "observableTransformation " + shown(s) + " is not lin, log or log10");
}

NoiseDistribution read_distribution(const Tsv& t, std::size_t r, std::optional<std::size_t> c) {
  const std::string s = c ? t.cell(r, *c) : std::string();
  if (s.empty() || s == "normal") return NoiseDistribution::normal;
  if (s == "laplace") return NoiseDistribution::laplace;
  fail(t.place(r, *c), "noiseDistribution " + shown(s) + " is not normal or laplace");
}

// A formula's syntax is the formula parser's to check; here it must be there.
std::string required_text(const Tsv& t, std::size_t r, std::size_t c) {
  if (t.cell(r, c).empty()) fail(t.place(r, c), t.header()[c] + " is empty");
  return t.cell(r, c);
}

}  // namespace

void read_observable_table(const std::string& file, std::vector<ObservableRow>& into) {
  const Tsv t(file, read_petab_file(file, "observable table"));
  const std::size_t id = t.required_column("observableId");
  const std::size_t formula = t.required_column("observableFormula");
  const std::size_t noise = t.required_column("noiseFormula");
  const auto name = t.column("observableName");
  const auto transformation = t.column("observableTransformation");
  const auto distribution = t.column("noiseDistribution");
  IdSet ids("observableId");
  for (const ObservableRow& o : into) ids.add(o.id, o.place);
  for (std::size_t r = 0; r < t.rows(); ++r) {
    ObservableRow o;
    o.place = t.row_place(r);
    o.id = read_id(t.cell(r, id), t.place(r, id), "observableId");
    ids.add(o.id, t.place(r, id));
    if (name) o.name = t.cell(r, *name);
    o.formula = required_text(t, r, formula);
    o.noise_formula = required_text(t, r, noise);
    o.transformation = read_transformation(t, r, transformation);
    o.distribution = read_distribution(t, r, distribution);
    into.push_back(std::move(o));
  }
}

}  // namespace odesens::petab
