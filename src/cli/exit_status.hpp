// A library error as the exit status of odesens and odesens-mpi: 2 when
// what the command line gives is wrong (a value, a method, an option, a
// model name or file, model text), as for the errors the tool finds itself;
// 1 when valid input fails (the model or the solve, an unsupported feature,
// memory, the output file).
#pragma once

#include "odesens/status.hpp"

namespace odesens::cli {

// The name the tools' messages begin with: "odesens", or "odesens-mpi"
// once its main has said so, before any thread starts (the commands they
// share print it).
inline const char*& tool_name() {
  static const char* name = "odesens";
  return name;
}

inline int exit_status(Status status) {
  switch (status) {
    case Status::invalid_argument:
    case Status::unknown_method:
    case Status::unknown_option:
    case Status::option_type:
    case Status::unknown_model:
    case Status::parse_error:
      return 2;
    default:
      return 1;
  }
}

}  // namespace odesens::cli
