// The tool's help: `odesens --help` (the commands), `odesens petab --help`
// (its flags), and `odesens run|compare|ensemble [--method ID] --help` (the flags of the
// command, and with a method only those that apply to it, followed by the
// method's options). docs/cli.md says the same at length.
#pragma once

#include <ostream>
#include <vector>

#include "cli/arguments.hpp"
#include "odesens/methods.hpp"

namespace odesens::cli {

// `odesens --help`: the commands.
const char* usage_text();

// `odesens petab --help`: its flags.
void write_petab_help(std::ostream& out);
// `odesens fit --help`: its flags.
void write_fit_help(std::ostream& out);
void write_profile_help(std::ostream& out);

// The flags of `command` that apply to every method of `methods` (all of
// them when `methods` is empty), then the options of each method. `program`
// is "odesens" or "odesens-mpi".
void write_command_help(std::ostream& out, const char* program, SolveCommand command,
                        const std::vector<const MethodInfo*>& methods);

// `command --help` with the method(s) of `a`, if any, on standard output;
// returns the exit status 0. An unknown method is Error(unknown_method).
int print_command_help(const char* program, const RunArguments& a, SolveCommand command);

}  // namespace odesens::cli
