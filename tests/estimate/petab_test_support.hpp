// What the PEtab tests share: where the shared problems are, reading the
// conformance cases' solutions, and central differences of nlpost.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "odesens/petab.hpp"

namespace odesens::test {

// (nlpost(x + h e_i) - nlpost(x - h e_i)) / 2h, nlpost being nllh without
// priors.
inline double central_difference(const PetabProblem& problem, const std::vector<double>& x,
                                 std::size_t i, double h, const PetabOptions& options) {
  std::vector<double> up = x, down = x;
  up[i] += h;
  down[i] -= h;
  return (problem.evaluate(up, options).nlpost - problem.evaluate(down, options).nlpost) /
         (2 * h);
}

inline std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env && *env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

inline bool exists(const std::string& path) {
  struct stat s;
  return ::stat(path.c_str(), &s) == 0;
}

// ../shared/petab/test-suite/NNNN/_NNNN.yaml
inline std::string conformance_case(const std::string& id) {
  return shared_dir() + "/petab/test-suite/" + id + "/_" + id + ".yaml";
}

// ../shared/petab/benchmark/NAME: the directory, which names its problem
// file (NAME.yaml, or its only YAML file: PetabProblem::load).
inline std::string benchmark_problem(const std::string& name) {
  return shared_dir() + "/petab/benchmark/" + name;
}

// A TSV file as rows of cells (the header is row 0).
inline std::vector<std::vector<std::string>> read_tsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, '\t')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace odesens::test
