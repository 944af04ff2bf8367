// Second pass over .ode text: resolves names with the rules of each
// statement kind, orders lets by their dependencies (rejecting cycles) and
// builds the expression graph. Statements are checked in file order, lets
// on first use, so the reported error is close to the first one in the file.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/number_text.hpp"
#include "sources/ode/ode_parser.hpp"
#include "sources/ode/ode_syntax.hpp"

namespace odesens::expr {
namespace {

// What a statement's expression may use.
enum class Context { constant, initial_value, let, rhs, output };

struct Declaration {
  StatementKind kind;
  int statement;  // index into statements
  int index;      // param, state, let number
};

class Resolver {
 public:
  Resolver(const std::string& file, const OdeSyntax& syntax) : file_(file), syn_(syntax) {}

  SymbolicModel run() {
    declare();
    for (std::size_t k = 0; k < syn_.statements.size(); ++k) {
      const Statement& s = syn_.statements[k];
      switch (s.kind) {
        case StatementKind::constant: resolve_constant(static_cast<int>(k)); break;
        case StatementKind::state:
          m_.x0[static_cast<std::size_t>(decl_.at(s.name).index)] =
              build(s, Context::initial_value);
          break;
        case StatementKind::let: ensure_let(decl_.at(s.name).index); break;
        case StatementKind::derivative: resolve_derivative(static_cast<int>(k)); break;
        case StatementKind::output:
          m_.output_names.push_back(s.name);
          m_.outputs.push_back(build(s, Context::output));
          break;
        case StatementKind::time:
          (s.name == "t0" ? m_.t0 : m_.t_end) = s.number;
          if (s.name == "t0") t0_at_ = s.name_at;
          if (s.name == "t_end") {
            has_t_end_ = true;
            t_end_at_ = s.name_at;
          }
          break;
        case StatementKind::event: resolve_event(s); break;
        case StatementKind::param: break;
      }
    }
    for (std::size_t i = 0; i < m_.state_names.size(); ++i)
      if (m_.rhs[i] == kNoNode) {
        const Statement& s = syn_.statements[static_cast<std::size_t>(state_statement_[i])];
        fail(s.name_at, "state " + quoted(s.name) + " has no d/dt equation");
      }
    if (m_.state_names.empty()) fail({1, 1}, "the model declares no state");
    if (has_t_end_ && !(m_.t_end > m_.t0))
      fail(t_end_at_, "t_end = " + number_text(m_.t_end) + " must be after t0 = " +
                          number_text(m_.t0));
    // Without t_end the default span is [t0, t0 + 1] when t0 is at or past
    // the usual default end of 1 (not a span that runs backwards).
    if (!has_t_end_ && !(m_.t_end > m_.t0)) {
      m_.t_end = m_.t0 + 1.0;
      if (!(m_.t_end > m_.t0))
        fail(t0_at_, "t0 = " + number_text(m_.t0) +
                         " leaves no default end time t0 + 1 in doubles: give 'time t_end'");
    }
    for (std::size_t l = 0; l < let_statement_.size(); ++l) {  // lets are observable
      m_.observable_names.push_back(let_stmt(static_cast<int>(l)).name);
      m_.observables.push_back(let_node_[l]);
    }
    m_.name = file_;
    return std::move(m_);
  }

 private:
  [[noreturn]] void fail(SourceLocation at, const std::string& message) const {
    throw_parse_error(file_, at, message);
  }

  void declare() {
    for (std::size_t k = 0; k < syn_.statements.size(); ++k) {
      const Statement& s = syn_.statements[k];
      Declaration d{s.kind, static_cast<int>(k), 0};
      switch (s.kind) {
        case StatementKind::param:
          d.index = static_cast<int>(m_.param_names.size());
          m_.param_names.push_back(s.name);
          m_.nominal_params.push_back(s.number);
          break;
        case StatementKind::state:
          d.index = static_cast<int>(m_.state_names.size());
          m_.state_names.push_back(s.name);
          state_statement_.push_back(static_cast<int>(k));
          break;
        case StatementKind::let:
          d.index = static_cast<int>(let_statement_.size());
          let_statement_.push_back(static_cast<int>(k));
          break;
        case StatementKind::constant:
        case StatementKind::output: break;
        case StatementKind::derivative:
        case StatementKind::time: continue;
        case StatementKind::event: break;
      }
      decl_.emplace(s.name, d);
    }
    m_.x0.assign(m_.state_names.size(), kNoNode);
    m_.rhs.assign(m_.state_names.size(), kNoNode);
    let_node_.assign(let_statement_.size(), kNoNode);
  }

  void resolve_constant(int k) {
    const Statement& s = syn_.statements[static_cast<std::size_t>(k)];
    const NodeId v = build(s, Context::constant);
    const double value = m_.graph.node(v).value;
    if (!std::isfinite(value))
      fail(s.name_at, "const " + quoted(s.name) + " is not finite (" +
                          (std::isnan(value) ? std::string("NaN") : std::string("Inf")) + ")");
    const_node_[s.name] = v;
  }

  void resolve_derivative(int k) {
    const Statement& s = syn_.statements[static_cast<std::size_t>(k)];
    auto it = decl_.find(s.name);
    if (it == decl_.end()) fail(s.name_at, "d/dt of " + quoted(s.name) + ", which is not declared");
    if (it->second.kind != StatementKind::state)
      fail(s.name_at, "d/dt of " + quoted(s.name) + ", which is a " +
                          statement_keyword(it->second.kind) + ", not a state");
    if (it->second.statement > k)
      fail(s.name_at, "d/dt of " + quoted(s.name) + " comes before its state declaration (line " +
                          std::to_string(syn_.statements[static_cast<std::size_t>(it->second.statement)]
                                             .name_at.line) + ")");
    m_.rhs[static_cast<std::size_t>(it->second.index)] = build(s, Context::rhs);
  }

  // Every .ode event fires when its condition turns true (never at t0),
  // stays pending through its delay, and assigns values computed when it
  // fired; events at one time run in the order of declaration.
  void resolve_event(const Statement& s) {
    SymbolicEvent e;
    e.id = s.name;
    e.trigger = build_part(s, s.parts[0], Context::rhs);
    if (s.parts[1].root >= 0) e.delay = build_part(s, s.parts[1], Context::rhs);
    for (std::size_t k = 2; k < s.parts.size(); ++k) {
      const Part& a = s.parts[k];
      auto it = decl_.find(a.target);
      if (it == decl_.end()) fail(a.target_at, "event " + quoted(s.name) + " assigns " +
                                                   quoted(a.target) + ", which is not declared");
      if (it->second.kind != StatementKind::state)
        fail(a.target_at, "event " + quoted(s.name) + " assigns " + quoted(a.target) +
                              ", which is a " + statement_keyword(it->second.kind) +
                              ", not a state");
      if (std::find(e.targets.begin(), e.targets.end(), it->second.index) != e.targets.end())
        fail(a.target_at, "event " + quoted(s.name) + " assigns " + quoted(a.target) + " twice");
      e.targets.push_back(it->second.index);
      e.values.push_back(build_part(s, a, Context::rhs));
    }
    m_.events.push_back(std::move(e));
  }

  // Lets that the statement's expression names, in order of appearance.
  std::vector<std::pair<int, SourceLocation>> let_references(const Statement& s) const {
    std::vector<std::pair<int, SourceLocation>> out;
    for (int n = s.first_node; n <= s.root; ++n) {
      const AstNode& a = syn_.nodes[static_cast<std::size_t>(n)];
      if (a.kind != AstNode::Kind::name) continue;
      auto it = decl_.find(a.name);
      if (it != decl_.end() && it->second.kind == StatementKind::let)
        out.push_back({it->second.index, a.at});
    }
    return out;
  }

  // Builds let `root` after every let it depends on (iterative depth-first
  // search, so long chains of lets cannot exhaust the stack).
  void ensure_let(int root) {
    if (let_node_[static_cast<std::size_t>(root)] != kNoNode) return;
    struct Frame {
      int let;
      std::vector<std::pair<int, SourceLocation>> refs;
      std::size_t next;
    };
    std::vector<Frame> stack;
    std::vector<char> on_stack(let_statement_.size(), 0);
    auto push = [&](int let) {
      on_stack[static_cast<std::size_t>(let)] = 1;
      stack.push_back({let, let_references(let_stmt(let)), 0});
    };
    push(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < f.refs.size()) {
        const auto [dep, at] = f.refs[f.next++];
        if (let_node_[static_cast<std::size_t>(dep)] != kNoNode) continue;
        if (on_stack[static_cast<std::size_t>(dep)]) fail(at, cycle_message(stack, dep));
        push(dep);
        continue;
      }
      const int let = f.let;
      let_node_[static_cast<std::size_t>(let)] = build(let_stmt(let), Context::let);
      on_stack[static_cast<std::size_t>(let)] = 0;
      stack.pop_back();
    }
  }

  template <class Frames>
  std::string cycle_message(const Frames& stack, int dep) const {
    std::string path;
    bool in_cycle = false;
    for (const auto& f : stack) {
      if (f.let == dep) in_cycle = true;
      if (in_cycle) path += let_stmt(f.let).name + " -> ";
    }
    return "cycle among lets: " + path + let_stmt(dep).name;
  }

  const Statement& let_stmt(int let) const {
    return syn_.statements[static_cast<std::size_t>(let_statement_[static_cast<std::size_t>(let)])];
  }

  std::string rule(const Statement& s, Context c) const {
    if (c == Context::constant)
      return "const " + quoted(s.name) + " may only use numbers and earlier consts";
    return "the initial value of state " + quoted(s.name) + " may only use params and consts";
  }

  NodeId name_node(const Statement& s, Context c, const AstNode& a) {
    const bool restricted = c == Context::constant || c == Context::initial_value;
    if (a.name == "t") {
      if (restricted) fail(a.at, rule(s, c) + ", not the time 't'");
      return m_.graph.time();
    }
    auto it = decl_.find(a.name);
    if (it == decl_.end()) fail(a.at, "unknown name " + quoted(a.name));
    const Declaration& d = it->second;
    const std::string what = std::string(statement_keyword(d.kind)) + " " + quoted(a.name);
    switch (d.kind) {
      case StatementKind::param:
        if (c == Context::constant) fail(a.at, rule(s, c) + ", not " + what);
        return m_.graph.param(d.index);
      case StatementKind::constant: {
        auto v = const_node_.find(a.name);
        if (v == const_node_.end() && &syn_.statements[static_cast<std::size_t>(d.statement)] == &s)
          fail(a.at, "const " + quoted(a.name) + " refers to itself");
        if (v == const_node_.end())  // declared later in the file
          fail(a.at, c == Context::constant
                         ? rule(s, c) + "; " + what + " is declared later (line " +
                               std::to_string(syn_.statements[static_cast<std::size_t>(d.statement)]
                                                  .name_at.line) + ")"
                         : what + " is used before its declaration (line " +
                               std::to_string(syn_.statements[static_cast<std::size_t>(d.statement)]
                                                  .name_at.line) + ")");
        return v->second;
      }
      case StatementKind::state:
        if (restricted) fail(a.at, rule(s, c) + ", not " + what);
        return m_.graph.state(d.index);
      case StatementKind::let:
        if (restricted) fail(a.at, rule(s, c) + ", not " + what);
        ensure_let(d.index);
        return let_node_[static_cast<std::size_t>(d.index)];
      case StatementKind::output:
        fail(a.at, what + " cannot be used in expressions");
      default: break;
    }
    fail(a.at, "unknown name " + quoted(a.name));
  }

  // Graph of the statement's expression; operands precede their users in
  // the node array, so one forward loop suffices.
  NodeId build(const Statement& s, Context c) {
    Part whole;
    whole.first = s.first_node;
    whole.root = s.root;
    return build_part(s, whole, c);
  }

  NodeId build_part(const Statement& s, const Part& part, Context c) {
    Graph& g = m_.graph;
    const int n0 = part.first;
    std::vector<NodeId> local(static_cast<std::size_t>(part.root - n0 + 1), kNoNode);
    auto arg = [&](const AstNode& a, std::size_t k) {
      return local[static_cast<std::size_t>(a.args[k] - n0)];
    };
    for (int n = n0; n <= part.root; ++n) {
      const AstNode& a = syn_.nodes[static_cast<std::size_t>(n)];
      NodeId& out = local[static_cast<std::size_t>(n - n0)];
      switch (a.kind) {
        case AstNode::Kind::number: out = g.constant(a.number); break;
        case AstNode::Kind::name: out = name_node(s, c, a); break;
        case AstNode::Kind::apply:
          if (a.is_hill) {  // hill(x, K, n) = x^n / (K^n + x^n)
            const NodeId xn = g.pow(arg(a, 0), arg(a, 2));
            out = g.div(xn, g.add(g.pow(arg(a, 1), arg(a, 2)), xn));
          } else if (a.is_piecewise) {
            NodeId r = arg(a, a.args.size() - 1);
            for (std::size_t k = a.args.size() - 1; k >= 2; k -= 2)
              r = g.select(arg(a, k - 1), arg(a, k - 2), r);
            out = r;
          } else if (a.args.size() == 1) {
            out = g.unary(a.op, arg(a, 0));
          } else {
            out = g.binary(a.op, arg(a, 0), arg(a, 1));
          }
          break;
      }
    }
    return local.back();
  }

  const std::string& file_;
  const OdeSyntax& syn_;
  SymbolicModel m_;
  std::unordered_map<std::string, Declaration> decl_;
  std::unordered_map<std::string, NodeId> const_node_;
  std::vector<int> state_statement_, let_statement_;
  std::vector<NodeId> let_node_;
  bool has_t_end_ = false;
  SourceLocation t_end_at_{};
  SourceLocation t0_at_{};
};

}  // namespace

SymbolicModel parse_ode(const std::string& text, const std::string& file) {
  const OdeSyntax syntax = parse_ode_syntax(text, file);
  return Resolver(file, syntax).run();
}

}  // namespace odesens::expr
