#include "methods/internal_diff/dopri8s_method.hpp"

#include <string>

#include "methods/internal_diff/erk_bundle_integrator.hpp"
#include "methods/internal_diff/internal_diff_settings.hpp"
#include "methods/internal_diff/internal_diff_solve.hpp"
#include "odesens/status.hpp"

namespace odesens::dopri8s {

std::vector<OptionSpec> option_specs() {
  std::vector<OptionSpec> specs = internal_diff::option_specs();
  specs.push_back(flag_option(
      "stiffness_check", true,
      "1: Hairer's stiffness test of DOP853 (h|lambda| estimated from the last two stages of "
      "accepted steps, and h rho(J) of the nominal from a power iteration; 15 tests at the "
      "stability boundary declare the problem stiff) ends the "
      "solve early with status stiff and the methods that suit the model; 0: step on at the "
      "stability limit, however many steps that takes"));
  return specs;
}

Result solve(const Problem& problem, const MethodOptions& options) {
  internal_diff::InternalDiffSettings settings = internal_diff::read_settings(problem, options);
  settings.detect_stiffness = options.get_int("stiffness_check") != 0;
  settings.non_stiff = true;
  const internal_diff::ErkBundleIntegratorFactory dop853(integrate::erk::TableauId::dop853);
  try {
    return internal_diff::solve(problem, settings, dop853);
  } catch (const Error& e) {
    if (e.status() == Status::stiff)
      throw Error(e.status(), std::string("dopri8s: ") + e.what() +
                                  ". Use an implicit method: cvodes_fsa, odesd or grk4as (or "
                                  "option stiffness_check=0 to continue anyway)");
    // An explicit method on a stiff problem runs out of steps long before
    // the end: say so next to the engine's message. Not where the steps
    // were fixed by the caller, nor for a failure with a cause of its own
    // (a step size that collapsed where the solution blows up, events that
    // accumulate): stiffness holds an explicit method's steps at its
    // stability limit, it does not make them collapse.
    if (e.status() != Status::too_much_work || settings.h_fixed) throw;
    throw Error(e.status(), std::string(e.what()) +
                                "; dopri8s is explicit: if the problem is stiff, an implicit "
                                "method such as cvodes_fsa suits it (events every few steps "
                                "take steps too: raise max_steps then)");
  }
}

}  // namespace odesens::dopri8s
