// The automatic method inside the methods layer: its entry for listings and
// option checks, and its session (the chosen method's, with a fallback).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "odesens/method_choice.hpp"
#include "odesens/methods.hpp"
#include "odesens/session.hpp"
#include "odesens/status.hpp"

namespace odesens::methods {

// nx * np above which odesd's per-parameter work outweighs its fewer steps
// (auto's rule for S): cvodes_fsa solves Lang_PLOSComputBiol2024 (124 x
// 317) in 10 s, odesd not in 60 s; odesd is faster up to SalazarCavazos
// (75 x 43) and Lucarelli (33 x 106). Above it every forward step is costly
// for any method, and PEtab's auto takes the adjoint for a gradient.
constexpr double kOdesdSensitivityLimit = 10000;

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

// The step attempts auto allows odesd over a whole solve at least (its
// option max_total_steps), 10 000 plus 10 an output time (each ends a
// step): in PEtab's evaluations, and in a session's runs after its first
// (which may raise it); beyond them the fallback solves the run. odesd's rule leaves stiff
// components undamped (|R(-inf)| = 1), and where they are large its steps
// multiply while BDF's do not: at points a fit of Weber_BMC2015 visited,
// odesd took 92 841, 107 533 and 166 220 steps (1.8-3.1 s) where cvodes_fsa
// took 4 154, 2 319 and 7 073 (0.15-0.21 s). On the shared models at their
// nominal parameters odesd takes at most 5 020 steps (Laske, 101 outputs;
// RESULTS.md, the method matrix) where auto runs it.
std::int64_t odesd_step_allowance(std::size_t outputs);

// The choice with the stiffness probe's states at the output times (nx
// each, output after output): dopri5's solution at the problem's
// tolerances, where the probe ran, reached the last output time, found
// the problem non-stiff and nothing in the model switches (the probe
// ignores events and the switches of f); empty otherwise.
struct ProbedChoice {
  MethodChoice choice;
  std::vector<double> probe_states;
};
ProbedChoice choose_method_with_probe(const Problem& problem);

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem);

// auto encloses (bounds_fsa, or bounds_asa for a gradient) where a
// parameter box or data for enclosures is given, whatever else the problem
// asks.
bool automatic_encloses(const Problem& problem);

// odesd suits S of `columns` parameters when the model gives the second
// derivatives it needs and S (nx x columns) is not so large that its
// per-parameter work outweighs its fewer steps (auto's rule for S without
// the stiffness probe; PEtab's auto takes it too).
bool odesd_suits_sensitivities(const Model& model, std::size_t columns);

}  // namespace odesens::methods
