// TimeDependence (time_dependence.hpp).
#include "expr/time_dependence.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "expr/scalar_ops.hpp"

namespace odesens::expr {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TimeDependence::TimeDependence(const Graph& graph, NodeId last, const double* p) {
  if (last == kNoNode) return;
  known_.resize(static_cast<std::size_t>(last) + 1);
  for (NodeId id = 0; id <= last; ++id) known_[id] = known_of(graph.node(id), p);
}

bool TimeDependence::reads_time(const std::vector<NodeId>& roots) const {
  return std::any_of(roots.begin(), roots.end(), [&](NodeId id) {
    if (id >= known_.size()) throw std::out_of_range("TimeDependence: a root past `last`");
    return known_[id].timed;
  });
}

bool TimeDependence::reads_time_between_switches(const std::vector<NodeId>& roots) const {
  return std::any_of(roots.begin(), roots.end(), [&](NodeId id) {
    if (id >= known_.size()) throw std::out_of_range("TimeDependence: a root past `last`");
    return known_[id].smooth;
  });
}

// A select: the branch its condition picks, or a value both branches share.
TimeDependence::Known TimeDependence::select_of(const Node& n, const Known& c, const Known& a,
                                                const Known& b) {
  if (c.fixed && c.value == c.value) return c.value != 0.0 ? a : b;
  if (n.b == n.c) return a;
  if (a.fixed && b.fixed && same_bits(a.value, b.value)) return a;
  return {false, 0.0, c.timed || a.timed || b.timed, c.smooth || a.smooth || b.smooth};
}

// Operations that one operand decides whatever the other is (finite).
bool TimeDependence::decided_by_one(const Node& n, const Known& a, const Known& b, Known& out) {
  auto zero = [](const Known& k) { return k.fixed && k.value == 0.0; };
  auto nonzero = [](const Known& k) { return k.fixed && k.value != 0.0 && k.value == k.value; };
  bool decided = false;
  double value = 0.0;
  switch (n.op) {
    case Op::mul:
    case Op::logical_and:
      decided = zero(a) || zero(b);
      break;
    case Op::div:
      decided = zero(a);
      break;
    case Op::logical_or:
      decided = nonzero(a) || nonzero(b);
      value = 1.0;
      break;
    default:
      break;
  }
  if (decided) out = {true, value, false, false};
  return decided;
}

TimeDependence::Known TimeDependence::known_of(const Node& n, const double* p) const {
  switch (n.op) {
    case Op::constant:
      return {true, n.value, false, false};
    case Op::param:
      return {true, p[n.index], false, false};
    case Op::time:
      return {false, 0.0, true, true};
    case Op::state:
      return {};
    default:
      break;
  }
  const int k = arity(n.op);
  const Known none{true, 0.0, false, false};
  const Known& a = k > 0 ? known_[n.a] : none;
  const Known& b = k > 1 ? known_[n.b] : none;
  const Known& c = k > 2 ? known_[n.c] : none;
  // Fixed operands first: 0 / 0 and 0 * Inf are NaN, not the 0 below.
  if (a.fixed && b.fixed && c.fixed)
    return {true, scalar_value(n.op, a.value, b.value, c.value, n.index), false, false};
  if (n.op == Op::select) return select_of(n, a, b, c);
  Known out;
  if (decided_by_one(n, a, b, out)) return out;
  const bool timed = a.timed || b.timed || c.timed;
  // A condition's value (0 or 1) changes only where it switches.
  return {false, 0.0, timed, timed && !is_condition(n.op) && (a.smooth || b.smooth || c.smooth)};
}

bool reads_time_at(const Graph& graph, const std::vector<NodeId>& roots, const double* p) {
  if (roots.empty()) return false;
  return TimeDependence(graph, *std::max_element(roots.begin(), roots.end()), p)
      .reads_time(roots);
}

}  // namespace odesens::expr
