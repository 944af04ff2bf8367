// The PEtab formula parser: values of parsed formulas against std:: math,
// precedence, every function, the reserved names, errors with their
// columns, the nesting and length limits, and formula_names().
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "expr/expr_graph.hpp"
#include "expr/scalar_ops.hpp"
#include "odesens/status.hpp"
#include "sources/petab/petab_formula.hpp"

namespace odesens {
namespace {

using expr::Graph;
using expr::kNoNode;
using expr::Node;
using expr::NodeId;
using expr::Op;
using expr::petab::formula_names;
using expr::petab::FormulaScope;
using expr::petab::parse_formula;

using Vars = std::vector<std::pair<std::string, double>>;

// The value of node root, parameter j being p[j] and time t. Node ids are
// a topological order, so one pass over the ids evaluates it (no
// recursion, whatever the depth), with the operations' own scalar values.
double evaluate(const Graph& g, NodeId root, const std::vector<double>& p, double t) {
  std::vector<double> v(root + 1);
  auto at = [&](NodeId k) { return k == kNoNode ? 0.0 : v[k]; };
  for (NodeId id = 0; id <= root; ++id) {
    const Node& n = g.node(id);
    switch (n.op) {
      case Op::constant: v[id] = n.value; break;
      case Op::time: v[id] = t; break;
      case Op::param: v[id] = p.at(static_cast<std::size_t>(n.index)); break;
      case Op::state: ADD_FAILURE() << "a formula made a state node"; break;
      default: v[id] = expr::scalar_value(n.op, at(n.a), at(n.b), at(n.c), n.index);
    }
  }
  return v[root];
}

// A scope whose names are vars, as parameters in their order; other names
// are refused as a caller's resolve would.
FormulaScope scope_of(Graph& g, const Vars& vars) {
  FormulaScope scope;
  scope.time = g.time();
  scope.resolve = [&g, vars](const std::string& name) {
    for (std::size_t j = 0; j < vars.size(); ++j)
      if (vars[j].first == name) return g.param(static_cast<int>(j));
    throw Error(Status::invalid_argument, "unknown name '" + name + "'");
  };
  return scope;
}

double value(const std::string& text, const Vars& vars = {}, double t = 0.0) {
  Graph g;
  const NodeId root = parse_formula(g, text, scope_of(g, vars), "test");
  std::vector<double> p;
  for (const auto& v : vars) p.push_back(v.second);
  return evaluate(g, root, p, t);
}

// The message of the Error parsing text throws, "" when it parses.
std::string error(const std::string& text, Status expected = Status::parse_error) {
  Graph g;
  try {
    parse_formula(g, text, scope_of(g, {{"a", 1.0}, {"b", 2.0}}), "f");
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), expected) << text << ": " << e.what();
    return e.what();
  }
  return "";
}

const Vars kVars = {{"a", 2.0}, {"b", 3.0}, {"c", 0.5}, {"z", 0.0}};

TEST(PetabFormula, Numbers) {
  EXPECT_EQ(value("1"), 1.0);
  EXPECT_EQ(value("1."), 1.0);
  EXPECT_EQ(value(".5"), 0.5);
  EXPECT_EQ(value("1e-3"), 1e-3);
  EXPECT_EQ(value("1E+3"), 1e3);
  EXPECT_EQ(value("2.5e2"), 250.0);
  EXPECT_EQ(value("007"), 7.0);
  EXPECT_EQ(value(" \t1 +\n2\r\n"), 3.0);
}

TEST(PetabFormula, PrecedenceOfLiterals) {
  EXPECT_EQ(value("-2^2"), -4.0);
  EXPECT_EQ(value("2^3^2"), 512.0);
  EXPECT_EQ(value("2**3**2"), 512.0);
  EXPECT_EQ(value("2^-1"), 0.5);
  EXPECT_EQ(value("2**-1"), 0.5);
  EXPECT_EQ(value("-2**2"), -4.0);
  EXPECT_EQ(value("1-2-3"), -4.0);
  EXPECT_EQ(value("8/2/2"), 2.0);
  EXPECT_EQ(value("1+2*3"), 7.0);
  EXPECT_EQ(value("(1+2)*3"), 9.0);
  EXPECT_EQ(value("2*3^2"), 18.0);
  EXPECT_EQ(value("(-2)^2"), 4.0);
}

// With parameters nothing folds: the graph's structure is what is checked.
TEST(PetabFormula, PrecedenceOfNames) {
  EXPECT_EQ(value("-a^2", kVars), -4.0);
  EXPECT_EQ(value("a^b^a", kVars), 512.0);  // 2^(3^2)
  EXPECT_EQ(value("a^-a", kVars), 0.25);
  EXPECT_EQ(value("-a^-a", kVars), -0.25);
  EXPECT_EQ(value("a-b-a", kVars), -3.0);
  EXPECT_EQ(value("b/a/c", kVars), 3.0);
  EXPECT_EQ(value("a*-b", kVars), -6.0);
  EXPECT_EQ(value("--a", kVars), 2.0);
  EXPECT_EQ(value("+a", kVars), 2.0);
  EXPECT_EQ(value("-a-b", kVars), -5.0);
  EXPECT_EQ(value("a + b * c", kVars), 3.5);
  EXPECT_EQ(value("a<b&&c", kVars), 1.0);
  EXPECT_EQ(value("a<b&&z", kVars), 0.0);
  EXPECT_EQ(value("a>b||c", kVars), 1.0);
  EXPECT_EQ(value("z&&a||b", kVars), 1.0);  // && binds tighter than ||
  EXPECT_EQ(value("a||b&&z", kVars), 1.0);
  EXPECT_EQ(value("(a||b)&&z", kVars), 0.0);
  EXPECT_EQ(value("a+1 < b*2", kVars), 1.0);  // arithmetic before comparison
  EXPECT_EQ(value("!a < b", kVars), 1.0);     // (!a) < b
  EXPECT_EQ(value("!(a < b)", kVars), 0.0);
  EXPECT_EQ(value("!z", kVars), 1.0);
  EXPECT_EQ(value("a < b == 1", kVars), 1.0);  // (a < b) == 1, left to right
  EXPECT_EQ(value("b > a > 0.5", kVars), 1.0);  // (b > a) = 1 > 0.5
}

TEST(PetabFormula, Comparisons) {
  EXPECT_EQ(value("a < b", kVars), 1.0);
  EXPECT_EQ(value("a <= a", kVars), 1.0);
  EXPECT_EQ(value("a > b", kVars), 0.0);
  EXPECT_EQ(value("a >= b", kVars), 0.0);
  EXPECT_EQ(value("a == a", kVars), 1.0);
  EXPECT_EQ(value("a != a", kVars), 0.0);
  EXPECT_EQ(value("a != b", kVars), 1.0);
}

TEST(PetabFormula, ReservedNames) {
  EXPECT_EQ(value("true"), 1.0);
  EXPECT_EQ(value("false"), 0.0);
  EXPECT_EQ(value("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(value("-inf"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(value("nan")));
  EXPECT_DOUBLE_EQ(value("pi"), std::acos(-1.0));
  EXPECT_EQ(value("2 * time", {}, 1.25), 2.5);
  EXPECT_EQ(value("true && !false"), 1.0);
}

TEST(PetabFormula, EveryFunction) {
  for (const double x : {-0.7, 0.3, 0.9}) {
    const Vars v = {{"x", x}};
    auto f = [&](const std::string& text) { return value(text, v); };
    EXPECT_DOUBLE_EQ(f("exp(x)"), std::exp(x));
    EXPECT_DOUBLE_EQ(f("sqrt(x^2)"), std::fabs(x));
    EXPECT_DOUBLE_EQ(f("abs(x)"), std::fabs(x));
    EXPECT_DOUBLE_EQ(f("floor(x)"), std::floor(x));
    EXPECT_DOUBLE_EQ(f("ceil(x)"), std::ceil(x));
    EXPECT_DOUBLE_EQ(f("sin(x)"), std::sin(x));
    EXPECT_DOUBLE_EQ(f("cos(x)"), std::cos(x));
    EXPECT_DOUBLE_EQ(f("tan(x)"), std::tan(x));
    EXPECT_DOUBLE_EQ(f("sec(x)"), 1.0 / std::cos(x));
    EXPECT_DOUBLE_EQ(f("csc(x)"), 1.0 / std::sin(x));
    EXPECT_DOUBLE_EQ(f("cot(x)"), 1.0 / std::tan(x));
    EXPECT_DOUBLE_EQ(f("asin(x)"), std::asin(x));
    EXPECT_DOUBLE_EQ(f("acos(x)"), std::acos(x));
    EXPECT_DOUBLE_EQ(f("atan(x)"), std::atan(x));
    EXPECT_DOUBLE_EQ(f("arcsin(x)"), std::asin(x));
    EXPECT_DOUBLE_EQ(f("arccos(x)"), std::acos(x));
    EXPECT_DOUBLE_EQ(f("arctan(x)"), std::atan(x));
    EXPECT_NEAR(f("arcsec(1/x)"), std::acos(x), 1e-14);
    EXPECT_NEAR(f("arccsc(1/x)"), std::asin(x), 1e-14);
    EXPECT_NEAR(f("arccot(1/x)"), std::atan(x), 1e-14);
    EXPECT_DOUBLE_EQ(f("sinh(x)"), std::sinh(x));
    EXPECT_DOUBLE_EQ(f("cosh(x)"), std::cosh(x));
    EXPECT_DOUBLE_EQ(f("tanh(x)"), std::tanh(x));
    EXPECT_DOUBLE_EQ(f("sech(x)"), 1.0 / std::cosh(x));
    EXPECT_DOUBLE_EQ(f("csch(x)"), 1.0 / std::sinh(x));
    EXPECT_DOUBLE_EQ(f("coth(x)"), 1.0 / std::tanh(x));
    EXPECT_NEAR(f("asinh(x)"), std::asinh(x), 1e-15);
    EXPECT_NEAR(f("arcsinh(x)"), std::asinh(x), 1e-15);
    EXPECT_NEAR(f("arccsch(1/x)"), std::asinh(x), 1e-14);
    EXPECT_NEAR(f("atanh(x)"), std::atanh(x), 1e-15);
    EXPECT_NEAR(f("arctanh(x)"), std::atanh(x), 1e-15);
    EXPECT_NEAR(f("arccoth(1/x)"), std::atanh(x), 1e-14);
    EXPECT_NEAR(f("acosh(1 + x^2)"), std::acosh(1 + x * x), 1e-15);
    EXPECT_NEAR(f("arccosh(1 + x^2)"), std::acosh(1 + x * x), 1e-15);
    EXPECT_NEAR(f("arcsech(1 / (1 + x^2))"), std::acosh(1 + x * x), 1e-14);
    EXPECT_DOUBLE_EQ(f("pow(x, 3)"), std::pow(x, 3.0));
    EXPECT_DOUBLE_EQ(f("pow(abs(x), 0.3)"), std::pow(std::fabs(x), 0.3));
    EXPECT_DOUBLE_EQ(f("abs(x)^x^2"), std::pow(std::fabs(x), x * x));
  }
}

TEST(PetabFormula, Logarithms) {
  const Vars v = {{"x", 5.0}, {"b", 3.0}};
  auto f = [&](const std::string& text) { return value(text, v); };
  EXPECT_DOUBLE_EQ(f("log(x)"), std::log(5.0));  // natural, not base 10
  EXPECT_DOUBLE_EQ(f("ln(x)"), std::log(5.0));
  EXPECT_DOUBLE_EQ(f("log10(x)"), std::log10(5.0));
  EXPECT_DOUBLE_EQ(f("log2(x)"), std::log2(5.0));
  // log(x, base), the argument first, as the PEtab function table and
  // libpetab-python (sympy's log(x, base)) have it.
  EXPECT_DOUBLE_EQ(f("log(x, b)"), std::log(5.0) / std::log(3.0));
  EXPECT_DOUBLE_EQ(f("log(x, 10)"), std::log10(5.0));
  EXPECT_DOUBLE_EQ(f("log(x, 2)"), std::log2(5.0));
  EXPECT_DOUBLE_EQ(f("log(x, exp(1))"), std::log(5.0));
  EXPECT_DOUBLE_EQ(value("log(8, 2)"), 3.0);
  EXPECT_DOUBLE_EQ(value("log(1000, 10)"), 3.0);
  EXPECT_EQ(value("log(0)"), -std::numeric_limits<double>::infinity());
}

TEST(PetabFormula, SignMinMax) {
  for (const double x : {-2.0, 0.0, 2.0}) {
    const double expected = x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
    EXPECT_EQ(value("sign(x)", {{"x", x}}), expected) << x;
  }
  EXPECT_EQ(value("sign(x)", {{"x", std::nan("")}}), 0.0);
  const Vars v = {{"a", 2.0}, {"b", -1.0}, {"c", 7.0}, {"d", 0.5}};
  EXPECT_EQ(value("min(a, b)", v), -1.0);
  EXPECT_EQ(value("max(a, b)", v), 2.0);
  EXPECT_EQ(value("min(a, c, d, b)", v), -1.0);
  EXPECT_EQ(value("max(a, d, c, b)", v), 7.0);
  EXPECT_EQ(value("max(a, b) + min(c, d) * 2", v), 3.0);
}

TEST(PetabFormula, Piecewise) {
  for (const double x : {-1.0, 0.5, 3.0}) {
    const Vars v = {{"x", x}};
    const double expected = x < 0 ? 10.0 : x < 1 ? 20.0 : 30.0;
    EXPECT_EQ(value("piecewise(10, x < 0, 20, x < 1, 30)", v), expected) << x;
    // The first condition that holds wins, not the last.
    EXPECT_EQ(value("piecewise(1, x < 5, 2, x < 1, 3)", v), 1.0) << x;
    EXPECT_EQ(value("piecewise(x^2, x >= 0 && x < 1, -x)", v), x >= 0 && x < 1 ? x * x : -x);
  }
  EXPECT_EQ(value("piecewise(4)"), 4.0);
  EXPECT_EQ(value("piecewise(1, true, 2)"), 1.0);
  EXPECT_EQ(value("piecewise(1, false, 2)"), 2.0);
  // A value as a condition holds when it is not zero.
  EXPECT_EQ(value("piecewise(1, z, 2)", kVars), 2.0);
  EXPECT_EQ(value("piecewise(1, c, 2)", kVars), 1.0);
}

TEST(PetabFormula, FunctionNamesAreCaseSensitiveAndSpacesAllowed) {
  EXPECT_DOUBLE_EQ(value("exp (1)"), std::exp(1.0));
  EXPECT_DOUBLE_EQ(value("max( 1 , 2 )"), 2.0);
  EXPECT_EQ(error("Exp(1)"), "f: column 1: unknown function 'Exp'");
  EXPECT_EQ(error("LOG(1)"), "f: column 1: unknown function 'LOG'");
}

TEST(PetabFormula, ErrorsNameTheColumn) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "f: column 1: empty formula"},
      {"  \t ", "f: column 1: empty formula"},
      {"1 +", "f: column 4: expected an expression, found the end of the formula"},
      {"a * / b", "f: column 5: expected an expression, found '/'"},
      {"(1 + 2", "f: column 1: unbalanced parenthesis: '(' is not closed"},
      {"1 + 2)", "f: column 6: unbalanced parenthesis: ')' without '('"},
      {"(a))", "f: column 4: unbalanced parenthesis: ')' without '('"},
      {"()", "f: column 2: expected an expression, found ')'"},
      {"(a b)", "f: column 4: expected ')' or an operator, found name 'b'"},
      {"a b", "f: column 3: expected an operator or the end of the formula, found name 'b'"},
      {"a 1", "f: column 3: expected an operator or the end of the formula, found number '1'"},
      {"a + foo(1)", "f: column 5: unknown function 'foo'"},
      {"pi(2)", "f: column 1: unknown function 'pi'"},
      {"exp(1, 2)", "f: column 1: 'exp' takes 1 argument, got 2"},
      {"  log()", "f: column 3: 'log' takes 1 or 2 arguments, got 0"},
      {"log(1, 2, 3)", "f: column 1: 'log' takes 1 or 2 arguments, got 3"},
      {"min(1)", "f: column 1: 'min' takes at least 2 arguments, got 1"},
      {"pow(1)", "f: column 1: 'pow' takes 2 arguments, got 1"},
      {"piecewise(1, a)",
       "f: column 1: 'piecewise' takes value, condition pairs and a last value for otherwise "
       "(an odd number of arguments), got 2"},
      {"exp(1,)", "f: column 7: expected an argument of exp, found ')'"},
      {"exp(,1)", "f: column 5: expected an argument of exp, found ','"},
      {"exp(1 2)", "f: column 7: expected ',' or ')' in the arguments of exp, found number '2'"},
      {"1 + exp(1", "f: column 5: unbalanced parenthesis: '(' of exp(...) is not closed"},
      {"a = 1", "f: column 3: '=' is not an operator (equality is '==')"},
      {"a & b", "f: column 3: expected '&&', found '&'"},
      {"a | b", "f: column 3: expected '||', found '|'"},
      {"a < < b", "f: column 5: expected an expression, found '<'"},
      {"2x", "f: column 1: bad number '2x'"},
      {"a + 1e", "f: column 5: bad number '1e'"},
      {"1e+", "f: column 1: bad number '1e+'"},
      {"1.2.3", "f: column 1: bad number '1.2.3'"},
      {"1e999", "f: column 1: number out of range '1e999'"},
      {"a $ b", "f: column 3: unexpected character '$'"},
      {"a % b", "f: column 3: unexpected character '%'"},
      {"a + \xC3\xA9", "f: column 5: unexpected byte 0xC3 (formulas are ASCII text)"},
      {"a ^ ", "f: column 5: expected an expression, found the end of the formula"},
      {"a ***b", "f: column 5: expected an expression, found '*'"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(error(text), message) << text;
}

std::string repeated(const std::string& s, int n) {
  std::string out;
  for (int k = 0; k < n; ++k) out += s;
  return out;
}

TEST(PetabFormula, NestingUpTo200Levels) {
  EXPECT_EQ(value(repeated("(", 200) + "a" + repeated(")", 200), kVars), 2.0);
  EXPECT_EQ(value(repeated("sin(", 100) + "z" + repeated(")", 100), kVars), 0.0);
  EXPECT_EQ(value(repeated("-", 200) + "a", kVars), 2.0);
  EXPECT_EQ(error(repeated("(", 201) + "a" + repeated(")", 201)),
            "f: column 201: formula nested more than 200 levels deep (parentheses, function "
            "calls, unary operators, exponents)");
}

// Far deeper text fails with a parse error, not a stack overflow.
TEST(PetabFormula, DeepNestingFailsCleanly) {
  const int n = 10000;
  for (const std::string& text :
       {repeated("(", n) + "a" + repeated(")", n), repeated("(", n),
        repeated("sin(", n) + "a" + repeated(")", n), repeated("-", n) + "a",
        repeated("!", n) + "a", repeated("a^", n) + "a", repeated("a**", n) + "a"}) {
    const std::string message = error(text);
    EXPECT_NE(message.find("nested more than 200 levels deep"), std::string::npos)
        << message.substr(0, 200);
  }
}

// Left-associative chains are loops: long ones are not nesting.
TEST(PetabFormula, LongFlatFormulas) {
  const std::string sum = "a" + repeated(" + a", 99999);
  EXPECT_EQ(value(sum, kVars), 200000.0);
  EXPECT_EQ(value(repeated("a * ", 1000) + "1", {{"a", 1.0}}), 1.0);
  EXPECT_EQ(formula_names(sum, "f"), std::vector<std::string>{"a"});
}

TEST(PetabFormula, LengthLimit) {
  const std::string longest = "1" + repeated(" ", 999999);
  EXPECT_EQ(longest.size(), 1000000u);
  EXPECT_EQ(value(longest), 1.0);
  EXPECT_EQ(error(longest + " "),
            "f: column 1000001: formula of 1000001 characters is longer than 1000000");
}

TEST(PetabFormula, ResolveErrorsGetWhere) {
  EXPECT_EQ(error("a + q", Status::invalid_argument), "f: unknown name 'q'");
  // A message that already says where stays as it is.
  Graph g;
  FormulaScope scope;
  scope.resolve = [](const std::string& name) -> NodeId {
    throw Error(Status::unsupported, "f: column 3: '" + name + "' is not supported");
  };
  try {
    parse_formula(g, "1 + b", scope, "f");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_STREQ(e.what(), "f: column 3: 'b' is not supported");
  }
}

TEST(PetabFormula, TimeNeedsAMeaning) {
  Graph g;
  FormulaScope scope;  // time = kNoNode
  try {
    parse_formula(g, "2 * time", scope, "f");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_STREQ(e.what(), "f: column 5: 'time' has no meaning here");
  }
}

TEST(PetabFormula, SharedSubexpressionsAreOneNode) {
  Graph g;
  const FormulaScope scope = scope_of(g, kVars);
  const NodeId first = parse_formula(g, "exp(a) * b", scope, "f");
  const std::size_t size = g.size();
  EXPECT_EQ(parse_formula(g, "exp(a)*b", scope, "f"), first);
  EXPECT_EQ(g.size(), size);
}

TEST(PetabFormula, Names) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(formula_names("b * a + exp(c) - a / b + time + pi + inf + nan + true + false + "
                          "piecewise(d, e_1 > 0, 1)",
                          "f"),
            (Names{"b", "a", "c", "d", "e_1"}));
  EXPECT_EQ(formula_names("observableParameter1_obs * x_2 + noiseParameter1_obs", "f"),
            (Names{"observableParameter1_obs", "x_2", "noiseParameter1_obs"}));
  EXPECT_EQ(formula_names("1 + 2", "f"), Names{});
  // Names are case-sensitive; a function's name not called is a name.
  EXPECT_EQ(formula_names("Pi + TIME + exp + sign * 2", "f"),
            (Names{"Pi", "TIME", "exp", "sign"}));
  // A name multiplied by zero is still referred to.
  EXPECT_EQ(formula_names("0 * k", "f"), Names{"k"});
}

TEST(PetabFormula, NamesOfTextThatIsNotAFormula) {
  for (const std::string& text :
       std::vector<std::string>{"", "a +", "foo(a)", "(a", repeated("(", 10000)}) {
    try {
      formula_names(text, "obs.tsv:3:2");
      ADD_FAILURE() << "no error for " << text.substr(0, 20);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::parse_error);
      EXPECT_EQ(std::string(e.what()).rfind("obs.tsv:3:2: column ", 0), 0u) << e.what();
    }
  }
}

// Every observable and noise formula of the shared PEtab problems (test
// suite and benchmark collection) is a formula.
TEST(PetabFormula, SharedProblemsFormulasParse) {
  namespace fs = std::filesystem;
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  const fs::path root = fs::path(env ? env : ODESENS_DEFAULT_SHARED_DIR) / "petab";
  if (!fs::is_directory(root)) GTEST_SKIP() << root << " not found";
  int formulas = 0;
  const auto follow = fs::directory_options::follow_directory_symlink;
  for (const auto& entry : fs::recursive_directory_iterator(root, follow)) {
    const std::string file = entry.path().filename().string();
    if (!entry.is_regular_file() || file.find("observables") == std::string::npos ||
        entry.path().extension() != ".tsv")
      continue;
    std::ifstream in(entry.path());
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    std::stringstream hs(line);
    for (std::string cell; std::getline(hs, cell, '\t');) header.push_back(cell);
    for (int row = 2; std::getline(in, line); ++row) {
      std::stringstream rs(line);
      std::size_t column = 0;
      for (std::string cell; std::getline(rs, cell, '\t'); ++column) {
        if (!cell.empty() && cell.back() == '\r') cell.pop_back();
        if (column >= header.size() || cell.empty()) continue;
        const std::string& name = header[column];
        if (name != "observableFormula" && name != "noiseFormula") continue;
        const std::string where = entry.path().string() + ":" + std::to_string(row);
        EXPECT_NO_THROW(formula_names(cell, where)) << where << ": " << cell;
        ++formulas;
      }
    }
  }
  EXPECT_GT(formulas, 0);
}

}  // namespace
}  // namespace odesens
