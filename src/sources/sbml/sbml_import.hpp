// SBML text to a symbolic model (the work behind load_sbml_text).
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "expr/symbolic_model.hpp"
#include "odesens/sbml_model.hpp"

namespace odesens::expr {

// Unlike load_sbml_text, accepts a model without state variables (every
// value fixed by constants and rules); ExprModel cannot hold one, but the
// SBML Test Suite has such cases, which its harness runs with a stand-in.
SymbolicModel import_sbml(const std::string& xml, const std::string& file,
                          const SbmlOptions& options);

// What an id of an SBML model can be given per solve (for PEtab's tables).
enum class SbmlIdUse {
  parameter,      // a global parameter or compartment no rule, event or initial
                  // assignment sets: a sensitivity parameter
  initial_value,  // a species, or a value that rate rules, events or an initial
                  // assignment set: its initial value
  assigned,       // an id an assignment rule sets at every time
  other           // reactions, species references
};
// Every id of the document with its use, and where `compartments` is given
// the ids of its compartments into it; throws as import_sbml for documents
// it refuses.
std::unordered_map<std::string, SbmlIdUse> sbml_id_uses(
    const std::string& xml, const std::string& file,
    std::unordered_set<std::string>* compartments = nullptr);

}  // namespace odesens::expr
