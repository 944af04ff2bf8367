// The expressions behind a model, for code inside the library that
// evaluates them in another arithmetic than doubles (the intervals and
// polynomial models of src/arith/). The public headers do not show them: a
// model is a Model to its users, whatever it is built from.
#pragma once

#include "expr/symbolic_model.hpp"
#include "odesens/model.hpp"

namespace odesens::expr {

// The model's expressions when it is an ExprModel (.ode, SBML, record()),
// null otherwise (built-in and callback models).
const SymbolicModel* symbolic_model_of(const Model& model);

}  // namespace odesens::expr
