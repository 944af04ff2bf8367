#include "ensemble/ensemble_member.hpp"

#include <exception>
#include <new>

#include "odesens/method_choice.hpp"
#include "odesens/methods.hpp"
#include "odesens/session.hpp"

namespace odesens::ensemble {

EnsembleMember MemberSolver::solve(const Problem& member_problem) {
  EnsembleMember m;
  m.ran = true;
  try {
    // An auto session learns from its runs (it leaves a method that failed
    // twice, bounds odesd by its first run) and chooses from the parameters
    // it was prepared with: each member gets its own, as solve() would, so
    // that members do not depend on which worker solved what before them.
    if (!session_ || method_id_ == kAutomaticMethod)
      session_ = prepare(member_problem, method_id_);
    RunInputs inputs;
    inputs.params = member_problem.params;
    inputs.initial_state = member_problem.initial_state;
    inputs.initial_sensitivity = member_problem.initial_sensitivity;
    inputs.output_times = member_problem.output_times;
    m.result = session_->run(inputs);
  } catch (const Error& e) {
    m.status = e.status();
    m.message = e.what();
  } catch (const std::bad_alloc&) {
    m.status = Status::out_of_memory;
    m.message = "out of memory (an allocation failed)";
  } catch (const std::exception& e) {
    m.status = Status::internal_error;
    m.message = e.what();
  }
  return m;
}

void mark_not_run(std::vector<EnsembleMember>& members) {
  for (EnsembleMember& m : members) {
    if (m.ran) continue;
    m.status = Status::unsupported;
    m.message = "not solved: the ensemble was cancelled before this member's turn";
  }
}

}  // namespace odesens::ensemble
