// The expression engine's operations (expr/ops.def) on polynomial models:
// the arithmetic that evaluate_over runs the model's tapes with.
//
// Functions map to PolyArithmetic; what is piecewise constant (conditions,
// select, floor, ceil, factorial) must be decided over the whole box, else
// the model cannot be enclosed by one polynomial and the evaluation stops
// with Status::unbounded, naming the operation and the range.
#pragma once

#include "expr/expr_node.hpp"
#include "arith/poly_model.hpp"

namespace odesens::arith {

class ModelOperations {
 public:
  using Value = PolyModel;

  explicit ModelOperations(const PolyArithmetic& arith);

  const PolyArithmetic& arithmetic() const { return *arith_; }
  PolyModel make() const { return arith_->make(); }
  void set_constant(PolyModel& out, double c) const { arith_->set_constant(out, c); }
  void assign(PolyModel& out, const PolyModel& a) const;
  void apply(expr::Op op, const PolyModel& a, const PolyModel& b, const PolyModel& c, int n,
             PolyModel& out);

 private:
  // 1 or 0 when a op b (a comparison) holds or fails over the whole box.
  bool decide_comparison(expr::Op op, const PolyModel& a, const PolyModel& b);
  // Whether a (a condition's value) is non-zero over the whole box.
  bool decide_truth(expr::Op op, const PolyModel& a);
  void piecewise_constant(expr::Op op, const PolyModel& a, PolyModel& out);

  const PolyArithmetic* arith_;
  PolyModel difference_;  // scratch of decide_comparison
};

// True when the model is the constant c exactly (no other term, no
// remainder); sets c.
bool is_exact_constant(const PolyModel& a, double* c);

}  // namespace odesens::arith
