#include "sources/petab/petab_tables.hpp"

#include <cmath>

#include "sources/petab/petab_cells.hpp"
#include "sources/petab/petab_readers.hpp"
#include "sources/petab/petab_yaml.hpp"

namespace odesens::petab {

std::string Place::text() const {
  if (row == 0) return file;
  std::string s = file + ":" + std::to_string(row);
  if (column != 0) s += ":" + std::to_string(column);
  return s;
}

void IdSet::add(const std::string& id, const Place& place) {
  const auto [it, inserted] = first_.emplace(id, place);
  if (!inserted)
    fail(place, column_ + " " + shown(id) + " appears twice (first at " + it->second.text() + ")");
}

double required_number(const Tsv& t, std::size_t r, std::size_t c) {
  const std::string& s = t.cell(r, c);
  const std::string& column = t.header()[c];
  if (s.empty()) fail(t.place(r, c), column + " is empty");
  const auto v = number_of(s);
  if (!v) fail(t.place(r, c), column + " " + shown(s) + " " + not_a_number_reason(s));
  if (std::isnan(*v)) fail(t.place(r, c), column + " may not be NaN");
  return *v;
}

Tables read_tables(const std::string& path) {
  const std::string yaml_path = problem_file_of(path);
  const ProblemFiles files = read_problem_files(yaml_path);
  Tables tables;
  tables.problem_file = yaml_path;
  tables.sbml_file = files.sbml_file;
  tables.files = {yaml_path, files.sbml_file, files.parameter_file};
  for (const auto* list : {&files.condition_files, &files.observable_files,
                           &files.measurement_files, &files.visualization_files})
    tables.files.insert(tables.files.end(), list->begin(), list->end());
  read_parameter_table(files.parameter_file, tables.parameters);
  for (const std::string& f : files.condition_files) read_condition_table(f, tables.conditions);
  for (const std::string& f : files.observable_files) read_observable_table(f, tables.observables);
  for (const std::string& f : files.measurement_files)
    read_measurement_table(f, tables.measurements);
  // Without measurements there is no likelihood: a fit would "converge" at
  // once anywhere (a header-only table read as a problem with nllh 0).
  if (tables.measurements.empty())
    fail(Place{files.measurement_files.empty() ? yaml_path : files.measurement_files.front()},
         "the measurement table has no rows: a problem needs at least one measurement");
  return tables;
}

}  // namespace odesens::petab
