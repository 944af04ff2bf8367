// `odesens fit PROBLEM.yaml --starts N [--threads T] [--optimizer ID]
// [--seed S] [--starts-from FILE.tsv] [--max-iterations N]
// [--max-seconds-per-start S] [--method ID] [--rtol R] [--atol A]
// [--out FILE.h5] [--best FILE.tsv] [--plot DIR] [--format text|json]`: multi-start
// parameter estimation of a PEtab problem (fit.hpp), the waterfall of the
// starts on standard output, the starts' table in HDF5 and the best
// parameters as a PEtab parameter table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace odesens::cli {

struct FitArguments {
  std::string problem;
  std::optional<long long> starts;
  unsigned threads = 1;
  std::string optimizer = "auto";
  std::uint64_t seed = 0;
  std::string starts_from;
  std::optional<long long> max_iterations;
  std::optional<double> max_seconds;
  std::string method = "auto";
  std::optional<double> rtol, atol;
  std::string out, best, plot;
  std::string format = "text";
  bool help = false;
};

void add_fit_flags(CLI::App& command, FitArguments& a);
int run_fit(const FitArguments& a);

}  // namespace odesens::cli
