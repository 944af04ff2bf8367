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

bool TimeDependence::any(const std::vector<NodeId>& roots, bool Known::*flag) const {
  return std::any_of(roots.begin(), roots.end(), [&](NodeId id) {
    if (id >= known_.size()) throw std::out_of_range("TimeDependence: a root past `last`");
    return known_[id].*flag;
  });
}

bool TimeDependence::reads_time(const std::vector<NodeId>& roots) const {
  return any(roots, &Known::timed);
}

bool TimeDependence::reads_time_between_switches(const std::vector<NodeId>& roots) const {
  return any(roots, &Known::smooth);
}

TimeDependence::Known TimeDependence::fixed_at(double value) {
  Known k;
  k.fixed = true;
  k.value = value;
  k.affine = true;
  return k;
}

// A select: the branch its condition picks, or a value both branches share.
TimeDependence::Known TimeDependence::select_of(const Node& n, const Known& c, const Known& a,
                                                const Known& b) {
  if (c.fixed && c.value == c.value) return c.value != 0.0 ? a : b;
  if (n.b == n.c) return a;
  if (a.fixed && b.fixed && same_bits(a.value, b.value)) return a;
  Known k;
  k.timed = c.timed || a.timed || b.timed;
  k.smooth = c.smooth || a.smooth || b.smooth || (c.timed && !c.condition);
  return k;
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
  if (decided) out = fixed_at(value);
  return decided;
}

// An operation of operands not all fixed, not decided by one of them.
TimeDependence::Known TimeDependence::combined(const Node& n, const Known& a, const Known& b,
                                               const Known& c) {
  Known k;
  k.timed = a.timed || b.timed || c.timed;
  // Between switches, a value changes where an operand does, or where a
  // condition holds a number rather than a comparison (no switch for it).
  k.smooth = a.smooth || b.smooth || c.smooth;
  switch (n.op) {
    case Op::neg:
      k.affine = a.affine;
      break;
    case Op::add:
    case Op::sub:
      k.affine = a.affine && b.affine;
      break;
    case Op::mul:
      k.affine = a.affine && b.affine && (a.fixed || b.fixed);
      break;
    case Op::div:
      k.affine = a.affine && b.fixed;
      break;
    case Op::lt:
    case Op::le:
    case Op::gt:
    case Op::ge:
    case Op::eq:
    case Op::ne:
      // A switch the solvers find: its root a - b linear in t, no state.
      k.condition = true;
      k.smooth = k.timed && !(a.affine && b.affine);
      break;
    case Op::logical_not:
    case Op::logical_and:
    case Op::logical_or:
      k.condition = true;
      k.smooth = k.smooth || (a.timed && !a.condition) || (b.timed && !b.condition);
      break;
    default:
      k.smooth = k.smooth || k.timed;  // floor(t), min(t, 5): taken as smooth
      break;
  }
  return k;
}

TimeDependence::Known TimeDependence::known_of(const Node& n, const double* p) const {
  switch (n.op) {
    case Op::constant:
      return fixed_at(n.value);
    case Op::param:
      return fixed_at(p[n.index]);
    case Op::time: {
      Known k;
      k.timed = k.smooth = k.affine = true;
      return k;
    }
    case Op::state:
      return {};
    default:
      break;
  }
  const int k = arity(n.op);
  const Known none = fixed_at(0.0);
  const Known& a = k > 0 ? known_[n.a] : none;
  const Known& b = k > 1 ? known_[n.b] : none;
  const Known& c = k > 2 ? known_[n.c] : none;
  // Fixed operands first: 0 / 0 and 0 * Inf are NaN, not the 0 below.
  if (a.fixed && b.fixed && c.fixed)
    return fixed_at(scalar_value(n.op, a.value, b.value, c.value, n.index));
  if (n.op == Op::select) return select_of(n, a, b, c);
  Known out;
  if (decided_by_one(n, a, b, out)) return out;
  return combined(n, a, b, c);
}

bool reads_time_at(const Graph& graph, const std::vector<NodeId>& roots, const double* p) {
  if (roots.empty()) return false;
  return TimeDependence(graph, *std::max_element(roots.begin(), roots.end()), p)
      .reads_time(roots);
}

}  // namespace odesens::expr
