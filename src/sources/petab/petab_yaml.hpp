// The problem file of PEtab v1 (YAML): which tables and which SBML model
// make up the problem.
#pragma once

#include <string>
#include <vector>

namespace odesens::petab {

// Paths resolved against the folder of the problem file.
struct ProblemFiles {
  std::string parameter_file;
  std::string sbml_file;
  std::vector<std::string> condition_files, measurement_files, observable_files;
  // Not read, but part of the problem: an output must not replace them.
  std::vector<std::string> visualization_files;
};

// Reads `yaml_path` (format_version 1, one problem with one SBML file;
// visualization files are listed, not read; unknown keys are ignored). Error(parse_error,
// "<file>:<line>:<column>: ...") for YAML that is malformed or lacks what
// PEtab requires, Error(unsupported) for a later format version, several
// problems, several SBML or parameter files.
ProblemFiles read_problem_files(const std::string& yaml_path);

// The problem file PATH names: PATH itself, or where PATH is a directory
// (the benchmark collection's layout, or a problem unpacked as it came), its
// NAME.yaml where NAME is the directory's own name, else its one .yaml or
// .yml file, else the one of several that opens a line with
// format_version: or problems: (the test suite's _NNNN.yaml beside its
// _NNNN_solution.yaml). Hidden files are not looked at. Error(
// unknown_model) for a directory with none, Error(invalid_argument) for one
// with several that cannot be told apart, naming them.
std::string problem_file_of(const std::string& path);

}  // namespace odesens::petab
