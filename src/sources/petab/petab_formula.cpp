// Recursive-descent parser for PEtab math, building graph nodes as it goes
// (no syntax tree: a long sum is a loop, never a deep recursion). Grammar,
// lowest precedence first:
//   or      := and ('||' and)*
//   and     := compare ('&&' compare)*
//   compare := sum (('<'|'<='|'>'|'>='|'=='|'!=') sum)*   left to right
//   sum     := product (('+'|'-') product)*
//   product := unary (('*'|'/') unary)*
//   unary   := ('-'|'+'|'!') unary | power
//   power   := primary (('^'|'**') unary)?   right associative; -2^2 = -4
//   primary := NUMBER | NAME | NAME '(' or (',' or)* ')' | '(' or ')'
// Conditions and values are both numbers (0/1 for conditions), as in the
// graph, so unlike the .ode parser nothing here is typed.
#include "sources/petab/petab_formula.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "odesens/status.hpp"

namespace odesens::expr::petab {
namespace {

constexpr std::size_t kMaxLength = 1000000;
// Parentheses, call arguments, unary operators and exponents each nest one
// level; deeper formulas are refused before they can exhaust the stack.
constexpr int kMaxNesting = 200;

[[noreturn]] void fail(const std::string& where, std::size_t column, const std::string& what) {
  throw Error(Status::parse_error, where + ": column " + std::to_string(column) + ": " + what);
}

std::string single_quoted(const std::string& s) { return "'" + s + "'"; }

std::string plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// ---------------------------------------------------------------- tokens

enum class Tok {
  number, name, lparen, rparen, comma, plus, minus, star, slash, caret,
  lt, le, gt, ge, eq, ne, and_, or_, not_, end
};

struct Token {
  Tok kind = Tok::end;
  std::size_t column = 0;  // 1-based
  std::string text;        // as written ("**" for a caret written so)
  double number = 0.0;
};

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::number: return "number " + single_quoted(t.text);
    case Tok::name: return "name " + single_quoted(t.text);
    case Tok::end: return "the end of the formula";
    default: return single_quoted(t.text);
  }
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& where) : s_(text), where_(where) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      while (i_ < s_.size() && is_space(s_[i_])) ++i_;
      if (i_ == s_.size()) break;
      out.push_back(next());
    }
    Token end;
    end.column = s_.size() + 1;
    out.push_back(end);
    return out;
  }

 private:
  Token make(Tok kind, std::size_t length) {
    Token t;
    t.kind = kind;
    t.column = i_ + 1;
    t.text = s_.substr(i_, length);
    i_ += length;
    return t;
  }

  bool at(std::size_t k, char c) const { return k < s_.size() && s_[k] == c; }

  Token next() {
    const char c = s_[i_];
    if (is_digit(c) || (c == '.' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1]))) return number();
    if (is_name_start(c)) {
      std::size_t j = i_;
      while (j < s_.size() && is_name_char(s_[j])) ++j;
      return make(Tok::name, j - i_);
    }
    switch (c) {
      case '(': return make(Tok::lparen, 1);
      case ')': return make(Tok::rparen, 1);
      case ',': return make(Tok::comma, 1);
      case '+': return make(Tok::plus, 1);
      case '-': return make(Tok::minus, 1);
      case '/': return make(Tok::slash, 1);
      case '^': return make(Tok::caret, 1);
      case '*': return at(i_ + 1, '*') ? make(Tok::caret, 2) : make(Tok::star, 1);
      case '<': return at(i_ + 1, '=') ? make(Tok::le, 2) : make(Tok::lt, 1);
      case '>': return at(i_ + 1, '=') ? make(Tok::ge, 2) : make(Tok::gt, 1);
      case '!': return at(i_ + 1, '=') ? make(Tok::ne, 2) : make(Tok::not_, 1);
      case '=':
        if (at(i_ + 1, '=')) return make(Tok::eq, 2);
        fail(where_, i_ + 1, "'=' is not an operator (equality is '==')");
      case '&':
        if (at(i_ + 1, '&')) return make(Tok::and_, 2);
        fail(where_, i_ + 1, "expected '&&', found '&'");
      case '|':
        if (at(i_ + 1, '|')) return make(Tok::or_, 2);
        fail(where_, i_ + 1, "expected '||', found '|'");
      default: break;
    }
    if (c > ' ' && c < 127)
      fail(where_, i_ + 1, "unexpected character '" + std::string(1, c) + "'");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(c));
    fail(where_, i_ + 1, std::string("unexpected byte ") + hex + " (formulas are ASCII text)");
  }

  // digits [. digits] [e [+-] digits], or . digits [...]; a letter, a
  // second dot or a dangling exponent running on makes the number bad
  // (so "2x" is not read as 2 times x).
  Token number() {
    std::size_t j = i_;
    while (j < s_.size() && is_digit(s_[j])) ++j;
    if (at(j, '.')) {
      ++j;
      while (j < s_.size() && is_digit(s_[j])) ++j;
    }
    bool bad = false;
    if (at(j, 'e') || at(j, 'E')) {
      std::size_t k = j + 1;
      if (at(k, '+') || at(k, '-')) ++k;
      bad = !(k < s_.size() && is_digit(s_[k]));
      while (k < s_.size() && is_digit(s_[k])) ++k;
      j = k;
    }
    if (j < s_.size() && (is_name_char(s_[j]) || s_[j] == '.')) {
      bad = true;
      while (j < s_.size() && (is_name_char(s_[j]) || s_[j] == '.')) ++j;
    }
    const std::size_t column = i_ + 1;
    Token t = make(Tok::number, j - i_);
    if (bad) fail(where_, column, "bad number " + single_quoted(t.text));
    // from_chars, not strtod: the decimal point must not depend on the locale.
    const char* first = t.text.data();
    const char* last = first + t.text.size();
    const auto res = std::from_chars(first, last, t.number);
    if (res.ec == std::errc::result_out_of_range)
      fail(where_, column, "number out of range " + single_quoted(t.text));
    if (res.ec != std::errc() || res.ptr != last)
      fail(where_, column, "bad number " + single_quoted(t.text));
    return t;
  }

  const std::string& s_;
  const std::string& where_;
  std::size_t i_ = 0;
};

// ------------------------------------------------------------- functions

// How a function is made of graph operations.
enum class Fn {
  op,          // op(x)
  reciprocal,  // 1 / op(x): sec, csc, cot, sech, csch, coth
  asinh,       // the graph has no inverse hyperbolic operations
  acosh,
  atanh,
  log,         // log(x) natural, log(x, base)
  log2,
  sign,
  min,
  max,
  pow,
  piecewise
};

struct Function {
  const char* name;
  Fn fn;
  Op op = Op::neg;              // Fn::op and Fn::reciprocal
  bool of_reciprocal = false;   // applied to 1/x: arcsec(x) = acos(1/x), ...
  int min_args = 1;
  int max_args = 1;             // -1: no limit
};

// The header's names, and the spellings of the PEtab specification's
// function table and libpetab-python (arcsin ..., sech ..., arcsech ...).
const Function kFunctions[] = {
    {"exp", Fn::op, Op::exp},
    {"ln", Fn::op, Op::log},
    {"log", Fn::log, Op::log, false, 1, 2},
    {"log2", Fn::log2},
    {"log10", Fn::op, Op::log10},
    {"sqrt", Fn::op, Op::sqrt},
    {"abs", Fn::op, Op::abs},
    {"sign", Fn::sign},
    {"min", Fn::min, Op::min, false, 2, -1},
    {"max", Fn::max, Op::max, false, 2, -1},
    {"pow", Fn::pow, Op::pow, false, 2, 2},
    {"floor", Fn::op, Op::floor},
    {"ceil", Fn::op, Op::ceil},
    {"sin", Fn::op, Op::sin},
    {"cos", Fn::op, Op::cos},
    {"tan", Fn::op, Op::tan},
    {"sec", Fn::reciprocal, Op::cos},
    {"csc", Fn::reciprocal, Op::sin},
    {"cot", Fn::reciprocal, Op::tan},
    {"asin", Fn::op, Op::asin},
    {"acos", Fn::op, Op::acos},
    {"atan", Fn::op, Op::atan},
    {"arcsin", Fn::op, Op::asin},
    {"arccos", Fn::op, Op::acos},
    {"arctan", Fn::op, Op::atan},
    {"arcsec", Fn::op, Op::acos, true},
    {"arccsc", Fn::op, Op::asin, true},
    {"arccot", Fn::op, Op::atan, true},
    {"sinh", Fn::op, Op::sinh},
    {"cosh", Fn::op, Op::cosh},
    {"tanh", Fn::op, Op::tanh},
    {"sech", Fn::reciprocal, Op::cosh},
    {"csch", Fn::reciprocal, Op::sinh},
    {"coth", Fn::reciprocal, Op::tanh},
    {"asinh", Fn::asinh},
    {"acosh", Fn::acosh},
    {"atanh", Fn::atanh},
    {"arcsinh", Fn::asinh},
    {"arccosh", Fn::acosh},
    {"arctanh", Fn::atanh},
    {"arcsech", Fn::acosh, Op::neg, true},
    {"arccsch", Fn::asinh, Op::neg, true},
    {"arccoth", Fn::atanh, Op::neg, true},
    {"piecewise", Fn::piecewise, Op::select, false, 1, -1},
};

const Function* find_function(const std::string& name) {
  for (const Function& f : kFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

// asinh, acosh, atanh from log and sqrt, as the SBML translator makes
// them; asinh by odd symmetry, which avoids cancellation for x < 0.
NodeId asinh(Graph& g, NodeId x) {
  const NodeId one = g.constant(1.0), m = g.unary(Op::abs, x);
  const NodeId r = g.unary(Op::log, g.add(m, g.unary(Op::sqrt, g.add(g.mul(m, m), one))));
  return g.select(g.binary(Op::lt, x, g.constant(0.0)), g.neg(r), r);
}

NodeId acosh(Graph& g, NodeId x) {
  const NodeId one = g.constant(1.0);
  return g.unary(Op::log, g.add(x, g.unary(Op::sqrt, g.sub(g.mul(x, x), one))));
}

NodeId atanh(Graph& g, NodeId x) {
  const NodeId one = g.constant(1.0);
  return g.mul(g.constant(0.5), g.unary(Op::log, g.div(g.add(one, x), g.sub(one, x))));
}

// log(x, base). Bases e, 2 and 10 keep a single operation where there is
// one, so derivatives and values stay as exact as log10 is.
NodeId log_base(Graph& g, NodeId x, NodeId base) {
  if (g.is_constant(base, 10.0)) return g.unary(Op::log10, x);
  if (g.is_constant(base, std::exp(1.0))) return g.unary(Op::log, x);
  return g.div(g.unary(Op::log, x), g.unary(Op::log, base));
}

// As libpetab-python (sympy): -1, 0 or 1, and 0 for NaN.
NodeId sign(Graph& g, NodeId x) {
  const NodeId zero = g.constant(0.0);
  return g.select(g.binary(Op::gt, x, zero), g.constant(1.0),
                  g.select(g.binary(Op::lt, x, zero), g.constant(-1.0), zero));
}

// piecewise(v1, c1, v2, c2, ..., otherwise): the first value whose
// condition holds, built from the back as nested selects.
NodeId piecewise(Graph& g, const std::vector<NodeId>& x) {
  NodeId r = x.back();
  for (std::size_t k = x.size() - 1; k >= 2; k -= 2) r = g.select(x[k - 1], x[k - 2], r);
  return r;
}

NodeId fold(Graph& g, Op op, const std::vector<NodeId>& x) {
  NodeId r = x[0];
  for (std::size_t k = 1; k < x.size(); ++k) r = g.binary(op, r, x[k]);
  return r;
}

NodeId apply(Graph& g, const Function& f, std::vector<NodeId> x) {
  if (f.of_reciprocal) x[0] = g.div(g.constant(1.0), x[0]);
  switch (f.fn) {
    case Fn::op: return g.unary(f.op, x[0]);
    case Fn::reciprocal: return g.div(g.constant(1.0), g.unary(f.op, x[0]));
    case Fn::asinh: return asinh(g, x[0]);
    case Fn::acosh: return acosh(g, x[0]);
    case Fn::atanh: return atanh(g, x[0]);
    case Fn::log: return x.size() == 1 ? g.unary(Op::log, x[0]) : log_base(g, x[0], x[1]);
    case Fn::log2: return log_base(g, x[0], g.constant(2.0));
    case Fn::sign: return sign(g, x[0]);
    case Fn::min:
    case Fn::max: return fold(g, f.op, x);
    case Fn::pow: return g.pow(x[0], x[1]);
    case Fn::piecewise: return piecewise(g, x);
  }
  return kNoNode;  // not reached: every Fn is handled above
}

// What a function takes, for a message: "1 argument", "1 or 2 arguments",
// "at least 2 arguments".
std::string arity_text(const Function& f) {
  if (f.fn == Fn::piecewise)
    return "value, condition pairs and a last value for otherwise (an odd number of arguments)";
  if (f.max_args < 0) return "at least " + plural(f.min_args, "argument");
  if (f.min_args == f.max_args) return plural(f.min_args, "argument");
  return std::to_string(f.min_args) + " or " + plural(f.max_args, "argument");
}

bool arity_ok(const Function& f, int n) {
  if (n < f.min_args || (f.max_args >= 0 && n > f.max_args)) return false;
  return f.fn != Fn::piecewise || n % 2 == 1;
}

// ---------------------------------------------------------------- parser

class Parser {
 public:
  Parser(Graph& g, const std::string& text, const FormulaScope& scope, const std::string& where)
      : g_(g), scope_(scope), where_(where), t_(Lexer(text, where).run()) {}

  NodeId formula() {
    if (peek().kind == Tok::end) fail(1, "empty formula");
    const NodeId root = parse_or();
    const Token& rest = peek();
    if (rest.kind == Tok::rparen) fail(rest.column, "unbalanced parenthesis: ')' without '('");
    if (rest.kind != Tok::end)
      fail(rest.column, "expected an operator or the end of the formula, found " + describe(rest));
    return root;
  }

 private:
  // One level of nesting while it lives.
  class Nested {
   public:
    Nested(Parser& p, std::size_t column) : p_(p) {
      if (++p_.depth_ > kMaxNesting)
        p_.fail(column, "formula nested more than " + std::to_string(kMaxNesting) +
                            " levels deep (parentheses, function calls, unary operators, "
                            "exponents)");
    }
    ~Nested() { --p_.depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& p_;
  };

  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    petab::fail(where_, column, what);
  }

  const Token& peek() const { return t_[pos_]; }
  // The end token stays current once reached.
  const Token& take() { return t_[pos_ + 1 < t_.size() ? pos_++ : pos_]; }

  NodeId parse_or() {
    NodeId left = parse_and();
    while (peek().kind == Tok::or_) {
      take();
      left = g_.binary(Op::logical_or, left, parse_and());
    }
    return left;
  }

  NodeId parse_and() {
    NodeId left = parse_compare();
    while (peek().kind == Tok::and_) {
      take();
      left = g_.binary(Op::logical_and, left, parse_compare());
    }
    return left;
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

  // a < b < c is (a < b) < c, a 0/1 value compared with c, as a left-
  // associative reading of libpetab-python's grammar gives.
  NodeId parse_compare() {
    NodeId left = parse_sum();
    Op op;
    while (comparison(peek().kind, &op)) {
      take();
      left = g_.binary(op, left, parse_sum());
    }
    return left;
  }

  NodeId parse_sum() {
    NodeId left = parse_product();
    while (peek().kind == Tok::plus || peek().kind == Tok::minus) {
      const Op op = take().kind == Tok::plus ? Op::add : Op::sub;
      left = g_.binary(op, left, parse_product());
    }
    return left;
  }

  NodeId parse_product() {
    NodeId left = parse_unary();
    while (peek().kind == Tok::star || peek().kind == Tok::slash) {
      const Op op = take().kind == Tok::star ? Op::mul : Op::div;
      left = g_.binary(op, left, parse_unary());
    }
    return left;
  }

  NodeId parse_unary() {
    const Token& tok = peek();
    if (tok.kind != Tok::minus && tok.kind != Tok::plus && tok.kind != Tok::not_)
      return parse_power();
    const Tok kind = take().kind;
    Nested nested(*this, tok.column);
    const NodeId operand = parse_unary();
    if (kind == Tok::minus) return g_.neg(operand);
    if (kind == Tok::not_) return g_.unary(Op::logical_not, operand);
    return operand;
  }

  // The exponent is a unary, so 2^-1 parses and -2^2 is -(2^2); the
  // recursion into it makes ^ right-associative.
  NodeId parse_power() {
    const NodeId base = parse_primary();
    if (peek().kind != Tok::caret) return base;
    Nested nested(*this, take().column);
    return g_.pow(base, parse_unary());
  }

  NodeId parse_primary() {
    const Token& tok = peek();
    switch (tok.kind) {
      case Tok::number: take(); return g_.constant(tok.number);
      case Tok::name:
        take();
        if (peek().kind == Tok::lparen) return call(tok);
        return name(tok);
      case Tok::lparen: {
        take();
        Nested nested(*this, tok.column);
        if (peek().kind == Tok::rparen) fail(peek().column, "expected an expression, found ')'");
        const NodeId inner = parse_or();
        close(tok, "'('");
        return inner;
      }
      default: fail(tok.column, "expected an expression, found " + describe(tok));
    }
  }

  // The ')' of the '(' at `open`.
  void close(const Token& open, const std::string& what) {
    if (peek().kind == Tok::rparen) {
      take();
      return;
    }
    if (peek().kind == Tok::end)
      fail(open.column, "unbalanced parenthesis: " + what + " is not closed");
    fail(peek().column, "expected ')' or an operator, found " + describe(peek()));
  }

  NodeId call(const Token& name) {
    const Function* f = find_function(name.text);
    if (!f) fail(name.column, "unknown function " + single_quoted(name.text));
    Nested nested(*this, take().column);  // the '('
    std::vector<NodeId> args;
    if (peek().kind == Tok::rparen) {
      take();
    } else {
      while (true) {
        if (peek().kind == Tok::comma || peek().kind == Tok::rparen)
          fail(peek().column,
               "expected an argument of " + name.text + ", found " + describe(peek()));
        args.push_back(parse_or());
        if (peek().kind != Tok::comma) break;
        take();
      }
      if (peek().kind != Tok::rparen && peek().kind != Tok::end)
        fail(peek().column, "expected ',' or ')' in the arguments of " + name.text + ", found " +
                                describe(peek()));
      close(name, "'(' of " + name.text + "(...)");
    }
    const int n = static_cast<int>(args.size());
    if (!arity_ok(*f, n))
      fail(name.column,
           single_quoted(name.text) + " takes " + arity_text(*f) + ", got " + std::to_string(n));
    return apply(g_, *f, std::move(args));
  }

  NodeId name(const Token& tok) {
    const std::string& s = tok.text;
    if (s == "true") return g_.constant(1.0);
    if (s == "false") return g_.constant(0.0);
    if (s == "inf") return g_.constant(std::numeric_limits<double>::infinity());
    if (s == "nan") return g_.constant(std::numeric_limits<double>::quiet_NaN());
    if (s == "pi") return g_.constant(3.14159265358979323846);
    if (s == "time") {
      if (scope_.time == kNoNode)
        throw Error(Status::invalid_argument, where_ + ": column " + std::to_string(tok.column) +
                                                  ": 'time' has no meaning here");
      return scope_.time;
    }
    return resolve(tok);
  }

  NodeId resolve(const Token& tok) {
    if (!scope_.resolve)
      throw Error(Status::invalid_argument, where_ + ": column " + std::to_string(tok.column) +
                                                ": " + single_quoted(tok.text) +
                                                " cannot be resolved here");
    try {
      return scope_.resolve(tok.text);
    } catch (const Error& e) {
      const std::string message = e.what();
      if (message.compare(0, where_.size(), where_) == 0) throw;
      throw Error(e.status(), where_ + ": " + message);
    }
  }

  Graph& g_;
  const FormulaScope& scope_;
  const std::string& where_;
  std::vector<Token> t_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

NodeId parse_formula(Graph& graph, const std::string& text, const FormulaScope& scope,
                     const std::string& where) {
  if (text.size() > kMaxLength)
    fail(where, kMaxLength + 1,
         "formula of " + std::to_string(text.size()) + " characters is longer than " +
             std::to_string(kMaxLength));
  return Parser(graph, text, scope, where).formula();
}

// The names are what a parse resolves: parsing into a scratch graph keeps
// the two functions' notion of a formula the same by construction.
std::vector<std::string> formula_names(const std::string& text, const std::string& where) {
  Graph scratch;
  std::vector<std::string> names;
  std::unordered_map<std::string, int> index;
  FormulaScope scope;
  scope.time = scratch.time();
  scope.resolve = [&](const std::string& name) {
    const auto [it, fresh] = index.emplace(name, static_cast<int>(names.size()));
    if (fresh) names.push_back(name);
    return scratch.param(it->second);
  };
  parse_formula(scratch, text, scope, where);
  return names;
}

}  // namespace odesens::expr::petab
