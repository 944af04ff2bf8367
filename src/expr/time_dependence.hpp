// Whether expressions change with t at given parameter values. A model's f
// may read t only through terms that vanish at the parameters of one
// condition: an input `dose * step(t - t_on)` with dose 0, the usual
// pre-equilibration of a dosing experiment. At such parameters f is
// autonomous, which its structure alone (Node::depends) cannot tell.
#pragma once

#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

// What nodes 0 ... last of a graph are at parameters p (graph parameter j
// = p[j]), found in one pass in id order (a topological order): which
// values p alone fixes, and which may change with t. Operations of fixed
// operands are evaluated as the tapes would; a product with a factor 0,
// 0 / a, a select whose condition is fixed (or whose branches are the same
// value, bit for bit) and && / || decided by one operand do not read t
// even where another operand does. As the graph's own folding (x * 0 -> 0),
// the other operand is taken to be finite, and a zero's sign is not
// followed through a product. Conservative: "reads t" where unsure.
//
// A value may also change with t only at switches: where t reaches it
// only through comparisons of values affine in t that read no state (t >
// 2 && t < 5, t - t_on < 0), the switches the solvers find and stop at
// (integrate/events/time_switches.hpp), and through && || ! of such
// comparisons, it is constant between those switches. Other comparisons
// of t alone (sin(t) > 0.5, a narrow |t - 6.1| < 0.02) count as smooth in
// t: the solvers find their switches too, but only within a budget of
// bisections that many switches exceed (a warning then says so), and a
// comparison of a state only at the steps' ends.
class TimeDependence {
 public:
  TimeDependence(const Graph& graph, NodeId last, const double* p);
  // Whether any of roots (each at most `last`) may change with t.
  bool reads_time(const std::vector<NodeId>& roots) const;
  // Whether any of roots may change with t other than at its conditions'
  // switches.
  bool reads_time_between_switches(const std::vector<NodeId>& roots) const;

 private:
  struct Known {
    bool fixed = false;      // the same value for every t and x
    double value = 0.0;      // that value, where fixed
    bool timed = false;      // may change with t (never where fixed)
    bool smooth = false;     // may change with t between switches (only where timed)
    bool affine = false;     // a + b t with a, b fixed by p, no state read
    bool condition = false;  // 0 or 1, switched by comparisons
  };
  // Whether `flag` is set for any of roots.
  bool any(const std::vector<NodeId>& roots, bool Known::*flag) const;
  static Known fixed_at(double value);
  static Known combined(const Node& n, const Known& a, const Known& b, const Known& c);
  Known known_of(const Node& n, const double* p) const;
  static Known select_of(const Node& n, const Known& c, const Known& a, const Known& b);
  static bool decided_by_one(const Node& n, const Known& a, const Known& b, Known& out);

  std::vector<Known> known_;
};

// TimeDependence over the nodes roots need, for one set of roots.
bool reads_time_at(const Graph& graph, const std::vector<NodeId>& roots, const double* p);

}  // namespace odesens::expr
