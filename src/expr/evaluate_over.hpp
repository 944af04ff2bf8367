// Running a value tape on registers of another number type: intervals,
// polynomial models (the set-valued methods). The scalar and SIMD paths of
// tape_evaluate.hpp stay on doubles; this one is generic and interpreted,
// because each operation of such a type costs far more than the dispatch.
//
// The arithmetic supplies the type and the operations:
//   using Value = ...;
//   Value make() const;                              // storage, outside loops
//   void set_constant(Value& out, double c) const;
//   void assign(Value& out, const Value& a) const;
//   void apply(Op op, const Value& a, const Value& b, const Value& c, int n,
//              Value& out);                          // one ops.def operation
// apply() reads only the operands op has (ops.def arity; powi's exponent is
// n) and must allow out to alias an operand (value tapes reuse registers).
#pragma once

#include <cstddef>
#include <vector>

#include "expr/tape.hpp"

namespace odesens::expr {

// The register file of one tape for one arithmetic: constants are set once
// here; inputs (t, states, parameters) by the caller through time(),
// state() and param().
template <class Arithmetic>
class RegistersOver {
 public:
  using Value = typename Arithmetic::Value;

  RegistersOver(const Tape& tape, const Arithmetic& arith)
      : tape_(&tape), regs_(tape.n_registers, arith.make()) {
    const std::size_t first = 1 + tape.nx + tape.np;
    for (std::size_t k = 0; k < tape.constants.size(); ++k)
      arith.set_constant(regs_[first + k], tape.constants[k]);
  }

  const Tape& tape() const { return *tape_; }
  Value& time() { return regs_[0]; }
  Value& state(std::size_t i) { return regs_[1 + i]; }
  Value& param(std::size_t j) { return regs_[1 + tape_->nx + j]; }
  Value* data() { return regs_.data(); }

 private:
  const Tape* tape_;
  std::vector<Value> regs_;
};

namespace detail {

template <class Arithmetic>
void run_over(const Tape& tape, Arithmetic& arith, typename Arithmetic::Value* r,
              std::size_t begin, std::size_t end, typename Arithmetic::Value* out) {
  for (std::size_t k = begin; k < end; ++k) {
    const Instr& in = tape.code[k];
    const Op op = in.op();
    if (op == Op::store) {
      arith.assign(out[in.dst], r[in.a]);
      continue;
    }
    const int n_operands = arity(op);
    const auto& a = r[in.a];
    // Operands op does not have may hold any index: alias them to a.
    const auto& b = n_operands >= 2 ? r[in.b] : a;
    const auto& c = n_operands >= 3 ? r[in.c] : a;
    arith.apply(op, a, b, c, op == Op::powi ? in.exponent() : 0, r[in.dst]);
  }
}

}  // namespace detail

// The parameter-only prefix of the tape, once per set of parameter values:
// its results stay in the registers for evaluate_main_over.
template <class Arithmetic>
void evaluate_prefix_over(RegistersOver<Arithmetic>& regs, Arithmetic& arith,
                          typename Arithmetic::Value* out) {
  detail::run_over(regs.tape(), arith, regs.data(), 0, regs.tape().prefix_end, out);
}

// The rest of the tape at the time and states already in the registers.
// out has the tape's n_outputs values and must be the array the prefix
// wrote to: outputs that depend on parameters only are stored by the prefix.
template <class Arithmetic>
void evaluate_main_over(RegistersOver<Arithmetic>& regs, Arithmetic& arith,
                        typename Arithmetic::Value* out) {
  detail::run_over(regs.tape(), arith, regs.data(), regs.tape().prefix_end,
                   regs.tape().code.size(), out);
}

}  // namespace odesens::expr
