// SBML models: an SBML document (any level and version libsbml reads)
// imported into the expression engine, so every method and every exact
// derivative works on it (see expr_model.hpp).
//
// The ODE system: the states are the species that reactions change (as
// amounts: reactions change amounts, and a concentration is amount /
// compartment size) and the compartments, parameters, species and species
// references that rate rules change (in the units the model declares).
// Assignment rules, initial assignments and function definitions become
// shared subexpressions; initial values are expressions of the parameters,
// so dx0/dp is exact. Time starts at 0 as SBML prescribes; the default end
// time is 100 (SBML gives none).
//
// Sensitivity parameters: by default every global parameter declared
// constant, with a finite value, that no initial assignment or rule sets;
// or the ids given in SbmlOptions. Everything else constant is folded.
//
// Not supported yet, rejected with Error(unsupported) naming the element
// and its id: events, algebraic rules, constraints, delays, rateOf, fast
// reactions, elements of SBML packages. Malformed models (libsbml read
// errors, unknown ids, cycles among rules, missing values) are
// Error(parse_error). Models without any state variable are
// Error(unsupported): there is nothing to integrate.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odesens/expr_model.hpp"

namespace odesens {

struct SbmlOptions {
  // SBML ids of the sensitivity parameters, in this order: global
  // parameters or compartments whose value is constant and set by no rule or
  // initial assignment. Unset: the default set described above; empty: none.
  std::optional<std::vector<std::string>> sensitivity_params;
};

// A model from SBML text; messages name `name_for_messages`.
std::shared_ptr<ExprModel> load_sbml_text(const std::string& xml,
                                          const std::string& name_for_messages,
                                          const SbmlOptions& options = {});
// A model from an SBML file: Error(unknown_model) when it does not exist,
// Error(io_error) when it cannot be read, otherwise as load_sbml_text.
std::shared_ptr<ExprModel> load_sbml_file(const std::string& path,
                                          const SbmlOptions& options = {});

// True when model text is XML (SBML) rather than .ode: its first character
// after white space and a UTF-8 byte-order mark is '<'.
bool looks_like_xml(const std::string& text);

}  // namespace odesens
