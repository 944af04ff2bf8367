// The SBML model as an ODE system in the expression graph (sbml_symbols.hpp
// says which id is what). Every value has two expressions:
//   initial  its value at t0 = 0, an expression of the parameters only: the
//            initial assignments and assignment rules solved together, in
//            the order their dependencies require, time read as 0;
//   dynamic  its value at time t, an expression of (t, x, p).
// Both are built on demand and memoized, so every rule is one shared
// subexpression; a symbol met again while its own value is being built is
// a cycle, which SBML forbids.
#include "sources/sbml/sbml_import.hpp"

#include <cmath>
#include <limits>
#include <unordered_map>

#include "expr/differentiate.hpp"
#include "sources/sbml/sbml_document.hpp"
#include "sources/sbml/sbml_math.hpp"
#include "sources/sbml/sbml_symbols.hpp"
#include "sources/sbml/sbml_text.hpp"
#include "odesens/status.hpp"

namespace odesens::expr {
namespace {

using namespace sbml;

// A value that the model leaves undefined (no attribute, no assignment).
// Fatal where the value is needed; an observable without a value is left out.
struct UndefinedValue : Error {
  explicit UndefinedValue(const std::string& message) : Error(Status::parse_error, message) {}
};

enum Context { kInitial = 0, kDynamic = 1 };

// Nesting of values within values beyond which the import gives up rather
// than risk the stack (real models nest a few levels: 6 at most in the SBML
// Test Suite and the real models of ../shared). Each level takes about
// 1.2 KB of stack on top of the math that refers to it (sbml_math.hpp):
// 200 levels with 500 levels of math are 0.35 MB in an optimized build.
constexpr std::size_t kMaxNesting = 200;

class Importer {
 public:
  Importer(SbmlModel& model, const std::string& file, SymbolTable table,
           const std::vector<std::string>& initial_value_params)
      : m_(model), file_(file), t_(std::move(table)), math_(out_.graph, model, file),
        initial_value_ids_(initial_value_params) {
    for (auto& v : memo_) v.assign(t_.symbols.size(), kNoNode);
    for (auto& b : busy_) b.assign(t_.symbols.size(), 0);
  }

  SymbolicModel run() {
    out_.name = file_;
    out_.t0 = 0.0;
    out_.t_end = 100.0;
    build_parameters();
    build_states();
    build_events();
    check_every_definition();
    build_observables();
    describe_source();
    return std::move(out_);
  }

 private:
  Graph& g() { return out_.graph; }
  const Symbol& sym(int i) const { return t_.symbols[static_cast<std::size_t>(i)]; }
  int index_of(const std::string& id) const { return t_.index.at(id); }

  [[noreturn]] void undefined(const Symbol& s, const std::string& what) {
    std::string message = where(file_, s.element) + what;
    if (!wheres_.empty()) message += " (needed by " + wheres_.back() + ")";
    throw UndefinedValue(message);
  }

  NodeId time(Context c) { return c == kInitial ? g().constant(0.0) : g().time(); }

  // Math in context c; names resolve through `local` first (kinetic-law
  // parameters), then to the model's values in the same context.
  NodeId translate(const ASTNode* math, Context c, const SBase* element,
                   const std::string& where_text,
                   const std::unordered_map<std::string, NodeId>* local = nullptr) {
    Scope scope;
    scope.time = time(c);
    scope.where = where_text;
    scope.element = element;
    scope.resolve = [this, c, local, element, &where_text](const std::string& id) -> NodeId {
      if (local) {
        auto it = local->find(id);
        if (it != local->end()) return it->second;
      }
      auto it = t_.index.find(id);
      if (it != t_.index.end()) return value(it->second, c);
      const bool is_function = m_.getFunctionDefinition(id) != nullptr;
      throw Error(Status::parse_error,
                  where(file_, element) + where_text + ": " +
                      (is_function ? "function '" + id + "' is used as a value"
                                   : "unknown id '" + id + "'"));
    };
    scope.rate_of = [this, c, local, element, &where_text](const std::string& id) -> NodeId {
      if (local && local->count(id)) return g().constant(0.0);  // a kinetic law's constant
      auto it = t_.index.find(id);
      if (it == t_.index.end())
        throw Error(Status::parse_error,
                    where(file_, element) + where_text + ": rateOf of unknown id '" + id + "'");
      return rate_of(it->second, c);
    };
    wheres_.push_back(where_text);
    const NodeId r = math_.translate(math, scope);
    wheres_.pop_back();
    return r;
  }

  NodeId value(int i, Context c) {
    const auto k = static_cast<std::size_t>(i);
    if (memo_[c][k] != kNoNode) return memo_[c][k];
    if (busy_[c][k]) cycle(i);
    if (stack_.size() >= kMaxNesting)
      throw Error(Status::unsupported,
                  file_ + ": values nested more than " + std::to_string(kMaxNesting) +
                      " levels deep (rules and initial assignments that refer to one another, "
                      "from '" + sym(stack_.front()).id + "' to '" + sym(i).id + "')");
    busy_[c][k] = 1;
    stack_.push_back(i);
    const std::size_t wheres = wheres_.size();
    try {
      memo_[c][k] = compute(sym(i), c);
    } catch (...) {  // leave no symbol marked busy: observables go on after an UndefinedValue
      busy_[c][k] = 0;
      stack_.pop_back();
      wheres_.resize(wheres);
      throw;
    }
    busy_[c][k] = 0;
    stack_.pop_back();
    return memo_[c][k];
  }

  [[noreturn]] void cycle(int i) {
    std::string path;
    bool in_cycle = false;
    for (int j : stack_) {
      in_cycle = in_cycle || j == i;
      if (in_cycle) path += sym(j).id + " -> ";
    }
    throw Error(Status::parse_error, where(file_, sym(i).element) +
                                         "rules and initial assignments form a cycle: " + path +
                                         sym(i).id);
  }

  NodeId compute(const Symbol& s, Context c) {
    if (c == kInitial) {
      auto chosen = initial_value_params_.find(s.id);
      if (chosen != initial_value_params_.end()) return chosen_initial_value(s, chosen->second);
    }
    return compute_value(s, c);
  }

  // select(ID@initial_set, ID@initial, the model's initial value); a model
  // without an initial value of its own gets NaN there, so that forgetting
  // to choose one shows in the states.
  NodeId chosen_initial_value(const Symbol& s, int value_param) {
    NodeId own;
    try {
      own = compute_value(s, kInitial);
    } catch (const UndefinedValue&) {
      own = g().constant(std::numeric_limits<double>::quiet_NaN());
    }
    return g().select(g().param(value_param + 1), g().param(value_param), own);
  }

  NodeId compute_value(const Symbol& s, Context c) {
    if (s.kind == SymbolKind::reaction) return rate(s, c);
    switch (s.role) {
      case Role::parameter: return g().param(s.param);
      case Role::assigned: return translate(s.rule_math, c, s.rule, rule_where(s));
      case Role::rate_state:
        if (c == kDynamic) return g().state(s.state);
        break;
      case Role::event_state:
        if (c == kDynamic) {
          const NodeId v = g().state(s.state);
          return SymbolTable::amount_state(s) && !s.amount_valued ? g().div(v, size(s, c)) : v;
        }
        break;
      case Role::amount_state:
        if (c == kDynamic) {
          const NodeId amount = g().state(s.state);
          return s.amount_valued ? amount : g().div(amount, size(s, c));
        }
        break;
      case Role::fixed:
        if (c != kDynamic) break;
        // A species nothing changes keeps its amount; in a compartment whose
        // size changes, its concentration follows the size.
        if (s.kind == SymbolKind::species && !s.amount_valued)
          return g().div(amount(index_of(s.id), kInitial), size(s, kDynamic));
        return value(index_of(s.id), kInitial);
    }
    if (s.initial_math)
      return translate(s.initial_math, kInitial, s.initial,
                       "the initial assignment to '" + s.id + "'");
    return attribute(s);
  }

  std::string rule_where(const Symbol& s) const {
    if (s.rule && s.rule->getTypeCode() == SBML_SPECIES_REFERENCE)
      return "the stoichiometryMath of '" + s.id + "'";
    const bool rate_rule = s.role == Role::rate_state;
    return std::string(rate_rule ? "the rate rule" : "the assignment rule") + " for '" + s.id + "'";
  }

  // The value the element's attributes give at t0.
  NodeId attribute(const Symbol& s) {
    switch (s.kind) {
      case SymbolKind::compartment: {
        const auto* c = static_cast<const Compartment*>(s.element);
        if (c->isSetSize() || c->getLevel() == 1) return g().constant(c->getSize());
        undefined(s, "compartment '" + s.id + "' has no size");
      }
      case SymbolKind::parameter: {
        const auto* p = static_cast<const Parameter*>(s.element);
        if (p->isSetValue()) return g().constant(p->getValue());
        undefined(s, "parameter '" + s.id + "' has no value");
      }
      case SymbolKind::species_reference:
        return stoichiometry_attribute(static_cast<const SpeciesReference*>(s.element));
      case SymbolKind::species: {
        const auto* sp = static_cast<const Species*>(s.element);
        // SBML allows one of the two (rule 20609): with both, which one the
        // author meant is unknowable.
        if (sp->isSetInitialAmount() && sp->isSetInitialConcentration())
          throw Error(Status::parse_error,
                      where(file_, sp) + "species '" + s.id +
                          "' sets both initialAmount and initialConcentration (SBML allows one)");
        if (sp->isSetInitialAmount()) {
          const NodeId n = g().constant(sp->getInitialAmount());
          return s.amount_valued ? n : g().div(n, size(s, kInitial));
        }
        if (sp->isSetInitialConcentration()) {
          const NodeId conc = g().constant(sp->getInitialConcentration());
          return s.amount_valued ? g().mul(conc, size(s, kInitial)) : conc;
        }
        undefined(s, "species '" + s.id + "' has no initial amount or concentration");
      }
      case SymbolKind::reaction: break;
    }
    throw Error(Status::internal_error, "attribute of a reaction");
  }

  NodeId stoichiometry_attribute(const SpeciesReference* r) {
    if (r->getLevel() >= 3) {
      if (r->isSetStoichiometry()) return g().constant(r->getStoichiometry());
      Symbol s;
      s.id = r->getSpecies();
      s.element = r;
      undefined(s, "the stoichiometry of species '" + r->getSpecies() + "' in " +
                       describe(*r->getAncestorOfType(SBML_REACTION)) + " is not set");
    }
    return g().constant(r->getStoichiometry() / static_cast<double>(r->getDenominator()));
  }

  NodeId stoichiometry(const SpeciesReference* r, Context c) {
    if (r->isSetId() && !r->getId().empty()) return value(index_of(r->getId()), c);
    if (r->isSetStoichiometryMath() && r->getStoichiometryMath()->isSetMath())
      return translate(r->getStoichiometryMath()->getMath(), c, r,
                       "the stoichiometryMath of species '" + r->getSpecies() + "' in " +
                           describe(*r->getAncestorOfType(SBML_REACTION)));
    return stoichiometry_attribute(r);
  }

  NodeId size(const Symbol& species, Context c) {
    return value(index_of(static_cast<const Species*>(species.element)->getCompartment()), c);
  }

  NodeId amount(int i, Context c) {
    const Symbol& s = sym(i);
    if (c == kDynamic && SymbolTable::amount_state(s)) return g().state(s.state);
    const NodeId v = value(i, c);
    return s.amount_valued ? v : g().mul(v, size(s, c));
  }

  NodeId concentration(int i, Context c) {
    const Symbol& s = sym(i);
    const NodeId v = value(i, c);
    return s.amount_valued ? g().div(v, size(s, c)) : v;
  }

  // A reaction's rate (extent per time): its kinetic law with the local
  // parameters in scope. No kinetic law, or one without math, has no effect.
  NodeId rate(const Symbol& s, Context c) {
    const auto* r = static_cast<const Reaction*>(s.element);
    if (!r->isSetKineticLaw() || !r->getKineticLaw()->isSetMath()) return g().constant(0.0);
    const KineticLaw* law = r->getKineticLaw();
    std::unordered_map<std::string, NodeId> local;
    auto add_local = [&](const SBase& p, bool set, double v) {
      if (!set)
        throw Error(Status::parse_error, where(file_, &p) + "local parameter '" + p.getId() +
                                             "' of reaction '" + s.id + "' has no value");
      local[p.getId()] = g().constant(v);
    };
    if (law->getLevel() >= 3) {
      for (unsigned k = 0; k < law->getNumLocalParameters(); ++k) {
        const LocalParameter* p = law->getLocalParameter(k);
        add_local(*p, p->isSetValue(), p->getValue());
      }
    } else {
      for (unsigned k = 0; k < law->getNumParameters(); ++k) {
        const Parameter* p = law->getParameter(k);
        add_local(*p, p->isSetValue(), p->getValue());
      }
    }
    return translate(law->getMath(), c, law, "the kinetic law of reaction '" + s.id + "'",
                     &local);
  }

  // d(amount)/dt of a species that reactions change: the sum over its
  // reactions of stoichiometry x rate, scaled by its conversion factor.
  NodeId reaction_rhs(int i, Context c = kDynamic) {
    const auto* sp = static_cast<const Species*>(sym(i).element);
    NodeId sum = g().constant(0.0);
    for (const Participation& p : t_.participations.at(i)) {
      const NodeId term =
          g().mul(stoichiometry(p.reference, c), value(p.reaction, c));
      sum = p.sign > 0 ? g().add(sum, term) : g().sub(sum, term);
    }
    const std::string& factor = sp->isSetConversionFactor() ? sp->getConversionFactor()
                                : m_.isSetConversionFactor() ? m_.getConversionFactor()
                                                              : std::string();
    if (factor.empty()) return sum;
    if (!t_.index.count(factor))
      throw Error(Status::parse_error, where(file_, sp) + "unknown conversion factor '" + factor + "'");
    return g().mul(sum, value(index_of(factor), c));
  }

  // The rateOf csymbol: the time derivative of id's value along the
  // solution, in context c. States: their right-hand side (a species'
  // concentration from its amount and its compartment's rate); values of
  // assignment rules: the chain rule through t and the states (dynamic
  // context only); everything else is constant between events: 0.
  NodeId rate_of(int i, Context c) {
    const auto key = static_cast<std::size_t>(i) * 2 + c;
    if (auto it = rate_memo_.find(key); it != rate_memo_.end()) {
      if (it->second == kNoNode)
        throw Error(Status::parse_error, where(file_, sym(i).element) + "rateOf('" + sym(i).id +
                                             "') depends on itself");
      return it->second;
    }
    rate_memo_[key] = kNoNode;  // busy
    const NodeId r = compute_rate(sym(i), c);
    rate_memo_[key] = r;
    return r;
  }

  NodeId compute_rate(const Symbol& s, Context c) {
    const int i = index_of(s.id);
    switch (s.role) {
      case Role::amount_state: {
        const NodeId amount_rate = reaction_rhs(i, c);
        if (s.amount_valued) return amount_rate;
        const int compartment = index_of(static_cast<const Species*>(s.element)->getCompartment());
        // d(n/V)/dt = (n' - (n/V) V') / V
        return g().div(g().sub(amount_rate, g().mul(value(i, c), rate_of(compartment, c))),
                       size(s, c));
      }
      case Role::rate_state: return translate(s.rule_math, c, s.rule, rule_where(s));
      case Role::assigned: {
        if (c == kInitial)
          throw Error(Status::unsupported,
                      where(file_, s.rule) + "rateOf('" + s.id +
                          "') at the initial time: the rate of a value given by an assignment "
                          "rule is only supported during the simulation");
        GradientWorkspace ws;
        NodeId sum = g().constant(0.0);
        const NodeId v = value(i, kDynamic);
        for (const Partial& d : gradient(g(), v, ws)) {
          if (d.leaf == Op::time) sum = g().add(sum, d.derivative);
          if (d.leaf == Op::state)
            sum = g().add(sum, g().mul(d.derivative, state_rate(d.index, kDynamic)));
        }
        return sum;
      }
      default:
        // A species nothing but events changes keeps its amount; its
        // concentration follows its compartment: -(n/V) V' / V.
        if (s.kind == SymbolKind::species && !s.amount_valued) {
          const int compartment =
              index_of(static_cast<const Species*>(s.element)->getCompartment());
          return g().neg(g().div(g().mul(value(i, c), rate_of(compartment, c)), size(s, c)));
        }
        return g().constant(0.0);
    }
  }

  // d x_k/dt: the right-hand side of state k.
  NodeId state_rate(int k, Context c) {
    const int i = t_.states[static_cast<std::size_t>(k)];
    const Symbol& s = sym(i);
    if (s.role == Role::amount_state) return reaction_rhs(i, c);
    if (s.role == Role::rate_state) return translate(s.rule_math, c, s.rule, rule_where(s));
    return g().constant(0.0);
  }

  void build_parameters() {
    for (int i : t_.params) {
      const Symbol& s = sym(i);
      out_.param_names.push_back(s.id);
      out_.nominal_params.push_back(
          s.kind == SymbolKind::parameter
              ? static_cast<const Parameter*>(s.element)->getValue()
              : static_cast<const Compartment*>(s.element)->getSize());
    }
    for (const std::string& id : initial_value_ids_) add_initial_value_params(id);
  }

  // SbmlOptions::initial_value_params: ID@initial (nominal 0) and
  // ID@initial_set (nominal 0: the model's own value).
  void add_initial_value_params(const std::string& id) {
    const Symbol* s = t_.find(id);
    std::string why;
    if (!s) why = "the model has no such id";
    else if (s->kind == SymbolKind::reaction || s->kind == SymbolKind::species_reference)
      why = "it is not a species, compartment or parameter";
    else if (s->role == Role::parameter) why = "it is a sensitivity parameter";
    else if (s->role == Role::assigned) why = "an assignment rule sets it at every time";
    else if (initial_value_params_.count(id)) why = "it is listed twice";
    if (!why.empty())
      throw Error(Status::invalid_argument,
                  "initial value parameter for '" + id + "': " + why);
    initial_value_params_[id] = static_cast<int>(out_.param_names.size());
    out_.param_names.push_back(id + "@initial");
    out_.nominal_params.push_back(0.0);
    out_.param_names.push_back(id + "@initial_set");
    out_.nominal_params.push_back(0.0);
  }

  void build_states() {
    for (int i : t_.states) {
      const Symbol& s = sym(i);
      out_.state_names.push_back(s.id);
      if (s.role == Role::amount_state) {
        out_.x0.push_back(amount(i, kInitial));
        out_.rhs.push_back(reaction_rhs(i));
      } else if (s.role == Role::event_state) {
        out_.x0.push_back(SymbolTable::amount_state(s) ? amount(i, kInitial) : value(i, kInitial));
        out_.rhs.push_back(g().constant(0.0));
      } else {
        out_.x0.push_back(value(i, kInitial));
        out_.rhs.push_back(translate(s.rule_math, kDynamic, s.rule, rule_where(s)));
      }
    }
  }

  // Math of an event's part; kNoNode where Level 3 Version 2 lets it be
  // absent (the part then has no effect), an error where it is required.
  NodeId event_math(const ASTNode* math, const SBase* element, const std::string& what) {
    if (math) return translate(math, kDynamic, element, what);
    if (m_.getLevel() == 3 && m_.getVersion() >= 2) return kNoNode;
    throw Error(Status::parse_error, where(file_, element) + what + " has no math");
  }

  // SBML events (Level 3 semantics; Level 2 events behave as Level 3 ones
  // with initialValue, persistent and useValuesFromTriggerTime true).
  void build_events() {
    for (unsigned i = 0; i < m_.getNumEvents(); ++i) {
      const Event* e = m_.getEvent(i);
      SymbolicEvent ev;
      ev.id = e->isSetId() && !e->getId().empty() ? e->getId()
                                                  : "event #" + std::to_string(i + 1);
      const std::string name = "event '" + ev.id + "'";
      const Trigger* trigger = e->getTrigger();
      if (!trigger && !(m_.getLevel() == 3 && m_.getVersion() >= 2))
        throw Error(Status::parse_error, where(file_, e) + name + " has no trigger");
      ev.trigger = trigger ? event_math(trigger->getMath(), trigger, "the trigger of " + name)
                           : kNoNode;
      if (ev.trigger == kNoNode) ev.trigger = g().constant(0.0);  // never fires
      // A number as a trigger is true where it is not zero (the SBML Test
      // Suite expects it; the .ode format asks for a condition).
      if (e->getLevel() >= 3 && trigger) {
        ev.initial_value = trigger->getInitialValue();
        ev.persistent = trigger->getPersistent();
      }
      ev.values_from_trigger_time =
          !e->isSetUseValuesFromTriggerTime() || e->getUseValuesFromTriggerTime();
      if (e->isSetDelay())
        ev.delay = event_math(e->getDelay()->getMath(), e->getDelay(), "the delay of " + name);
      if (e->isSetPriority())
        ev.priority =
            event_math(e->getPriority()->getMath(), e->getPriority(), "the priority of " + name);
      // Every value first, in the units of its id, all from the state
      // before the event; then state units: a species' amount is its
      // concentration times the compartment's size before the event, and
      // keeps its amount when the event resizes the compartment, so a
      // species whose state is a concentration (a rate rule) is rescaled.
      std::unordered_map<std::string, NodeId> assigned;
      std::vector<std::string> order;
      for (unsigned k = 0; k < e->getNumEventAssignments(); ++k) {
        const EventAssignment* a = e->getEventAssignment(k);
        const NodeId v = event_math(a->getMath(), a,
                                    "the assignment to '" + a->getVariable() + "' of " + name);
        if (v == kNoNode) continue;
        if (!assigned.count(a->getVariable())) order.push_back(a->getVariable());
        assigned[a->getVariable()] = v;
      }
      for (const Symbol& s : t_.symbols) {
        if (s.kind != SymbolKind::species || s.role != Role::rate_state || s.amount_valued ||
            assigned.count(s.id))
          continue;
        if (assigned.count(static_cast<const Species*>(s.element)->getCompartment())) {
          assigned[s.id] = value(index_of(s.id), kDynamic);
          order.push_back(s.id);
        }
      }
      for (const std::string& id : order) {
        const Symbol& s = sym(index_of(id));
        NodeId v = assigned.at(id);
        if (s.kind == SymbolKind::species && !s.amount_valued) {
          const std::string& c = static_cast<const Species*>(s.element)->getCompartment();
          const NodeId size_before = size(s, kDynamic);
          auto resized = assigned.find(c);
          if (SymbolTable::amount_state(s))
            v = g().mul(v, size_before);
          else if (resized != assigned.end())
            v = g().div(g().mul(v, size_before), resized->second);
        }
        ev.targets.push_back(s.state);
        ev.values.push_back(v);
      }
      out_.events.push_back(std::move(ev));
    }
  }

  // Rules, initial assignments and kinetic laws no state depends on are
  // translated too, so that their errors are not silently skipped.
  void check_every_definition() {
    for (std::size_t i = 0; i < t_.symbols.size(); ++i) {
      const Symbol& s = t_.symbols[i];
      if (s.rule_math || s.initial_math || s.kind == SymbolKind::reaction) {
        value(static_cast<int>(i), kInitial);
        value(static_cast<int>(i), kDynamic);
      }
    }
  }

  void observe(const std::string& name, NodeId (Importer::*get)(int, Context), int i) {
    try {
      const NodeId v = (this->*get)(i, kDynamic);
      out_.observable_names.push_back(name);
      out_.observables.push_back(v);
    } catch (const UndefinedValue&) {
      // an id without a value is not observable
    }
  }

  void build_observables() {
    for (std::size_t k = 0; k < t_.symbols.size(); ++k) {
      const int i = static_cast<int>(k);
      const Symbol& s = sym(i);
      observe(s.id, &Importer::value, i);
      if (s.kind == SymbolKind::species) {
        observe(s.id + ":amount", &Importer::amount, i);
        observe(s.id + ":concentration", &Importer::concentration, i);
      }
    }
  }

  void describe_source() {
    unsigned assignment = 0, rate = 0;
    for (unsigned i = 0; i < m_.getNumRules(); ++i) {
      assignment += m_.getRule(i)->isAssignment();
      rate += m_.getRule(i)->isRate();
    }
    auto count = [&](const char* what, unsigned n) {
      out_.details.emplace_back(what, std::to_string(n));
    };
    out_.details.emplace_back("format", "SBML Level " + std::to_string(m_.getLevel()) +
                                            " Version " + std::to_string(m_.getVersion()));
    if (m_.isSetId()) out_.details.emplace_back("model id", m_.getId());
    count("compartments", m_.getNumCompartments());
    count("species", m_.getNumSpecies());
    count("global parameters", m_.getNumParameters());
    count("reactions", m_.getNumReactions());
    count("assignment rules", assignment);
    count("rate rules", rate);
    count("initial assignments", m_.getNumInitialAssignments());
    count("function definitions", m_.getNumFunctionDefinitions());
    count("events", m_.getNumEvents());
    if (m_.getNumConstraints() > 0)
      out_.details.emplace_back("constraints",
                                std::to_string(m_.getNumConstraints()) +
                                    " (checks, not applied: the model simulates without them)");
    out_.details.emplace_back("species states",
                              "amounts (species changed by rate rules: as declared)");
  }

  SbmlModel& m_;
  const std::string& file_;
  SymbolTable t_;
  SymbolicModel out_;
  MathTranslator math_;
  std::vector<NodeId> memo_[2];
  std::vector<char> busy_[2];
  std::unordered_map<std::size_t, NodeId> rate_memo_;  // rateOf by symbol and context
  std::vector<int> stack_;            // symbols whose values are being built
  std::vector<std::string> wheres_;   // math being translated, innermost last
  const std::vector<std::string>& initial_value_ids_;
  // SbmlOptions::initial_value_params: id -> index of its ID@initial parameter.
  std::unordered_map<std::string, int> initial_value_params_;
};

}  // namespace

SymbolicModel import_sbml(const std::string& xml, const std::string& file,
                          const SbmlOptions& options) {
  const sbml::SbmlText text = sbml::check_sbml_text(xml, file);
  // A copy only without the byte-order mark, which libsbml does not accept.
  auto document = sbml::read_document(
      text.xml.size() == xml.size() ? xml : std::string(text.xml), file, text.required_packages);
  sbml::reject_unsupported(*document, file, text.required_packages);
  SbmlModel& model = *document->getModel();
  return Importer(model, file, build_symbol_table(model, file, options.sensitivity_params),
                  options.initial_value_params)
      .run();
}

std::unordered_map<std::string, SbmlIdUse> sbml_id_uses(
    const std::string& xml, const std::string& file,
    std::unordered_set<std::string>* compartments) {
  const sbml::SbmlText text = sbml::check_sbml_text(xml, file);
  auto document = sbml::read_document(
      text.xml.size() == xml.size() ? xml : std::string(text.xml), file, text.required_packages);
  sbml::reject_unsupported(*document, file, text.required_packages);
  const SymbolTable table =
      build_symbol_table(*document->getModel(), file, std::vector<std::string>{});
  std::unordered_map<std::string, SbmlIdUse> uses;
  for (const Symbol& s : table.symbols) {
    SbmlIdUse use = SbmlIdUse::other;
    const bool valued = s.kind == SymbolKind::parameter || s.kind == SymbolKind::compartment ||
                        s.kind == SymbolKind::species;
    if (!valued) use = SbmlIdUse::other;
    else if (s.role == Role::assigned) use = SbmlIdUse::assigned;
    else if (s.kind != SymbolKind::species && s.role == Role::fixed && !s.initial_math)
      use = SbmlIdUse::parameter;
    else use = SbmlIdUse::initial_value;
    uses[s.id] = use;
    if (compartments && s.kind == SymbolKind::compartment) compartments->insert(s.id);
  }
  return uses;
}

}  // namespace odesens::expr
