#include "expr/expr_node.hpp"

#include <cstddef>

namespace odesens::expr {
namespace {

enum class Kind : std::uint8_t { leaf, function, condition, step, tape_only };

struct OpInfo {
  const char* name;
  int arity;
  Kind kind;
};

constexpr OpInfo kOps[] = {
#define ODESENS_LEAF(name, text) {text, 0, Kind::leaf},
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  {text, arity, Kind::kind},
#define ODESENS_TAPE_OP(name, text, arity) {text, arity, Kind::tape_only},
#include "expr/ops.def"
};
static_assert(sizeof kOps / sizeof kOps[0] == static_cast<std::size_t>(Op::count),
              "one row of ops.def per Op");

const OpInfo& info(Op op) { return kOps[static_cast<std::size_t>(op)]; }

}  // namespace

int arity(Op op) { return op < Op::count ? info(op).arity : 1; }

bool is_condition(Op op) { return op < Op::count && info(op).kind == Kind::condition; }

bool is_piecewise_constant(Op op) { return op < Op::count && info(op).kind == Kind::step; }

bool is_leaf(Op op) { return op < Op::count && info(op).kind == Kind::leaf; }

const char* op_name(Op op) { return op < Op::count ? info(op).name : "?"; }

}  // namespace odesens::expr
