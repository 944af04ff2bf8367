// One evaluation site of a Function over polynomial models: its register
// file and the arithmetic that runs it (the expression engine's operations
// on PolyModel, model_operations.hpp). Set the parameters, evaluate the
// part that depends on them alone once, then set t and the inputs and
// evaluate the rest as often as needed.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "arith/function.hpp"
#include "arith/poly_model.hpp"

namespace odesens::arith {

class PolyEvaluation {
 public:
  // Inputs and parameters start as the constant 0.
  PolyEvaluation(const Function& f, const PolyArithmetic& arith);
  ~PolyEvaluation();
  PolyEvaluation(PolyEvaluation&&) noexcept;
  PolyEvaluation& operator=(PolyEvaluation&&) noexcept;

  std::size_t n_inputs() const;
  std::size_t n_params() const;
  std::size_t n_outputs() const;
  void set_time(double t);
  void set_input(std::size_t i, const PolyModel& v);
  // params holds at least n_params() models.
  void set_params(const std::vector<PolyModel>& params);
  // The outputs that depend on the parameters alone, into out (n_outputs):
  // after the parameters are set, before evaluate().
  void evaluate_parameter_part(PolyModel* out);
  // The rest at the time and inputs set; out must be the array
  // evaluate_parameter_part wrote, whose parameter-only outputs it keeps.
  void evaluate(PolyModel* out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace odesens::arith
