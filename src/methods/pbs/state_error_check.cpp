#include "methods/pbs/state_error_check.hpp"
#include "methods/pbs/state_error_in_s.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "core/number_text.hpp"
#include "methods/common/cvodes_options.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {

void check_state_error(const Problem& problem, const MethodOptions& options, Result& r) {
  std::string failure;
  const std::optional<Result> fine =
      methods::tighter_states(problem, cvodes::read_session_settings(options), &failure);
  if (!fine) {
    methods::report_failed_state_check(failure, "S", r);
    return;
  }
  const double ratio = methods::state_error_ratio(problem, r, *fine);
  if (!std::isfinite(ratio)) return;
  r.stats.extra["state_error_ratio"] = ratio;
  const double in_s = state_error_in_s(problem, r, *fine);
  if (std::isfinite(in_s)) r.stats.extra["state_error_in_s"] = in_s;
  if (!(ratio > methods::kStateErrorRatioLimit)) {
    if (in_s > kStateErrorInSLimit * *problem.rtol)
      r.warnings.push_back(
          "the states' error moves S by up to about " + rounded_number_text(in_s) +
          " of its size (estimated from a state solve 10 times tighter through J_x and J_p: "
          "S follows the states' error where they are small or fast, though the states are "
          "within " + rounded_number_text(ratio) + " times their tolerances); tighten rtol "
          "and atol, or use cvodes_fsa, which controls S's error itself");
    return;
  }
  r.warnings.push_back(
      "the states' global error is about " + rounded_number_text(ratio) +
      " times their tolerances (rtol " + rounded_number_text(*problem.rtol) +
      ", from a state solve 10 times tighter), and S, computed along them, inherits it: "
      "errors grow along this solution (an oscillation, or small states that set the "
      "rest); tighten rtol and atol, or use cvodes_fsa, which controls S's error itself");
}

}  // namespace odesens::pbs
