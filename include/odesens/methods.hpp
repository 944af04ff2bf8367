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
  std::vector<OptionSpec> options;
};

// Solves the problem with the method; throws Error on any failure.
Result solve(const Problem& problem, const std::string& method_id);

const std::vector<MethodInfo>& method_infos();
// Throws Error(unknown_method) listing the known ids.
const MethodInfo& method_info(const std::string& method_id);

}  // namespace odesens
