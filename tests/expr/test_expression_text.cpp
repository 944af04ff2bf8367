// Expressions as text for messages (expression_text.hpp): operators
// between their operands, in parentheses where nested, the model's names,
// piecewise for select, and long or deep expressions cut.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expr/expr_graph.hpp"
#include "expr/expression_text.hpp"

namespace odesens {
namespace {

using expr::Graph;
using expr::NodeId;
using expr::Op;

TEST(ExpressionText, ComparisonsReadAsWritten) {
  // Nodes made one statement at a time: the graph orders commutative
  // operands by their ids, and the order in which a call's arguments are
  // evaluated (so the ids) differs between builds.
  Graph g;
  const std::vector<std::string> states{"A"}, params{"dose", "T0"};
  const NodeId t = g.time(), six = g.constant(6.1), tiny = g.constant(0.02);
  const NodeId distance = g.unary(Op::abs, g.sub(t, six));
  const NodeId pulse = g.binary(Op::lt, distance, tiny);
  EXPECT_EQ(expr::expression_text(g, pulse, states, params), "abs(t - 6.1) < 0.02");
  const NodeId four = g.constant(4), t0 = g.param(1);
  const NodeId start = g.add(four, t0);
  const NodeId phase = g.binary(Op::gt, t, start);
  EXPECT_EQ(expr::expression_text(g, phase, states, params), "t > (4 + T0)");
  const NodeId dose = g.param(0), a = g.state(0);
  const NodeId square = g.powi(a, 2);
  const NodeId on = g.mul(dose, square), off = g.neg(a);
  const NodeId rate = g.select(phase, on, off);
  EXPECT_EQ(expr::expression_text(g, rate, states, params),
            "piecewise(dose * A^2, t > (4 + T0), -A)");
  // A name the lists do not have is numbered.
  EXPECT_EQ(expr::expression_text(g, g.param(5), states, params), "p5");
}

TEST(ExpressionText, LongAndDeepExpressionsAreCut) {
  Graph g;
  NodeId sum = g.state(0);
  for (int k = 1; k < 5000; ++k) sum = g.add(sum, g.mul(g.constant(k), g.state(0)));
  const std::string text = expr::expression_text(g, sum, {"x"}, {}, 40);
  EXPECT_LE(text.size(), 40u + 80u);
  EXPECT_EQ(text.substr(text.size() - 3), "...");
}

}  // namespace
}  // namespace odesens
