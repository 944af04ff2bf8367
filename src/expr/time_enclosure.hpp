// Enclosures of a value of t alone over an interval of t, at fixed
// parameters: the range [lo, hi] that contains the value, as the
// evaluators compute it in doubles, at every t in [ta, tb]. A solver that
// knows where a switch of t alone cannot be (0 outside the root's range)
// can find every switch before it steps, a pulse `abs(t - 6.1) < 0.02`
// narrower than its steps too (integrate/events/time_switches.hpp).
//
// Interval arithmetic on doubles, with each bound moved outward by more
// than the operation's rounding error in double precision (a few ulps;
// the transcendental functions of the evaluators are within 1 ulp), so
// that the range holds whichever of them computed the value. Where an
// operation may give NaN (log of a range reaching below 0, 0 * Inf), the
// range is the whole line: a comparison of it is undecided, as is the
// truth of a condition that may be NaN (NaN counts as true). Where it is
// NaN at every t of the interval (sqrt of a range below 0), the range is
// {NaN, NaN}, which the operations take as the evaluators take NaN: a
// comparison of it fails, min(1, NaN) is NaN, and so on.
#pragma once

#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

struct Range {
  double lo, hi;  // both NaN: NaN at every t
};

// The range of ops.def operation op on operands in a, b, c (n: the powi
// exponent). A comparison or logical operation gives [1, 1] or [0, 0]
// where it is decided over the ranges, else [0, 1].
Range range_of(Op op, const Range& a, const Range& b, const Range& c, int n);

class TimeEnclosure {
 public:
  TimeEnclosure() = default;
  // The nodes `value` needs, copied out of the graph (which may grow on
  // another thread afterwards). Not usable() where the value reads a state.
  TimeEnclosure(const Graph& graph, NodeId value);
  bool usable() const { return !nodes_.empty(); }
  // The range over t in [ta, tb] (ta <= tb) at parameters p (graph
  // parameter j = p[j]); scratch: any vector, reused between calls.
  Range over(double ta, double tb, const double* p, std::vector<Range>& scratch) const;

 private:
  std::vector<Node> nodes_;  // topological order; operands index nodes_
};

}  // namespace odesens::expr
