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

// The MathML elements that are one operation of ops.def, and how their
// arguments map to it.
enum class Form { none, unary, binary, fold, fold1, chain };
struct SbmlOp {
  Op op;
  Form form;
  ASTNodeType_t type;
  double empty;  // fold: the value of no argument
};

constexpr SbmlOp kSbmlOps[] = {
#define sbml_none Form::none, AST_UNKNOWN, 0.0
#define sbml_unary(type) Form::unary, type, 0.0
#define sbml_binary(type) Form::binary, type, 0.0
#define sbml_fold(type, empty) Form::fold, type, empty
#define sbml_fold1(type) Form::fold1, type, 0.0
#define sbml_chain(type) Form::chain, type, 0.0
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) {Op::name, sbml},
#include "expr/ops.def"
#undef sbml_none
#undef sbml_unary
#undef sbml_binary
#undef sbml_fold
#undef sbml_fold1
#undef sbml_chain
};

const SbmlOp* sbml_op(ASTNodeType_t type) {
  for (const SbmlOp& s : kSbmlOps)
    if (s.form != Form::none && s.type == type) return &s;
  return nullptr;
}

std::string element_name(const ASTNode* a) {
  if (a->getName()) return a->getName();
  return "MathML element (libsbml type " + std::to_string(static_cast<int>(a->getType())) + ")";
}

// asinh, acosh, atanh from log and sqrt (the graph has no operations for
// them); asinh by odd symmetry, which avoids cancellation for x < 0.
NodeId asinh_of(Graph& g, NodeId v) {
  const NodeId m = g.unary(Op::abs, v), one = g.constant(1.0);
  const NodeId r = g.unary(Op::log, g.add(m, g.unary(Op::sqrt, g.add(g.mul(m, m), one))));
  return g.select(g.binary(Op::lt, v, g.constant(0.0)), g.neg(r), r);
}
NodeId acosh_of(Graph& g, NodeId v) {
  return g.unary(Op::log, g.add(v, g.unary(Op::sqrt, g.sub(g.mul(v, v), g.constant(1.0)))));
}
NodeId atanh_of(Graph& g, NodeId v) {  // also arccoth(x) = atanh(1/x)
  const NodeId one = g.constant(1.0);
  return g.mul(g.constant(0.5), g.unary(Op::log, g.div(g.add(one, v), g.sub(one, v))));
}

// MathML quotient and rem: truncation toward zero, rem with the sign of a.
NodeId truncated(Graph& g, NodeId v) {
  return g.select(g.binary(Op::lt, v, g.constant(0.0)), g.unary(Op::ceil, v),
                  g.unary(Op::floor, v));
}

NodeId reciprocal(Graph& g, Op op, NodeId v) { return g.div(g.constant(1.0), g.unary(op, v)); }
NodeId inverse(Graph& g, NodeId v) { return g.div(g.constant(1.0), v); }

// The reciprocal trigonometric and hyperbolic functions and the inverses
// the graph has no operation for, each of one argument; null for others.
using UnaryBuilder = NodeId (*)(Graph&, NodeId);
UnaryBuilder trigonometric_family(ASTNodeType_t type) {
  switch (type) {
    case AST_FUNCTION_SEC: return [](Graph& g, NodeId v) { return reciprocal(g, Op::cos, v); };
    case AST_FUNCTION_CSC: return [](Graph& g, NodeId v) { return reciprocal(g, Op::sin, v); };
    case AST_FUNCTION_COT: return [](Graph& g, NodeId v) { return reciprocal(g, Op::tan, v); };
    case AST_FUNCTION_SECH: return [](Graph& g, NodeId v) { return reciprocal(g, Op::cosh, v); };
    case AST_FUNCTION_CSCH: return [](Graph& g, NodeId v) { return reciprocal(g, Op::sinh, v); };
    case AST_FUNCTION_COTH: return [](Graph& g, NodeId v) { return reciprocal(g, Op::tanh, v); };
    case AST_FUNCTION_ARCSEC:
      return [](Graph& g, NodeId v) { return g.unary(Op::acos, inverse(g, v)); };
    case AST_FUNCTION_ARCCSC:
      return [](Graph& g, NodeId v) { return g.unary(Op::asin, inverse(g, v)); };
    case AST_FUNCTION_ARCCOT:
      return [](Graph& g, NodeId v) { return g.unary(Op::atan, inverse(g, v)); };
    case AST_FUNCTION_ARCSINH: return asinh_of;
    case AST_FUNCTION_ARCCOSH: return acosh_of;
    case AST_FUNCTION_ARCTANH: return atanh_of;
    case AST_FUNCTION_ARCSECH: return [](Graph& g, NodeId v) { return acosh_of(g, inverse(g, v)); };
    case AST_FUNCTION_ARCCSCH: return [](Graph& g, NodeId v) { return asinh_of(g, inverse(g, v)); };
    case AST_FUNCTION_ARCCOTH: return [](Graph& g, NodeId v) { return atanh_of(g, inverse(g, v)); };
    default: return nullptr;
  }
}

}  // namespace

MathTranslator::MathTranslator(Graph& graph, const SbmlModel& model, std::string file)
    : g_(graph), file_(std::move(file)) {
  // libsbml finds a definition by id by a linear search: once per call
  // site, that is quadratic in the size of a large model.
  for (unsigned i = 0; i < model.getNumFunctionDefinitions(); ++i) {
    const FunctionDefinition* fd = model.getFunctionDefinition(i);
    functions_.emplace(fd->getId(), fd);  // the first of duplicate ids, as libsbml
  }
}

void MathTranslator::fail(const Scope& scope, const std::string& message,
                          bool is_unsupported) const {
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
  const auto found = functions_.find(id);
  if (found == functions_.end())
    fail(scope, "call of '" + id + "', which is not a function definition");
  const FunctionDefinition* fd = found->second;
  const ASTNode* lambda = fd->getMath();
  const ASTNode* body = fd->getBody();
  if (!lambda || !body) fail(scope, "function '" + id + "' has no definition (no math)");
  if (fd->getNumArguments() != args.size())
    fail(scope, "function '" + id + "' takes " + plural(fd->getNumArguments(), "argument") +
                    ", called with " + std::to_string(args.size()));
  for (const auto& f : inlining_)
    if (f == id) fail(scope, "function '" + id + "' calls itself (recursion is not allowed)");
  if (inlining_.size() >= kMaxFunctionNesting)
    fail(scope,
         "function definitions call one another more than " +
             std::to_string(kMaxFunctionNesting) + " levels deep (" + inlining_.front() +
             " -> ... -> " + inlining_.back() + " -> " + id + ")",
         true);
  Frame callee{id, {}};
  for (unsigned k = 0; k < fd->getNumArguments(); ++k) {
    const ASTNode* bvar = fd->getArgument(k);
    callee.args[bvar && bvar->getName() ? bvar->getName() : ""] = args[k];
  }
  // Popped on the way out of an error too: the importer goes on after some
  // (observables without a value).
  struct Inlining {
    std::vector<std::string>& stack;
    Inlining(std::vector<std::string>& s, const std::string& f) : stack(s) { stack.push_back(f); }
    ~Inlining() { stack.pop_back(); }
  } inlining(inlining_, id);
  return node(body, scope, &callee);
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
  const NodeId zero = g_.constant(0.0), one = g_.constant(1.0);
  auto un = [&](Op op) { want(1, 1); return g_.unary(op, x[0]); };
  auto trunc = [&](NodeId v) { return truncated(g_, v); };
  // n-ary relations hold pairwise along the chain: a < b < c.
  auto chain = [&](Op op) {
    want(2, ~0u);
    NodeId r = g_.binary(op, x[0], x[1]);
    for (unsigned k = 2; k < n; ++k)
      r = g_.binary(Op::logical_and, r, g_.binary(op, x[k - 1], x[k]));
    return r;
  };
  auto fold = [&](Op op, NodeId empty) {
    if (n == 0) return empty;
    NodeId r = x[0];
    for (unsigned k = 1; k < n; ++k) r = g_.binary(op, r, x[k]);
    return r;
  };
  if (const SbmlOp* s = sbml_op(a->getType())) {
    switch (s->form) {
      case Form::unary: return un(s->op);
      case Form::binary: want(2, 2); return g_.binary(s->op, x[0], x[1]);
      case Form::fold: return fold(s->op, g_.constant(s->empty));
      case Form::fold1: want(1, ~0u); return fold(s->op, zero);
      case Form::chain: return chain(s->op);
      case Form::none: break;
    }
  }
  if (const UnaryBuilder build = trigonometric_family(a->getType())) {
    want(1, 1);
    return build(g_, x[0]);
  }
  switch (a->getType()) {
    case AST_MINUS:
      want(1, 2);
      return n == 1 ? g_.neg(x[0]) : g_.sub(x[0], x[1]);
    case AST_POWER: want(2, 2); return g_.pow(x[0], x[1]);  // ops.def: AST_FUNCTION_POWER
    case AST_FUNCTION_ROOT:  // root(x) or root(degree, x)
      want(1, 2);
      if (n == 1 || g_.is_constant(x[0], 2.0)) return g_.unary(Op::sqrt, x[n - 1]);
      return g_.pow(x[1], g_.div(one, x[0]));
    case AST_FUNCTION_LOG:  // log(x) is base 10; log(base, x)
      want(1, 2);
      if (n == 1 || g_.is_constant(x[0], 10.0)) return g_.unary(Op::log10, x[n - 1]);
      return g_.div(g_.unary(Op::log, x[1]), g_.unary(Op::log, x[0]));
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
    case AST_LOGICAL_XOR: {
      // (a || b) && !(a && b), folded: logical operations on the operands'
      // own comparisons. Comparing truth values instead (a != b) made root
      // functions that are zero wherever the two agree, whose "crossings"
      // the one-step methods then located one ulp apart without end (SBML
      // Test Suite case 00201, xor(S2 < 2, S2 > 4, S2 < 1)).
      if (n == 0) return zero;
      NodeId r = x[0];
      for (unsigned k = 1; k < n; ++k)
        r = g_.binary(Op::logical_and, g_.binary(Op::logical_or, r, x[k]),
                      g_.unary(Op::logical_not, g_.binary(Op::logical_and, r, x[k])));
      return r;
    }
    case AST_LOGICAL_IMPLIES:
      want(2, 2);
      return g_.binary(Op::logical_or, g_.unary(Op::logical_not, x[0]), x[1]);
    case AST_FUNCTION: return function(a, x, scope);
    default: break;
  }
  fail(scope, "'" + what + "' has no ODE meaning here and is not supported", true);
}

NodeId MathTranslator::node(const ASTNode* a, const Scope& scope, const Frame* frame) {
  if (!a) fail(scope, "incomplete math");
  if (depth_ >= kMaxMathDepth)
    fail(scope,
         "math nested more than " + std::to_string(kMaxMathDepth) +
             " levels deep, counting the function definitions it calls and the rules it refers "
             "to",
         true);
  if (frame && ++inlined_nodes_ > kMaxInlinedNodes)
    fail(scope,
         "the function definitions inlined into the model exceed " +
             std::to_string(kMaxInlinedNodes) +
             " expression nodes (each call inlines its function's body again, so calls within "
             "calls multiply); reached inlining '" +
             inlining_.front() + "'",
         true);
  struct Nesting {
    std::size_t& depth;
    explicit Nesting(std::size_t& d) : depth(d) { ++depth; }
    ~Nesting() { --depth; }
  } nesting(depth_);
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
    case AST_FUNCTION_RATE_OF: {
      if (a->getNumChildren() != 1 || !a->getChild(0) || a->getChild(0)->getType() != AST_NAME)
        fail(scope, "rateOf (csymbol) takes one id");
      if (!scope.rate_of) fail(scope, "rateOf (csymbol) has no meaning here", true);
      const ASTNode* arg = a->getChild(0);
      if (frame && frame->args.count(arg->getName() ? arg->getName() : ""))
        fail(scope, "rateOf of a function argument is not supported", true);
      return scope.rate_of(arg->getName() ? arg->getName() : "");
    }
    case AST_LAMBDA: fail(scope, "a lambda outside a function definition");
    case AST_UNKNOWN: fail(scope, "the math is empty or not MathML libsbml can read");
    default: return call(a, scope, frame);
  }
}

}  // namespace odesens::expr::sbml
