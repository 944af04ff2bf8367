#include "integrate/cvodes/cvodes_flags.hpp"

#include <cvodes/cvodes.h>

#include <string>

namespace odesens::cvodes {

Status status_for_flag(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return Status::too_much_work;
    case CV_MEM_FAIL: return Status::out_of_memory;
    case CV_ILL_INPUT: return Status::invalid_argument;
    default: return Status::solver_failed;
  }
}

std::string flag_text(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return "max_steps steps were taken without reaching the next output time";
    case CV_TOO_MUCH_ACC: return "the tolerances ask for more accuracy than double precision gives";
    case CV_ERR_FAILURE: return "the error test failed repeatedly, however small the step";
    case CV_CONV_FAILURE: return "the Newton iteration did not converge, however small the step";
    case CV_LINIT_FAIL: return "the linear solver could not be set up";
    case CV_LSETUP_FAIL: return "the Newton matrix could not be formed or factored";
    case CV_LSOLVE_FAIL: return "a linear solve with the Newton matrix failed";
    case CV_RHSFUNC_FAIL: case CV_FIRST_RHSFUNC_ERR: case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
      return "the model's right-hand side could not be evaluated";
    case CV_SRHSFUNC_FAIL: case CV_FIRST_SRHSFUNC_ERR: case CV_REPTD_SRHSFUNC_ERR:
    case CV_UNREC_SRHSFUNC_ERR:
      return "the sensitivities' right-hand side could not be evaluated";
    case CV_QRHSFUNC_FAIL: case CV_FIRST_QRHSFUNC_ERR: case CV_REPTD_QRHSFUNC_ERR:
    case CV_QSRHSFUNC_FAIL: case CV_FIRST_QSRHSFUNC_ERR: case CV_REPTD_QSRHSFUNC_ERR:
      return "an integrand could not be evaluated";
    case CV_RTFUNC_FAIL: return "an event trigger could not be evaluated";
    case CV_MEM_FAIL: return "memory could not be allocated";
    case CV_ILL_INPUT: return "an input was refused";
    case CV_TOO_CLOSE: return "the output time lies too close to the start time";
    case CV_BAD_T: case CV_BAD_K: case CV_BAD_DKY:
      return "a value was asked for outside the last step";
    case CV_BAD_TB0: return "a backward problem starts outside the forward interval";
    case CV_NO_FWD: case CV_NO_BCK: case CV_NO_ADJ: case CV_MEM_NULL: case CV_NO_MALLOC:
    case CV_NO_SENS: case CV_NO_QUAD: case CV_NO_QUADSENS:
      return "the solver's state was missing a part (an internal error)";
    default: return "CVODES error " + std::to_string(flag);
  }
}

bool may_come_from_nonfinite(int flag) {
  switch (flag) {
    case CV_RHSFUNC_FAIL: case CV_FIRST_RHSFUNC_ERR: case CV_REPTD_RHSFUNC_ERR:
    case CV_SRHSFUNC_FAIL: case CV_FIRST_SRHSFUNC_ERR: case CV_REPTD_SRHSFUNC_ERR:
    case CV_QRHSFUNC_FAIL: case CV_FIRST_QRHSFUNC_ERR: case CV_REPTD_QRHSFUNC_ERR:
    case CV_CONV_FAILURE: case CV_LSETUP_FAIL: case CV_TOO_MUCH_WORK:
      return true;
    default:
      return false;
  }
}

void check_flag(int flag, const char* call) {
  if (flag >= 0) return;
  throw Error(status_for_flag(flag), std::string(call) + " failed: " + flag_text(flag));
}

}  // namespace odesens::cvodes
