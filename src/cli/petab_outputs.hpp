// The output files of the PEtab commands (petab, fit, profile), checked
// before any work is done: a fit can take hours, and an output that cannot
// be written, or that would replace one of the problem's own files, is
// said at once.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "odesens/petab.hpp"

namespace odesens::cli {

// flag and path of an output file ("--out", "fit.h5"); an empty path is
// not asked for.
using OutputFlag = std::pair<std::string, std::string>;

// The outputs a command was asked for and the files it reads besides the
// problem's (--at, --from, --starts-from); empty paths are not asked for.
struct PetabOutputs {
  std::vector<OutputFlag> files;    // text files (--simulations, --best, a JSON --out)
  std::vector<OutputFlag> hdf5;     // HDF5 documents: regular files (io::check_hdf5_path)
  std::vector<OutputFlag> folders;  // output folders (--plot DIR), made later where absent
  std::vector<std::string> inputs;
  std::vector<std::string> pictures;  // the files each folder will get
};

// UsageError for an output that is one of problem.input_files(), one of
// the inputs, or the same file as another output (however spelled: ./a.h5
// and a.h5, links); Error(io_error) for a file that is a directory or whose
// folder cannot be written (its temporary is made and discarded: the file
// is untouched), for an HDF5 path io::check_hdf5_path refuses, for a
// folder that is a file or lies under one, and for a picture of an existing
// folder that is a directory or cannot be written.
void check_petab_outputs(const PetabProblem& problem, const PetabOutputs& outputs);

// UsageError where `out`, given with `flag`, names one of `inputs` (a
// model file, a table the command reads) however spelled: `run` and
// `ensemble` replaced their own model or parameter table with their output.
void refuse_output_over_inputs(const std::string& flag, const std::string& out,
                               const std::vector<std::string>& inputs);

// The outputs written at a command's end (fit, profile), each on its own:
// one that cannot be written (a file that appeared meanwhile, a full disk)
// is said on standard error and the others are still written, so that the
// work behind them is not lost with it.
class OutputWrites {
 public:
  explicit OutputWrites(std::string command) : command_(std::move(command)) {}
  // Runs `write`; an error it throws is said, naming `flag`.
  void run(const std::string& flag, const std::function<void()>& write);
  // The exit status of the first output that failed (as for that error
  // alone), 0 where all were written.
  int status() const { return status_; }

 private:
  void said(const std::string& flag, const char* what, int status);
  std::string command_;
  int status_ = 0;
};

}  // namespace odesens::cli
