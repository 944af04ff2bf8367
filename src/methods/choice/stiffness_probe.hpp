// The cheap stiffness probe of the automatic method choice: a few hundred
// explicit steps (dopri5, state only, at the problem's tolerances, Hairer's
// stiffness test on every step, steps held inside the stability region as
// erk_adjoint holds them) from x0 toward the last output time.
//
// What explicit methods cost on a problem is their number of steps, and a
// stiff problem is one where that number is set by the stability region,
// not by accuracy. The probe measures both signs: the stiffness test (h|λ|
// held at the boundary of dopri5's stability region for 15 tests, or, at
// rtol 1e-6 and below, a median h|λ| of at least 0.35 of the boundary over
// its steps) and the
// pace (the steps the whole span would take at the probe's rate).
//
// The probe ignores the model's events and jumps (it only asks how f
// behaves near the start) and never throws: a failure is a finding. Where
// asked, it also keeps x at the output times (dopri5's dense output), a
// second solution of the states at the problem's tolerances that auto
// compares the chosen method's states with (docs/methods/auto.md, "State
// check").
#pragma once

#include <string>
#include <vector>

#include "odesens/problem.hpp"

namespace odesens::methods {

struct StiffnessFinding {
  enum class Kind {
    non_stiff,     // reached the last output time within the budget
    slow,          // out of budget; the span would take more than the limit
    stiff,         // the stiffness test declared the problem stiff, or the
                   // steps were held by stability (median_h_lambda)
    inconclusive,  // the explicit solve failed (not finite, step size collapse)
  };
  Kind kind = Kind::inconclusive;
  long steps = 0;                // accepted dopri5 steps taken
  double t_reached = 0.0;
  double projected_steps = 0.0;  // over the whole span, at the probe's pace
  // The median over the accepted steps of Hairer's estimate of h|λ| over
  // dopri5's stability boundary, where the probe takes it (rtol <= 1e-6, at
  // least 15 steps, the solve did not end on the test or a failure); 0
  // otherwise.
  double median_h_lambda = 0.0;
  double seconds = 0.0;
  std::string detail;            // the test's or the failure's message
  // x at every output time (nx values each, output after output) where they
  // were asked for and the probe reached the last one; empty otherwise.
  std::vector<double> states_at_outputs;

  bool explicit_suits() const { return kind == Kind::non_stiff; }
};

// `budget` accepted steps at most; a span the probe would need more than
// `step_limit` steps for (projected from its pace) counts as slow; with
// `keep_states`, the states at the output times as well. The problem is a
// prepared one: tolerances set, validated.
StiffnessFinding probe_stiffness(const Problem& problem, long budget, double step_limit,
                                 bool keep_states = false);

// "non-stiff", "slow", "stiff", "inconclusive".
const char* finding_name(StiffnessFinding::Kind kind);

}  // namespace odesens::methods
