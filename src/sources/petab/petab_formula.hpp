// PEtab math (observable and noise formulas, and condition or parameter
// values written as formulas) into nodes of the expression graph.
//
// PEtab v1 leaves the syntax informal; this follows libpetab-python's
// grammar and the PEtab function table, and accepts a little more:
// numbers (1, 1., 1.5, 1e-3, .5), names ([A-Za-z_][A-Za-z0-9_]*),
// + - * / with the usual precedence, unary + and -, ^ (and **) right-
// associative and binding tighter than unary minus (-2^2 = -4, 2^-1 = 0.5),
// parentheses, comparisons (< <= > >= == !=, as 0/1 values; a < b < c is
// (a < b) < c), && (binding tighter than ||), || and !, whitespace anywhere.
// Functions (lowercase, case-sensitive): exp, log(x) (natural), log(x, b)
// (base b: the argument first, as in the PEtab table and sympy), ln,
// log2, log10, sqrt, abs, sign (-1, 0 or 1), min, max (two or more
// arguments), pow(a, b), floor, ceil, sin cos tan sec csc cot,
// asin acos atan (also arcsin arccos arctan) arcsec arccsc arccot,
// sinh cosh tanh sech csch coth, asinh acosh atanh (also arcsinh arccosh
// arctanh) arcsech arccsch arccoth, piecewise(v1, c1, v2, c2, ...,
// otherwise) (the first vi whose ci is non-zero; an odd number of
// arguments). Reserved names: time, true, false, inf, nan, pi.
//
// Names other than these are resolved by the caller (model ids, parameter
// ids, placeholders), so the parser knows nothing of models. A function's
// name not followed by '(' is such a name, as in libpetab-python.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr::petab {

struct FormulaScope {
  // The node of a name; throws Error(invalid_argument) naming what is
  // wrong when there is none (its message is prefixed with `where`).
  std::function<NodeId(const std::string& name)> resolve;
  // What `time` means (g.time() for observables).
  NodeId time = kNoNode;
};

// Throws Error(parse_error, "<where>: column C: <what is wrong>") for text
// that is not a formula (unbalanced parentheses, unknown function, wrong
// argument count, trailing text, empty text, nesting deeper than 200
// levels, more than 1,000,000 characters); C counts bytes from 1. Errors
// of scope.resolve pass through, prefixed with "<where>: " unless their
// message starts with where; `time` with scope.time == kNoNode is
// Error(invalid_argument). Nesting levels are parentheses, function calls,
// unary operators and exponents; a + b + c ... is no nesting.
NodeId parse_formula(Graph& graph, const std::string& text, const FormulaScope& scope,
                     const std::string& where);

// The names a formula refers to other than functions and the reserved
// names above, each once, in order of first appearance; throws as
// parse_formula for text that is not a formula.
std::vector<std::string> formula_names(const std::string& text, const std::string& where);

}  // namespace odesens::expr::petab
