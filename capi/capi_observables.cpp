// Observables in the C ABI: names chosen on a solver, checked against its
// model when added, evaluated at the output times after each solve and kept
// in the result (see odesens/observables.hpp).
#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "odesens.h"
#include "odesens/observables.hpp"

namespace {

using namespace odesens;
using namespace odesens::capi;

}  // namespace

extern "C" {

int odesens_solver_add_observable(odesens_solver* solver, const char* name) {
  return guarded(solver, __func__, [&] {
    SolverState& s = idle_solver(solver);
    const std::string observable = require_string(name, "name");
    check_observables(*s.problem.model, {observable});
    s.observables.push_back(observable);
  });
}

int odesens_solver_clear_observables(odesens_solver* solver) {
  return guarded(solver, __func__, [&] { idle_solver(solver).observables.clear(); });
}

int odesens_result_observable_count(const odesens_result* result, int64_t* count) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(count, "count");
    *count = static_cast<int64_t>(r.observable_names.size());
  });
}

int odesens_result_observable_name(const odesens_result* result, int64_t index,
                                   const char** name) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(name, "name");
    *name = r.observable_names[require_index(index, r.observable_names.size(), "observable index")]
                .c_str();
  });
}

int odesens_result_observable(const odesens_result* result, int64_t index, double* out,
                              int64_t len) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    const std::size_t k = require_index(index, r.observable_values.size(), "observable index");
    copy_to_buffer(r.observable_values[k], out, len, "out");
  });
}

}  // extern "C"
