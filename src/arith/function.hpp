// A vector function of (t, inputs, parameters) compiled from a model's
// expressions: what the set-valued methods evaluate over polynomial models
// (poly_evaluation.hpp). Opaque to them: how it is compiled (an expression
// tape, src/expr/) stays in this layer.
#pragma once

#include <cstddef>
#include <memory>

namespace odesens::expr {
struct Tape;
}

namespace odesens::arith {

class Function {
 public:
  Function();
  explicit Function(expr::Tape tape);
  ~Function();
  Function(const Function&);
  Function& operator=(const Function&);
  Function(Function&&) noexcept;
  Function& operator=(Function&&) noexcept;

  std::size_t n_inputs() const;   // the "states" it reads
  std::size_t n_params() const;
  std::size_t n_outputs() const;
  bool empty() const { return !tape_; }
  // Products of two polynomial models of order q one evaluation makes (the
  // parameter-only part, evaluated once per solve, left out): a product of
  // two non-constant operands counts 1, a division q + 1 (the reciprocal's
  // series), an elementary function q, pow 2q + 1, powi by e about
  // log2 |e| + 1. A product of dense models costs up to n_mon^2 pairs of
  // coefficients: what the set-valued methods' work is made of.
  double polynomial_products(int order) const;
  const expr::Tape& tape() const { return *tape_; }  // for this layer

 private:
  std::shared_ptr<const expr::Tape> tape_;
};

}  // namespace odesens::arith
