// expression_text (expression_text.hpp).
#include "expr/expression_text.hpp"

#include <cctype>
#include <cstdio>

namespace odesens::expr {
namespace {

// Operators written between their operands ("+", "<", "&&").
bool infix(Op op) {
  const char* name = op_name(op);
  return arity(op) == 2 && !std::isalpha(static_cast<unsigned char>(name[0]));
}

class Printer {
 public:
  Printer(const Graph& g, const std::vector<std::string>& states,
          const std::vector<std::string>& params, std::size_t max_chars)
      : g_(g), states_(states), params_(params), max_(max_chars) {}

  // Depth-first, and no deeper than kMaxDepth: a sum of many terms nests
  // one level per term.
  void print(NodeId id, int depth = 0) {
    if (out_.size() > max_) return;  // cut below
    if (depth > kMaxDepth) {
      out_ += "...";
      return;
    }
    ++depth;
    const Node& n = g_.node(id);
    switch (n.op) {
      case Op::constant: return number(n.value);
      case Op::time: out_ += "t"; return;
      case Op::state: return name(states_, n.index, "x");
      case Op::param: return name(params_, n.index, "p");
      case Op::neg: out_ += "-"; return operand(n.a, depth);
      case Op::logical_not: out_ += "!"; return operand(n.a, depth);
      case Op::powi: operand(n.a, depth); out_ += "^" + std::to_string(n.index); return;
      case Op::select: return call("piecewise", {n.b, n.a, n.c}, depth);
      default: break;
    }
    if (infix(n.op)) {
      operand(n.a, depth);
      out_ += std::string(" ") + op_name(n.op) + " ";
      operand(n.b, depth);
      return;
    }
    const int k = arity(n.op);
    call(op_name(n.op), k == 1 ? std::vector<NodeId>{n.a} : std::vector<NodeId>{n.a, n.b},
         depth);
  }

  std::string text() const {
    return out_.size() > max_ ? out_.substr(0, max_) + "..." : out_;
  }

 private:
  // An operand of an operator: in parentheses where it is one itself.
  static constexpr int kMaxDepth = 24;

  void operand(NodeId id, int depth) {
    const Op op = g_.node(id).op;
    const bool wrap = infix(op) || op == Op::neg;
    if (wrap) out_ += "(";
    print(id, depth);
    if (wrap) out_ += ")";
  }
  void call(const char* fn, const std::vector<NodeId>& args, int depth) {
    out_ += std::string(fn) + "(";
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (k > 0) out_ += ", ";
      print(args[k], depth);
    }
    out_ += ")";
  }
  void number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", v);
    out_ += buffer;
  }
  void name(const std::vector<std::string>& names, int i, const char* prefix) {
    if (i >= 0 && static_cast<std::size_t>(i) < names.size()) out_ += names[i];
    else out_ += prefix + std::to_string(i);
  }

  const Graph& g_;
  const std::vector<std::string>& states_;
  const std::vector<std::string>& params_;
  std::size_t max_;
  std::string out_;
};

}  // namespace

std::string expression_text(const Graph& graph, NodeId id,
                            const std::vector<std::string>& state_names,
                            const std::vector<std::string>& param_names,
                            std::size_t max_chars) {
  Printer printer(graph, state_names, param_names, max_chars);
  printer.print(id);
  return printer.text();
}

}  // namespace odesens::expr
