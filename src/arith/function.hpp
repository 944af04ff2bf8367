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
  const expr::Tape& tape() const { return *tape_; }  // for this layer

 private:
  std::shared_ptr<const expr::Tape> tape_;
};

}  // namespace odesens::arith
