#include "integrate/cvodes/cvodes_counters.hpp"

#include <cvodes/cvodes.h>

namespace odesens::cvodes {

Counters& Counters::operator+=(const Counters& o) {
  steps += o.steps;
  rhs_evals += o.rhs_evals;
  jac_evals += o.jac_evals;
  linear_setups += o.linear_setups;
  error_test_failures += o.error_test_failures;
  newton_iterations += o.newton_iterations;
  sens_rhs_evals += o.sens_rhs_evals;
  sens_error_test_failures += o.sens_error_test_failures;
  return *this;
}

Counters read_counters(void* cvode_mem, bool sensitivities, bool jacobians) {
  Counters c;
  if (!cvode_mem) return c;
  auto read = [&](int (*get)(void*, long*), long& into) {
    long v = 0;
    if (get(cvode_mem, &v) == CV_SUCCESS) into = v;
  };
  read(CVodeGetNumSteps, c.steps);
  read(CVodeGetNumRhsEvals, c.rhs_evals);
  if (jacobians) read(CVodeGetNumJacEvals, c.jac_evals);
  read(CVodeGetNumLinSolvSetups, c.linear_setups);
  read(CVodeGetNumErrTestFails, c.error_test_failures);
  read(CVodeGetNumNonlinSolvIters, c.newton_iterations);
  if (!sensitivities) return c;
  read(CVodeGetSensNumRhsEvals, c.sens_rhs_evals);
  read(CVodeGetSensNumErrTestFails, c.sens_error_test_failures);
  return c;
}

Counters RestartCounters::total(void* cvode_mem) const {
  Counters c = banked_;
  c += read_counters(cvode_mem, sensitivities_, jacobians_);
  return c;
}

}  // namespace odesens::cvodes
