// The compiled functions behind an ExprModel's EventSystem
// (model_capabilities.hpp): root functions from the comparisons in the
// events' triggers and in f, each trigger as a small logic tree over the
// sides of those roots, and per event its assignments, delay and priority
// with their exact first derivatives.
//
// Built once from the symbolic model (its graph grows by the differences
// a - b and their derivatives). Events are rare next to steps, so every
// function is a plain values tape and derivatives are dense rows scattered
// from the tape of their structurally non-zero entries.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "expr/expr_workspace.hpp"
#include "expr/symbolic_model.hpp"
#include "expr/tape.hpp"
#include "expr/time_enclosure.hpp"
#include "odesens/model_capabilities.hpp"

namespace odesens::expr {

// Rows of functions of (t, x, p) with their gradients.
class FunctionRows {
 public:
  FunctionRows() = default;
  FunctionRows(Graph& g, const std::vector<NodeId>& rows, std::size_t nx, std::size_t np);
  std::size_t size() const { return n_rows_; }
  void values(Registers& regs, double t, const double* x, const double* p, double* out) const;
  // out_t (rows), out_x (rows x nx), out_p (rows x np), column-major; any may be null.
  void gradients(Registers& regs, double t, const double* x, const double* p, double* out_t,
                 double* out_x, double* out_p) const;
  // The gradient of one row: out_t (1), out_x (nx), out_p (np).
  void row_gradient(Registers& regs, std::size_t row, double t, const double* x, const double* p,
                    double* out_t, double* out_x, double* out_p) const;

 private:
  struct Entry {
    std::size_t row;
    Op leaf;
    std::size_t index;
  };
  std::size_t n_rows_ = 0, nx_ = 0, np_ = 0;
  Tape values_, partials_;
  std::vector<Entry> entries_;
};

class EventFunctions {
 public:
  explicit EventFunctions(SymbolicModel& model);

  // Neither events nor comparisons in f.
  bool empty() const { return events_.empty() && roots_.empty(); }
  const std::vector<EventSystem::Event>& events() const { return events_; }
  const std::vector<EventSystem::Root>& roots() const { return roots_; }
  const std::vector<std::size_t>& trigger_roots(std::size_t k) const;

  void root_values(Registers& regs, double t, const double* x, const double* p, double* g) const;
  void root_gradient(Registers& regs, std::size_t i, double t, const double* x, const double* p,
                     double* g_t, double* g_x, double* g_p) const;
  // EventSystem::root_range_over_time: false for a root that reads a state.
  bool root_range_over_time(std::size_t i, double ta, double tb, const double* p, double* lo,
                            double* hi, std::vector<Range>& scratch) const;
  void triggers(const int* sides, bool* out) const;
  double delay(Registers& regs, std::size_t k, double t, const double* x, const double* p) const;
  void delay_gradient(Registers& regs, std::size_t k, double t, const double* x, const double* p,
                      double* d_t, double* d_x, double* d_p) const;
  double priority(Registers& regs, std::size_t k, double t, const double* x,
                  const double* p) const;
  void assignment_values(Registers& regs, std::size_t k, double t, const double* x,
                         const double* p, double* values) const;
  void assignment_jacobians(Registers& regs, std::size_t k, double t, const double* x,
                            const double* p, double* h_t, double* h_x, double* h_p) const;
  // The comparisons, floors and ceils of f that are switches (root
  // indices), and f with switch i replaced by parameter np + i
  // (EventSystem::rhs_points_on_branches).
  const std::vector<std::size_t>& branch_roots() const { return branch_roots_; }
  // The comparisons, floors and ceils of f that read parameters but neither
  // t nor x (SBML's piecewise(1, k > 0, 0)): never switches during a solve,
  // yet a perturbed parameter crosses them. In the tape of f on branches
  // they are parameters np + branch_roots().size() + k; their values at a
  // point are parameter_branch_values.
  std::size_t parameter_branch_count() const { return parameter_branches_.size(); }
  void parameter_branch_values(Registers& regs, double t, const double* x, const double* p,
                               double* out) const;
  const Tape& rhs_on_branches() const { return rhs_on_branches_; }
  // The same as an adjoint tape (its adjoints are the products of f on
  // given branches; the branches' own adjoints are not read).
  const Tape& rhs_on_branches_adjoint() const { return rhs_on_branches_adjoint_; }
  // f with only the comparisons of parameters alone as parameters np + k
  // (an adjoint tape: its tangents are J_x products on those branches).
  const Tape& rhs_on_parameter_branches() const { return rhs_on_parameter_branches_; }

 private:
  // A trigger as a tree over the sides of roots: node 0 is the top.
  struct Logic {
    enum Kind { constant, comparison, logical_not, logical_and, logical_or, same, differ, select } kind;
    bool value = false;    // constant
    std::size_t root = 0;  // comparison: the root it reads
    int a = -1, b = -1, c = -1;
  };
  struct CompiledEvent {
    std::vector<Logic> logic;
    std::vector<std::size_t> roots;
    FunctionRows assignments, delay, priority;
  };

  int add_logic(Graph& g, NodeId node, CompiledEvent& event, std::size_t nx, int depth);
  // The root of g = difference (for floor and ceil: their argument) under
  // comparison; comparison_node names it in messages. Roots are shared.
  std::size_t add_root(Graph& g, NodeId difference, EventSystem::Comparison comparison,
                       NodeId comparison_node,
                       EventSystem::Root::Kind kind = EventSystem::Root::Kind::comparison);
  void collect_switches(const SymbolicModel& model);
  bool evaluate(const CompiledEvent& event, int node, const int* sides) const;

  std::vector<EventSystem::Event> events_;
  std::vector<EventSystem::Root> roots_;
  std::vector<NodeId> root_nodes_;        // g_i = a - b (floor, ceil: their argument)
  std::vector<CompiledEvent> compiled_;
  FunctionRows root_rows_;
  std::vector<TimeEnclosure> root_ranges_;  // per root; unusable where g reads a state
  // The model's names, for the roots' texts, while the constructor runs.
  const std::vector<std::string>* state_names_ = nullptr;
  const std::vector<std::string>* param_names_ = nullptr;
  std::vector<std::size_t> branch_roots_;
  FunctionRows parameter_branches_;
  Tape rhs_on_branches_, rhs_on_branches_adjoint_, rhs_on_parameter_branches_;
};

}  // namespace odesens::expr
