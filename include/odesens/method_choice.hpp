// The automatic method: "auto" in place of a method id.
//
//   odesens::Result r = odesens::solve(problem, odesens::kAutomaticMethod);
//   r.method          // the method that ran
//   r.method_choice   // why: what was asked, what the probe found, the rule
//
// The choice rests on what the problem asks (S at every output time, a
// gradient, S·R for directions, several objectives or running costs,
// enclosures over a box), the model (states, parameters, events,
// derivatives it provides) and a cheap stiffness probe (a few hundred
// explicit steps, methods/choice/stiffness_probe.hpp). The rule and the
// measurements it rests on are in docs/methods/auto.md.
//
// "auto" fills unset tolerances with 1e-8 relative and 1e-10 absolute
// whatever it chooses, so that the choice never changes the accuracy asked
// for. Its own options (method_info("auto").options): goal, probe_steps,
// fallback; it takes no option of the methods it may choose.
#pragma once

#include <string>

#include "odesens/problem.hpp"

namespace odesens {

inline constexpr char kAutomaticMethod[] = "auto";

struct MethodChoice {
  std::string method;  // the id of the method chosen
  // "s" (S at every output time) or "gradient" (the objective's gradient
  // and S at the final time), as given by the option goal or inferred.
  std::string goal;
  // What the probe found: "non-stiff", "slow", "stiff", "inconclusive", or
  // "not probed" when the rule needed no probe.
  std::string stiffness;
  long probe_steps = 0;
  double probe_seconds = 0.0;
  // The chosen odesd takes x and S at the output times from its quintic
  // Hermite interpolant (its option output=hermite) instead of ending a
  // step on each: the probe solved the whole span and found the problem
  // non-stiff, and nothing in the model switches (docs/methods/auto.md).
  // Not for odesd as a fallback; a session does so only at the inputs the
  // probe measured.
  bool odesd_interpolates = false;
  // Why, in a few sentences a user can act on.
  std::string reason;
};

// The method "auto" runs on the problem. Throws Error as solve() does for an
// invalid problem or an unknown or invalid option of "auto".
MethodChoice choose_method(const Problem& problem);

}  // namespace odesens
