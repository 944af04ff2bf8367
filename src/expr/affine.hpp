// Structural questions about how an expression depends on a set of
// parameters, for closed-form optimization over them (the PEtab inner
// parameters, estimate/inner_parameters.hpp).
#pragma once

#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

// True when some leaf under root is a parameter of `params` (indices).
bool depends_on_params(const Graph& g, NodeId root, const std::vector<int>& params);

// True when root is affine in the parameters `params` taken as one value s
// (they are set alike): root = a + b s with a and b free of them. Decided
// by the form, not by values: sums, differences, negation, products with
// one factor free of s, and quotients by a divisor free of s of affine
// expressions are affine; every other operation on s (a power, a function,
// a comparison or branch on s, floor) is not, even where it would be.
bool is_affine_in(const Graph& g, NodeId root, const std::vector<int>& params);

// The same with a = 0: root = b s, a scaling (by the same rules; a term
// free of s in a sum makes it not linear).
bool is_linear_in(const Graph& g, NodeId root, const std::vector<int>& params);

}  // namespace odesens::expr
