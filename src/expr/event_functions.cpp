#include "expr/event_functions.hpp"

#include <algorithm>

#include "expr/differentiate.hpp"
#include "expr/expression_text.hpp"
#include "expr/switch_ops.hpp"
#include "expr/tape_evaluate.hpp"
#include "odesens/status.hpp"

namespace odesens::expr {

using Comparison = EventSystem::Comparison;
using RootKind = EventSystem::Root::Kind;

FunctionRows::FunctionRows(Graph& g, const std::vector<NodeId>& rows, std::size_t nx,
                           std::size_t np)
    : n_rows_(rows.size()), nx_(nx), np_(np) {
  values_ = compile_tape(g, rows, nx, np, TapeKind::values);
  std::vector<NodeId> partial_nodes;
  GradientWorkspace workspace;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const Partial& d : gradient(g, rows[r], workspace)) {
      entries_.push_back({r, d.leaf, static_cast<std::size_t>(d.index)});
      partial_nodes.push_back(d.derivative);
    }
  partials_ = compile_tape(g, partial_nodes, nx, np, TapeKind::values);
}

void FunctionRows::values(Registers& regs, double t, const double* x, const double* p,
                          double* out) const {
  if (n_rows_ > 0) evaluate(values_, regs, Slot::events, t, x, p, out);
}

void FunctionRows::gradients(Registers& regs, double t, const double* x, const double* p,
                             double* out_t, double* out_x, double* out_p) const {
  if (out_t) std::fill(out_t, out_t + n_rows_, 0.0);
  if (out_x) std::fill(out_x, out_x + n_rows_ * nx_, 0.0);
  if (out_p) std::fill(out_p, out_p + n_rows_ * np_, 0.0);
  if (entries_.empty()) return;
  double* v = regs.buffer(Slot::event_scratch).ensure(entries_.size());
  evaluate(partials_, regs, Slot::event_partials, t, x, p, v);
  for (std::size_t q = 0; q < entries_.size(); ++q) {
    const Entry& e = entries_[q];
    if (e.leaf == Op::time && out_t) out_t[e.row] = v[q];
    if (e.leaf == Op::state && out_x) out_x[e.row + e.index * n_rows_] = v[q];
    if (e.leaf == Op::param && out_p) out_p[e.row + e.index * n_rows_] = v[q];
  }
}

void FunctionRows::row_gradient(Registers& regs, std::size_t row, double t, const double* x,
                                const double* p, double* out_t, double* out_x,
                                double* out_p) const {
  *out_t = 0.0;
  std::fill(out_x, out_x + nx_, 0.0);
  std::fill(out_p, out_p + np_, 0.0);
  if (entries_.empty()) return;
  double* v = regs.buffer(Slot::event_scratch).ensure(entries_.size());
  evaluate(partials_, regs, Slot::event_partials, t, x, p, v);
  for (std::size_t q = 0; q < entries_.size(); ++q) {
    const Entry& e = entries_[q];
    if (e.row != row) continue;
    if (e.leaf == Op::time) *out_t = v[q];
    if (e.leaf == Op::state) out_x[e.index] = v[q];
    if (e.leaf == Op::param) out_p[e.index] = v[q];
  }
}

namespace {

// rows with every node `replace[i].first` replaced by `replace[i].second`
// (ids are a topological order, so one pass in id order rebuilds every
// node above a replaced one).
std::vector<NodeId> substitute(Graph& g, const std::vector<NodeId>& rows,
                               const std::vector<std::pair<NodeId, NodeId>>& replace) {
  NodeId top = 0;
  for (NodeId r : rows)
    if (r != kNoNode) top = std::max(top, r);
  std::vector<NodeId> image(static_cast<std::size_t>(top) + 1, kNoNode);
  std::vector<char> needed(image.size(), 0);
  for (NodeId r : rows)
    if (r != kNoNode) needed[r] = 1;
  for (NodeId id = top + 1; id-- > 0;) {  // what the rows read, top down
    if (!needed[id]) continue;
    const Node& n = g.node(id);
    for (NodeId operand : {n.a, n.b, n.c})
      if (operand != kNoNode) needed[operand] = 1;
  }
  for (const auto& [from, to] : replace)
    if (from < image.size()) image[from] = to;
  for (NodeId id = 0; id <= top; ++id) {
    if (!needed[id] || image[id] != kNoNode) continue;
    const Node n = g.node(id);
    auto mapped = [&](NodeId operand) { return operand == kNoNode ? kNoNode : image[operand]; };
    image[id] = g.rebuild(id, mapped(n.a), mapped(n.b), mapped(n.c));
  }
  std::vector<NodeId> out;
  for (NodeId r : rows) out.push_back(r == kNoNode ? kNoNode : image[r]);
  return out;
}

}  // namespace

EventFunctions::EventFunctions(SymbolicModel& model)
    : state_names_(&model.state_names), param_names_(&model.param_names) {
  Graph& g = model.graph;
  const std::size_t nx = model.state_names.size(), np = model.param_names.size();
  collect_switches(model);
  for (const SymbolicEvent& e : model.events) {
    EventSystem::Event info;
    info.id = e.id;
    info.initial_value = e.initial_value;
    info.persistent = e.persistent;
    info.values_from_trigger_time = e.values_from_trigger_time;
    info.has_delay = e.delay != kNoNode;
    info.has_priority = e.priority != kNoNode;
    if (e.targets.size() != e.values.size())
      throw Error(Status::invalid_argument, "event '" + e.id + "': targets and values disagree");
    for (int target : e.targets) {
      if (target < 0 || static_cast<std::size_t>(target) >= nx)
        throw Error(Status::invalid_argument, "event '" + e.id + "' assigns no state");
      info.targets.push_back(static_cast<std::size_t>(target));
    }
    CompiledEvent c;
    add_logic(g, e.trigger, c, nx, 0);
    std::sort(c.roots.begin(), c.roots.end());
    c.roots.erase(std::unique(c.roots.begin(), c.roots.end()), c.roots.end());
    c.assignments = FunctionRows(g, e.values, nx, np);
    if (e.delay != kNoNode) c.delay = FunctionRows(g, {e.delay}, nx, np);
    if (e.priority != kNoNode) c.priority = FunctionRows(g, {e.priority}, nx, np);
    events_.push_back(std::move(info));
    compiled_.push_back(std::move(c));
  }
  root_rows_ = FunctionRows(g, root_nodes_, nx, np);
  for (std::size_t i = 0; i < roots_.size(); ++i)
    root_ranges_.push_back(roots_[i].reads_state ? TimeEnclosure()
                                                 : TimeEnclosure(g, root_nodes_[i]));
  state_names_ = param_names_ = nullptr;  // the model may go
}

bool EventFunctions::root_range_over_time(std::size_t i, double ta, double tb, const double* p,
                                          double* lo, double* hi,
                                          std::vector<Range>& scratch) const {
  if (i >= root_ranges_.size() || !root_ranges_[i].usable() || !(ta <= tb)) return false;
  const Range r = root_ranges_[i].over(ta, tb, p, scratch);
  *lo = r.lo;
  *hi = r.hi;
  return true;
}

// Every comparison that f reads and whose value can change during a solve
// (it depends on t or x) is a switch: f may jump where it changes. So is
// every floor(u) and ceil(u) of such a u, where u crosses an integer; its
// root function is u itself (Root::Kind). factorial is not: it is meant for
// integer arguments (typically a floor or ceil, itself a switch).
//
// A comparison (floor, ceil) that reads parameters alone is no switch, but
// internal differences perturb parameters: it is collected apart, so that
// perturbed trajectories can take it as the nominal does (the operands of
// such a comparison are not searched further: its value decides them).
void EventFunctions::collect_switches(const SymbolicModel& model) {
  const Graph& cg = model.graph;
  std::vector<char> seen(cg.size(), 0);
  std::vector<NodeId> stack(model.rhs.begin(), model.rhs.end()), found, on_parameters;
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (id == kNoNode || seen[id]) continue;
    seen[id] = 1;
    const Node& n = cg.node(id);
    Comparison c = Comparison::ne;
    RootKind kind = RootKind::comparison;
    const bool branches = comparison_of(n.op, &c) || step_of(n.op, &kind);
    if (!(n.depends & (kOnTime | kOnState))) {
      if (branches && (n.depends & kOnParam)) on_parameters.push_back(id);
      else if (n.depends & kOnParam)
        for (NodeId operand : {n.a, n.b, n.c}) stack.push_back(operand);
      continue;
    }
    if (branches) found.push_back(id);
    for (NodeId operand : {n.a, n.b, n.c}) stack.push_back(operand);
  }
  std::sort(found.begin(), found.end());
  std::sort(on_parameters.begin(), on_parameters.end());
  Graph& g = const_cast<SymbolicModel&>(model).graph;
  const std::size_t np = model.param_names.size();
  std::vector<std::pair<NodeId, NodeId>> branches;
  for (NodeId id : found) {
    const Node n = g.node(id);
    Comparison c = Comparison::ne;
    RootKind kind = RootKind::comparison;
    std::size_t r = 0;
    if (step_of(n.op, &kind)) {
      r = add_root(g, n.a, Comparison::ge, id, kind);  // read under ge: see Root::Kind
    } else {
      comparison_of(n.op, &c);
      r = add_root(g, g.sub(n.a, n.b), c, id);
    }
    roots_[r].switches_rhs = true;
    branches.push_back({id, g.param(static_cast<int>(np + branch_roots_.size()))});
    branch_roots_.push_back(r);
  }
  const std::size_t nx = model.state_names.size();
  std::vector<std::pair<NodeId, NodeId>> parameter_branches;
  for (NodeId id : on_parameters) {
    branches.push_back({id, g.param(static_cast<int>(np + branches.size()))});
    parameter_branches.push_back({id, g.param(static_cast<int>(np + parameter_branches.size()))});
  }
  if (branches.empty()) return;
  if (!on_parameters.empty()) {
    parameter_branches_ = FunctionRows(g, on_parameters, nx, np);
    rhs_on_parameter_branches_ = compile_tape(g, substitute(g, model.rhs, parameter_branches), nx,
                                              np + on_parameters.size(), TapeKind::adjoint);
  }
  const std::vector<NodeId> on_branches = substitute(g, model.rhs, branches);
  rhs_on_branches_ = compile_tape(g, on_branches, nx, np + branches.size(), TapeKind::values);
  rhs_on_branches_adjoint_ =
      compile_tape(g, on_branches, nx, np + branches.size(), TapeKind::adjoint);
}

void EventFunctions::parameter_branch_values(Registers& regs, double t, const double* x,
                                             const double* p, double* out) const {
  if (parameter_branches_.size() > 0) parameter_branches_.values(regs, t, x, p, out);
}

std::size_t EventFunctions::add_root(Graph& g, NodeId difference, Comparison comparison,
                                     NodeId comparison_node, RootKind kind) {
  for (std::size_t r = 0; r < roots_.size(); ++r)
    if (root_nodes_[r] == difference && roots_[r].comparison == comparison &&
        roots_[r].kind == kind)
      return r;
  EventSystem::Root root;
  root.comparison = comparison;
  root.kind = kind;
  root.moves = (g.node(difference).depends & (kOnState | kOnParam)) != 0;
  root.reads_state = (g.node(difference).depends & kOnState) != 0;
  root.text = std::string("'") + op_name(g.node(comparison_node).op) + "' " +
              (kind == RootKind::comparison ? "comparison" : "switch") + " `" +
              expression_text(g, comparison_node, *state_names_, *param_names_) + "`";
  roots_.push_back(root);
  root_nodes_.push_back(difference);
  return roots_.size() - 1;
}

// Logic nested deeper than this is refused: a trigger is evaluated by
// recursion over its tree (real triggers nest a few levels; SBML's n-ary
// and/or of many terms nests one level per term).
constexpr int kMaxLogicDepth = 2000;

int EventFunctions::add_logic(Graph& g, NodeId id, CompiledEvent& event, std::size_t nx,
                              int depth) {
  if (depth > kMaxLogicDepth)
    throw Error(Status::unsupported, "a trigger nests logical operators more than " +
                                         std::to_string(kMaxLogicDepth) + " levels deep");
  const int at = static_cast<int>(event.logic.size());
  event.logic.push_back({});
  const Node n = g.node(id);
  Logic l;
  Comparison c = Comparison::ne;
  const bool both_conditions = n.a != kNoNode && n.b != kNoNode && is_condition(g.node(n.a).op) &&
                               is_condition(g.node(n.b).op);
  if (n.op == Op::constant) {
    l.kind = Logic::constant;
    l.value = n.value != 0.0;
  } else if (n.op == Op::logical_not) {
    l.kind = Logic::logical_not;
    l.a = add_logic(g, n.a, event, nx, depth + 1);
  } else if (n.op == Op::logical_and || n.op == Op::logical_or) {
    l.kind = n.op == Op::logical_and ? Logic::logical_and : Logic::logical_or;
    l.a = add_logic(g, n.a, event, nx, depth + 1);
    l.b = add_logic(g, n.b, event, nx, depth + 1);
  } else if ((n.op == Op::eq || n.op == Op::ne) && both_conditions) {
    l.kind = n.op == Op::eq ? Logic::same : Logic::differ;
    l.a = add_logic(g, n.a, event, nx, depth + 1);
    l.b = add_logic(g, n.b, event, nx, depth + 1);
  } else if (n.op == Op::select && is_condition(g.node(n.b).op) &&
             is_condition(g.node(n.c).op)) {
    l.kind = Logic::select;
    l.a = add_logic(g, n.a, event, nx, depth + 1);
    l.b = add_logic(g, n.b, event, nx, depth + 1);
    l.c = add_logic(g, n.c, event, nx, depth + 1);
  } else if (comparison_of(n.op, &c)) {
    l.kind = Logic::comparison;
    l.root = add_root(g, g.sub(n.a, n.b), c, id);
    event.roots.push_back(l.root);
  } else {
    // Any other value is true where it is non-zero.
    l.kind = Logic::comparison;
    l.root = add_root(g, id, Comparison::ne, id);
    event.roots.push_back(l.root);
  }
  event.logic[static_cast<std::size_t>(at)] = l;
  return at;
}

bool EventFunctions::evaluate(const CompiledEvent& event, int node, const int* sides) const {
  const Logic& l = event.logic[static_cast<std::size_t>(node)];
  switch (l.kind) {
    case Logic::constant: return l.value;
    case Logic::comparison: return EventSystem::holds(roots_[l.root].comparison, sides[l.root]);
    case Logic::logical_not: return !evaluate(event, l.a, sides);
    case Logic::logical_and: return evaluate(event, l.a, sides) && evaluate(event, l.b, sides);
    case Logic::logical_or: return evaluate(event, l.a, sides) || evaluate(event, l.b, sides);
    case Logic::same: return evaluate(event, l.a, sides) == evaluate(event, l.b, sides);
    case Logic::differ: return evaluate(event, l.a, sides) != evaluate(event, l.b, sides);
    case Logic::select:
      return evaluate(event, l.a, sides) ? evaluate(event, l.b, sides)
                                         : evaluate(event, l.c, sides);
  }
  return false;
}

const std::vector<std::size_t>& EventFunctions::trigger_roots(std::size_t k) const {
  return compiled_.at(k).roots;
}

void EventFunctions::root_values(Registers& regs, double t, const double* x, const double* p,
                                 double* g) const {
  root_rows_.values(regs, t, x, p, g);
}

void EventFunctions::root_gradient(Registers& regs, std::size_t i, double t, const double* x,
                                   const double* p, double* g_t, double* g_x,
                                   double* g_p) const {
  root_rows_.row_gradient(regs, i, t, x, p, g_t, g_x, g_p);
}

void EventFunctions::triggers(const int* sides, bool* out) const {
  for (std::size_t k = 0; k < compiled_.size(); ++k) out[k] = evaluate(compiled_[k], 0, sides);
}

namespace {

// The value of a one-row function, 0 when the event has none.
double value_or_zero(const FunctionRows& f, Registers& regs, double t, const double* x,
                     const double* p) {
  if (f.size() == 0) return 0.0;
  double v = 0.0;
  f.values(regs, t, x, p, &v);
  return v;
}

}  // namespace

double EventFunctions::delay(Registers& regs, std::size_t k, double t, const double* x,
                             const double* p) const {
  return value_or_zero(compiled_.at(k).delay, regs, t, x, p);
}

void EventFunctions::delay_gradient(Registers& regs, std::size_t k, double t, const double* x,
                                    const double* p, double* d_t, double* d_x,
                                    double* d_p) const {
  compiled_.at(k).delay.gradients(regs, t, x, p, d_t, d_x, d_p);
}

double EventFunctions::priority(Registers& regs, std::size_t k, double t, const double* x,
                                const double* p) const {
  return value_or_zero(compiled_.at(k).priority, regs, t, x, p);
}

void EventFunctions::assignment_values(Registers& regs, std::size_t k, double t, const double* x,
                                       const double* p, double* values) const {
  compiled_.at(k).assignments.values(regs, t, x, p, values);
}

void EventFunctions::assignment_jacobians(Registers& regs, std::size_t k, double t,
                                          const double* x, const double* p, double* h_t,
                                          double* h_x, double* h_p) const {
  compiled_.at(k).assignments.gradients(regs, t, x, p, h_t, h_x, h_p);
}

}  // namespace odesens::expr
