// SBML text to a symbolic model (the work behind load_sbml_text).
#pragma once

#include <string>

#include "expr/symbolic_model.hpp"
#include "odesens/sbml_model.hpp"

namespace odesens::expr {

// Unlike load_sbml_text, accepts a model without state variables (every
// value fixed by constants and rules); ExprModel cannot hold one, but the
// SBML Test Suite has such cases, which its harness runs with a stand-in.
SymbolicModel import_sbml(const std::string& xml, const std::string& file,
                          const SbmlOptions& options);

}  // namespace odesens::expr
