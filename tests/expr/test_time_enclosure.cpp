// Ranges of values of t alone over intervals of t (time_enclosure.hpp):
// every operation's range holds its value at points sampled from its
// operands' ranges, NaN only where the range is the whole line; the
// ranges are tight enough to decide comparisons away from their switches.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "expr/expr_graph.hpp"
#include "expr/scalar_ops.hpp"
#include "expr/time_enclosure.hpp"

namespace odesens {
namespace {

using expr::Graph;
using expr::NodeId;
using expr::Op;
using expr::Range;

constexpr double kWholeBound = std::numeric_limits<double>::infinity();

bool whole(const Range& r) { return r.lo == -kWholeBound && r.hi == kWholeBound; }

// Operand ranges: signs, spans across 0, points, wide and narrow, and the
// conditions' 0 / 1 values.
std::vector<Range> operand_ranges() {
  return {{0.5, 2.0},   {-3.0, -0.25}, {-1.5, 2.5},   {0.0, 0.0},   {1.0, 1.0},
          {-7.0, 7.0},  {0.0, 1.0},    {2.9, 3.3},    {-40.0, 35.0}, {1e-3, 1e-3 + 1e-9},
          {6.08, 6.12}, {0.3, 0.9},    {-0.9, -0.2},  {0.0, 30.0},  {-1e5, 1e5}};
}

double sample(const Range& r, std::mt19937_64& rng, int k) {
  if (k == 0) return r.lo;
  if (k == 1) return r.hi;
  return std::uniform_real_distribution<double>(r.lo, r.hi)(rng);
}

TEST(TimeEnclosure, EveryOperationsRangeHoldsItsSampledValues) {
  std::mt19937_64 rng(7);
  const std::vector<Range> ranges = operand_ranges();
  for (int o = static_cast<int>(Op::neg); o <= static_cast<int>(Op::select); ++o) {
    const Op op = static_cast<Op>(o);
    const int m = expr::arity(op);
    for (const Range& a : ranges)
      for (const Range& b : m > 1 ? ranges : std::vector<Range>{a})
        for (const Range& c : m > 2 ? ranges : std::vector<Range>{a})
          for (int n : op == Op::powi ? std::vector<int>{2, 3, -2, 7} : std::vector<int>{0}) {
            const Range r = expr::range_of(op, a, b, c, n);
            for (int k = 0; k < 24; ++k) {
              const double va = sample(a, rng, k % 3), vb = sample(b, rng, (k / 3) % 3),
                           vc = sample(c, rng, k % 2);
              const double v = expr::scalar_value(op, va, vb, vc, n);
              const std::string what = std::string(expr::op_name(op)) + "(" +
                                       std::to_string(va) + ", " + std::to_string(vb) + ", " +
                                       std::to_string(vc) + ") = " + std::to_string(v);
              if (std::isnan(r.lo)) {
                EXPECT_TRUE(std::isnan(v)) << what << ": the range says NaN at every point";
              } else if (std::isnan(v)) {
                EXPECT_TRUE(whole(r)) << what;
              } else {
                EXPECT_LE(r.lo, v) << what;
                EXPECT_GE(r.hi, v) << what;
              }
            }
          }
  }
}

TEST(TimeEnclosure, ConditionsAreDecidedOnlyOverRangesThatDecideThem) {
  const Range low{0.0, 1.0}, high{2.0, 3.0}, touching{1.0, 2.0};
  const auto cmp = [](Op op, Range a, Range b) { return expr::range_of(op, a, b, a, 0); };
  EXPECT_EQ(cmp(Op::lt, low, high).lo, 1.0);
  EXPECT_EQ(cmp(Op::gt, low, high).hi, 0.0);
  EXPECT_EQ(cmp(Op::le, low, touching).lo, 1.0);  // 1 <= 1 holds
  EXPECT_EQ(cmp(Op::lt, low, touching).lo, 0.0);  // 1 < 1 does not: undecided
  EXPECT_EQ(cmp(Op::lt, low, touching).hi, 1.0);
  // A select on a decided condition is its branch; else the hull.
  const Range yes{1.0, 1.0}, either{0.0, 1.0};
  EXPECT_EQ(expr::range_of(Op::select, yes, high, low, 0).lo, 2.0);
  const Range hull = expr::range_of(Op::select, either, high, low, 0);
  EXPECT_EQ(hull.lo, 0.0);
  EXPECT_EQ(hull.hi, 3.0);
  // A condition that may be NaN is not decided false (NaN is true).
  const Range maybe_nan = expr::range_of(Op::log, {-1.0, 1.0}, low, low, 0);
  EXPECT_TRUE(whole(maybe_nan));
  const Range negated = expr::range_of(Op::logical_not, maybe_nan, low, low, 0);
  EXPECT_EQ(negated.lo, 0.0);
  EXPECT_EQ(negated.hi, 1.0);
}

// The pulse `abs(t - 6.1) < 0.02` as a root g = abs(t - 6.1) - 0.02: away
// from the pulse its range has one sign, over it it does not; a state
// makes the value unusable; parameters are read from p.
TEST(TimeEnclosure, RangesOfAPulseDecideItAwayFromItsEdges) {
  Graph g;
  const NodeId pulse =
      g.sub(g.unary(Op::abs, g.sub(g.time(), g.param(0))), g.constant(0.02));
  const expr::TimeEnclosure e(g, pulse);
  ASSERT_TRUE(e.usable());
  std::vector<Range> scratch;
  const double p[] = {6.1};
  EXPECT_GT(e.over(0.0, 6.0, p, scratch).lo, 0.0);
  EXPECT_GT(e.over(6.2, 1e3, p, scratch).lo, 0.0);
  EXPECT_LT(e.over(6.09, 6.11, p, scratch).hi, 0.0);
  const Range across = e.over(0.0, 10.0, p, scratch);
  EXPECT_LT(across.lo, 0.0);
  EXPECT_GT(across.hi, 0.0);
  const double later[] = {20.0};
  EXPECT_GT(e.over(0.0, 10.0, later, scratch).lo, 0.0);
  // sin(3 t) - 0.999 is below 0 between its peaks (at pi / 6 + 2 pi k / 3).
  const NodeId wave = g.sub(g.unary(Op::sin, g.mul(g.constant(3.0), g.time())), g.constant(0.999));
  const expr::TimeEnclosure w(g, wave);
  EXPECT_LT(w.over(0.6, 2.5, p, scratch).hi, 0.0);
  EXPECT_GT(w.over(0.5, 0.55, p, scratch).hi, 0.0);
  EXPECT_FALSE(expr::TimeEnclosure(g, g.add(pulse, g.state(0))).usable());
}

// + - * / are bounded without widening (the evaluators round them to
// nearest as the bounds are): an exact 0 stays 0 and decides `>= 0`. A
// value that may be NaN stays the whole line through functions that
// carry NaN on or may drop it (min(1, NaN) is NaN, min(NaN, 1) is 1).
TEST(TimeEnclosure, ExactZerosStayZeroAndNaNIsNeverDropped) {
  Graph g;
  std::vector<Range> scratch;
  const NodeId flat = g.sub(g.binary(Op::min, g.time(), g.constant(3)), g.constant(3));
  const Range zero = expr::TimeEnclosure(g, flat).over(3.0, 10.0, nullptr, scratch);
  EXPECT_EQ(zero.lo, 0.0);
  EXPECT_EQ(zero.hi, 0.0);
  const NodeId square = g.powi(g.sub(g.time(), g.constant(6.1)), 2);
  const NodeId root = g.unary(Op::sqrt, g.sub(g.constant(0.0004), square));
  for (NodeId v : {g.binary(Op::min, g.constant(1), root), g.binary(Op::min, root, g.constant(1)),
                   g.unary(Op::abs, root), g.unary(Op::exp, root)})
    EXPECT_TRUE(whole(expr::TimeEnclosure(g, v).over(0.0, 10.0, nullptr, scratch)));
  // Where sqrt's argument is not negative, the range is finite.
  EXPECT_LE(expr::TimeEnclosure(g, root).over(6.09, 6.11, nullptr, scratch).hi, 0.021);
}

}  // namespace
}  // namespace odesens
