// The automatic method inside the methods layer: its entry for listings and
// option checks, and its session (the chosen method's, with a fallback).
#pragma once

#include <memory>

#include "odesens/method_choice.hpp"
#include "odesens/methods.hpp"
#include "odesens/session.hpp"

namespace odesens::methods {

// "auto" as method_info() gives it: its options, and as capabilities the
// union of what it can choose (it needs nothing itself).
const MethodInfo& automatic_method_info();

// The problem "auto" hands to the method it chose: unset tolerances filled
// with 1e-8 / 1e-10, its own options removed, and the chosen method's
// options that serve the goal (final_sensitivity=0 for a gradient).
Problem problem_for_choice(const Problem& given, const MethodChoice& choice);

// What runs when the chosen method failed on the problem (too much work,
// stiffness, a collapsing step, non-finite values): after an explicit
// method the implicit choice of the rule, after another the CVODES
// baseline cvodes_fsa; "" when nothing else computes what is asked (S*R
// without exact Jacobians, several objectives, enclosures) or cvodes_fsa
// itself failed.
std::string fallback_method(const Problem& problem, const MethodChoice& failed);

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem);

}  // namespace odesens::methods
