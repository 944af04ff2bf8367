// CVODES' work counters of one integrator, summed across CVodeReInit
// (which zeroes CVODES' own): what every CVODES user reports as statistics.
#pragma once

namespace odesens::cvodes {

struct Counters {
  long steps = 0;
  long rhs_evals = 0;
  long jac_evals = 0;
  long linear_setups = 0;
  long error_test_failures = 0;
  long newton_iterations = 0;
  long sens_rhs_evals = 0;           // forward sensitivities only
  long sens_error_test_failures = 0;  // forward sensitivities only
  Counters& operator+=(const Counters& o);
};

// What cvode_mem counted since its last CVodeInit or CVodeReInit; the
// sensitivity counters only with `sensitivities` (asking a solver without
// them is an error CVODES reports through its message handler), the
// Jacobian evaluations only with `jacobians` (a SUNLinearSolver attached
// through CVodeSetLinearSolver: with CVDiag CVodeGetNumJacEvals reads
// another module's memory).
Counters read_counters(void* cvode_mem, bool sensitivities, bool jacobians = true);

// Counters of one integrator over all its restarts: bank() just before
// each CVodeReInit, total() at the end.
class RestartCounters {
 public:
  // The integrator carries forward sensitivities (CVodeSensInit was called).
  void count_sensitivities(bool on) { sensitivities_ = on; }
  // The integrator has no SUNLinearSolver (CVDiag): no Jacobian count.
  void without_jacobians() { jacobians_ = false; }
  void bank(void* cvode_mem) { banked_ += read_counters(cvode_mem, sensitivities_, jacobians_); }
  Counters total(void* cvode_mem) const;
  // Forgets what was banked (a new solve on the same integrator).
  void reset() { banked_ = Counters{}; }

 private:
  Counters banked_;
  bool sensitivities_ = false, jacobians_ = true;
};

}  // namespace odesens::cvodes
