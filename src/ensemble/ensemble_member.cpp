#include "ensemble/ensemble_member.hpp"

#include <exception>
#include <new>

#include "odesens/methods.hpp"

namespace odesens::ensemble {

EnsembleMember solve_member(const Problem& problem, const std::string& method_id) {
  EnsembleMember m;
  m.ran = true;
  try {
    m.result = solve(problem, method_id);
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
