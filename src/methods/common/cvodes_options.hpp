// What the CVODES-based methods (cvodes_fsa, cvodes_asa, pbsr, exp) read
// from a Problem and their options to build an integrate::cvodes Session.
#pragma once

#include <vector>

#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/cvodes_counters.hpp"
#include "odesens/methods.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::cvodes {

// Options shared by every CVODES-based method (declared in each one's spec).
std::vector<OptionSpec> common_option_specs();
SessionSettings read_session_settings(const MethodOptions& options);

// The problem's model, effective parameters, initial time and state,
// tolerances (validated: rtol set) and max_steps.
InitialValueProblem initial_value_problem(const Problem& problem);

// A forward integrator's counters added into stats (steps, evaluations,
// setups, error test failures; with sensitivities also newton_iterations,
// sens_rhs_evals, sens_error_test_failures in extra).
void add_counters(const Counters& c, Stats& stats, bool sensitivities);
// The backward problems' counters added into an adjoint solve's stats, and
// their steps as backward_steps.
void add_backward_counters(const Counters& c, Stats& stats);

}  // namespace odesens::cvodes
