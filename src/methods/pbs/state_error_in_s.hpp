// S's error that the states' error causes, at the output times. pbsr and
// exp evaluate J_x and J_p on the state solver's states x, whose error dx
// moves the sensitivity equation S' = J_x(x) S + J_p(x) by
// R = (J_x(x~) - J_x(x)) S + J_p(x~) - J_p(x), x~ from the tighter state
// solve. A fast component of S follows its quasi-steady value, which R
// moves by -J_x^{-1} R (on builtin:vanderpol the fast state v ~ -7e-4 is
// 700 atol from zero, right to 1e-3 relative, and S through it 2e-2 off,
// while the states' weighted error reads 6); a slow one drifts by about
// h R over an output interval h. Both are (I - h J_x(x~))^{-1} h R, the
// backward Euler step of the error's equation over the interval before
// each output, which is what this estimates.
#pragma once

#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::pbs {

// The largest |dS_ij(t_k)| / scale_ij over the outputs after t0 (the
// first over [t0, t_1]; evenly sampled beyond 100 outputs or where nt nx^3 is large), scale_ij
// = max(max_k,j' |S_ij'(t_k)|, max_k,i' |S_i'j(t_k)|) (S's size in its
// row and its column). `fine` holds the tighter states at r's output
// times. NaN when it cannot be computed (non-finite values, a Jacobian that
// fails, more than 1000 states: its J_x are dense); it never throws.
double state_error_in_s(const Problem& problem, const Result& r, const Result& fine);

}  // namespace odesens::pbs
