// The fallback of steady_state(): x and S integrated by cvodes_fsa from the
// problem's initial state over growing spans until f vanishes, which works
// whether or not J_x is singular (conservation laws).
#pragma once

#include <string>
#include <vector>

#include "estimate/steady_residual.hpp"
#include "odesens/problem.hpp"

namespace odesens::estimate {

struct IntegrationSettings {
  NormTolerances tol;
  double max_time;
  bool sensitivities;
  // The first span tried (then 10, 100, ... times it, up to max_time): 10,
  // or where an integration of x alone became steady.
  double first_span = 10.0;
};

struct IntegrationOutcome {
  bool reached = false;
  std::vector<double> x, S;
  double time = 0.0;
  double span = 0.0;  // the span it became steady over (time - t0, unrounded)
  double residual = 0.0;
  std::string attempt;  // one line: what happened
};

// The problem's tolerances and options go to cvodes_fsa; Error from
// prepare() (a bad option) propagates, a failed integration is an outcome.
IntegrationOutcome integrate_to_steady_state(const Problem& problem,
                                             const IntegrationSettings& settings);

}  // namespace odesens::estimate
