// The initial state a solve starts from: the problem's override, or x0(p)
// from the model. One place for what methods and front ends each computed.
#pragma once

#include <vector>

#include "odesens/problem.hpp"

namespace odesens {

// Problem::initial_state when given, else the model's x0(p) (ws may be null).
std::vector<double> initial_state_of(const Problem& problem, const std::vector<double>& p,
                                     Workspace* ws = nullptr);

}  // namespace odesens
