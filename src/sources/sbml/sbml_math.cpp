#include "sources/sbml/sbml_math.hpp"

#include <cmath>
#include <limits>

#include "sources/sbml/sbml_document.hpp"
#include "odesens/status.hpp"

namespace odesens::expr::sbml {


struct MathTranslator::Frame {
  std::string function;
  std::unordered_map<std::string, NodeId> args;
};

namespace {

std::string plural(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string element_name(const ASTNode* a) {
  if (a->getName()) return a->getName();
  return "MathML element (libsbml type " + std::to_string(static_cast<int>(a->getType())) + ")";
}

}  // namespace

MathTranslator::MathTranslator(Graph& graph, const SbmlModel& model, std::string file)
    : g_(graph), model_(model), file_(std::move(file)) {}

void MathTranslator::fail(const Scope& scope, const std::string& message, bool is_unsupported) const {
  throw Error(is_unsupported ? Status::unsupported : Status::parse_error,
              sbml::where(file_, scope.element) + scope.where + ": " + message);
}

NodeId MathTranslator::translate(const ASTNode* math, const Scope& scope) {
  if (!math) fail(scope, "no math");
  return node(math, scope, nullptr);
}

NodeId MathTranslator::name(const ASTNode* a, const Scope& scope, const Frame* frame) {
  const std::string id = a->getName() ? a->getName() : "";
  if (frame) {
    auto it = frame->args.find(id);
    if (it != frame->args.end()) return it->second;
    fail(scope, "function '" + frame->function + "' uses '" + id +
                    "', which is not one of its arguments");
  }
  return scope.resolve(id);
}

// Inlines a call of a function definition: its body with the bound
// variables standing for the arguments' nodes.
NodeId MathTranslator::function(const ASTNode* a, const std::vector<NodeId>& args,
                                const Scope& scope) {
  const std::string id = a->getName() ? a->getName() : "";
  const FunctionDefinition* fd = model_.getFunctionDefinition(id);
  if (!fd) fail(scope, "call of '" + id + "', which is not a function definition");
  const ASTNode* lambda = fd->getMath();
  const ASTNode* body = fd->getBody();
  if (!lambda || !body) fail(scope, "function '" + id + "' has no definition (no math)");
  if (fd->getNumArguments() != args.size())
    fail(scope, "function '" + id + "' takes " + plural(fd->getNumArguments(), "argument") +
                    ", called with " + std::to_string(args.size()));
  for (const auto& f : inlining_)
    if (f == id) fail(scope, "function '" + id + "' calls itself (recursion is not allowed)");
  Frame callee{id, {}};
  for (unsigned k = 0; k < fd->getNumArguments(); ++k) {
    const ASTNode* bvar = fd->getArgument(k);
    callee.args[bvar && bvar->getName() ? bvar->getName() : ""] = args[k];
  }
  inlining_.push_back(id);
  const NodeId r = node(body, scope, &callee);
  inlining_.pop_back();
  return r;
}

NodeId MathTranslator::call(const ASTNode* a, const Scope& scope, const Frame* frame) {
  const unsigned n = a->getNumChildren();
  std::vector<NodeId> x;
  x.reserve(n);
  for (unsigned k = 0; k < n; ++k) x.push_back(node(a->getChild(k), scope, frame));
  const std::string what = element_name(a);
  auto want = [&](unsigned lo, unsigned hi) {
    if (n < lo || n > hi)
      fail(scope, "'" + what + "' takes " +
                      (lo == hi ? plural(lo, "argument")
                                : hi == ~0u ? "at least " + plural(lo, "argument")
                                            : std::to_string(lo) + " or " + std::to_string(hi) +
                                                  " arguments") +
                      ", got " + std::to_string(n));
  };
  const NodeId zero = g_.constant(0.0), one = g_.constant(1.0), half = g_.constant(0.5);
  auto un = [&](Op op) { want(1, 1); return g_.unary(op, x[0]); };
  auto recip = [&](Op op) { want(1, 1); return g_.div(one, g_.unary(op, x[0])); };
  auto truth = [&](NodeId v) { return g_.binary(Op::ne, v, zero); };
  // asinh, acosh, atanh from log and sqrt (the graph has no operations for
  // them); asinh by odd symmetry, which avoids cancellation for x < 0.
  auto asinh = [&](NodeId v) {
    const NodeId m = g_.unary(Op::abs, v);
    const NodeId r = g_.unary(Op::log, g_.add(m, g_.unary(Op::sqrt, g_.add(g_.mul(m, m), one))));
    return g_.select(g_.binary(Op::lt, v, zero), g_.neg(r), r);
  };
  auto acosh = [&](NodeId v) {
    return g_.unary(Op::log, g_.add(v, g_.unary(Op::sqrt, g_.sub(g_.mul(v, v), one))));
  };
  auto atanh = [&](NodeId v) {  // also arccoth(x) = atanh(1/x)
    return g_.mul(half, g_.unary(Op::log, g_.div(g_.add(one, v), g_.sub(one, v))));
  };
  // MathML quotient and rem: truncation toward zero, rem with the sign of a.
  auto trunc = [&](NodeId v) {
    return g_.select(g_.binary(Op::lt, v, zero), g_.unary(Op::ceil, v), g_.unary(Op::floor, v));
  };
  // n-ary relations hold pairwise along the chain: a < b < c.
  auto chain = [&](Op op) {
    want(2, ~0u);
    NodeId r = g_.binary(op, x[0], x[1]);
    for (unsigned k = 2; k < n; ++k) r = g_.binary(Op::logical_and, r, g_.binary(op, x[k - 1], x[k]));
    return r;
  };
  auto fold = [&](Op op, NodeId empty) {
    if (n == 0) return empty;
    NodeId r = x[0];
    for (unsigned k = 1; k < n; ++k) r = g_.binary(op, r, x[k]);
    return r;
  };
  switch (a->getType()) {
    case AST_PLUS: return fold(Op::add, zero);
    case AST_TIMES: return fold(Op::mul, one);
    case AST_MINUS:
      want(1, 2);
      return n == 1 ? g_.neg(x[0]) : g_.sub(x[0], x[1]);
    case AST_DIVIDE: want(2, 2); return g_.div(x[0], x[1]);
    case AST_POWER:
    case AST_FUNCTION_POWER: want(2, 2); return g_.pow(x[0], x[1]);
    case AST_FUNCTION_ROOT:  // root(x) or root(degree, x)
      want(1, 2);
      if (n == 1 || g_.is_constant(x[0], 2.0)) return g_.unary(Op::sqrt, x[n - 1]);
      return g_.pow(x[1], g_.div(one, x[0]));
    case AST_FUNCTION_LOG:  // log(x) is base 10; log(base, x)
      want(1, 2);
      if (n == 1 || g_.is_constant(x[0], 10.0)) return g_.unary(Op::log10, x[n - 1]);
      return g_.div(g_.unary(Op::log, x[1]), g_.unary(Op::log, x[0]));
    case AST_FUNCTION_LN: return un(Op::log);
    case AST_FUNCTION_EXP: return un(Op::exp);
    case AST_FUNCTION_ABS: return un(Op::abs);
    case AST_FUNCTION_FLOOR: return un(Op::floor);
    case AST_FUNCTION_CEILING: return un(Op::ceil);
    case AST_FUNCTION_FACTORIAL: return un(Op::factorial);
    case AST_FUNCTION_SIN: return un(Op::sin);
    case AST_FUNCTION_COS: return un(Op::cos);
    case AST_FUNCTION_TAN: return un(Op::tan);
    case AST_FUNCTION_SINH: return un(Op::sinh);
    case AST_FUNCTION_COSH: return un(Op::cosh);
    case AST_FUNCTION_TANH: return un(Op::tanh);
    case AST_FUNCTION_ARCSIN: return un(Op::asin);
    case AST_FUNCTION_ARCCOS: return un(Op::acos);
    case AST_FUNCTION_ARCTAN: return un(Op::atan);
    case AST_FUNCTION_SEC: return recip(Op::cos);
    case AST_FUNCTION_CSC: return recip(Op::sin);
    case AST_FUNCTION_COT: return recip(Op::tan);
    case AST_FUNCTION_SECH: return recip(Op::cosh);
    case AST_FUNCTION_CSCH: return recip(Op::sinh);
    case AST_FUNCTION_COTH: return recip(Op::tanh);
    case AST_FUNCTION_ARCSEC: want(1, 1); return g_.unary(Op::acos, g_.div(one, x[0]));
    case AST_FUNCTION_ARCCSC: want(1, 1); return g_.unary(Op::asin, g_.div(one, x[0]));
    case AST_FUNCTION_ARCCOT: want(1, 1); return g_.unary(Op::atan, g_.div(one, x[0]));
    case AST_FUNCTION_ARCSINH: want(1, 1); return asinh(x[0]);
    case AST_FUNCTION_ARCCOSH: want(1, 1); return acosh(x[0]);
    case AST_FUNCTION_ARCTANH: want(1, 1); return atanh(x[0]);
    case AST_FUNCTION_ARCSECH: want(1, 1); return acosh(g_.div(one, x[0]));
    case AST_FUNCTION_ARCCSCH: want(1, 1); return asinh(g_.div(one, x[0]));
    case AST_FUNCTION_ARCCOTH: want(1, 1); return atanh(g_.div(one, x[0]));
    case AST_FUNCTION_MIN: want(1, ~0u); return fold(Op::min, zero);
    case AST_FUNCTION_MAX: want(1, ~0u); return fold(Op::max, zero);
    case AST_FUNCTION_QUOTIENT: want(2, 2); return trunc(g_.div(x[0], x[1]));
    case AST_FUNCTION_REM:
      want(2, 2);
      return g_.sub(x[0], g_.mul(x[1], trunc(g_.div(x[0], x[1]))));
    case AST_FUNCTION_PIECEWISE: {  // value1, condition1, ..., [otherwise]
      want(1, ~0u);
      NodeId r = n % 2 == 1 ? x[n - 1] : g_.constant(std::numeric_limits<double>::quiet_NaN());
      for (unsigned k = n - n % 2; k >= 2; k -= 2) r = g_.select(x[k - 1], x[k - 2], r);
      return r;
    }
    case AST_LOGICAL_AND: return fold(Op::logical_and, one);
    case AST_LOGICAL_OR: return fold(Op::logical_or, zero);
    case AST_LOGICAL_XOR: {
      if (n == 0) return zero;
      NodeId r = truth(x[0]);
      for (unsigned k = 1; k < n; ++k) r = g_.binary(Op::ne, r, truth(x[k]));
      return r;
    }
    case AST_LOGICAL_NOT: return un(Op::logical_not);
    case AST_LOGICAL_IMPLIES:
      want(2, 2);
      return g_.binary(Op::logical_or, g_.unary(Op::logical_not, x[0]), x[1]);
    case AST_RELATIONAL_EQ: return chain(Op::eq);
    case AST_RELATIONAL_GEQ: return chain(Op::ge);
    case AST_RELATIONAL_GT: return chain(Op::gt);
    case AST_RELATIONAL_LEQ: return chain(Op::le);
    case AST_RELATIONAL_LT: return chain(Op::lt);
    case AST_RELATIONAL_NEQ: want(2, 2); return g_.binary(Op::ne, x[0], x[1]);
    case AST_FUNCTION: return function(a, x, scope);
    default: break;
  }
  fail(scope, "'" + what + "' has no ODE meaning here and is not supported", true);
}

NodeId MathTranslator::node(const ASTNode* a, const Scope& scope, const Frame* frame) {
  if (!a) fail(scope, "incomplete math");
  switch (a->getType()) {
    case AST_INTEGER: return g_.constant(static_cast<double>(a->getInteger()));
    case AST_REAL:
    case AST_REAL_E:
    case AST_RATIONAL: return g_.constant(a->getReal());
    case AST_CONSTANT_E:
    case AST_CONSTANT_PI:
    case AST_CONSTANT_TRUE:
    case AST_CONSTANT_FALSE:
    case AST_NAME_AVOGADRO: return g_.constant(a->getValue());
    case AST_NAME_TIME: return scope.time;
    case AST_NAME: return name(a, scope, frame);
    case AST_FUNCTION_DELAY:
      fail(scope, "delay (csymbol) is not supported yet", true);
    case AST_FUNCTION_RATE_OF:
      fail(scope, "rateOf (csymbol) is not supported yet", true);
    case AST_LAMBDA: fail(scope, "a lambda outside a function definition");
    default: return call(a, scope, frame);
  }
}

}  // namespace odesens::expr::sbml
