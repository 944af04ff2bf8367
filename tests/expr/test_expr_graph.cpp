// The expression DAG (hash-consing, folding, simplification) and the tape
// compiler (dead code, register reuse, the cached parameter-only prefix).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

#include "expr/expr_graph.hpp"
#include "expr/expr_model_impl.hpp"
#include "expr/lane_kernels.hpp"
#include "expr/native_tape.hpp"
#include "expr/tape.hpp"
#include "expr_test_support.hpp"
#include "tape_runner.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

using expr::Graph;
using expr::NodeId;
using expr::Op;
using expr_testing::same_bits;

TEST(ExprGraph, IdenticalSubexpressionsAreOneNode) {
  Graph g;
  const NodeId x = g.state(0), k = g.param(0);
  const NodeId a = g.mul(k, g.unary(Op::exp, x));
  const std::size_t size = g.size();
  EXPECT_EQ(g.mul(k, g.unary(Op::exp, x)), a);
  EXPECT_EQ(g.mul(g.unary(Op::exp, x), k), a);  // commutative operands are ordered
  EXPECT_EQ(g.add(a, x), g.add(x, a));
  EXPECT_NE(g.sub(a, x), g.sub(x, a));
  EXPECT_EQ(g.size(), size + 3);
}

TEST(ExprGraph, ConstantsFold) {
  Graph g;
  const NodeId c = g.mul(g.constant(2.0), g.add(g.constant(1.0), g.constant(0.5)));
  ASSERT_TRUE(g.is_constant(c));
  EXPECT_EQ(g.node(c).value, 3.0);
  EXPECT_EQ(g.node(g.unary(Op::exp, g.constant(0.0))).value, 1.0);
  EXPECT_EQ(g.node(g.pow(g.constant(-2.0), g.constant(3.0))).value, -8.0);
  EXPECT_EQ(g.node(g.select(g.binary(Op::lt, g.constant(1), g.constant(2)), g.constant(5),
                            g.constant(6))).value, 5.0);
}

TEST(ExprGraph, SimpleAlgebraicIdentities) {
  Graph g;
  const NodeId x = g.state(0);
  const NodeId zero = g.constant(0.0), one = g.constant(1.0);
  EXPECT_EQ(g.add(x, zero), x);
  EXPECT_EQ(g.add(zero, x), x);
  EXPECT_EQ(g.sub(x, zero), x);
  EXPECT_EQ(g.mul(x, one), x);
  EXPECT_EQ(g.div(x, one), x);
  EXPECT_TRUE(g.is_constant(g.mul(x, zero), 0.0));
  EXPECT_TRUE(g.is_constant(g.div(zero, x), 0.0));
  EXPECT_TRUE(g.is_constant(g.sub(x, x), 0.0));
  EXPECT_EQ(g.neg(g.neg(x)), x);
  EXPECT_EQ(g.node(g.sub(zero, x)).op, Op::neg);
  EXPECT_EQ(g.node(g.add(x, g.neg(g.param(0)))).op, Op::sub);
  EXPECT_EQ(g.pow(x, one), x);
  EXPECT_TRUE(g.is_constant(g.pow(x, zero), 1.0));
  EXPECT_EQ(g.node(g.pow(x, g.constant(3.0))).op, Op::powi);
  EXPECT_EQ(g.node(g.pow(x, g.constant(2.5))).op, Op::pow);
  EXPECT_EQ(g.select(g.binary(Op::lt, x, one), x, x), x);
}

TEST(ExprGraph, DependenceFlagsFollowOperands) {
  Graph g;
  const NodeId pk = g.mul(g.param(0), g.constant(2.0));
  EXPECT_EQ(g.node(pk).depends, expr::kOnParam);
  EXPECT_EQ(g.node(g.add(pk, g.time())).depends, expr::kOnParam | expr::kOnTime);
  EXPECT_TRUE(g.is_invariant(g.constant(3.0)));
}

// A chain of n states with nearest-neighbour coupling.
std::string chain_model(int n) {
  std::ostringstream s;
  s << "param k = 0.5\nparam c = 0.1\n";
  for (int i = 0; i < n; ++i) s << "state x" << i << " = " << (i % 7) * 0.1 << "\n";
  for (int i = 0; i < n; ++i) {
    s << "dx" << i << "/dt = -k*x" << i << " + c*exp(-x" << i << ")";
    if (i > 0) s << " + x" << i - 1 << "*x" << i;
    if (i + 1 < n) s << " - x" << i + 1 << "/(1 + x" << i << "^2)";
    s << "\n";
  }
  return s.str();
}

TEST(ExprTape, LargeModelNeedsFewTemporaryRegisters) {
  auto m = load_ode_text(chain_model(1000), "chain.ode");
  const expr::Tape& f = expr_model_internals(*m).rhs;
  const std::size_t inputs = 1 + f.nx + f.np + f.constants.size();
  EXPECT_GT(f.code.size(), 8000u);
  EXPECT_LT(f.n_registers - inputs, 16u) << "temporaries";
  EXPECT_EQ(m->jac_x_pattern()->nnz(), 1000u + 2 * 999u);
}

TEST(ExprTape, OnlyWhatTheOutputsNeedIsCompiled) {
  auto m = load_ode_text(
      "param k = 2\nstate x = 1\nlet unused = exp(sin(x))*k + log(x)\n"
      "let used = k*x\ndx/dt = -used\n", "dead.ode");
  const expr::Tape& f = expr_model_internals(*m).rhs;
  std::size_t ops = 0;
  for (const auto& in : f.code)
    if (in.op() != Op::store) ++ops;
  EXPECT_EQ(ops, 2u);  // k*x and its negation
}

TEST(ExprTape, ParameterOnlyWorkIsHoistedAndRecomputedWhenParametersChange) {
  auto m = load_ode_text(
      "param a = 2\nparam b = 3\nstate x = 1\n"
      "let rate = exp(a)*b/(1 + a^2)\ndx/dt = -rate*x\n", "hoist.ode");
  EXPECT_GT(expr_model_internals(*m).rhs.prefix_end, 0u);
  auto expected = [](double a, double b, double x) {
    return -(std::exp(a) * b / (1 + a * a)) * x;
  };
  const double x = 0.7;
  double f;
  for (const auto& p : std::vector<std::vector<double>>{{2, 3}, {2, 3}, {1, 3}, {1, 4}, {2, 3}}) {
    m->rhs(0.0, &x, p.data(), &f);
    EXPECT_EQ(f, expected(p[0], p[1], x));
  }
  // Another model with the same shape on the same thread must not see the
  // first model's cached prefix.
  auto other = load_ode_text(
      "param a = 2\nparam b = 3\nstate x = 1\n"
      "let rate = exp(a)*b/(1 + a^2)\ndx/dt = -rate*x*2\n", "hoist2.ode");
  const double p[2] = {2, 3};
  other->rhs(0.0, &x, p, &f);
  EXPECT_EQ(f, 2 * expected(2, 3, x));
  m->rhs(0.0, &x, p, &f);
  EXPECT_EQ(f, expected(2, 3, x));
}

TEST(ExprTape, ConcurrentEvaluationOnSeveralThreads) {
  auto m = load_ode_text(chain_model(200), "chain.ode");
  const std::size_t n = m->nx();
  std::vector<double> x(n, 0.3);
  auto reference = [&](double k) {
    std::vector<double> f(n), J(m->jac_x_pattern()->nnz());
    const double p[2] = {k, 0.1};
    m->rhs(0.0, x.data(), p, f.data());
    m->jac_x_values(0.0, x.data(), p, J.data());
    f.insert(f.end(), J.begin(), J.end());
    return f;
  };
  std::vector<std::vector<double>> expected;
  for (int th = 0; th < 4; ++th) expected.push_back(reference(0.5 + th));
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int th = 0; th < 4; ++th)
    threads.emplace_back([&, th] {
      for (int rep = 0; rep < 200; ++rep)
        if (reference(0.5 + th) != expected[static_cast<std::size_t>(th)]) ++mismatches[th];
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

using expr_testing::run_tape;

TEST(ExprNativeTape, NativeCodeComputesExactlyWhatTheInterpreterComputes) {
  if (!expr::native_tapes_enabled()) GTEST_SKIP() << "no native tapes on this platform";
  std::vector<std::shared_ptr<ExprModel>> models = {
      load_ode_text(
          "param p = 0.7\nparam q = -1.3\nstate x = 0.4\nstate y = 2\nstate z = -0.5\n"
          "let u = x/(1 + y*y)\n"
          "dx/dt = exp(u) + log(y) + log10(y) + sqrt(y) + sin(x) + cos(x) + tan(u) + sinh(u)\n"
          "dy/dt = cosh(u) + tanh(x) + asin(u) + acos(u) + atan(x) + abs(z) + pow(y, p) + z^3 + z^-2"
          " + z^40 + y^-41\n"
          "dz/dt = min(x, z) + max(x, z) - x - -z + piecewise(x, x < z || !(y >= 2), z, x <= y && "
          "z > q, y, x == y, 1, x != z, 2)*p/q\n"
          "output o = piecewise(1, z < 0, 0)\n",
          "all.ode")};
  if (expr_testing::readable(expr_testing::ode_model_path("camkii.ode")))
    models.push_back(load_ode_file(expr_testing::ode_model_path("camkii.ode")));
  for (const auto& m : models) {
    const auto p = expr_testing::probe_params(*m);
    const auto x = expr_testing::probe_state(*m, p);
    const auto& impl = expr_model_internals(*m);
    for (const expr::Tape* tape : {&impl.rhs, &impl.rhs_adjoint, &impl.jac_x, &impl.jac_p,
                                   &impl.dfdt, &impl.outputs}) {
      ASSERT_NE(tape->native, nullptr);
      for (double t : {0.0, 0.7}) {
        std::vector<double> regs_native, regs_interp;
        const auto a = run_tape(*tape, true, t, x, p, &regs_native);
        const auto b = run_tape(*tape, false, t, x, p, &regs_interp);
        EXPECT_TRUE(same_bits(a, b)) << m->name();
        // Single-assignment tapes keep every value (the sweeps read them).
        if (tape == &impl.rhs_adjoint) {
          EXPECT_TRUE(same_bits(regs_native, regs_interp)) << m->name();
        }
      }
    }
  }
}

}  // namespace
}  // namespace odesens
