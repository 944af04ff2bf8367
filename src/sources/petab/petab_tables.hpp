// The files of a PEtab v1 problem read into tables, each value parsed and
// checked on its own (the column it belongs to, its syntax, its range).
// Whether the ids refer to what they must (model entities, parameters of
// the parameter table, conditions, observables) is checked by the problem
// builder, which knows the model.
//
// Specification: PEtab v1 (petab.readthedocs.io, "PEtab data format
// specification"). Every Error names the file, and where it applies the
// row (1-based, the header is row 1) and column, and the rule broken:
//   Error(parse_error)   malformed YAML or TSV, wrong column set, a value
//                        that is not what its column takes;
//   Error(unsupported)   what the specification allows and odesens does not
//                        do yet (several problems in one file, several
//                        SBML files, a format version other than 1),
//                        naming it;
//   Error(unknown_model) a file that does not exist;
//   Error(io_error)      a file that cannot be read, is not a regular file
//                        or is larger than 256 MiB.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace odesens::petab {

enum class Scale { lin, log, log10 };
enum class Transformation { lin, log, log10 };
enum class NoiseDistribution { normal, laplace };
enum class PriorType {
  none,
  uniform,
  normal,
  laplace,
  log_normal,
  log_laplace,
  parameter_scale_uniform,
  parameter_scale_normal,
  parameter_scale_laplace
};

// Where a value was read, for messages: "file.tsv:12:3" style.
struct Place {
  std::string file;
  std::size_t row = 0;     // 1-based line; the header is row 1
  std::size_t column = 0;  // 1-based; 0 when the whole row is meant
  std::string text() const;  // "file:row:column" (or "file:row", "file")
};

// A cell that is a number, a parameter id (or other id), or empty.
struct Value {
  enum class Kind { empty, number, id } kind = Kind::empty;
  double number = 0.0;  // kind number; NaN allowed where the column allows it
  std::string id;       // kind id
  Place place;
};

struct Prior {
  PriorType type = PriorType::none;
  // The objectivePriorParameters ("a;b"): uniform lower;upper, normal
  // mean;sd, laplace location;scale, log-normal and log-laplace mu;sigma of
  // the log, parameterScale* the same on the parameter's scale.
  double a = 0.0, b = 0.0;
};

struct ParameterRow {
  std::string id;
  Scale scale = Scale::lin;
  // In linear space, as the specification writes them. Bounds are required
  // for estimated parameters (lower <= upper, both > 0 on log scales); a
  // fixed parameter's are kept as written, NaN when empty.
  double lower = 0.0, upper = 0.0;
  double nominal = 0.0;  // required (not NaN) for fixed parameters; NaN when absent
  bool estimate = false;
  Prior prior;            // objectivePriorType / objectivePriorParameters
  // initializationPriorType / initializationPriorParameters: what a fit's
  // starts are drawn from (docs/fit.md); type none where absent. A uniform
  // type without parameters has the bounds (on the parameter's scale for
  // parameterScaleUniform).
  Prior initialization;
  Place place;            // the row
};

struct ConditionTable {
  // Model ids, in file order (conditionId and conditionName left out): the
  // union of the columns of the condition files, a row's value empty for a
  // column its file lacks.
  std::vector<std::string> columns;
  std::vector<Place> column_places;  // the header cell that first names each column
  struct Row {
    std::string id;
    std::string name;                  // conditionName or ""
    std::vector<Value> values;         // one per column: number, id or empty (NaN is a number)
    Place place;
  };
  std::vector<Row> rows;
};

struct MeasurementRow {
  std::string observable_id;
  std::string preequilibration_condition;  // "" for none
  std::string simulation_condition;
  double time = 0.0;      // finite >= 0, or +inf (steady state)
  double measurement = 0.0;  // finite
  // observableParameters / noiseParameters split at ';' (empty: none),
  // each a number (not NaN) or an id.
  std::vector<Value> observable_parameters;
  std::vector<Value> noise_parameters;
  // datasetId and replicateId as written ("" where absent): not read, but
  // carried into the simulation table, which has the measurement table's form.
  std::string dataset_id, replicate_id;
  Place place;
};

struct ObservableRow {
  std::string id;
  std::string name;             // observableName or ""
  std::string formula;          // observableFormula
  std::string noise_formula;    // noiseFormula (a number, id or formula)
  Transformation transformation = Transformation::lin;
  NoiseDistribution distribution = NoiseDistribution::normal;
  Place place;
};

struct Tables {
  std::string problem_file;    // the YAML file (in the directory given: problem_file_of)
  std::string sbml_file;       // resolved against the YAML file's folder
  std::vector<std::string> files;  // the YAML and every file it lists (read or not)
  std::vector<ParameterRow> parameters;
  ConditionTable conditions;   // rows of every condition file
  std::vector<MeasurementRow> measurements;
  std::vector<ObservableRow> observables;
};

// Reads the problem file (PATH, or the one in directory PATH:
// problem_file_of) and every table it lists (paths relative to its folder).
// Ids are checked for their syntax (a letter or '_' first, then
// letters, digits, '_') and for duplicates within their table.
Tables read_tables(const std::string& path);

}  // namespace odesens::petab
