// The .ode parser: every reference model loads, the language's rules are
// applied, and every violation is rejected with its FILE:LINE:COLUMN message.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

using expr_testing::ode_model_path;

class SharedOdeModels : public ::testing::TestWithParam<std::string> {};

TEST_P(SharedOdeModels, ParsesAndRightHandSideIsFiniteAtX0) {
  ODESENS_REQUIRE_SHARED_MODEL(GetParam());
  auto m = load_ode_file(ode_model_path(GetParam()));
  ASSERT_GT(m->nx(), 0u);
  const auto p = m->nominal_params();
  std::vector<double> x0(m->nx()), f(m->nx());
  m->initial_state(p.data(), x0.data());
  m->rhs(m->default_t0(), x0.data(), p.data(), f.data());
  for (std::size_t i = 0; i < m->nx(); ++i) {
    EXPECT_TRUE(std::isfinite(x0[i])) << m->state_names()[i];
    EXPECT_TRUE(std::isfinite(f[i])) << m->state_names()[i];
  }
}

TEST_P(SharedOdeModels, LoadsThroughLoadModel) {
  ODESENS_REQUIRE_SHARED_MODEL(GetParam());
  auto m = load_model(ode_model_path(GetParam()));
  EXPECT_TRUE(m->has_analytic_jacobians());
  EXPECT_NE(m->jac_x_pattern(), nullptr);
}

INSTANTIATE_TEST_SUITE_P(All, SharedOdeModels,
                         ::testing::ValuesIn(expr_testing::shared_ode_files()),
                         [](const auto& param_info) {
                           std::string s = param_info.param;
                           return s.substr(0, s.find('.'));
                         });

TEST(OdeParser, SizesNamesAndValuesOfTheReferenceModelsMatchTheirReadme) {
  ODESENS_REQUIRE_SHARED_MODEL("camkii.ode");
  const std::pair<const char*, std::pair<std::size_t, std::size_t>> sizes[] = {
      {"pka.ode", {11, 35}},          {"camkii.ode", {21, 59}},
      {"chua.ode", {3, 2}},           {"vanderpol.ode", {2, 1}},
      {"detest_c1.ode", {10, 1}},     {"stiff_e3.ode", {3, 4}},
      {"cubic_oscillator.ode", {3, 2}}, {"michaelis_menten.ode", {4, 3}}};
  for (const auto& [file, n] : sizes) {
    auto m = load_ode_file(ode_model_path(file));
    EXPECT_EQ(m->nx(), n.first) << file;
    EXPECT_EQ(m->np(), n.second) << file;
  }
  auto camkii = load_ode_file(ode_model_path("camkii.ode"));
  EXPECT_EQ(camkii->state_names().front(), "CaM_Ca1");
  EXPECT_EQ(camkii->param_names().back(), "PP2B_0");
  EXPECT_EQ(camkii->nominal_params()[13], 7271.3);  // KD__CaM_Ca3__Ca
}

TEST(OdeParser, ChuaMatchesTheBuiltinRightHandSide) {
  ODESENS_REQUIRE_SHARED_MODEL("chua.ode");
  auto file = load_ode_file(ode_model_path("chua.ode"));
  auto builtin = make_builtin_model("chua");
  const std::vector<double> x = {0.3, -1.2, 0.7}, p = {7.0, 15.0};
  std::vector<double> a(3), b(3);
  file->rhs(0.0, x.data(), p.data(), a.data());
  builtin->rhs(0.0, x.data(), p.data(), b.data());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], 1e-14 * (1 + std::fabs(b[i])));
  std::vector<double> x0(3);
  file->initial_state(p.data(), x0.data());
  EXPECT_EQ(x0, (std::vector<double>{0.0, 0.0, -0.1}));
}

std::shared_ptr<ExprModel> text(const std::string& s) { return load_ode_text(s, "test.ode"); }

std::vector<double> rhs_at(const Model& m, double t, std::vector<double> x,
                           std::vector<double> p = {}) {
  if (p.empty()) p = m.nominal_params();
  std::vector<double> f(m.nx());
  m.rhs(t, x.data(), p.data(), f.data());
  return f;
}

TEST(OdeParser, PrecedenceAndAssociativityFollowTheFormat) {
  auto m = text(
      "state x = 0\nstate y = 0\nstate z = 0\nstate w = 0\n"
      "dx/dt = -x^2\n"        // -(x^2)
      "dy/dt = 2^3^2\n"       // 2^(3^2)
      "dz/dt = 8/2/2 - 1 - 1\n"  // left associative
      "dw/dt = 2^-1 + .5 + 5. + 1e-3 + +x\n");
  const auto f = rhs_at(*m, 0.0, {3.0, 0, 0, 0});
  EXPECT_EQ(f[0], -9.0);
  EXPECT_EQ(f[1], 512.0);
  EXPECT_EQ(f[2], 0.0);
  EXPECT_DOUBLE_EQ(f[3], 0.5 + 0.5 + 5.0 + 1e-3 + 3.0);
}

TEST(OdeParser, NamesMayBeUsedBeforeTheirDeclarationExceptConstsInConsts) {
  auto m = text(
      "# comment line\r\n"
      "state x = k\n"
      "dx/dt = a   # trailing comment\r\n"
      "\n"
      "let a = 2*b\n"
      "param k = -1.5\n"
      "let b = k + x\n");
  ASSERT_EQ(m->nx(), 1u);
  EXPECT_EQ(rhs_at(*m, 0.0, {1.0})[0], 2 * (-1.5 + 1.0));
}

// Lines may also end in a lone \r (old Mac files): the whole file was one
// line ("found 'state' after the number"); line numbers count them.
TEST(OdeParser, LinesMayEndInALoneCarriageReturn) {
  auto m = text("param k = 2\rstate x = 1\rdx/dt = -k*x\r\rtime t_end = 3\r");
  ASSERT_EQ(m->nx(), 1u);
  EXPECT_EQ(rhs_at(*m, 0.0, {1.0})[0], -2.0);
  try {
    text("param k = 2\rstate x = 1\rdx/dt = -k*y\r");
    ADD_FAILURE() << "an unknown name was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();
  }
}

TEST(OdeParser, DerivativeStatementMayAppearBeforeStateOnlyAfterDeclaration) {
  EXPECT_NO_THROW(text("state x = 1\nd x / dt = -x\n"));
}

TEST(OdeParser, ConstsFoldAndInitialStateDependsOnParameters) {
  auto m = text(
      "const a = 2\nconst b = a^3 + exp(0)\nparam k = 3\n"
      "state x = b*k\nstate y = 1/k\n"
      "dx/dt = -x\ndy/dt = b\n");
  const std::vector<double> p = {3.0};
  std::vector<double> x0(2), S0(2);
  m->initial_state(p.data(), x0.data());
  EXPECT_EQ(x0[0], 27.0);
  EXPECT_EQ(x0[1], 1.0 / 3.0);
  m->initial_sensitivity(p.data(), S0.data());
  EXPECT_EQ(S0[0], 9.0);
  EXPECT_DOUBLE_EQ(S0[1], -1.0 / 9.0);
  EXPECT_EQ(rhs_at(*m, 0.0, {1, 1})[1], 9.0);
}

TEST(OdeParser, TimeStatementSetsT0AndTimeEntersTheRightHandSide) {
  auto m = text("time t0 = -2.5\nstate x = 0\ndx/dt = t*t\n");
  EXPECT_EQ(m->default_t0(), -2.5);
  EXPECT_EQ(m->default_t_end(), 1.0);
  EXPECT_EQ(rhs_at(*m, 3.0, {0.0})[0], 9.0);
}

TEST(OdeParser, OutputsAreEvaluated) {
  auto m = text("param k = 2\nstate x = 1\nlet e = exp(x)\ndx/dt = -k*x\noutput y = e + t\n"
                "output z = k*x\n");
  ASSERT_EQ(m->n_outputs(), 2u);
  EXPECT_EQ(m->output_names(), (std::vector<std::string>{"y", "z"}));
  const double x = 0.5, p = 2.0;
  double y[2];
  m->outputs(1.0, &x, &p, y);
  EXPECT_EQ(y[0], std::exp(0.5) + 1.0);
  EXPECT_EQ(y[1], 1.0);
}

TEST(OdeParser, PiecewiseAndConditionsPickTheRightBranch) {
  auto m = text(
      "state x = 0\n"
      "dx/dt = piecewise(1, x < 0 && !(x < -1), 2, x >= 1 || x == 0.5, 3)\n");
  EXPECT_EQ(rhs_at(*m, 0, {-0.5})[0], 1.0);
  EXPECT_EQ(rhs_at(*m, 0, {-2.0})[0], 3.0);
  EXPECT_EQ(rhs_at(*m, 0, {0.5})[0], 2.0);
  EXPECT_EQ(rhs_at(*m, 0, {2.0})[0], 2.0);
  EXPECT_EQ(rhs_at(*m, 0, {0.7})[0], 3.0);
}

TEST(OdeParser, IntegerPowersOfNegativeBasesAreExact) {
  auto m = text("state x = 0\nstate y = 0\ndx/dt = x^3\ndy/dt = pow(x, -2)\n");
  const auto f = rhs_at(*m, 0, {-2.0, 0.0});
  EXPECT_EQ(f[0], -8.0);
  EXPECT_EQ(f[1], 0.25);
}

TEST(OdeParser, MissingFileIsUnknownModelAndNamesTheFile) {
  try {
    load_model("/nonexistent/dir/model.ode");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unknown_model);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/model.ode"), std::string::npos);
  }
  try {
    load_model("model.txt");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unknown_model);
    EXPECT_NE(std::string(e.what()).find("model.txt"), std::string::npos);
  }
}

struct Malformed {
  const char* what;
  std::string text;
  std::string message;
};

// Each case breaks one rule; the message is the exact text of the error.
const std::vector<Malformed>& malformed_cases() {
  static const std::vector<Malformed> cases = {
      {"unknown name", "state x = 0\ndx/dt = y\n", "bad.ode:2:9: unknown name 'y'"},
      {"duplicate name", "param k = 1\nstate k = 0\ndk/dt = 1\n",
       "bad.ode:2:7: duplicate name 'k' (first declared as param at line 1)"},
      {"duplicate let", "state x = 0\nlet a = 1\nlet a = 2\ndx/dt = a\n",
       "bad.ode:3:5: duplicate name 'a' (first declared as let at line 2)"},
      {"state without d/dt", "state x = 0\nstate y = 1\ndx/dt = -x\n",
       "bad.ode:2:7: state 'y' has no d/dt equation"},
      {"d/dt of a param", "param k = 1\nstate x = 0\ndx/dt = -x\ndk/dt = 1\n",
       "bad.ode:4:2: d/dt of 'k', which is a param, not a state"},
      {"d/dt of an undeclared name", "state x = 0\ndx/dt = -x\ndz/dt = 1\n",
       "bad.ode:3:2: d/dt of 'z', which is not declared"},
      {"two d/dt for one state", "state x = 0\ndx/dt = -x\nd x / dt = 1\n",
       "bad.ode:3:3: duplicate d/dt for 'x' (first at line 2)"},
      {"d/dt before the state", "dx/dt = 1\nstate x = 0\n",
       "bad.ode:1:2: d/dt of 'x' comes before its state declaration (line 2)"},
      {"cycle among lets", "state x = 0\nlet a = b + x\nlet b = 2*a\ndx/dt = a\n",
       "bad.ode:3:11: cycle among lets: a -> b -> a"},
      {"let referring to itself", "state x = 0\nlet a = a + 1\ndx/dt = a\n",
       "bad.ode:2:9: cycle among lets: a -> a"},
      {"bad number: dangling exponent", "state x = 1e\n", "bad.ode:1:11: bad number '1e'"},
      {"bad number: two dots", "param k = 1.2.3\n", "bad.ode:1:11: bad number '1.2.3'"},
      {"bad number: letters", "state x = 2x\n", "bad.ode:1:11: bad number '2x'"},
      {"number out of range", "param k = 1e999\n", "bad.ode:1:11: number out of range '1e999'"},
      {"unclosed parenthesis", "state x = 0\ndx/dt = (x + 1\n",
       "bad.ode:2:9: unbalanced parenthesis: '(' is not closed"},
      {"extra closing parenthesis", "state x = 0\ndx/dt = x + 1)\n",
       "bad.ode:2:14: unbalanced parenthesis: ')' without '('"},
      {"unclosed call", "state x = 0\ndx/dt = exp(x\n",
       "bad.ode:2:12: unbalanced parenthesis: '(' of exp(...) is not closed"},
      {"too many arguments", "state x = 0\ndx/dt = exp(x, 1)\n",
       "bad.ode:2:9: exp takes 1 argument, got 2"},
      {"too few arguments", "state x = 0\ndx/dt = pow(x)\n",
       "bad.ode:2:9: pow takes 2 arguments, got 1"},
      {"hill with two arguments", "state x = 0\ndx/dt = hill(x, 1)\n",
       "bad.ode:2:9: hill takes 3 arguments, got 2"},
      {"piecewise with an even count", "state x = 0\ndx/dt = piecewise(1, x < 0)\n",
       "bad.ode:2:9: piecewise takes value, condition pairs and an otherwise value (an odd "
       "number of arguments, at least 3), got 2"},
      {"condition as a right-hand side", "state x = 0\ndx/dt = x < 1\n",
       "bad.ode:2:11: condition outside piecewise"},
      {"condition in a let", "state x = 0\nlet c = x > 0 && x < 1\ndx/dt = x\n",
       "bad.ode:2:15: condition outside piecewise"},
      {"condition in arithmetic", "state x = 0\ndx/dt = (x < 1) * 2\n",
       "bad.ode:2:12: condition outside piecewise"},
      {"condition as a piecewise value", "state x = 0\ndx/dt = piecewise(x < 1, x > 0, 0)\n",
       "bad.ode:2:21: condition outside piecewise: argument 1 of piecewise is a value"},
      {"value as a piecewise condition", "state x = 0\ndx/dt = piecewise(1, x, 0)\n",
       "bad.ode:2:22: argument 2 of piecewise must be a condition"},
      {"&& on values", "state x = 0\ndx/dt = piecewise(1, x && 1, 0)\n",
       "bad.ode:2:24: '&&' needs a condition on both sides"},
      {"! on a value", "state x = 0\ndx/dt = piecewise(1, !x, 0)\n",
       "bad.ode:2:22: '!' needs a condition"},
      {"chained comparison", "state x = 0\ndx/dt = piecewise(1, 0 < x < 1, 0)\n",
       "bad.ode:2:28: '<' compares a condition (chained comparisons are not allowed; use &&)"},
      {"single ampersand", "state x = 0\ndx/dt = piecewise(1, x > 0 & x < 1, 0)\n",
       "bad.ode:2:28: unexpected character '&' (did you mean '&&'?)"},
      {"a name of a non-ASCII letter", "param \xCF\x80 = 1\n",
       "bad.ode:1:7: unexpected character '\xCF\x80' (names are ASCII letters, digits and '_')"},
      {"unknown function", "state x = 0\ndx/dt = foo(x)\n", "bad.ode:2:9: unknown function 'foo'"},
      {"state called as a function", "state x = 0\ndx/dt = x(1)\n",
       "bad.ode:2:9: unknown function 'x'"},
      {"function without arguments", "state x = 0\ndx/dt = exp + x\n",
       "bad.ode:2:9: function 'exp' needs arguments in parentheses"},
      {"const using a param", "param k = 1\nconst c = 2*k\n",
       "bad.ode:2:13: const 'c' may only use numbers and earlier consts, not param 'k'"},
      {"const using a later const", "const a = b + 1\nconst b = 2\n",
       "bad.ode:1:11: const 'a' may only use numbers and earlier consts; const 'b' is declared "
       "later (line 2)"},
      {"const referring to itself", "const a = a\n", "bad.ode:1:11: const 'a' refers to itself"},
      {"const not finite", "const c = 1/0\n", "bad.ode:1:7: const 'c' is not finite (Inf)"},
      {"initial value using a state", "state x = 0\nstate y = x\n",
       "bad.ode:2:11: the initial value of state 'y' may only use params and consts, not state 'x'"},
      {"initial value using t", "state x = t\n",
       "bad.ode:1:11: the initial value of state 'x' may only use params and consts, not the "
       "time 't'"},
      {"initial value using a let", "state x = a\nlet a = 1\n",
       "bad.ode:1:11: the initial value of state 'x' may only use params and consts, not let 'a'"},
      {"param given by an expression", "param k = 2*3\n",
       "bad.ode:1:12: the value of param 'k' must be a number, found '*' after the number"},
      {"param given by a name", "param k = x\n",
       "bad.ode:1:11: the value of param 'k' must be a number, found 'x'"},
      {"missing =", "state x 0\n", "bad.ode:1:9: expected '=' after 'x', found '0'"},
      {"missing name", "state = 0\n", "bad.ode:1:7: expected a name after 'state', found '='"},
      {"unknown statement", "x = 1\n",
       "bad.ode:1:1: expected a statement (param, const, state, let, output, time, event or "
       "dNAME/dt), "
       "found 'x'"},
      {"statement starting with a number", "1 = x\n",
       "bad.ode:1:1: expected a statement, found '1'"},
      {"unexpected character", "state x = 0\ndx/dt = x @ 1\n",
       "bad.ode:2:11: unexpected character '@'"},
      {"non-ASCII character", "state x = 0\ndx/dt = x\xc3\xa9\n",
       "bad.ode:2:10: unexpected character '\xc3\xa9' (names are ASCII letters, digits and '_')"},
      {"missing operand", "state x = 0\ndx/dt = x + * 2\n",
       "bad.ode:2:13: expected an expression, found '*'"},
      {"empty right-hand side", "state x = 0\ndx/dt =\n",
       "bad.ode:2:8: expected an expression, found end of line"},
      {"two operands without operator", "state x = 0\ndx/dt = x 2\n",
       "bad.ode:2:11: expected an operator or the end of the line, found '2'"},
      {"empty parentheses", "state x = 0\ndx/dt = ()\n",
       "bad.ode:2:10: expected an expression, found ')'"},
      {"empty argument", "state x = 0\ndx/dt = pow(x,)\n",
       "bad.ode:2:15: expected an expression, found ')'"},
      {"time with another name", "time t1 = 0\n",
       "bad.ode:1:6: expected 't0' or 't_end' after 'time', found 't1'"},
      {"two time statements", "time t0 = 0\ntime t0 = 1\n",
       "bad.ode:2:6: duplicate 'time t0' statement (first at line 1)"},
      {"t declared", "param t = 1\n", "bad.ode:1:7: cannot declare 't': 't' is reserved for time"},
      {"function name declared", "let exp = 1\n",
       "bad.ode:1:5: cannot declare 'exp': 'exp' is a function name"},
      {"keyword declared", "state let = 0\n",
       "bad.ode:1:7: cannot declare 'let': 'let' is a keyword"},
      {"dt misspelt", "state x = 0\ndx/dy = 1\n",
       "bad.ode:2:4: expected 'dt' in 'dx/dt', found 'dy'"},
      {"d/dt without a state", "d/dt = 1\n", "bad.ode:1:1: expected a state name in 'dNAME/dt'"},
      {"no state", "param k = 1\n", "bad.ode:1:1: the model declares no state"},
      {"output used in an expression", "state x = 0\noutput y = 2*x\ndx/dt = y\n",
       "bad.ode:3:9: output 'y' cannot be used in expressions"},
      {"nesting too deep",
       "state x = 0\ndx/dt = " + std::string(300, '(') + "x" + std::string(300, ')') + "\n",
       "bad.ode:2:209: expression nested too deeply (more than 200 levels)"},
  };
  return cases;
}

TEST(OdeParser, TableHasAtLeastThirtyMalformedInputs) { EXPECT_GE(malformed_cases().size(), 30u); }

class MalformedOde : public ::testing::TestWithParam<std::size_t> {};

TEST_P(MalformedOde, IsRejectedWithItsMessageAndLocation) {
  const Malformed& c = malformed_cases()[GetParam()];
  try {
    load_ode_text(c.text, "bad.ode");
    FAIL() << c.what << ": accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::parse_error) << c.what;
    EXPECT_EQ(std::string(e.what()), c.message) << c.what;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, MalformedOde,
                         ::testing::Range<std::size_t>(0, malformed_cases().size()));

}  // namespace
}  // namespace odesens
