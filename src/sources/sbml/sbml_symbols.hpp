// The ids of an SBML model that have a value, and what determines each
// value over time (the SBML specification's rules, Level 3 Version 2
// section 4 and the Level 2 equivalents):
//
//   assigned     an assignment rule (or L2 stoichiometryMath) gives the
//                value at every time, t0 included
//   rate_state   a rate rule gives its derivative: a state of the ODE
//   amount_state a species that reactions change (not boundary, not
//                constant, no rule): a state holding its amount
//   event_state  none of the above, but events assign it: a state whose
//                value only events change (derivative 0)
//   parameter    a sensitivity parameter: p_j
//   fixed        none of these: the value at t0 (an initial assignment or
//                the attribute) for all times
//
// Reactions are symbols too: in math a reaction id stands for its rate.
// Building the table checks what the specification requires of rules
// (one per variable, not on constants, not on species that reactions change
// unless they are boundary species...) and picks the sensitivity parameters.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sources/sbml/sbml_api.hpp"

namespace odesens::expr::sbml {

enum class SymbolKind { compartment, species, parameter, species_reference, reaction };
enum class Role { fixed, parameter, assigned, rate_state, amount_state, event_state };

struct Symbol {
  std::string id;
  SymbolKind kind = SymbolKind::parameter;
  Role role = Role::fixed;
  const SBase* element = nullptr;
  const ASTNode* rule_math = nullptr;     // assignment or rate rule, stoichiometryMath
  const ASTNode* initial_math = nullptr;  // initial assignment
  const SBase* rule = nullptr;            // for messages
  const SBase* initial = nullptr;         // the initial assignment, for messages
  int state = -1;  // rate_state, amount_state
  int param = -1;  // parameter
  bool event_assigned = false;  // the target of an event assignment
  // Species: its value is an amount (hasOnlySubstanceUnits, or a
  // dimensionless compartment without size); otherwise a concentration.
  bool amount_valued = false;
};

// A reactant or product of a reaction that changes a species' amount.
struct Participation {
  int reaction;  // symbol index of the reaction
  const SpeciesReference* reference;
  double sign;   // -1 reactant, +1 product
};

struct SymbolTable {
  std::vector<Symbol> symbols;  // compartments, species, parameters, species references, reactions
  std::unordered_map<std::string, int> index;
  std::vector<int> states;      // symbol index of state k
  std::vector<int> params;      // symbol index of sensitivity parameter j
  // For each amount_state species (by symbol index), the reactions that change it.
  std::unordered_map<int, std::vector<Participation>> participations;

  // A species whose state is its amount (reactions or events change it).
  static bool amount_state(const Symbol& s) {
    return s.kind == SymbolKind::species &&
           (s.role == Role::amount_state || s.role == Role::event_state);
  }

  const Symbol* find(const std::string& id) const {
    auto it = index.find(id);
    return it == index.end() ? nullptr : &symbols[static_cast<std::size_t>(it->second)];
  }
};

// Throws Error(parse_error) for what the specification forbids and
// Error(invalid_argument) for a sensitivity parameter that cannot be one.
SymbolTable build_symbol_table(const SbmlModel& model, const std::string& file,
                               const std::optional<std::vector<std::string>>& sensitivity_params);

}  // namespace odesens::expr::sbml
