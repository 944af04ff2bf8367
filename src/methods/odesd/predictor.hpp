// Newton's starting point for x(t + h). The paper calls its predictor
// explicit and gives no formula; ours is the quintic through (x, f, a) at
// the last two step ends, extrapolated to t + h (error O(h⁶) for smooth x),
// and the second-order Taylor polynomial on the first step. After a failed
// Newton iteration the stepper restarts from x0 itself (our choice, not the
// issue's Taylor polynomial): on stiff problems both polynomials amplify the
// stiff components that the rule leaves undamped (|R(-inf)| = 1), through
// f and a = J f.
#pragma once

#include <cstddef>

namespace odesens::odesd {

// x0 + h f0 + h²/2 a0.
void taylor_predictor(std::size_t n, double h, const double* x0, const double* f0,
                      const double* a0, double* out);

// The quintic through (x, f, a) at t − h_prev (the "m1" values) and t,
// evaluated at t + h.
void quintic_predictor(std::size_t n, double h_prev, double h, const double* xm1,
                       const double* fm1, const double* am1, const double* x0, const double* f0,
                       const double* a0, double* out);

}  // namespace odesens::odesd
