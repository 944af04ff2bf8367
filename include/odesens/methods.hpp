// Methods: one entry point for every sensitivity method, chosen by id.
//
//   odesens::Result r = odesens::solve(problem, "cvodes_fsa");
//
// Method ids and their options are listed by method_infos(); each option's
// default is part of its documentation.
#pragma once

#include <string>
#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens {

// What a method computes and what it needs. The registry checks the needs
// before solving and refuses a model or problem that lacks one, with a
// message naming what is missing.
struct MethodCapabilities {
  // Outputs.
  bool s_trajectory = false;  // S at every output time
  bool final_s = false;       // S at the final time only (adjoint-type)
  bool gradient = false;      // dG/dp of the objective (Problem::adjoint_weights)
  bool bounds = false;        // enclosures over a parameter box
  // Several objectives at once (Problem::n_objectives > 1) and running
  // costs (Problem::integrand); gradient methods without it take one
  // objective G = sum_k w_k^T x(t_k).
  bool integrands = false;
  // S·R for given directions R (Problem::sens_directions, Result::sr);
  // methods without it refuse directions rather than ignore them.
  bool directions = false;
  // Evaluates the model's f alone (and x0, dx0/dp): no Jacobians or other
  // derivatives, so models without them cost nothing extra.
  bool rhs_only = false;
  // Runs the model's events (EventSystem) and stops where f switches,
  // carrying S and gradients across. Methods without it refuse a model
  // with events and warn when f has switches they step over.
  bool events = false;
  // Needs.
  bool exact_jacobians = false;     // J_x and J_p exact (Model::has_analytic_jacobians)
  bool second_derivatives = false;  // the SecondDerivatives capability of the model
  bool parameter_box = false;       // Problem::param_lower / param_upper
};

struct MethodInfo {
  std::string id;
  std::string summary;
  MethodCapabilities capabilities;
  double default_rtol = 1e-8;   // used when the problem leaves rtol unset
  double default_atol = 1e-10;  // used when the problem leaves atol empty
  std::vector<OptionSpec> options;
};
// The CVODES baselines default to rtol 1e-8, atol 1e-10: tight enough that
// S agrees with finite differences of the trajectory to about 1e-6
// relative on the built-in models.

// Solves the problem with the method; throws Error on any failure.
Result solve(const Problem& problem, const std::string& method_id);

const std::vector<MethodInfo>& method_infos();

// Throws Error(unsupported) naming the first need of a method that the
// problem's model or the problem itself does not meet.
void check_method_needs(const std::string& method_id, const MethodCapabilities& needs,
                        const Problem& problem);
// Throws Error(unknown_method) listing the known ids.
const MethodInfo& method_info(const std::string& method_id);
// Whether the method declares option `key` (among MethodInfo::options).
bool declares_option(const MethodInfo& info, const std::string& key);

}  // namespace odesens
