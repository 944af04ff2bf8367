// What an ExprModel holds: the symbolic model, its derivative expressions
// and their compiled tapes. The second-order tapes (xddot and its
// Jacobians) are built on first use, under a once-flag, because they cost
// more than everything else together and only odeSD needs them; so is the
// tape of the observables, which only result post-processing reads.
#pragma once

#include <memory>
#include <mutex>

#include "expr/derivatives.hpp"
#include "expr/event_functions.hpp"
#include "expr/symbolic_model.hpp"
#include "expr/tape.hpp"
#include "odesens/expr_model.hpp"

namespace odesens {

class ExprModel::Impl {
 public:
  explicit Impl(expr::SymbolicModel model);

  struct SecondOrder {
    expr::SecondDerivatives d;
    expr::Tape xddot, xddot_jac_x, xddot_jac_p, xddot_dt;
  };
  // Thread-safe; builds on first call.
  const SecondOrder& second_order() const;
  // ExprModel::time_reading_at; under the graph's lock (second_order()
  // may be growing it on another thread).
  Model::TimeReading time_reading_at(const double* p,
                                     const std::vector<std::size_t>* columns) const;
  // Every observable at once, in the order of observable_names. Thread-safe;
  // builds on first call.
  const expr::Tape& observables_tape() const;
  // The same observables as one single-assignment tape for reverse sweeps
  // (their gradients). Thread-safe; builds on first call.
  const expr::Tape& observables_adjoint_tape() const;
  // Output k alone as such a tape: its gradient without sweeping through
  // any other output or observable, whose partials (Inf or NaN where its
  // value is undefined at the point, such as a formula dividing by a
  // parameter that is 0 there) would reach shared nodes as 0 * Inf = NaN.
  // Thread-safe; each built on first use.
  const expr::Tape& output_adjoint_tape(std::size_t k) const;
  // ExprModel::observable_switch; under the graph's lock.
  std::string observable_switch(std::size_t i) const;

  expr::SymbolicModel sym;
  expr::FirstDerivatives first;
  expr::Tape rhs;          // values, with register reuse
  expr::Tape rhs_adjoint;  // single assignment, for jvp and vjp
  expr::Tape jac_x, jac_p, x0, dx0_dp, dfdt, outputs;
  // No entry of J_x or J_p depends on t or x (f affine in x).
  bool constant_jacobians = false;
  bool rhs_reads_time = true;
  // Events and the switches of f (null when the model has neither).
  std::unique_ptr<expr::EventFunctions> events;
  // The model's named values, then states and outputs not named by it.
  std::vector<std::string> observable_names;
  std::vector<expr::NodeId> observables;

  // Held while reading sym.graph from outside the model (second_order() on
  // another thread may grow it).
  std::unique_lock<std::mutex> lock_graph() const {
    return std::unique_lock<std::mutex>(graph_mutex_);
  }

 private:
  void collect_observables();

  mutable std::once_flag second_once_, observables_once_, observables_adjoint_once_;
  mutable std::unique_ptr<std::once_flag[]> output_adjoint_once_;
  mutable std::vector<std::unique_ptr<expr::Tape>> output_adjoint_tapes_;
  mutable std::unique_ptr<SecondOrder> second_;
  mutable std::unique_ptr<expr::Tape> observables_tape_, observables_adjoint_tape_;
  // second_order() grows the graph that observables_tape() reads.
  mutable std::mutex graph_mutex_;
};

// The compiled internals of a model, for the library's own tests and tools.
const ExprModel::Impl& expr_model_internals(const ExprModel& model);

// Validates the symbolic model (sizes, names, nominal values) and builds the model.
std::shared_ptr<ExprModel> make_expr_model(expr::SymbolicModel model);

}  // namespace odesens
