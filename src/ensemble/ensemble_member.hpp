// One member of an ensemble, as every runner (threads, MPI) solves and
// reports it.
#pragma once

#include <string>
#include <vector>

#include "odesens/ensemble.hpp"

namespace odesens::ensemble {

// solve(problem, method_id) with its failure caught as the member's status
// and message (an allocation failure is out_of_memory, anything else
// internal_error): ran is true, result empty unless status is ok.
EnsembleMember solve_member(const Problem& problem, const std::string& method_id);

// The members that never ran (a cancelled ensemble): status unsupported and
// a message that says so.
void mark_not_run(std::vector<EnsembleMember>& members);

}  // namespace odesens::ensemble
