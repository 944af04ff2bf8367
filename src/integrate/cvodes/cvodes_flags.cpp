#include "integrate/cvodes/cvodes_flags.hpp"

#include <cvodes/cvodes.h>

#include <cstdlib>

namespace odesens::cvodes {

Status status_for_flag(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return Status::too_much_work;
    case CV_MEM_FAIL: return Status::out_of_memory;
    case CV_ILL_INPUT: return Status::invalid_argument;
    default: return Status::solver_failed;
  }
}

std::string flag_name(int flag) {
  char* name = CVodeGetReturnFlagName(flag);  // malloc'ed by CVODES
  std::string text = name ? name : "flag " + std::to_string(flag);
  free(name);
  return text;
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
  throw Error(status_for_flag(flag), std::string(call) + " failed (" + flag_name(flag) + ")");
}

}  // namespace odesens::cvodes
