#include "sources/sbml/sbml_symbols.hpp"

#include <cmath>

#include "sources/sbml/sbml_document.hpp"
#include "odesens/status.hpp"

namespace odesens::expr::sbml {
namespace {

const char* kind_name(SymbolKind k) {
  switch (k) {
    case SymbolKind::compartment: return "compartment";
    case SymbolKind::species: return "species";
    case SymbolKind::parameter: return "parameter";
    case SymbolKind::species_reference: return "species reference";
    case SymbolKind::reaction: return "reaction";
  }
  return "?";
}

class TableBuilder {
 public:
  TableBuilder(const SbmlModel& m, const std::string& file) : m_(m), file_(file) {}

  SymbolTable run(const std::optional<std::vector<std::string>>& sensitivity_params) {
    declare();
    read_rules();
    read_stoichiometry_math();
    read_initial_assignments();
    read_reactions();
    read_event_assignments();
    classify_species();
    number_states();
    choose_parameters(sensitivity_params);
    return std::move(t_);
  }

 private:
  [[noreturn]] void fail(const SBase* at, const std::string& message) const {
    throw Error(Status::parse_error, where(file_, at) + message);
  }

  Symbol& symbol(const std::string& id) { return t_.symbols[static_cast<std::size_t>(t_.index.at(id))]; }

  void add(const SBase& e, SymbolKind kind) {
    if (!e.isSetId() || e.getId().empty()) fail(&e, describe(e) + " has no id");
    const std::string& id = e.getId();
    if (t_.index.count(id))
      fail(&e, "the id '" + id + "' is used twice (" + kind_name(symbol(id).kind) + " and " +
                   kind_name(kind) + ")");
    Symbol s;
    s.id = id;
    s.kind = kind;
    s.element = &e;
    t_.index.emplace(id, static_cast<int>(t_.symbols.size()));
    t_.symbols.push_back(std::move(s));
  }

  template <class List>
  void add_references(const List* list) {
    for (unsigned k = 0; k < list->size(); ++k) {
      const SBase* r = list->get(k);
      if (r->isSetId() && !r->getId().empty()) add(*r, SymbolKind::species_reference);
    }
  }

  void declare() {
    for (unsigned i = 0; i < m_.getNumCompartments(); ++i)
      add(*m_.getCompartment(i), SymbolKind::compartment);
    for (unsigned i = 0; i < m_.getNumSpecies(); ++i) add(*m_.getSpecies(i), SymbolKind::species);
    for (unsigned i = 0; i < m_.getNumParameters(); ++i)
      add(*m_.getParameter(i), SymbolKind::parameter);
    for (unsigned i = 0; i < m_.getNumReactions(); ++i) {
      const Reaction* r = m_.getReaction(i);
      add(*r, SymbolKind::reaction);
      add_references(r->getListOfReactants());
      add_references(r->getListOfProducts());
    }
  }

  bool declared_constant(const Symbol& s) const {
    switch (s.kind) {
      case SymbolKind::compartment:
        return static_cast<const Compartment*>(s.element)->getConstant();
      case SymbolKind::species: return static_cast<const Species*>(s.element)->getConstant();
      case SymbolKind::parameter:
        return static_cast<const Parameter*>(s.element)->getConstant();
      case SymbolKind::species_reference: {
        const auto* r = static_cast<const SpeciesReference*>(s.element);
        return r->getLevel() >= 3 && r->getConstant();
      }
      case SymbolKind::reaction: return false;
    }
    return false;
  }

  Symbol& target(const SBase* at, const std::string& id, const std::string& what) {
    if (!t_.index.count(id)) fail(at, what + " sets '" + id + "', which is not a compartment, " +
                                          "species, parameter or species reference");
    Symbol& s = symbol(id);
    if (s.kind == SymbolKind::reaction)
      fail(at, what + " sets '" + id + "', which is a reaction");
    return s;
  }

  void read_rules() {
    for (unsigned i = 0; i < m_.getNumRules(); ++i) {
      const Rule* r = m_.getRule(i);
      if (r->isAlgebraic() || !r->isSetMath()) continue;  // algebraic: rejected before; no math: no effect
      const std::string what = std::string(r->isAssignment() ? "the assignment rule" : "the rate rule") +
                               " for '" + r->getVariable() + "'";
      Symbol& s = target(r, r->getVariable(), what);
      if (s.rule_math) fail(r, "'" + s.id + "' has more than one rule");
      if (declared_constant(s))
        fail(r, what + ": '" + s.id + "' is declared constant, so no rule may change it");
      s.rule_math = r->getMath();
      s.rule = r;
      s.role = r->isAssignment() ? Role::assigned : Role::rate_state;
    }
  }

  // Level 2 stoichiometryMath of a species reference with an id acts as its
  // assignment rule (one without an id is read where it is used).
  void read_stoichiometry_math() {
    for (auto& s : t_.symbols) {
      if (s.kind != SymbolKind::species_reference) continue;
      const auto* r = static_cast<const SpeciesReference*>(s.element);
      if (!r->isSetStoichiometryMath() || !r->getStoichiometryMath()->isSetMath()) continue;
      if (s.rule_math) fail(r, "'" + s.id + "' has both stoichiometryMath and a rule");
      s.rule_math = r->getStoichiometryMath()->getMath();
      s.rule = r;
      s.role = Role::assigned;
    }
  }

  void read_initial_assignments() {
    for (unsigned i = 0; i < m_.getNumInitialAssignments(); ++i) {
      const InitialAssignment* a = m_.getInitialAssignment(i);
      if (!a->isSetMath()) continue;  // no math: no effect
      const std::string what = "the initial assignment to '" + a->getSymbol() + "'";
      Symbol& s = target(a, a->getSymbol(), what);
      if (s.initial_math) fail(a, "'" + s.id + "' has more than one initial assignment");
      if (s.role == Role::assigned)
        fail(a, what + ": '" + s.id + "' also has an assignment rule");
      s.initial_math = a->getMath();
      s.initial = a;
    }
  }

  template <class List>
  void participate(int reaction, const List* list, double sign) {
    for (unsigned k = 0; k < list->size(); ++k) {
      const auto* ref = static_cast<const SpeciesReference*>(list->get(k));
      const std::string& id = ref->getSpecies();
      if (!t_.index.count(id) || symbol(id).kind != SymbolKind::species)
        fail(ref, describe(*t_.symbols[static_cast<std::size_t>(reaction)].element) +
                      " refers to '" + id + "', which is not a species");
      Symbol& s = symbol(id);
      const auto* sp = static_cast<const Species*>(s.element);
      if (sp->getBoundaryCondition()) continue;  // reactions do not change boundary species
      if (sp->getConstant())
        fail(ref, "species '" + id + "' is constant and not a boundary species, so it cannot be " +
                      "a reactant or product (" +
                      describe(*t_.symbols[static_cast<std::size_t>(reaction)].element) + ")");
      if (s.rule_math)
        fail(ref, "species '" + id + "' is set by a rule and changed by " +
                      describe(*t_.symbols[static_cast<std::size_t>(reaction)].element) +
                      "; SBML requires boundaryCondition=\"true\" for that");
      s.role = Role::amount_state;
      t_.participations[t_.index.at(id)].push_back({reaction, ref, sign});
    }
  }

  void read_reactions() {
    for (unsigned i = 0; i < m_.getNumReactions(); ++i) {
      const Reaction* r = m_.getReaction(i);
      const int reaction = t_.index.at(r->getId());
      participate(reaction, r->getListOfReactants(), -1.0);
      participate(reaction, r->getListOfProducts(), +1.0);
    }
  }

  // What events assign becomes a state (if nothing else made it one).
  void read_event_assignments() {
    for (unsigned i = 0; i < m_.getNumEvents(); ++i) {
      const Event* e = m_.getEvent(i);
      for (unsigned k = 0; k < e->getNumEventAssignments(); ++k) {
        const EventAssignment* a = e->getEventAssignment(k);
        const std::string what = describe(*e) + ": the assignment to '" + a->getVariable() + "'";
        Symbol& s = target(a, a->getVariable(), what);
        if (declared_constant(s))
          fail(a, what + ": '" + s.id + "' is declared constant, so no event may change it");
        if (s.role == Role::assigned)
          fail(a, what + ": '" + s.id + "' is set by an assignment rule at all times");
        s.event_assigned = true;
        if (s.role == Role::fixed) s.role = Role::event_state;
      }
    }
  }

  bool has_size(const Symbol& c) const {
    const auto* comp = static_cast<const Compartment*>(c.element);
    return comp->isSetSize() || c.initial_math || c.rule_math || comp->getLevel() == 1;
  }

  void classify_species() {
    for (auto& s : t_.symbols) {
      if (s.kind != SymbolKind::species) continue;
      const auto* sp = static_cast<const Species*>(s.element);
      const std::string& c = sp->getCompartment();
      if (!t_.index.count(c) || symbol(c).kind != SymbolKind::compartment)
        fail(sp, "species '" + s.id + "' is in '" + c + "', which is not a compartment");
      const Symbol& comp = symbol(c);
      const auto* ce = static_cast<const Compartment*>(comp.element);
      // A species in a dimensionless compartment without a size has no
      // concentration: its value is its amount.
      s.amount_valued = sp->getHasOnlySubstanceUnits() ||
                        (ce->getSpatialDimensionsAsDouble() == 0.0 && !has_size(comp));
      const std::string& factor = sp->getConversionFactor();
      if (!factor.empty() && (!t_.index.count(factor) || symbol(factor).kind != SymbolKind::parameter))
        fail(sp, "the conversion factor '" + factor + "' of species '" + s.id + "' is not a parameter");
    }
  }

  void number_states() {
    for (std::size_t i = 0; i < t_.symbols.size(); ++i) {
      Symbol& s = t_.symbols[i];
      if (s.kind == SymbolKind::species && (s.role == Role::amount_state || s.role == Role::rate_state)) {
        s.state = static_cast<int>(t_.states.size());
        t_.states.push_back(static_cast<int>(i));
      }
    }
    for (unsigned i = 0; i < m_.getNumRules(); ++i) {
      const Rule* r = m_.getRule(i);
      if (!r->isRate() || !r->isSetMath()) continue;
      Symbol& s = symbol(r->getVariable());
      if (s.state >= 0) continue;
      s.state = static_cast<int>(t_.states.size());
      t_.states.push_back(t_.index.at(s.id));
    }
    for (std::size_t i = 0; i < t_.symbols.size(); ++i) {
      Symbol& s = t_.symbols[i];
      if (s.role != Role::event_state || s.state >= 0) continue;
      s.state = static_cast<int>(t_.states.size());
      t_.states.push_back(static_cast<int>(i));
    }
  }

  // Why symbol s cannot be a sensitivity parameter, or "" when it can.
  std::string not_a_parameter(const Symbol& s) const {
    if (s.kind != SymbolKind::parameter && s.kind != SymbolKind::compartment)
      return std::string("it is a ") + kind_name(s.kind) +
             "; only global parameters and compartments can be";
    if (s.role == Role::event_state) return "an event sets it";
    if (s.role != Role::fixed) return "a rule sets it";
    if (s.initial_math) return "an initial assignment sets it";
    double value = NAN;
    if (s.kind == SymbolKind::parameter) {
      const auto* p = static_cast<const Parameter*>(s.element);
      if (!p->isSetValue()) return "it has no value";
      value = p->getValue();
    } else {
      const auto* c = static_cast<const Compartment*>(s.element);
      if (!c->isSetSize()) return "it has no size";
      value = c->getSize();
    }
    if (!std::isfinite(value)) return "its value is not finite";
    return "";
  }

  void make_parameter(Symbol& s) {
    s.role = Role::parameter;
    s.param = static_cast<int>(t_.params.size());
    t_.params.push_back(t_.index.at(s.id));
  }

  void choose_parameters(const std::optional<std::vector<std::string>>& requested) {
    if (!requested) {
      for (auto& s : t_.symbols)
        if (s.kind == SymbolKind::parameter && not_a_parameter(s).empty())
          make_parameter(s);
      return;
    }
    for (const auto& id : *requested) {
      if (!t_.index.count(id))
        throw Error(Status::invalid_argument,
                    "sensitivity parameter '" + id + "': the model has no such id");
      Symbol& s = symbol(id);
      if (s.role == Role::parameter)
        throw Error(Status::invalid_argument, "sensitivity parameter '" + id + "' is listed twice");
      const std::string why = not_a_parameter(s);
      if (!why.empty())
        throw Error(Status::invalid_argument,
                    "'" + id + "' cannot be a sensitivity parameter: " + why);
      make_parameter(s);
    }
  }

  const SbmlModel& m_;
  const std::string& file_;
  SymbolTable t_;
};

}  // namespace

SymbolTable build_symbol_table(const SbmlModel& model, const std::string& file,
                               const std::optional<std::vector<std::string>>& sensitivity_params) {
  return TableBuilder(model, file).run(sensitivity_params);
}

}  // namespace odesens::expr::sbml
