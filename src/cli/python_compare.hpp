// compare --plot: the work–precision diagram is drawn by the Python module
// (`python3 -m odesens compare`, docs/python.md), which has matplotlib; the
// tool hands the command line over to it.
#pragma once

#include "cli/arguments.hpp"

namespace odesens::cli {

// Replaces the tool by `PYTHON -m odesens compare MODEL --methods ... --plot
// FILE [--tout ...] [--sens-params ...]`, whose exit status becomes the
// tool's. PYTHON is $ODESENS_PYTHON, else the interpreter the build found;
// the build tree's package folder goes first on PYTHONPATH when it exists
// (an installed module is found through its .pth file). Throws UsageError
// for a flag the Python command does not take, Error(unsupported) when the
// interpreter cannot be started.
int run_python_compare(const RunArguments& a);

}  // namespace odesens::cli
