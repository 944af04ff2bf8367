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
  Graph g;
  const std::vector<std::string> states{"A"}, params{"dose", "T0"};
  const NodeId pulse = g.binary(Op::lt, g.unary(Op::abs, g.sub(g.time(), g.constant(6.1))),
                                g.constant(0.02));
  EXPECT_EQ(expr::expression_text(g, pulse, states, params), "abs(t - 6.1) < 0.02");
  const NodeId phase = g.binary(Op::gt, g.time(), g.add(g.constant(4), g.param(1)));
  // The graph keeps commutative operands in an order of its own.
  EXPECT_EQ(expr::expression_text(g, phase, states, params), "t > (T0 + 4)");
  const NodeId rate = g.select(phase, g.mul(g.param(0), g.powi(g.state(0), 2)), g.neg(g.state(0)));
  EXPECT_EQ(expr::expression_text(g, rate, states, params),
            "piecewise(A^2 * dose, t > (T0 + 4), -A)");
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
