// An experiment's solution, or its failure, as bytes and back, for sending
// it between the processes of an MPI run (mpi_petab.hpp): every array bit
// for bit, the counters and the warnings.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "estimate/petab_experiment.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {

// What a rank sends for one experiment: its solution, or the status and
// message of the Error its solve threw.
struct ExperimentOutcome {
  Status status = Status::ok;
  std::string message;
  ExperimentSolution solution;  // when status is ok
};

void encode_outcome(const ExperimentOutcome& outcome, std::vector<char>& out);

// The inverse of encode_outcome on [data, data + size); Error(internal_error)
// when the bytes are not one encoded outcome.
ExperimentOutcome decode_outcome(const char* data, std::size_t size);

}  // namespace odesens::petab
