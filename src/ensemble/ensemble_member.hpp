// One member of an ensemble, as every runner (threads, MPI) solves and
// reports it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "odesens/ensemble.hpp"
#include "odesens/session.hpp"

namespace odesens::ensemble {

// What one worker solves members with: a session of the method, prepared
// on the first member it solves (again after a member whose problem could
// not be prepared) and run for each member with that member's parameters,
// initial state and output times (for "auto", prepared for every member).
// Results are those of solve().
class MemberSolver {
 public:
  explicit MemberSolver(std::string method_id) : method_id_(std::move(method_id)) {}

  // The member's problem solved, its failure caught as the member's status
  // and message (an allocation failure is out_of_memory, anything else
  // internal_error): ran is true, result empty unless status is ok.
  EnsembleMember solve(const Problem& member_problem);

 private:
  std::string method_id_;
  std::unique_ptr<MethodSession> session_;
};

// The members that never ran (a cancelled ensemble): status unsupported and
// a message that says so.
void mark_not_run(std::vector<EnsembleMember>& members);

}  // namespace odesens::ensemble
