// The output files of the PEtab commands (petab, fit, profile), checked
// before any work is done: a fit can take hours, and an output that cannot
// be written, or that would replace one of the problem's own files, is
// said at once.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "odesens/petab.hpp"

namespace odesens::cli {

// flag and path of an output file ("--out", "fit.h5"); an empty path is
// not asked for.
using OutputFlag = std::pair<std::string, std::string>;

// UsageError for an output that is one of problem.input_files(), one of
// `inputs` (the command's own: --at, --from, --starts-from), or the same
// file as another output (however spelled: ./a.h5 and a.h5, links);
// Error(io_error) for a file that is a directory or whose folder cannot be
// written (its temporary is made and discarded: the file is untouched).
// `folders` are output folders (--plot DIR): a file of that name is an
// error; a folder that does not exist is made later.
void check_petab_outputs(const PetabProblem& problem, const std::vector<OutputFlag>& files,
                         const std::vector<OutputFlag>& folders = {},
                         const std::vector<std::string>& inputs = {});

}  // namespace odesens::cli
