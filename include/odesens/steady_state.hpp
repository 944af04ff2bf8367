// Steady states: x* with f(x*, p) = 0 reached from an initial state, and
// their sensitivities dx*/dp, for pre-equilibration and time = inf
// measurements of PEtab problems and for anyone who needs them.
//
// What is tried, in order (each step's outcome is kept in the result):
//   1. Newton's method on f(x) = 0 from x0 with the model's exact J_x
//      (dense LU, or KLU for a model with a sparsity pattern and at least
//      sparse_threshold states: the problem's option, else cvodes_fsa's
//      default 100), damped by step halving; converged when the
//      weighted norms of f (below) and of the Newton step to the root are
//      both at most 1 (a slow mode leaves f small far from the root: a
//      rate of 1e-4 makes the step 1e4 times f). A root Newton moved to
//      from x0 is kept only where it is stable, for models of up to 400
//      states (no eigenvalue of J_x there with real part above 1e-6 of the
//      largest magnitude): Newton also finds roots no trajectory reaches
//      (x' = x - x^3 from 0.2 goes to 1, Newton to 0); an unstable one
//      leaves the answer to 2. Then S* = -J_x^{-1} J_p.
//      Where J_x is singular at x0 by conservation laws (w^T f = 0 for
//      every x: A <-> B keeps A + B), dense J_x of up to 400 states: the
//      laws are found as the left null space of J_x at two points near
//      x0 beside J_p (checked at a third), the rows of J_x of as many
//      states are replaced by them, Newton's steps keep w^T x at its value
//      at x0 and S* keeps w^T S0 (dx0/dp). Where J_x is singular for
//      another reason (a species at 0), nothing is found and 2 follows;
//      not where f reads t at p or events act (an input on the way may
//      move a total: in 3, the laws are taken where the integrated x* kept
//      x0's totals, to 1000 times the tolerances), nor where S is asked
//      for and J_p reads t at p (an input whose dose is 0 at p keeps x's
//      totals, not S's: its column is the pulse). "Reads t at p"
//      (Model::time_reading_at): a term in t multiplied by a parameter
//      that is 0 at p (an input switched off in a pre-equilibration
//      condition) does not count.
//   2. When Newton fails or J_x is singular (conservation laws KLU cannot
//      take, or another cause: detected by the pivots of the LU of J_x
//      with each row divided by its largest magnitude, |u_ii| <= 1e-12
//      max|u_jj|, or by KLU's, which scales rows likewise; a slow rate
//      beside fast ones is not singularity), integration of x alone by
//      cvodes_fsa from x0 over growing spans (t0 + 10, 100, ... up to
//      max_time) until the weighted norm of f is at most 1 at the end of a
//      span T and x moved by at most 10 in the weighted norm (the looser of
//      these and the integrator's tolerances) since t0 + T/10: f alone
//      would call dx/dt = 1 steady once x > 1/rtol.
//   3. S* = -J_x^{-1} J_p at that x* when J_x is regular there (J_x
//      singular at x0, where species start at 0, often is not at x*): the
//      limit of the integrated S, without integrating its np columns (with
//      the conservation laws of 1 where J_x is singular by them). Only for
//      a model without events, and where f or J_p reads t at p only where
//      J_x and J_p at x* are the same at t* and t* + 1, 10, ... 1e9 (to
//      1e-12: inputs switched before t*; else S depends on the path), and
//      only where
//      the Newton step from x* to the root of f is within the tolerances
//      (weighted norm at most 1): a slow mode leaves f small far from the
//      root, whose S is not that of x*.
//   4. Otherwise x and S integrated as in 2, from the span over which x
//      alone became steady: the integrated S is right whether or not J_x
//      is singular.
// The weighted norm: sqrt(mean_i (f_i / (rtol |x_i| + atol))^2).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "odesens/problem.hpp"

namespace odesens {

struct SteadyStateOptions {
  double rtol = 1e-8;  // of the norm of f above (not the integrator's)
  double atol = 1e-10;
  bool sensitivities = true;   // compute S* (nx x np)
  double max_time = 1e9;       // integration gives up past t0 + max_time
  int max_newton_iterations = 50;
  bool try_newton = true;      // false: x and S integrated at once (4 above) only
};

struct SteadyState {
  std::vector<double> x;  // nx
  // dx*/dp (nx x np, column-major: S[i + j*nx]); empty without sensitivities.
  std::vector<double> S;
  // How it was reached: "newton" or "integration".
  std::string how;
  // The time integration reached (t0 for Newton) and the weighted norm of f at x.
  double time = 0.0;
  double residual = 0.0;
  // What was tried and why each attempt stopped, in order, one line each
  // ("newton (dense LU): J_x singular (a zero pivot; conservation laws?)
  // after 0 iterations").
  std::vector<std::string> attempts;
};

// From the problem's initial state (Problem::initial_state or x0(p)) at its
// parameters; the problem's tolerances and options go to the integrator
// (cvodes_fsa) when it is used, its output times are ignored. Throws
// Error(solver_failed) with every attempt in the message when none
// reaches a steady state (or, after x did, when S cannot be integrated);
// Error as validate_problem for a bad problem.
SteadyState steady_state(const Problem& problem, const SteadyStateOptions& options = {});

}  // namespace odesens
