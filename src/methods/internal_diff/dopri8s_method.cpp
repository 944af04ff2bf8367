#include "methods/internal_diff/dopri8s_method.hpp"

#include <string>

#include "methods/internal_diff/erk_bundle_integrator.hpp"
#include "methods/internal_diff/internal_diff_settings.hpp"
#include "methods/internal_diff/internal_diff_solve.hpp"
#include "odesens/status.hpp"

namespace odesens::dopri8s {

std::vector<OptionSpec> option_specs() { return internal_diff::option_specs(); }

Result solve(const Problem& problem, const MethodOptions& options) {
  const internal_diff::InternalDiffSettings settings = internal_diff::read_settings(problem, options);
  const internal_diff::ErkBundleIntegratorFactory dop853(integrate::erk::TableauId::dop853);
  try {
    return internal_diff::solve(problem, settings, dop853);
  } catch (const Error& e) {
    // An explicit method on a stiff problem runs out of steps long before
    // the end: say so next to the engine's message. Not where the steps
    // were fixed by the caller, nor for a failure with a cause of its own
    // (a step size that collapsed where the solution blows up, events that
    // accumulate): stiffness holds an explicit method's steps at its
    // stability limit, it does not make them collapse.
    if (e.status() != Status::too_much_work || settings.h_fixed) throw;
    throw Error(e.status(), std::string(e.what()) +
                                "; dopri8s is explicit, and a stiff problem needs an implicit "
                                "method such as cvodes_fsa");
  }
}

}  // namespace odesens::dopri8s
