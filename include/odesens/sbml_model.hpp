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
// reactions, elements of SBML packages, and packages the document declares
// required="true" (named; comp is accepted when none of its elements is
// used, since it then changes nothing). Malformed models (libsbml read
// errors, unknown ids, cycles among rules, missing values) are
// Error(parse_error). Models without any state variable are
// Error(unsupported): there is nothing to integrate.
//
// Limits, so that hostile documents fail with an Error rather than crash
// (libsbml and the translation recurse through nested elements; at these
// limits a load needs under 0.5 MB of stack in an optimized build, so a
// thread with 1 MB is enough), each Error(unsupported) naming the limit:
// - XML elements nested at most 256 deep (checked before libsbml reads the
//   document; real models nest fewer than 20 levels);
// - math nested at most 500 levels deep, counting through the function
//   definitions it calls and the rules it refers to (real models: 72);
// - values (rules, initial assignments) referring to one another at most
//   200 deep (real models: 6);
// - function definitions calling one another at most 64 deep;
// - at most 1,000,000 expression nodes translated inside inlined function
//   bodies over the whole model (every call inlines the body again, so a
//   chain f_i(x) = f_{i-1}(x) + f_{i-1}(x) doubles at each level).
// Text is UTF-8, with or without a byte-order mark: UTF-16 and UTF-32 are
// Error(unsupported) naming the encoding, as is an XML declaration naming
// another encoding or an <!ENTITY> declaration; bytes that are not UTF-8
// are Error(parse_error) with their line and column. Files: see
// model_loader.hpp (regular files only, 64 MiB at most by default).
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
  // Species, compartments and parameters whose initial value a caller
  // chooses per solve (PEtab's condition tables): ids of state variables or
  // of values no rule sets, not sensitivity parameters. For each id, two
  // parameters are appended after the sensitivity parameters, in this
  // order: `ID@initial`, the initial value in the id's units (a species'
  // concentration unless it is amount-valued), and `ID@initial_set`: 1 to
  // use it, 0 for the model's own initial value (nominal 0). The choice
  // replaces the initial value everywhere it is read (initial assignments
  // that use it included), so dx0/dp stays exact.
  std::vector<std::string> initial_value_params;
};

// A model from SBML text; messages name `name_for_messages`.
std::shared_ptr<ExprModel> load_sbml_text(const std::string& xml,
                                          const std::string& name_for_messages,
                                          const SbmlOptions& options = {});
// A model from an SBML file: Error(unknown_model) when it does not exist,
// Error(io_error) when it cannot be read, is not a regular file or is larger
// than the size limit (model_loader.hpp), otherwise as load_sbml_text.
std::shared_ptr<ExprModel> load_sbml_file(const std::string& path,
                                          const SbmlOptions& options = {});

// True when model text is XML (SBML) rather than .ode: its first character
// after white space and a UTF-8 byte-order mark is '<'.
bool looks_like_xml(const std::string& text);

}  // namespace odesens
