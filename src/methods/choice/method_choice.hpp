// The automatic method inside the methods layer: its entry for listings and
// option checks, and its session (the chosen method's, with a fallback).
#pragma once

#include <memory>

#include "odesens/method_choice.hpp"
#include "odesens/methods.hpp"
#include "odesens/session.hpp"
#include "odesens/status.hpp"

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

// The failures after which auto runs its fallback: too much work,
// stiffness, a failed solve, non-finite values (not bad input nor an
// interruption, which every method would meet).
bool falls_back_on(Status status);

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem);

// odesd suits S of `columns` parameters when the model gives the second
// derivatives it needs and S (nx x columns) is not so large that its
// per-parameter work outweighs its fewer steps (auto's rule for S without
// the stiffness probe; PEtab's auto takes it too).
bool odesd_suits_sensitivities(const Model& model, std::size_t columns);

}  // namespace odesens::methods
