// The states' global error in units of their tolerance, by a second solve
// of the states alone (CVODES) at tolerances 10 times tighter: what the
// local error control of any method leaves unchecked where errors grow
// along the solution (an oscillation, an epidemic grown from a seed below
// atol, a model whose early small states set the rest). S, S(T) and
// gradients computed along such states inherit their error: on
// Crauste_CellSystems2017 at rtol 1e-8 cvodes_fsa's S is 2.7e-2 off with
// its states 1.3e6 times their tolerances off, and no method said so.
// The difference at the output times is weighed as CVODES weighs the local
// error, |dx_i| / (rtol |x~_i| + atol_i).
#pragma once

#include <optional>
#include <string>

#include "integrate/cvodes/cvodes_session.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::methods {

// Above this ratio a result carries the warning (measured: 190 on
// Perelson_Science1996, where S is right to 2e-4; 390 on
// Fiedler_BMCSystBiol2016, S off by 6e-3).
inline constexpr double kStateErrorRatioLimit = 300.0;

// The states alone at the problem's output times (with its events) at
// rtol / 10 and atol / 10; nothing when that solve fails, and then, given
// `failure`, why where BDF could not follow the solution (empty for the
// step limit, a callback's failure or the caller's interrupt, which say
// nothing of the states).
std::optional<Result> tighter_states(const Problem& problem,
                                     const cvodes::SessionSettings& settings,
                                     std::string* failure = nullptr);

// The warning where BDF could not solve the states at tolerances 10 times
// tighter although the method solved them at its own: a solution so
// sensitive that the states' error, which `what` inherits, is unknown
// (a state falling to 1e-34 and growing back: pbsr 15 % off, no word).
void report_failed_state_check(const std::string& failure, const std::string& what, Result& r);

// The largest |x_i(t_k) - x~_i(t_k)| / (rtol |x~_i(t_k)| + atol_i); NaN
// when the sizes do not match.
double state_error_ratio(const Problem& problem, const Result& r, const Result& fine);
// The same for n states x and x~, nx to an output time.
double state_error_ratio(const Problem& problem, const double* x, const double* fine,
                         std::size_t n, std::size_t nx);

// The session settings of a state solve for methods without CVODES options:
// BDF, the automatic linear solver and Jacobian.
cvodes::SessionSettings default_state_solve_settings();

// The flag option "state_check" with its description; on = `enabled`,
// `by`: what solves the states again.
OptionSpec state_check_option(bool enabled, const std::string& cost,
                              const std::string& by = "CVODES");

// The check on r for methods whose results are computed along their own
// states: the ratio in stats.extra["state_error_ratio"] (absent when the
// tighter solve failed), and a warning above kStateErrorRatioLimit saying
// that `what` (e.g. "S") inherits the error.
void check_state_error(const Problem& problem, const cvodes::SessionSettings& settings,
                       const std::string& what, Result& r);

// The same with the tighter states `fine` from elsewhere (a method's own
// solve without sensitivities); nothing when they are absent.
void report_state_error(const Problem& problem, const std::optional<Result>& fine,
                        const std::string& what, Result& r);

// `problem` at tolerances 10 times tighter, for such a solve.
Problem tightened(const Problem& problem);

// True for the warnings check_state_error gives (a difference, or a check
// that could not be made): they are about the problem at these tolerances,
// not about the method (auto does not leave a method for them).
bool is_state_check_warning(const std::string& warning);

}  // namespace odesens::methods
