// The states' global error, which S inherits. pbsr and exp evaluate J_x and
// J_p on the state solver's trajectory, so S is no better than the states,
// and the states' error is the local error control's only where errors do
// not grow along the solution. On an oscillator (Borghans_BiophysChem1997),
// an epidemic grown from a seed below atol (Giordano_Nature2020) or a model
// whose early small states set the rest (Fiedler_BMCSystBiol2016), the
// states at the default rtol 1e-5 were off by 400 to 4000 times the
// tolerances, and S by 0.6 to 30 %, with every step's estimate of S's own
// error within the tolerances. The check solves the states again at
// tolerances 10 times tighter and measures the difference at the output
// times in CVODES' weights, |dx_i| / (rtol |x_i| + atol_i): the global error
// in units of the tolerance (on the shared models where S is right: 0 to
// 200; where it is wrong: 390 to 80 000).
#pragma once

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::pbs {

// Above this multiple of rtol the estimate of S's error caused by the
// states' error (state_error_in_s.hpp) gives a warning when the states'
// ratio does not. Measured at rtol 1e-5 to 1e-8, estimate / rtol
// (actual error / rtol): builtin:vanderpol 1000-2000 (1200-2300, S right
// to 1e-3 of its size only where the states are); Brannmark_JBC2010
// 60-600 (20-90); the other shared models below 10 at rtol 1e-5.
inline constexpr double kStateErrorInSLimit = 300.0;

// The check on r: its ratio in stats.extra["state_error_ratio"] and the
// estimate of S's error in stats.extra["state_error_in_s"] (absent when the
// tighter solve failed, or for the estimate, more than 1000 states), and a
// warning when the ratio is above methods::kStateErrorRatioLimit
// (methods/common/state_error_ratio.hpp) or else the
// estimate above kStateErrorInSLimit times rtol.
void check_state_error(const Problem& problem, const MethodOptions& options, Result& r);

}  // namespace odesens::pbs
