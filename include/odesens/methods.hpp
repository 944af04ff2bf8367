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

struct MethodInfo {
  std::string id;
  std::string summary;
  bool computes_gradient = false;  // adjoint-type: gradient, S at the final time only
  double default_rtol = 1e-8;      // used when the problem leaves rtol unset
  double default_atol = 1e-10;     // used when the problem leaves atol empty
  std::vector<OptionSpec> options;
};
// The CVODES baselines default to rtol 1e-8, atol 1e-10: tight enough that
// S agrees with finite differences of the trajectory to about 1e-6
// relative on the built-in models.

// Solves the problem with the method; throws Error on any failure.
Result solve(const Problem& problem, const std::string& method_id);

const std::vector<MethodInfo>& method_infos();
// Throws Error(unknown_method) listing the known ids.
const MethodInfo& method_info(const std::string& method_id);

}  // namespace odesens
