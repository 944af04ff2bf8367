// A small valid PEtab problem written to a temporary folder, whose files a
// test can replace one at a time to see how the reader takes them.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "odesens/status.hpp"
#include "sources/petab/petab_tables.hpp"

namespace odesens::testing {

class TempProblem {
 public:
  TempProblem() {
    std::string pattern = (std::filesystem::temp_directory_path() / "petab_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    files_ = {
        {"problem.yaml",
         "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
         "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
         "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n"
         "  visualization_files: [missing_but_ignored.tsv]\n"},
        {"parameters.tsv",
         "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n"
         "k1\tlog10\t1e-3\t1E3\t1\t1\n"
         "sd\tlin\t\t\t0.5\t0\n"},
        {"conditions.tsv",
         "conditionId\tconditionName\tk2\tA0\n"
         "c0\tcontrol\t1.5\t\n"
         "c1\t\tk1\tnan\n"},
        {"observables.tsv",
         "observableId\tobservableFormula\tnoiseFormula\tobservableTransformation\n"
         "obs_a\tA + offset\tnoiseParameter1_obs_a\tlog10\n"},
        {"measurements.tsv",
         "observableId\tsimulationConditionId\ttime\tmeasurement\tnoiseParameters\t"
         "observableParameters\n"
         "obs_a\tc0\t0\t1.0\tsd\t\n"
         "obs_a\tc1\tinf\t2\t0.1\t1;k1\n"},
        {"model.xml", "<sbml/>\n"}};
    for (const auto& [name, text] : files_) write(name, text);
  }
  ~TempProblem() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  TempProblem(const TempProblem&) = delete;
  TempProblem& operator=(const TempProblem&) = delete;

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  const std::string& text(const std::string& name) const { return files_.at(name); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(path(name), std::ios::binary) << text;
  }
  petab::Tables read() const { return petab::read_tables(path("problem.yaml")); }

 private:
  std::filesystem::path dir_;
  std::map<std::string, std::string> files_;
};

// Runs `read`, expecting Error(status) whose message holds `part`.
template <class Read>
void expect_error(Read read, Status status, const std::string& part) {
  try {
    read();
    ADD_FAILURE() << "no error; expected one with '" << part << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    EXPECT_LT(std::string(e.what()).size(), 1000u) << "message too long";
  }
}

}  // namespace odesens::testing
