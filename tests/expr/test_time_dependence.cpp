// Whether f, J_x and J_p read t at given parameters (time_dependence.hpp,
// Model::time_reading_at): terms that vanish at p do not count, others do.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "expr/expr_graph.hpp"
#include "expr/time_dependence.hpp"
#include "model/parameter_subset.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

using expr::Graph;
using expr::NodeId;
using expr::Op;

bool reads(const Graph& g, NodeId root, std::vector<double> p) {
  return expr::reads_time_at(g, {root}, p.data());
}

TEST(TimeDependence, AProductWithAFactorZeroAtPDoesNotReadT) {
  Graph g;
  const NodeId dose = g.param(0), x = g.state(0);
  const NodeId before = g.binary(Op::lt, g.time(), g.param(1));
  const NodeId step = g.select(before, g.constant(0), g.constant(1));
  const NodeId f = g.sub(g.mul(dose, step), x);
  EXPECT_FALSE(reads(g, f, {0.0, 2.0}));
  EXPECT_TRUE(reads(g, f, {0.3, 2.0}));
  EXPECT_TRUE(reads(g, f, {1e-300, 2.0}));
  EXPECT_FALSE(reads(g, g.div(g.mul(dose, x), g.add(g.time(), x)), {0.0, 0.0}));
  EXPECT_TRUE(reads(g, g.div(x, g.add(g.time(), dose)), {0.0, 0.0}));
  EXPECT_FALSE(reads(g, x, {1.0, 1.0}));
  EXPECT_FALSE(expr::reads_time_at(g, {}, nullptr));
}

TEST(TimeDependence, ASelectFixedByPTakesItsBranch) {
  Graph g;
  const NodeId on = g.binary(Op::gt, g.param(0), g.constant(0));
  const NodeId f = g.select(on, g.mul(g.time(), g.state(0)), g.state(0));
  EXPECT_FALSE(reads(g, f, {0.0, 1.0, 1.0}));
  EXPECT_TRUE(reads(g, f, {1.0, 1.0, 1.0}));
  // A condition in t whose branches are the same value at p.
  const NodeId same = g.select(g.binary(Op::lt, g.time(), g.constant(5)), g.param(1), g.param(2));
  EXPECT_FALSE(reads(g, same, {0.0, 2.0, 2.0}));
  EXPECT_TRUE(reads(g, same, {0.0, 2.0, 3.0}));
  // A NaN condition is not taken as decided.
  EXPECT_TRUE(reads(g, g.select(g.param(0), g.time(), g.state(0)), {std::nan(""), 1, 1}));
}

// Fixed operands are evaluated before a zero decides: 0 / 0 and 0 * Inf
// are NaN, a condition that is true; branches 0 and -0 are not the same
// value (1 / 0 and 1 / -0 are not).
TEST(TimeDependence, ZeroTimesInfinityAndSignedZerosAreNotZero) {
  Graph g;
  const NodeId x = g.state(0);
  const NodeId by_zero = g.select(g.div(g.param(0), g.param(1)), g.time(), x);
  EXPECT_TRUE(reads(g, by_zero, {0.0, 0.0}));
  EXPECT_FALSE(reads(g, by_zero, {0.0, 1.0}));
  const NodeId times_inf = g.select(g.mul(g.param(0), g.param(1)), g.time(), x);
  EXPECT_TRUE(reads(g, times_inf, {0.0, INFINITY}));
  EXPECT_TRUE(reads(g, times_inf, {0.0, NAN}));
  EXPECT_FALSE(reads(g, times_inf, {0.0, 1.0}));
  const NodeId signed_zero = g.div(
      g.constant(1), g.select(g.binary(Op::lt, g.time(), g.constant(5)), g.param(0), g.param(1)));
  EXPECT_TRUE(reads(g, signed_zero, {-0.0, 0.0}));
  EXPECT_FALSE(reads(g, signed_zero, {0.0, 0.0}));
}

TEST(TimeDependence, FunctionsOfTReadT) {
  Graph g;
  const NodeId t = g.time(), x = g.state(0), k = g.param(0);
  for (NodeId f : {g.unary(Op::exp, t), g.pow(x, t), g.binary(Op::min, x, t),
                   g.binary(Op::max, k, t), g.powi(g.add(t, k), 3), g.unary(Op::floor, t)})
    EXPECT_TRUE(reads(g, f, {1.0})) << f;
  EXPECT_FALSE(reads(g, g.pow(x, k), {1.0}));
}

// t through conditions only: constant between the switches.
TEST(TimeDependence, ConditionsInTChangeAValueOnlyAtSwitches) {
  Graph g;
  const NodeId t = g.time(), x = g.state(0), dose = g.param(0);
  const NodeId on = g.binary(Op::logical_and, g.binary(Op::gt, t, g.constant(2)),
                             g.binary(Op::lt, t, g.constant(5)));
  const std::vector<double> p = {1.0};
  auto between = [&](NodeId f) {
    return expr::TimeDependence(g, f, p.data()).reads_time_between_switches({f});
  };
  const NodeId pulse = g.mul(g.select(on, dose, g.constant(0)), x);
  EXPECT_TRUE(reads(g, pulse, p));
  EXPECT_FALSE(between(pulse));
  EXPECT_FALSE(between(g.add(pulse, g.mul(dose, x))));
  const NodeId ramp = g.select(on, g.mul(dose, t), g.constant(0));
  EXPECT_TRUE(between(ramp));
  EXPECT_TRUE(between(g.mul(pulse, g.unary(Op::sin, t))));
  // A select on a value that is not a condition switches where it is 0.
  EXPECT_TRUE(between(g.select(g.sub(t, dose), x, g.constant(0))));
  // Comparisons of values not affine in t (a step may pass over their
  // switches), or reading a state, are smooth; so are && || ! of numbers.
  const NodeId narrow = g.binary(
      Op::lt, g.unary(Op::abs, g.sub(t, g.constant(6.1))), g.constant(0.02));
  const NodeId sine = g.binary(Op::gt, g.unary(Op::sin, t), g.constant(0.5));
  const NodeId square = g.binary(Op::lt, g.mul(t, t), g.constant(1));
  const NodeId with_state = g.binary(Op::lt, g.add(t, x), g.constant(1));
  const NodeId scaled = g.binary(Op::lt, g.div(g.mul(dose, t), g.constant(3)), dose);
  for (NodeId cond : {narrow, sine, square, with_state})
    EXPECT_TRUE(between(g.select(cond, dose, g.constant(0)))) << cond;
  EXPECT_FALSE(between(g.select(scaled, dose, g.constant(0))));
  const NodeId not_number = g.unary(Op::logical_not, g.binary(Op::max, g.sub(t, dose),
                                                              g.constant(0)));
  EXPECT_TRUE(between(g.select(not_number, dose, g.constant(0))));
  const NodeId not_condition = g.unary(Op::logical_not, g.binary(Op::gt, t, dose));
  EXPECT_FALSE(between(g.select(not_condition, dose, g.constant(0))));
  EXPECT_TRUE(between(g.select(g.binary(Op::logical_and, on, g.sub(t, dose)), dose,
                               g.constant(0))));
}

TEST(TimeDependence, LogicalOperatorsDecidedByOneOperand) {
  Graph g;
  const NodeId late = g.binary(Op::gt, g.time(), g.constant(1));
  const NodeId both = g.binary(Op::logical_and, g.param(0), late);
  const NodeId either = g.binary(Op::logical_or, g.param(0), late);
  EXPECT_FALSE(reads(g, both, {0.0}));
  EXPECT_TRUE(reads(g, both, {1.0}));
  EXPECT_FALSE(reads(g, either, {1.0}));
  EXPECT_TRUE(reads(g, either, {0.0}));
  // Operations of fixed operands are evaluated: exp(p0 - p0 * 1) = 1.
  const NodeId one = g.unary(Op::exp, g.sub(g.param(0), g.mul(g.param(0), g.param(1))));
  EXPECT_FALSE(reads(g, g.mul(g.sub(one, g.constant(1)), g.time()), {0.5, 1.0}));
  EXPECT_TRUE(reads(g, g.mul(g.sub(one, g.constant(1)), g.time()), {0.5, 2.0}));
}

// A <-> B with a pulse into A of size dose between t = 2 and 5.
const char* kDosedPulse =
    "param kf = 2\nparam kr = 1\nparam dose = 0\n"
    "state A = 1\nstate B = 0.5\n"
    "dA/dt = -kf*A + kr*B + piecewise(dose, t > 2 && t < 5, 0)\ndB/dt = kf*A - kr*B\n";

TEST(TimeDependence, AModelAtADoseOfZeroIsAutonomousButNotItsDoseColumn) {
  const auto model = load_ode_text(kDosedPulse, "pulse.ode");
  ASSERT_TRUE(model->rhs_depends_on_time());
  const std::vector<double> off = {2, 1, 0}, on = {2, 1, 0.5};
  const std::vector<std::size_t> rates = {0, 1}, dose = {2};
  Model::TimeReading r = model->time_reading_at(off.data(), nullptr);
  EXPECT_FALSE(r.rhs);
  EXPECT_TRUE(r.jac_p);  // d f / d dose is the pulse
  r = model->time_reading_at(off.data(), &rates);
  EXPECT_FALSE(r.rhs);
  EXPECT_FALSE(r.jac_p);
  EXPECT_TRUE(model->time_reading_at(off.data(), &dose).jac_p);
  r = model->time_reading_at(on.data(), &rates);
  EXPECT_TRUE(r.rhs);
  EXPECT_FALSE(r.jac_p);
  const std::vector<std::size_t> bad = {3};
  EXPECT_THROW(model->time_reading_at(off.data(), &bad), Error);
  const auto plain = load_ode_text("param k = 1\nstate x = 1\ndx/dt = -k*x\n", "decay.ode");
  r = plain->time_reading_at(std::vector<double>{1.0}.data(), nullptr);
  EXPECT_FALSE(r.rhs);
  EXPECT_FALSE(r.jac_p);
}

// The subset model answers for its free columns at the held values.
TEST(TimeDependence, ASubsetModelAsksForItsFreeColumnsAtItsHeldValues) {
  const auto full = load_ode_text(kDosedPulse, "pulse.ode");
  const auto held_off = parameter_subset(full, {0, 1}, {0, 0, 0.0});
  const auto held_on = parameter_subset(full, {0, 1}, {0, 0, 0.5});
  const std::vector<double> rates = {2, 1};
  Model::TimeReading r = held_off->time_reading_at(rates.data(), nullptr);
  EXPECT_FALSE(r.rhs);
  EXPECT_FALSE(r.jac_p);
  EXPECT_TRUE(held_on->time_reading_at(rates.data(), nullptr).rhs);
  const auto dose_free = parameter_subset(full, {2}, {2, 1, 0});
  const std::vector<double> zero = {0.0};
  r = dose_free->time_reading_at(zero.data(), nullptr);
  EXPECT_FALSE(r.rhs);
  EXPECT_TRUE(r.jac_p);
  const std::vector<std::size_t> bad = {1};
  EXPECT_THROW(dose_free->time_reading_at(zero.data(), &bad), Error);
  // Columns of the subset: kf and the dose free, column 1 is the dose.
  const auto two_free = parameter_subset(full, {0, 2}, {0, 1, 0});
  const std::vector<double> kf_and_dose = {2, 0};
  const std::vector<std::size_t> first = {0}, second = {1};
  EXPECT_FALSE(two_free->time_reading_at(kf_and_dose.data(), &first).jac_p);
  EXPECT_TRUE(two_free->time_reading_at(kf_and_dose.data(), &second).jac_p);
}

// The analysis reads the graph, which building the second derivatives
// (every subset model does) grows: both at once, from threads.
TEST(TimeDependence, AsksWhileTheSecondDerivativesAreBuilt) {
  for (int round = 0; round < 4; ++round) {
    const auto full = load_ode_text(kDosedPulse, "pulse.ode");
    const std::vector<double> off = {2, 1, 0};
    std::vector<int> answers(200, -1);
    std::thread asker([&] {
      for (int& a : answers) a = full->time_reading_at(off.data(), nullptr).jac_p ? 1 : 0;
    });
    const auto subset = parameter_subset(full, {0, 1}, {0, 0, 0.0});
    asker.join();
    for (int a : answers) EXPECT_EQ(a, 1);
    EXPECT_NE(subset->second_derivatives(), nullptr);
  }
}

}  // namespace
}  // namespace odesens
