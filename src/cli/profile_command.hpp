// `odesens profile PROBLEM.yaml [--from BEST.tsv] [--parameters ID,...|all]
// [--confidence C] [--max-points N] [--threads T] [--optimizer ID]
// [--method ID] [--rtol R] [--atol A] [--max-steps N] [--out FILE.json] [--plot DIR]
// [--format text|json]`: profile likelihoods of a PEtab problem around a
// point (profile.hpp), the confidence intervals on standard output.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/petab_command.hpp"

namespace odesens::cli {

struct ProfileArguments {
  std::string problem;
  std::string from;
  std::string parameters = "all";
  double confidence = 0.95;
  std::optional<long long> max_points;
  unsigned threads = 1;
  std::string optimizer = "auto";
  SimulationArguments simulation;
  bool hierarchical = false;  // --hierarchical
  std::string out, plot;
  std::string format = "text";
  bool help = false;
};

void add_profile_flags(CLI::App& command, ProfileArguments& a);
int run_profile(const ProfileArguments& a);

}  // namespace odesens::cli
