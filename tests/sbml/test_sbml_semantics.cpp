// The meaning of SBML in the expression graph, on small documents written
// here: species as amounts and concentrations, compartments, boundary and
// constant species, rules, initial assignments, function definitions,
// local parameters, the sensitivity parameters and dx0/dp, the MathML
// functions (values, exact derivatives, SIMD lanes) and observables.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "odesens/odesens.hpp"
#include "sbml/sbml_test_documents.hpp"

namespace {

using namespace odesens;
using namespace odesens::sbml_testing;

std::vector<double> rhs_at(const Model& m, double t, const std::vector<double>& x,
                           const std::vector<double>& p) {
  std::vector<double> f(m.nx());
  m.rhs(t, x.data(), p.data(), f.data());
  return f;
}

// Every observable of an ExprModel at (t, x, p), by name.
std::map<std::string, double> observe(const ExprModel& m, double t, const std::vector<double>& x) {
  const auto p = m.nominal_params();
  std::vector<double> all(m.observable_names().size());
  m.observables(t, x.data(), p.data(), all.data());
  std::map<std::string, double> out;
  for (std::size_t k = 0; k < all.size(); ++k) out[m.observable_names()[k]] = all[k];
  return out;
}

TEST(SbmlSemantics, ReactionsChangeAmountsAndSpeciesAreObservedAsDeclared) {
  // S (concentration 3 in V = 2) -> 2 A (amount 5, only substance units) at
  // rate k [S]: the states are the amounts 6 and 5.
  const std::string doc = l3v2(
      list("Compartments", compartment("V", "2")) +
      list("Species", species("S", "V", "initialConcentration=\"3\"") +
                          species("A", "V", "initialAmount=\"5\"", true)) +
      list("Parameters", parameter("k", "0.5", true)) +
      list("Reactions", reaction("R", "S:1", "A:2", fn("times", ci("k") + ci("S")))));
  auto m = load_sbml_text(doc, "amounts.xml");
  EXPECT_EQ(m->state_names(), (std::vector<std::string>{"S", "A"}));
  std::vector<double> x0(2);
  m->initial_state(m->nominal_params().data(), x0.data());
  EXPECT_EQ(x0, (std::vector<double>{6.0, 5.0}));
  const std::vector<double> x = {6.0, 5.0};
  EXPECT_EQ(rhs_at(*m, 0.0, x, {0.5}), (std::vector<double>{-1.5, 3.0}));
  std::vector<double> J(4), Jp(2);
  m->jac_x(0.0, x.data(), m->nominal_params().data(), J.data());
  EXPECT_EQ(J, (std::vector<double>{-0.25, 0.5, 0.0, 0.0}));
  m->jac_p(0.0, x.data(), m->nominal_params().data(), Jp.data());
  EXPECT_EQ(Jp, (std::vector<double>{-3.0, 6.0}));
  auto o = observe(*m, 0.0, x);
  EXPECT_EQ(o["S"], 3.0);
  EXPECT_EQ(o["S:amount"], 6.0);
  EXPECT_EQ(o["S:concentration"], 3.0);
  EXPECT_EQ(o["A"], 5.0);
  EXPECT_EQ(o["A:concentration"], 2.5);
  EXPECT_EQ(o["V"], 2.0);
  EXPECT_EQ(o["k"], 0.5);
  EXPECT_EQ(o["R"], 1.5);  // a reaction's id stands for its rate
}

// k3 is declared constant="false" but nothing changes it, so it is as fixed
// as k1 (the form of many real models' inputs and doses); k8, also not
// constant, is changed by an event and cannot be one.
TEST(SbmlSemantics, DefaultSensitivityParametersAreGlobalsNothingSets) {
  const std::string event =
      "<event id=\"e\" useValuesFromTriggerTime=\"true\"><trigger initialValue=\"false\" "
      "persistent=\"true\">" +
      math(fn("geq", "<csymbol encoding=\"text\" "
                     "definitionURL=\"http://www.sbml.org/sbml/symbols/time\"> t </csymbol>" +
                         cn(1))) +
      "</trigger><listOfEventAssignments><eventAssignment variable=\"k8\">" + math(cn(2)) +
      "</eventAssignment></listOfEventAssignments></event>";
  const std::string doc = l3v2(
      list("Compartments", compartment("c", "1")) +
      list("Species", species("S", "c", "initialAmount=\"1\"")) +
      list("Parameters", parameter("k1", "0.1", true) + parameter("k2", "0.2", true) +
                             parameter("k3", "0.3", false) + parameter("k4", "INF", true) +
                             parameter("k5", "", true) + parameter("k6", "", false) +
                             parameter("k7", "0.7", true) + parameter("k8", "0.8", false)) +
      list("InitialAssignments", initial_assignment("k2", fn("times", cn(2) + ci("k1"))) +
                                     initial_assignment("k5", ci("k1"))) +
      list("Rules", assignment_rule("k6", fn("times", cn(2) + ci("k1")))) +
      // the local k1 = 10 hides the global k1 inside the kinetic law
      list("Reactions", reaction("R", "S:1", "",
                                 fn("times", ci("k1") + ci("S") + ci("k3") + ci("k8")),
                                 "<localParameter id=\"k1\" value=\"10\"/>")) +
      list("Events", event));
  auto m = load_sbml_text(doc, "params.xml");
  EXPECT_EQ(m->param_names(), (std::vector<std::string>{"k1", "k3", "k7"}));
  // k8 is a state that only the event changes: x = (S, k8), f = (-10 S k3 k8, 0)
  ASSERT_EQ(m->nx(), 2u);
  const std::vector<double> x = {1.0, 0.8}, p = {0.1, 0.3, 0.7};
  EXPECT_NEAR(rhs_at(*m, 0.0, x, p)[0], -10.0 * 0.3 * 0.8, 1e-15);
  std::vector<double> Jp(6);  // column-major 2 x 3
  m->jac_p(0.0, x.data(), p.data(), Jp.data());
  EXPECT_EQ(Jp[0], 0.0);
  EXPECT_NEAR(Jp[2], -10.0 * 0.8, 1e-15);
  EXPECT_EQ(Jp[4], 0.0);
  EXPECT_EQ(Jp[1] + Jp[3] + Jp[5], 0.0);
  auto o = observe(*m, 0.0, x);
  EXPECT_EQ(o["k2"], 0.2);  // the initial assignment 2 k1
  EXPECT_EQ(o["k5"], 0.1);
  EXPECT_EQ(o["k6"], 0.2);
  EXPECT_TRUE(std::isinf(o["k4"]));
}

TEST(SbmlSemantics, InitialValuesThatDependOnParametersGiveExactDx0Dp) {
  // S: concentration 3 in V, so amount 3 V; T: initial assignment 2 k^2
  // (a concentration), so amount 2 k^2 V.
  const std::string doc = l3v2(
      list("Compartments", compartment("V", "2")) +
      list("Species", species("S", "V", "initialConcentration=\"3\"") +
                          species("T", "V", "initialConcentration=\"0\"")) +
      list("Parameters", parameter("k", "0.5", true)) +
      list("InitialAssignments",
           initial_assignment("T", fn("times", cn(2) + fn("power", ci("k") + cn(2))))) +
      list("Reactions", reaction("R", "S:1", "T:1", fn("times", ci("k") + ci("S")))));
  SbmlOptions options;
  options.sensitivity_params = std::vector<std::string>{"k", "V"};
  auto m = load_sbml_text(doc, "x0.xml", options);
  const std::vector<double> p = {0.5, 2.0};
  std::vector<double> x0(2), S0(4);
  m->initial_state(p.data(), x0.data());
  EXPECT_EQ(x0, (std::vector<double>{6.0, 1.0}));
  m->initial_sensitivity(p.data(), S0.data());
  // columns: d/dk, d/dV
  EXPECT_EQ(S0, (std::vector<double>{0.0, 4.0, 3.0, 0.5}));

  // and cvodes_fsa starts from it
  Problem problem;
  problem.model = m;
  problem.output_times = {0.0, 1.0};
  const Result r = solve(problem, "cvodes_fsa");
  EXPECT_EQ(r.s_at(0, 1, 0), 4.0);
  EXPECT_EQ(r.s_at(0, 0, 1), 3.0);
}

TEST(SbmlSemantics, FunctionsAreInlinedAndAssignmentRulesHoldAtTheStart) {
  const std::string f = "<functionDefinition id=\"f\">" +
                        math("<lambda><bvar>" + ci("a") + "</bvar><bvar>" + ci("b") + "</bvar>" +
                             fn("plus", fn("times", ci("a") + ci("b")) + cn(1)) +
                             "</lambda>") +
                        "</functionDefinition>";
  const std::string g = "<functionDefinition id=\"g\">" +
                        math("<lambda><bvar>" + ci("x") + "</bvar><apply>" + ci("f") + ci("x") +
                             ci("x") + "</apply></lambda>") +
                        "</functionDefinition>";
  const std::string doc = l3v2(
      list("FunctionDefinitions", f + g) + list("Compartments", compartment("c", "1")) +
      list("Species", species("S", "c", "initialAmount=\"0\"")) +
      list("Parameters", parameter("k", "2", true) + parameter("q", "", false)) +
      list("InitialAssignments", initial_assignment("S", ci("q"))) +
      list("Rules", assignment_rule("q", "<apply>" + ci("g") + ci("k") + "</apply>")) +
      list("Reactions", reaction("R", "S:1", "", fn("times", ci("q") + ci("S")))));
  auto m = load_sbml_text(doc, "functions.xml");
  std::vector<double> x0(1);
  m->initial_state(m->nominal_params().data(), x0.data());
  EXPECT_EQ(x0[0], 5.0);  // S = q = g(k) = k k + 1
  EXPECT_EQ(rhs_at(*m, 0.0, {5.0}, {2.0}), std::vector<double>{-25.0});
  std::vector<double> Jp(1);
  const std::vector<double> x = {5.0}, p = {2.0};
  m->jac_p(0.0, x.data(), p.data(), Jp.data());
  EXPECT_EQ(Jp[0], -20.0);  // -2k S
  std::vector<double> S0(1);
  m->initial_sensitivity(p.data(), S0.data());
  EXPECT_EQ(S0[0], 4.0);  // d(k^2 + 1)/dk
}

TEST(SbmlSemantics, BoundaryConstantAndRateRuleSpecies) {
  // B (boundary) feeds S; C is constant; Q changes by a rate rule only and
  // is a state in its declared unit (a concentration).
  const std::string doc = l3v2(
      list("Compartments", compartment("V", "2")) +
      list("Species", species("B", "V", "initialConcentration=\"1\"", false, true) +
                          species("C", "V", "initialAmount=\"4\"", false, false, true) +
                          species("S", "V", "initialAmount=\"0\"") +
                          species("Q", "V", "initialConcentration=\"1\"")) +
      list("Parameters", parameter("k", "0.5", true)) +
      list("Rules", rate_rule("Q", ci("C"))) +
      list("Reactions", reaction("R", "B:1", "S:1", fn("times", ci("k") + ci("B")))));
  auto m = load_sbml_text(doc, "boundary.xml");
  EXPECT_EQ(m->state_names(), (std::vector<std::string>{"S", "Q"}));
  std::vector<double> x0(2);
  m->initial_state(m->nominal_params().data(), x0.data());
  EXPECT_EQ(x0, (std::vector<double>{0.0, 1.0}));
  // dS/dt = k [B] (amount per time); dQ/dt = [C] = 4 / 2
  EXPECT_EQ(rhs_at(*m, 0.0, {0.0, 1.0}, {0.5}), (std::vector<double>{0.5, 2.0}));
  auto o = observe(*m, 0.0, {3.0, 1.5});
  EXPECT_EQ(o["Q:amount"], 3.0);
  EXPECT_EQ(o["S"], 1.5);
  EXPECT_EQ(o["B:amount"], 2.0);
}

TEST(SbmlSemantics, ConversionFactorsScaleWhatReactionsDo) {
  // S has its own factor 2; T takes the model's factor 3.
  const std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sbml xmlns=\"http://www.sbml.org/sbml/level3/version2/core\" level=\"3\" "
      "version=\"2\"><model id=\"cf\" conversionFactor=\"model_cf\">" +
      list("Compartments", compartment("c", "1")) +
      list("Species", "<species id=\"S\" compartment=\"c\" initialAmount=\"1\" "
                      "hasOnlySubstanceUnits=\"true\" boundaryCondition=\"false\" "
                      "constant=\"false\" conversionFactor=\"species_cf\"/>" +
                          species("T", "c", "initialAmount=\"0\"", true)) +
      list("Parameters", parameter("k", "0.5", true) + parameter("species_cf", "2", true) +
                             parameter("model_cf", "3", true)) +
      list("Reactions", reaction("R", "S:1", "T:1", fn("times", ci("k") + ci("S")))) +
      "</model></sbml>";
  auto m = load_sbml_text(doc, "cf.xml");
  EXPECT_EQ(m->param_names(), (std::vector<std::string>{"k", "species_cf", "model_cf"}));
  EXPECT_EQ(rhs_at(*m, 0.0, {1.0, 0.0}, {0.5, 2.0, 3.0}), (std::vector<double>{-1.0, 1.5}));
}

TEST(SbmlSemantics, LongChainsOfRulesLoadAndTooDeepOnesAreRefused) {
  auto chain = [](int n) {
    std::string params = parameter("a0", "1", true), rules;
    for (int i = 1; i <= n; ++i) {
      params += parameter("a" + std::to_string(i), "", false);
      rules += assignment_rule("a" + std::to_string(i),
                               fn("plus", ci("a" + std::to_string(i - 1)) + cn(1)));
    }
    return l3v2(list("Compartments", compartment("c", "1")) +
                list("Species", species("S", "c", "initialAmount=\"1\"")) +
                list("Parameters", params) + list("Rules", rules) +
                list("Reactions", reaction("R", "S:1", "", fn("times", ci("a" + std::to_string(n)) + ci("S")))));
  };
  auto m = load_sbml_text(chain(190), "chain.xml");
  EXPECT_EQ(rhs_at(*m, 0.0, {1.0}, m->nominal_params()), std::vector<double>{-191.0});
  try {
    load_sbml_text(chain(2000), "deep.xml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("nested more than"), std::string::npos) << e.what();
  }
}

TEST(SbmlSemantics, Level2StoichiometryMathIsAnAssignedStoichiometry) {
  const std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sbml xmlns=\"http://www.sbml.org/sbml/level2/version4\" level=\"2\" version=\"4\">"
      "<model id=\"l2\"><listOfCompartments><compartment id=\"c\" size=\"1\"/>"
      "</listOfCompartments><listOfSpecies><species id=\"S\" compartment=\"c\" "
      "initialAmount=\"1\"/></listOfSpecies><listOfParameters><parameter id=\"n\" "
      "value=\"3\"/></listOfParameters><listOfReactions><reaction id=\"R\" reversible=\"false\">"
      "<listOfProducts><speciesReference species=\"S\"><stoichiometryMath>" +
      math(fn("plus", ci("n") + cn(1))) +
      "</stoichiometryMath></speciesReference></listOfProducts><kineticLaw>" + math(cn(2)) +
      "</kineticLaw></reaction></listOfReactions></model></sbml>";
  auto m = load_sbml_text(doc, "l2.xml");
  EXPECT_EQ(rhs_at(*m, 0.0, {1.0}, {3.0}), std::vector<double>{8.0});  // (n + 1) * 2
  std::vector<double> Jp(1);
  const std::vector<double> x = {1.0}, p = {3.0};
  m->jac_p(0.0, x.data(), p.data(), Jp.data());
  EXPECT_EQ(Jp[0], 2.0);
}

// One MathML function applied to the state x (whose rate is 1), and what it means.
struct Function {
  const char* name;
  std::string math;
  std::function<double(double x, double t)> value;
};

std::vector<Function> mathml_functions() {
  const std::string x = ci("x"), x2p1 = fn("plus", fn("times", x + x) + cn(1));
  const std::string three_x = fn("times", cn(3) + x), seven_x = fn("times", cn(7) + x);
  auto unary = [&](const char* op, const std::string& arg) { return fn(op, arg); };
  return {
      {"floor", unary("floor", three_x), [](double v, double) { return std::floor(3 * v); }},
      {"ceiling", unary("ceiling", three_x), [](double v, double) { return std::ceil(3 * v); }},
      {"factorial", unary("factorial", unary("ceiling", unary("abs", three_x))),
       [](double v, double) { return std::tgamma(std::ceil(std::fabs(3 * v)) + 1); }},
      {"rem", fn("rem", seven_x + cn(2)), [](double v, double) { return std::fmod(7 * v, 2.0); }},
      {"quotient", fn("quotient", seven_x + cn(2)),
       [](double v, double) { return std::trunc(7 * v / 2); }},
      {"arcsinh", unary("arcsinh", x), [](double v, double) { return std::asinh(v); }},
      {"arccosh", unary("arccosh", x2p1), [](double v, double) { return std::acosh(v * v + 1); }},
      {"arctanh", unary("arctanh", fn("divide", x + cn(10))),
       [](double v, double) { return std::atanh(v / 10); }},
      {"arccot", unary("arccot", x), [](double v, double) { return std::atan(1 / v); }},
      {"arccoth", unary("arccoth", fn("plus", fn("times", x + x) + cn(2))),
       [](double v, double) { return std::atanh(1 / (v * v + 2)); }},
      {"arcsec", unary("arcsec", x2p1), [](double v, double) { return std::acos(1 / (v * v + 1)); }},
      {"arccsc", unary("arccsc", x2p1), [](double v, double) { return std::asin(1 / (v * v + 1)); }},
      {"arcsech", unary("arcsech", fn("divide", cn(1) + x2p1)),
       [](double v, double) { return std::acosh(v * v + 1); }},
      {"arccsch", unary("arccsch", x), [](double v, double) { return std::asinh(1 / v); }},
      {"sec", unary("sec", x), [](double v, double) { return 1 / std::cos(v); }},
      {"csc", unary("csc", x), [](double v, double) { return 1 / std::sin(v); }},
      {"cot", unary("cot", x), [](double v, double) { return 1 / std::tan(v); }},
      {"sech", unary("sech", x), [](double v, double) { return 1 / std::cosh(v); }},
      {"csch", unary("csch", x), [](double v, double) { return 1 / std::sinh(v); }},
      {"coth", unary("coth", x), [](double v, double) { return 1 / std::tanh(v); }},
      {"root3", "<apply><root/><degree>" + cn(3) + "</degree>" + x2p1 + "</apply>",
       [](double v, double) { return std::cbrt(v * v + 1); }},
      {"log2", "<apply><log/><logbase>" + cn(2) + "</logbase>" + x2p1 + "</apply>",
       [](double v, double) { return std::log2(v * v + 1); }},
      {"log10", unary("log", x2p1), [](double v, double) { return std::log10(v * v + 1); }},
      {"power", fn("power", x2p1 + cn(1.5)),
       [](double v, double) { return std::pow(v * v + 1, 1.5); }},
      {"piecewise",
       "<piecewise><piece>" + x + fn("lt", x + cn(1)) + "</piece><piece>" +
           fn("times", cn(2) + x) + fn("lt", x + cn(2)) + "</piece><otherwise>" +
           fn("minus", x) + "</otherwise></piecewise>",
       [](double v, double) { return v < 1 ? v : v < 2 ? 2 * v : -v; }},
      {"xor", fn("xor", fn("gt", x + cn(0)) + fn("gt", x + cn(1))),
       [](double v, double) { return (v > 0) != (v > 1) ? 1.0 : 0.0; }},
      {"implies", fn("implies", fn("gt", x + cn(1)) + fn("gt", x + cn(2))),
       [](double v, double) { return !(v > 1) || v > 2 ? 1.0 : 0.0; }},
      {"max3", fn("max", x + cn(1) + fn("minus", x)),
       [](double v, double) { return std::max({v, 1.0, -v}); }},
      {"min3", fn("min", x + cn(1) + fn("minus", x)),
       [](double v, double) { return std::min({v, 1.0, -v}); }},
      {"lt_chain", fn("lt", cn(0) + x + cn(1)),
       [](double v, double) { return 0 < v && v < 1 ? 1.0 : 0.0; }},
      {"avogadro",
       fn("times", "<csymbol encoding=\"text\" "
                      "definitionURL=\"http://www.sbml.org/sbml/symbols/avogadro\"> N </csymbol>" +
                          x),
       [](double v, double) { return 6.02214179e23 * v; }},
      {"time",
       "<csymbol encoding=\"text\" definitionURL=\"http://www.sbml.org/sbml/symbols/time\"> t "
       "</csymbol>",
       [](double, double t) { return t; }},
  };
}

class SbmlMathFunctions : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string params = parameter("x", "0.3", false), rules = rate_rule("x", cn(1));
    for (const auto& f : functions_) {
      params += parameter(std::string("y_") + f.name, "0", false);
      rules += rate_rule(std::string("y_") + f.name, f.math);
    }
    model_ = load_sbml_text(l3v2(list("Parameters", params) + list("Rules", rules)), "mathml.xml");
    ASSERT_EQ(model_->nx(), functions_.size() + 1);
  }

  std::vector<double> state(double x) const {
    std::vector<double> s(model_->nx(), 0.0);
    s[0] = x;
    return s;
  }

  const std::vector<Function> functions_ = mathml_functions();
  std::shared_ptr<ExprModel> model_;
  const std::vector<double> probes_ = {0.3, 1.7, -0.6, 2.2};
};

TEST_F(SbmlMathFunctions, HaveTheirMathematicalValues) {
  for (double x : probes_) {
    const auto f = rhs_at(*model_, 0.75, state(x), {});
    for (std::size_t i = 0; i < functions_.size(); ++i) {
      const double want = functions_[i].value(x, 0.75);
      EXPECT_NEAR(f[i + 1], want, 1e-14 * std::max(1.0, std::fabs(want)))
          << functions_[i].name << " at x = " << x;
    }
  }
}

TEST_F(SbmlMathFunctions, HaveExactDerivatives) {
  const std::size_t n = model_->nx();
  for (double x : probes_) {
    std::vector<double> J(n * n);
    model_->jac_x(0.75, state(x).data(), nullptr, J.data());
    const double h = 1e-6;
    const auto up = rhs_at(*model_, 0.75, state(x + h), {}),
               down = rhs_at(*model_, 0.75, state(x - h), {});
    for (std::size_t i = 0; i < functions_.size(); ++i) {
      const double fd = (up[i + 1] - down[i + 1]) / (2 * h), exact = J[i + 1];
      EXPECT_NEAR(exact, fd, 1e-6 * std::max(1.0, std::fabs(fd)))
          << functions_[i].name << " at x = " << x;
    }
  }
}

TEST_F(SbmlMathFunctions, AgreeInSimdLanes) {
  const std::size_t n = model_->nx(), points = probes_.size();
  std::vector<double> t(points, 0.75), X(n * points, 0.0), F(n * points);
  for (std::size_t k = 0; k < points; ++k) X[k * n] = probes_[k];
  for (int width : {1, 4, 8}) {
    if (width > widest_expr_lane_width()) continue;
    auto ws = model_->make_workspace(width);
    model_->rhs_points(points, t.data(), X.data(), nullptr, F.data(), ws.get());
    for (std::size_t k = 0; k < points; ++k) {
      const auto f = rhs_at(*model_, 0.75, state(probes_[k]), {});
      for (std::size_t i = 1; i < n; ++i)
        EXPECT_NEAR(F[i + k * n], f[i], 1e-14 * std::max(1.0, std::fabs(f[i])))
            << functions_[i - 1].name << " at x = " << probes_[k] << ", width " << width;
    }
  }
}

}  // namespace

namespace {

// A rate that switches on a three-way xor of comparisons of one species
// (after SBML Test Suite case 00201): A -> B at rate k A, C consumed at
// p1 where xor(B < 2, B > 4, B < 1) holds, else at p2. xor was built from
// comparisons of truth values (a != b), root functions that are zero
// wherever the two agree: the one-step methods located their "crossings"
// one ulp apart without end (odesd and dopri8s ran past a minute). It is
// now logical operations on the three comparisons, which alone switch f.
TEST(SbmlSemantics, XorSwitchesOnlyWhereItsComparisonsDo) {
  const std::string b = ci("B");
  const std::string law =
      "<piecewise><piece>" + ci("p1") +
      fn("xor", fn("lt", b + cn(2)) + fn("gt", b + cn(4)) + fn("lt", b + cn(1))) +
      "</piece><otherwise>" + ci("p2") + "</otherwise></piecewise>";
  const std::string doc = l3v2(
      list("Compartments", compartment("V", "1")) +
      list("Species", species("A", "V", "initialAmount=\"5\"") +
                          species("B", "V", "initialAmount=\"0\"") +
                          species("C", "V", "initialAmount=\"4\"")) +
      list("Parameters", parameter("k", "1", true) + parameter("p1", "1.5", true) +
                             parameter("p2", "0.05", true)) +
      list("Reactions", reaction("R1", "A:1", "B:1", fn("times", ci("k") + ci("A"))) +
                            reaction("R2", "C:1", "", law)));
  auto m = load_sbml_text(doc, "xor.xml");
  ASSERT_NE(m->event_system(), nullptr);
  EXPECT_EQ(m->event_system()->roots().size(), 3u);  // B = 1, 2 and 4
  Problem p;
  p.model = m;
  for (int k = 0; k <= 40; ++k) p.output_times.push_back(0.1 * k);
  p.rtol = 1e-8;
  p.atol = {1e-14};
  p.options.set("sensitivities", 0);
  const Result reference = solve(p, "cvodes_fsa");
  // C(4) in closed form: B = 5 (1 - e^-t) crosses 1, 2 and 4 at
  // ln(5/4), ln(5/3) and ln 5; C falls at p1 on (ln 1.25, ln(5/3)) and
  // after ln 5, at p2 elsewhere.
  const double t1 = std::log(1.25), t2 = std::log(5.0 / 3.0), t4 = std::log(5.0);
  const double c_end = 4.0 - 1.5 * ((t2 - t1) + (4.0 - t4)) - 0.05 * (t1 + (t4 - t2));
  const std::size_t last = reference.times.size() - 1;
  EXPECT_NEAR(reference.x_at(last, 2), c_end, 1e-5);
  Problem with_s = p;
  with_s.options = Options();
  for (const char* method : {"odesd", "dopri8s", "grk4as", "pbsr", "exp", "erk_adjoint"}) {
    SCOPED_TRACE(method);
    const Result r = solve(with_s, method);
    EXPECT_NEAR(r.x_at(last, 2), c_end, 1e-5) << r.x_at(last, 2) - c_end;
  }
}

}  // namespace
