// Recursive-descent parser for one statement per line. Grammar, lowest
// precedence first (MODEL_FORMAT.md, extended with the condition levels):
//   or      := and ('||' and)*
//   and     := compare ('&&' compare)*
//   compare := sum (('<'|'<='|'>'|'>='|'=='|'!=') sum)*
//   sum     := product (('+'|'-') product)*
//   product := unary (('*'|'/') unary)*
//   unary   := ('-'|'+'|'!') unary | power
//   power   := primary ('^' unary)?         right associative, -x^2 = -(x^2)
//   primary := NUMBER | NAME | NAME '(' args ')' | '(' or ')'
// Every subexpression is typed value or condition: arithmetic needs values,
// && || ! need conditions, and a condition is accepted only as a condition
// argument of piecewise.
#include "sources/ode/ode_syntax.hpp"

#include <unordered_map>

#include "sources/ode/ode_lexer.hpp"

namespace odesens::expr {
namespace {

constexpr int kMaxNesting = 200;

struct FunctionInfo {
  Op op;
  int arity;  // -1: piecewise
  bool hill;
};

// The operations ops.def marks as .ode functions, plus hill and piecewise.
const std::unordered_map<std::string, FunctionInfo>& functions() {
  static const std::unordered_map<std::string, FunctionInfo> table = [] {
    std::unordered_map<std::string, FunctionInfo> t = {{"hill", {Op::div, 3, true}},
                                                       {"piecewise", {Op::select, -1, false}}};
#define ode_function true
#define ode_no_function false
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  if (ode) t.emplace(text, FunctionInfo{Op::name, arity, false});
#include "expr/ops.def"
#undef ode_function
#undef ode_no_function
    return t;
  }();
  return table;
}

bool is_keyword(const std::string& s) {
  return s == "param" || s == "const" || s == "state" || s == "let" || s == "output" ||
         s == "time" || s == "event";
}

std::string plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

struct Typed {
  int node;
  bool condition;
  SourceLocation at;  // where a condition's operator is, for messages
};

class LineParser {
 public:
  LineParser(const std::string& file, std::vector<Token> tokens, std::vector<AstNode>& nodes)
      : file_(file), t_(std::move(tokens)), nodes_(nodes) {}

  Statement statement() {
    const Token& first = t_[0];
    if (first.kind != Tok::name) fail(first.at, "expected a statement, found " + describe(first));
    const std::string& kw = first.text;
    Statement s;
    s.first_node = static_cast<int>(nodes_.size());
    if (kw == "param" || kw == "const" || kw == "state" || kw == "let" || kw == "output") {
      s.kind = kw == "param"   ? StatementKind::param
               : kw == "const" ? StatementKind::constant
               : kw == "state" ? StatementKind::state
               : kw == "let"   ? StatementKind::let
                               : StatementKind::output;
      pos_ = 1;
      const Token& name = t_[pos_];
      if (name.kind != Tok::name)
        fail(name.at, "expected a name after '" + kw + "', found " + describe(name));
      s.name = name.text;
      s.name_at = name.at;
      ++pos_;
      expect(Tok::assign, "'=' after " + quoted(s.name));
      if (s.kind == StatementKind::param)
        s.number = signed_number("the value of param " + quoted(s.name));
      else
        s.root = value(top(), "");
    } else if (kw == "time") {
      s.kind = StatementKind::time;
      pos_ = 1;
      const Token& name = t_[pos_];
      if (name.kind != Tok::name || (name.text != "t0" && name.text != "t_end"))
        fail(name.at, "expected 't0' or 't_end' after 'time', found " + describe(name));
      s.name = name.text;
      s.name_at = name.at;
      ++pos_;
      expect(Tok::assign, "'=' after '" + s.name + "'");
      s.number = signed_number(s.name == "t0" ? "the start time t0" : "the end time t_end");
    } else if (kw == "event") {
      event(s);
    } else if (kw[0] == 'd' && (t_[1].kind == Tok::slash || (kw == "d" && t_[1].kind == Tok::name))) {
      s.kind = StatementKind::derivative;
      if (kw == "d" && t_[1].kind == Tok::name) {  // spaced form: d NAME / dt
        s.name = t_[1].text;
        s.name_at = t_[1].at;
        pos_ = 2;
      } else {
        s.name = kw.substr(1);
        s.name_at = {first.at.line, first.at.column + 1};
        pos_ = 1;
      }
      if (s.name.empty()) fail(first.at, "expected a state name in 'dNAME/dt'");
      expect(Tok::slash, "'/' in 'd" + s.name + "/dt'");
      if (t_[pos_].kind != Tok::name || t_[pos_].text != "dt")
        fail(t_[pos_].at, "expected 'dt' in 'd" + s.name + "/dt', found " + describe(t_[pos_]));
      ++pos_;
      expect(Tok::assign, "'=' after 'd" + s.name + "/dt'");
      s.root = value(top(), "");
    } else {
      fail(first.at, "expected a statement (param, const, state, let, output, time, event or "
                     "dNAME/dt), found " + describe(first));
    }
    const Token& rest = t_[pos_];
    if (rest.kind == Tok::rparen) fail(rest.at, "unbalanced parenthesis: ')' without '('");
    if (rest.kind != Tok::end)
      fail(rest.at, "expected an operator or the end of the line, found " + describe(rest));
    return s;
  }

 private:
  [[noreturn]] void fail(SourceLocation at, const std::string& message) const {
    throw_parse_error(file_, at, message);
  }

  const Token& peek() const { return t_[pos_]; }
  const Token& take() { return t_[pos_ < t_.size() - 1 ? pos_++ : pos_]; }

  void expect(Tok kind, const std::string& what) {
    if (peek().kind != kind) fail(peek().at, "expected " + what + ", found " + describe(peek()));
    ++pos_;
  }

  double signed_number(const std::string& what) {
    double sign = 1.0;
    if (peek().kind == Tok::minus || peek().kind == Tok::plus) {
      if (take().kind == Tok::minus) sign = -1.0;
    }
    if (peek().kind != Tok::number)
      fail(peek().at, what + " must be a number, found " + describe(peek()));
    const double v = sign * take().number;
    if (peek().kind != Tok::end)
      fail(peek().at, what + " must be a number, found " + describe(peek()) +
                          " after the number");
    return v;
  }

  int add(AstNode n) {
    nodes_.push_back(std::move(n));
    return static_cast<int>(nodes_.size()) - 1;
  }

  int apply(Op op, std::vector<int> args, SourceLocation at) {
    AstNode n;
    n.kind = AstNode::Kind::apply;
    n.op = op;
    n.args = std::move(args);
    n.at = at;
    return add(std::move(n));
  }

  // event NAME when COND [after EXPR]: X = EXPR; Y = EXPR ...
  void event(Statement& s) {
    s.kind = StatementKind::event;
    pos_ = 1;
    const Token& name = t_[pos_];
    if (name.kind != Tok::name) fail(name.at, "expected a name after 'event', found " + describe(name));
    s.name = name.text;
    s.name_at = name.at;
    ++pos_;
    if (peek().kind != Tok::name || peek().text != "when")
      fail(peek().at, "expected 'when' after 'event " + s.name + "', found " + describe(peek()));
    ++pos_;
    Part condition;
    condition.first = static_cast<int>(nodes_.size());
    const SourceLocation condition_at = peek().at;
    const Typed c = top();
    if (!c.condition)
      fail(condition_at, "the trigger of event " + quoted(s.name) +
                         " is not a condition (a comparison, or comparisons joined by && || !)");
    condition.root = c.node;
    s.parts.push_back(condition);
    Part delay;
    if (peek().kind == Tok::name && peek().text == "after") {
      ++pos_;
      delay.first = static_cast<int>(nodes_.size());
      delay.root = value(top(), "the delay of event " + quoted(s.name));
    }
    s.parts.push_back(delay);
    expect(Tok::colon, "':' before the assignments of event " + quoted(s.name));
    do {
      const Token& target = peek();
      if (target.kind != Tok::name)
        fail(target.at, "expected a state to assign in event " + quoted(s.name) + ", found " +
                            describe(target));
      Part assignment;
      assignment.target = target.text;
      assignment.target_at = target.at;
      ++pos_;
      expect(Tok::assign, "'=' after " + quoted(assignment.target));
      assignment.first = static_cast<int>(nodes_.size());
      assignment.root = value(top(), "");
      s.parts.push_back(assignment);
    } while (peek().kind == Tok::semicolon && (++pos_, peek().kind != Tok::end));
    s.first_node = s.parts.front().first;
    s.root = s.parts.back().root;
  }

  // The node of a value; a condition here is outside piecewise.
  int value(const Typed& e, const std::string& what) {
    if (e.condition)
      fail(e.at, what.empty() ? "condition outside piecewise"
                              : "condition outside piecewise: " + what);
    return e.node;
  }

  Typed top() {
    if (peek().kind == Tok::end) fail(peek().at, "expected an expression, found end of line");
    return parse_or();
  }

  Typed parse_or() {
    Typed left = parse_and();
    while (peek().kind == Tok::or_) {
      const SourceLocation at = take().at;
      Typed right = parse_and();
      left = logical(Op::logical_or, "||", left, right, at);
    }
    return left;
  }

  Typed parse_and() {
    Typed left = parse_compare();
    while (peek().kind == Tok::and_) {
      const SourceLocation at = take().at;
      Typed right = parse_compare();
      left = logical(Op::logical_and, "&&", left, right, at);
    }
    return left;
  }

  Typed logical(Op op, const char* spelling, const Typed& l, const Typed& r, SourceLocation at) {
    if (!l.condition || !r.condition)
      fail(at, std::string("'") + spelling + "' needs a condition on both sides");
    return {apply(op, {l.node, r.node}, at), true, at};
  }

  static bool comparison(Tok k, Op* op) {
    switch (k) {
      case Tok::lt: *op = Op::lt; return true;
      case Tok::le: *op = Op::le; return true;
      case Tok::gt: *op = Op::gt; return true;
      case Tok::ge: *op = Op::ge; return true;
      case Tok::eq: *op = Op::eq; return true;
      case Tok::ne: *op = Op::ne; return true;
      default: return false;
    }
  }

  Typed parse_compare() {
    Typed left = parse_sum();
    Op op;
    while (comparison(peek().kind, &op)) {
      const Token& tok = take();
      const SourceLocation at = tok.at;
      const std::string spelling = tok.text;
      Typed right = parse_sum();
      if (left.condition || right.condition)
        fail(at, "'" + spelling + "' compares a condition (chained comparisons are not "
                 "allowed; use &&)");
      left = {apply(op, {left.node, right.node}, at), true, at};
    }
    return left;
  }

  Typed arithmetic(Op op, const Typed& l, const Typed& r, SourceLocation at) {
    return {apply(op, {value(l, ""), value(r, "")}, at), false, at};
  }

  Typed parse_sum() {
    Typed left = parse_product();
    while (peek().kind == Tok::plus || peek().kind == Tok::minus) {
      const Token& tok = take();
      const Op op = tok.kind == Tok::plus ? Op::add : Op::sub;
      const SourceLocation at = tok.at;
      Typed right = parse_product();
      left = arithmetic(op, left, right, at);
    }
    return left;
  }

  Typed parse_product() {
    Typed left = parse_unary();
    while (peek().kind == Tok::star || peek().kind == Tok::slash) {
      const Token& tok = take();
      const Op op = tok.kind == Tok::star ? Op::mul : Op::div;
      const SourceLocation at = tok.at;
      Typed right = parse_unary();
      left = arithmetic(op, left, right, at);
    }
    return left;
  }

  Typed parse_unary() {
    if (++depth_ > kMaxNesting)
      fail(peek().at, "expression nested too deeply (more than " +
                          std::to_string(kMaxNesting) + " levels)");
    Typed result;
    const Token& tok = peek();
    if (tok.kind == Tok::minus || tok.kind == Tok::plus) {
      const bool minus = take().kind == Tok::minus;
      const SourceLocation at = tok.at;
      Typed operand = parse_unary();
      const int v = value(operand, "");
      result = {minus ? apply(Op::neg, {v}, at) : v, false, at};
    } else if (tok.kind == Tok::not_) {
      const SourceLocation at = take().at;
      Typed operand = parse_unary();
      if (!operand.condition) fail(at, "'!' needs a condition");
      result = {apply(Op::logical_not, {operand.node}, at), true, at};
    } else {
      result = parse_power();
    }
    --depth_;
    return result;
  }

  Typed parse_power() {
    Typed base = parse_primary();
    if (peek().kind != Tok::caret) return base;
    const SourceLocation at = take().at;
    Typed exponent = parse_unary();
    return arithmetic(Op::pow, base, exponent, at);
  }

  Typed parse_primary() {
    const Token& tok = peek();
    switch (tok.kind) {
      case Tok::number: {
        take();
        AstNode n;
        n.kind = AstNode::Kind::number;
        n.number = tok.number;
        n.at = tok.at;
        return {add(std::move(n)), false, tok.at};
      }
      case Tok::name: {
        take();
        if (peek().kind == Tok::lparen) return call(tok);
        if (functions().count(tok.text))
          fail(tok.at, "function " + quoted(tok.text) + " needs arguments in parentheses");
        AstNode n;
        n.kind = AstNode::Kind::name;
        n.name = tok.text;
        n.at = tok.at;
        return {add(std::move(n)), false, tok.at};
      }
      case Tok::lparen: {
        const SourceLocation open = take().at;
        if (peek().kind == Tok::rparen) fail(peek().at, "expected an expression, found ')'");
        Typed inner = parse_or();
        if (peek().kind == Tok::end)
          fail(open, "unbalanced parenthesis: '(' is not closed");
        if (peek().kind != Tok::rparen)
          fail(peek().at, "expected ')' or an operator, found " + describe(peek()));
        take();
        return inner;
      }
      case Tok::rparen:
        fail(tok.at, "expected an expression, found ')'");
      case Tok::end:
        fail(tok.at, "expected an expression, found end of line");
      default:
        fail(tok.at, "expected an expression, found " + describe(tok));
    }
  }

  Typed call(const Token& name) {
    auto it = functions().find(name.text);
    if (it == functions().end()) fail(name.at, "unknown function " + quoted(name.text));
    const FunctionInfo& f = it->second;
    const SourceLocation open = take().at;
    std::vector<Typed> args;
    if (peek().kind == Tok::rparen) {
      take();
    } else {
      while (true) {
        if (peek().kind == Tok::comma || peek().kind == Tok::rparen)
          fail(peek().at, "expected an expression, found " + describe(peek()));
        args.push_back(parse_or());
        if (peek().kind == Tok::comma) {
          take();
          continue;
        }
        if (peek().kind == Tok::rparen) {
          take();
          break;
        }
        if (peek().kind == Tok::end)
          fail(open, "unbalanced parenthesis: '(' of " + name.text + "(...) is not closed");
        fail(peek().at, "expected ',' or ')' in the arguments of " + name.text + ", found " +
                            describe(peek()));
      }
    }
    const int n = static_cast<int>(args.size());
    if (f.arity < 0) {
      if (n < 3 || n % 2 == 0)
        fail(name.at, "piecewise takes value, condition pairs and an otherwise value (an odd "
                      "number of arguments, at least 3), got " + std::to_string(n));
    } else if (n != f.arity) {
      fail(name.at, name.text + " takes " + plural(f.arity, "argument") + ", got " +
                        std::to_string(n));
    }
    std::vector<int> nodes;
    for (int k = 0; k < n; ++k) {
      const bool wants_condition = f.arity < 0 && k % 2 == 1 && k != n - 1;
      const Typed& a = args[static_cast<std::size_t>(k)];
      if (wants_condition && !a.condition)
        fail(nodes_[static_cast<std::size_t>(a.node)].at,
             "argument " + std::to_string(k + 1) + " of piecewise must be a condition");
      if (!wants_condition && a.condition)
        fail(a.at, f.arity < 0 ? "condition outside piecewise: argument " +
                                     std::to_string(k + 1) + " of piecewise is a value"
                               : std::string("condition outside piecewise"));
      nodes.push_back(a.node);
    }
    AstNode node;
    node.kind = AstNode::Kind::apply;
    node.op = f.op;
    node.args = std::move(nodes);
    node.is_hill = f.hill;
    node.is_piecewise = f.arity < 0;
    node.at = name.at;
    return {add(std::move(node)), false, name.at};
  }

  const std::string& file_;
  std::vector<Token> t_;
  std::vector<AstNode>& nodes_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

struct Declared {
  StatementKind kind;
  int line;
};

std::string reserved_reason(const std::string& name) {
  if (name == "t") return "'t' is reserved for time";
  if (is_keyword(name)) return quoted(name) + " is a keyword";
  if (functions().count(name)) return quoted(name) + " is a function name";
  return "";
}

}  // namespace

const char* statement_keyword(StatementKind kind) {
  switch (kind) {
    case StatementKind::param: return "param";
    case StatementKind::constant: return "const";
    case StatementKind::state: return "state";
    case StatementKind::let: return "let";
    case StatementKind::derivative: return "d/dt";
    case StatementKind::output: return "output";
    case StatementKind::time: return "time";
    case StatementKind::event: return "event";
  }
  return "?";
}

OdeSyntax parse_ode_syntax(const std::string& text, const std::string& file) {
  OdeSyntax out;
  std::unordered_map<std::string, Declared> declared;
  std::unordered_map<std::string, int> derivative_line;
  std::unordered_map<std::string, int> time_line;
  std::size_t start = 0;
  int line_number = 0;
  while (start <= text.size()) {
    // Lines end in \n, \r\n or a lone \r (old Mac files were one line).
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string::npos) end = text.size();
    ++line_number;
    const std::string line = text.substr(start, end - start);
    start = end + (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n' ? 2 : 1);
    std::vector<Token> tokens = tokenize_line(file, line_number, line);
    if (tokens.size() == 1) continue;  // blank or comment
    Statement s = LineParser(file, std::move(tokens), out.nodes).statement();
    if (s.kind == StatementKind::time) {
      auto [it, fresh] = time_line.emplace(s.name, line_number);
      if (!fresh)
        throw_parse_error(file, s.name_at,
                          "duplicate 'time " + s.name + "' statement (first at line " +
                              std::to_string(it->second) + ")");
    } else if (s.kind == StatementKind::derivative) {
      auto [it, fresh] = derivative_line.emplace(s.name, line_number);
      if (!fresh)
        throw_parse_error(file, s.name_at,
                          "duplicate d/dt for " + quoted(s.name) + " (first at line " +
                              std::to_string(it->second) + ")");
    } else {
      const std::string why = reserved_reason(s.name);
      if (!why.empty()) throw_parse_error(file, s.name_at, "cannot declare " + quoted(s.name) + ": " + why);
      auto [it, fresh] = declared.emplace(s.name, Declared{s.kind, line_number});
      if (!fresh)
        throw_parse_error(file, s.name_at,
                          "duplicate name " + quoted(s.name) + " (first declared as " +
                              statement_keyword(it->second.kind) + " at line " +
                              std::to_string(it->second.line) + ")");
    }
    out.statements.push_back(std::move(s));
    if (end == text.size()) break;
  }
  return out;
}

}  // namespace odesens::expr
