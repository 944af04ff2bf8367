// odesens_solver_solve_ensemble and odesens_ensemble_*: one solver's problem
// for many parameter vectors, and each member's result or failure.
#include <limits>

#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "odesens.h"
#include "odesens/ensemble.hpp"

namespace {

using namespace odesens;
using namespace odesens::capi;

constexpr std::int64_t max_members = 100000000;

// Member k's parameter vector from the caller's member-major array.
std::vector<std::vector<double>> parameter_sets(const double* params, std::size_t members,
                                                std::size_t np) {
  std::vector<std::vector<double>> sets(members);
  for (std::size_t k = 0; k < members; ++k) sets[k].assign(params + k * np, params + (k + 1) * np);
  return sets;
}

const EnsembleMemberState& member_state(const odesens_ensemble* ensemble, std::int64_t member) {
  const EnsembleState& e = ensemble_state(ensemble);
  return e.members[require_index(member, e.members.size(), "member")];
}

}  // namespace

extern "C" {

int odesens_solver_solve_ensemble(odesens_solver* solver, const double* params, int64_t n_members,
                                  int64_t threads, int64_t* statuses, odesens_ensemble** ensemble) {
  return guarded(solver, __func__, [&] {
    if (ensemble) *ensemble = nullptr;
    require_pointer(ensemble, "ensemble");
    const SolverState& s = solver_state(solver);
    const std::size_t members = require_count(n_members, 1, max_members, "n_members");
    const auto workers =
        static_cast<unsigned>(require_count(threads, 0, max_threads, "threads"));
    const std::size_t np = s.problem.model->np();
    if (np > 0 && members > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()) / np)
      throw Error(Status::invalid_argument, "n_members x np overflows");
    require_array(params, static_cast<std::int64_t>(members * np), "params");
    // NaN or Inf parameters are the failures of their members, not of the call.

    EnsembleOptions options;
    options.threads = workers;
    std::vector<EnsembleMember> solved =
        solve_ensemble(s.problem, s.method, parameter_sets(params, members, np), options);
    auto state = std::make_unique<EnsembleState>();
    state->members.resize(members);
    for (std::size_t k = 0; k < members; ++k) {
      EnsembleMemberState& out = state->members[k];
      out.status = solved[k].status;
      out.message = std::move(solved[k].message);
      if (out.status == Status::ok) {
        Problem member = s.problem;
        member.params.assign(params + k * np, params + (k + 1) * np);
        try {
          out.result = make_result_state(s, member, std::move(solved[k].result));
        } catch (const Error& e) {  // an observable that cannot be evaluated
          out.status = e.status();
          out.message = e.what();
        }
      }
      if (out.status != Status::ok) ++state->failed;
      if (statuses) statuses[k] = static_cast<int64_t>(out.status);
    }
    *ensemble = new odesens_ensemble{HandleHeader{HandleKind::ensemble, {}}, std::move(state)};
  });
}

void odesens_ensemble_free(odesens_ensemble* ensemble) {
  free_handle(ensemble, HandleKind::ensemble);
}

int odesens_ensemble_sizes(const odesens_ensemble* ensemble, int64_t* n_members,
                           int64_t* n_failed) {
  return guarded(ensemble, __func__, [&] {
    const EnsembleState& e = ensemble_state(ensemble);
    if (n_members) *n_members = static_cast<int64_t>(e.members.size());
    if (n_failed) *n_failed = static_cast<int64_t>(e.failed);
  });
}

int odesens_ensemble_status(const odesens_ensemble* ensemble, int64_t member, int64_t* status) {
  return guarded(ensemble, __func__, [&] {
    require_pointer(status, "status");
    *status = static_cast<int64_t>(member_state(ensemble, member).status);
  });
}

int odesens_ensemble_message(const odesens_ensemble* ensemble, int64_t member,
                             const char** message) {
  return guarded(ensemble, __func__, [&] {
    require_pointer(message, "message");
    *message = member_state(ensemble, member).message.c_str();
  });
}

int odesens_ensemble_result(const odesens_ensemble* ensemble, int64_t member,
                            odesens_result** result) {
  return guarded(ensemble, __func__, [&] {
    if (result) *result = nullptr;
    require_pointer(result, "result");
    const EnsembleMemberState& m = member_state(ensemble, member);
    if (!m.result)
      throw Error(m.status, "member " + std::to_string(member) + " failed: " + m.message);
    *result = new odesens_result{HandleHeader{HandleKind::result, {}},
                                 std::make_unique<ResultState>(*m.result)};
  });
}

}  // extern "C"
