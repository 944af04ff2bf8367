#include "arith/poly_evaluation.hpp"

#include <cmath>

#include "arith/model_operations.hpp"
#include "expr/evaluate_over.hpp"
#include "expr/tape.hpp"

namespace odesens::arith {

Function::Function() = default;
Function::Function(expr::Tape tape) : tape_(std::make_shared<const expr::Tape>(std::move(tape))) {}
Function::~Function() = default;
Function::Function(const Function&) = default;
Function& Function::operator=(const Function&) = default;
Function::Function(Function&&) noexcept = default;
Function& Function::operator=(Function&&) noexcept = default;
std::size_t Function::n_inputs() const { return tape_ ? tape_->nx : 0; }
std::size_t Function::n_params() const { return tape_ ? tape_->np : 0; }
std::size_t Function::n_outputs() const { return tape_ ? tape_->n_outputs : 0; }

namespace {

// Products of models that instruction `in` makes at order q.
double products_of(const expr::Instr& in, double q) {
  using expr::Op;
  const bool a_varies = in.mode(0) != expr::kSkip, b_varies = in.mode(1) != expr::kSkip;
  switch (in.op()) {
    case Op::mul:
      return a_varies && b_varies ? 1.0 : 0.0;
    case Op::div:
      return b_varies ? q + 1.0 : 0.0;
    case Op::pow:
      return a_varies || b_varies ? 2.0 * q + 1.0 : 0.0;
    case Op::powi: {
      const double e = std::fabs(static_cast<double>(in.exponent()));
      return a_varies && e > 1.0 ? std::ceil(std::log2(e)) + 1.0 : 0.0;
    }
    case Op::exp: case Op::log: case Op::log10: case Op::sqrt: case Op::sin: case Op::cos:
    case Op::tan: case Op::sinh: case Op::cosh: case Op::tanh: case Op::asin: case Op::acos:
    case Op::atan:
      return a_varies ? q : 0.0;
    default:
      return 0.0;
  }
}

}  // namespace

double Function::polynomial_products(int order) const {
  if (!tape_) return 0.0;
  double n = 0.0;
  for (std::size_t k = tape_->prefix_end; k < tape_->code.size(); ++k)
    n += products_of(tape_->code[k], static_cast<double>(order));
  return n;
}

struct PolyEvaluation::State {
  State(const expr::Tape& tape, const PolyArithmetic& arith) : ops(arith), regs(tape, ops) {}
  ModelOperations ops;
  expr::RegistersOver<ModelOperations> regs;
};

PolyEvaluation::PolyEvaluation(const Function& f, const PolyArithmetic& arith)
    : state_(std::make_unique<State>(f.tape(), arith)) {
  const expr::Tape& tape = f.tape();
  auto& regs = state_->regs;
  state_->ops.set_constant(regs.time(), 0.0);
  for (std::size_t i = 0; i < tape.nx; ++i) state_->ops.set_constant(regs.state(i), 0.0);
  for (std::size_t j = 0; j < tape.np; ++j) state_->ops.set_constant(regs.param(j), 0.0);
}
PolyEvaluation::~PolyEvaluation() = default;
PolyEvaluation::PolyEvaluation(PolyEvaluation&&) noexcept = default;
PolyEvaluation& PolyEvaluation::operator=(PolyEvaluation&&) noexcept = default;

std::size_t PolyEvaluation::n_inputs() const { return state_->regs.tape().nx; }
std::size_t PolyEvaluation::n_params() const { return state_->regs.tape().np; }
std::size_t PolyEvaluation::n_outputs() const { return state_->regs.tape().n_outputs; }

void PolyEvaluation::set_time(double t) { state_->ops.set_constant(state_->regs.time(), t); }

void PolyEvaluation::set_input(std::size_t i, const PolyModel& v) {
  state_->ops.assign(state_->regs.state(i), v);
}

void PolyEvaluation::set_params(const std::vector<PolyModel>& params) {
  for (std::size_t j = 0; j < n_params(); ++j) state_->ops.assign(state_->regs.param(j), params[j]);
}

void PolyEvaluation::evaluate_parameter_part(PolyModel* out) {
  expr::evaluate_prefix_over(state_->regs, state_->ops, out);
}

void PolyEvaluation::evaluate(PolyModel* out) {
  expr::evaluate_main_over(state_->regs, state_->ops, out);
}

}  // namespace odesens::arith
