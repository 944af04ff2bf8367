#include "sources/sbml/sbml_document.hpp"

#include <vector>

#include "odesens/status.hpp"

namespace odesens::expr::sbml {
namespace {


[[noreturn]] void unsupported(const std::string& file, const SBase* element,
                              const std::string& message) {
  throw Error(Status::unsupported, where(file, element) + message);
}

// libsbml keeps a node's arguments in a linked list and finds argument i by
// walking from the first, so reading the n arguments of one node takes n^2/2
// steps (a function call of 20 000 arguments, a file of 0.75 MB: 17 s; 40 000
// ran past a minute). The arguments past kNarrow of every node of the
// document's math add n^2 to a budget that bounds the import to seconds.
struct WidthBudget {
  static constexpr unsigned kNarrow = 64;
  static constexpr double kMost = 4e7;  // about 6 300 arguments in one node
  double spent = 0.0;
};

// The first delay or rateOf in `math`, or null (iteratively: MathML may nest
// deeply); Error(unsupported) naming the node whose arguments exceed the
// width budget.
const ASTNode* find_delay(const ASTNode* math, WidthBudget& budget, const std::string& file,
                          const SBase& owner, const char* part) {
  std::vector<const ASTNode*> stack{math};
  while (!stack.empty()) {
    const ASTNode* a = stack.back();
    stack.pop_back();
    if (!a) continue;
    if (a->getType() == AST_FUNCTION_DELAY) return a;
    const unsigned n = a->getNumChildren();
    if (n > WidthBudget::kNarrow) {
      budget.spent += static_cast<double>(n) * n;
      if (budget.spent > WidthBudget::kMost)
        unsupported(file, &owner,
                    describe(owner) + part + ": an operator or call with " + std::to_string(n) +
                        " arguments: libsbml finds each argument by walking from the first, and "
                        "so many (with those of the model's other wide operators) would take it "
                        "minutes to read; split such operators and calls into smaller ones");
    }
    for (unsigned i = 0; i < n; ++i) stack.push_back(a->getChild(i));
  }
  return nullptr;
}

void check_math(const std::string& file, const SBase& owner, const ASTNode* math,
                WidthBudget& budget, const char* part = "") {
  if (find_delay(math, budget, file, owner, part))
    unsupported(file, &owner,
                describe(owner) + part +
                    ": delay (csymbol) is not supported (odesens integrates ODEs, not delay "
                    "equations)");
}

// Names the first package element that is not a list (lists have no id).
void reject_package_elements(SBMLDocument& document, const std::string& file) {
  std::unique_ptr<List> all(document.getAllElements());
  const SBase* found = nullptr;
  // libsbml's List is linked: get(i) walks i nodes, remove(0) none.
  while (all && all->getSize() > 0) {
    const auto* e = static_cast<const SBase*>(all->remove(0));
    if (e->getPackageName() == "core") continue;
    if (!found || (found->getTypeCode() == SBML_LIST_OF && e->getTypeCode() != SBML_LIST_OF))
      found = e;
    if (found->getTypeCode() != SBML_LIST_OF) break;
  }
  if (found)
    unsupported(file, found,
                describe(*found) + ": SBML package '" + found->getPackageName() +
                    "' is not supported yet");
}

// A package declared required may change what the core elements mean (by
// attributes, or by elements libsbml does not know and drops), so the
// import could be wrong.
[[noreturn]] void reject_required_package(const std::string& file, const RequiredPackage& p) {
  throw Error(Status::unsupported, file + ": <sbml> " + describe(p) +
                                       ": the model needs SBML package '" + p.name +
                                       "', which is not supported yet");
}

// The species a reaction changes: a reactant or product that is neither a
// boundary species nor constant; null if none.
const Species* changed_species(const SbmlModel& m, const Reaction& r) {
  auto changed = [&](const ListOf* refs) -> const Species* {
    for (unsigned k = 0; k < refs->size(); ++k) {
      const auto* ref = static_cast<const SpeciesReference*>(refs->get(k));
      const Species* sp = m.getSpecies(ref->getSpecies());
      if (sp && !sp->getBoundaryCondition() && !sp->getConstant()) return sp;
    }
    return nullptr;
  };
  const Species* reactant = changed(r.getListOfReactants());
  return reactant ? reactant : changed(r.getListOfProducts());
}

// SBML leaves the rate of a reaction without a kinetic law (or without its
// math) undefined. Where the reaction changes a species the ODE integrates,
// any value taken for it (0) would be a guess that changes the solution:
// refused. A reaction that changes nothing keeps rate 0.
void require_rate_where_it_matters(const SbmlModel& m, const Reaction& r,
                                   const std::string& file) {
  if (r.isSetKineticLaw() && r.getKineticLaw()->isSetMath()) return;
  const Species* sp = changed_species(m, r);
  if (!sp) return;
  throw Error(Status::parse_error,
              where(file, &r) + describe(r) + " has no kinetic law" +
                  (r.isSetKineticLaw() ? " math" : "") + ", so its rate is not defined (SBML " +
                  "leaves it to the simulator), and it changes species '" + sp->getId() +
                  "'; give it a kinetic law (0 if it is meant to do nothing)");
}

void reject_model_features(const SbmlModel& m, const std::string& file) {
  for (unsigned i = 0; i < m.getNumRules(); ++i) {
    const Rule* r = m.getRule(i);
    if (r->isAlgebraic())
      unsupported(file, r, "<algebraicRule> (rule #" + std::to_string(i + 1) +
                               "): algebraic rules are not supported yet");
  }
  // Constraints are checks on a simulation, not changes of it: a model
  // simulates as if they were absent (the import lists how many it skipped).
  for (unsigned i = 0; i < m.getNumReactions(); ++i) {
    const Reaction* r = m.getReaction(i);
    if (r->isSetFast() && r->getFast())
      unsupported(file, r, describe(*r) + ": fast reactions are not supported yet");
  }
  WidthBudget budget;
  for (unsigned i = 0; i < m.getNumFunctionDefinitions(); ++i)
    check_math(file, *m.getFunctionDefinition(i), m.getFunctionDefinition(i)->getMath(), budget);
  for (unsigned i = 0; i < m.getNumRules(); ++i)
    check_math(file, *m.getRule(i), m.getRule(i)->getMath(), budget);
  for (unsigned i = 0; i < m.getNumInitialAssignments(); ++i)
    check_math(file, *m.getInitialAssignment(i), m.getInitialAssignment(i)->getMath(), budget);
  for (unsigned i = 0; i < m.getNumReactions(); ++i) {
    const Reaction* r = m.getReaction(i);
    if (r->isSetKineticLaw())
      check_math(file, *r, r->getKineticLaw()->getMath(), budget, " (kinetic law)");
    require_rate_where_it_matters(m, *r, file);
  }
  for (unsigned i = 0; i < m.getNumEvents(); ++i) {
    const Event* e = m.getEvent(i);
    if (e->isSetTrigger()) check_math(file, *e, e->getTrigger()->getMath(), budget, " (trigger)");
    if (e->isSetDelay()) check_math(file, *e, e->getDelay()->getMath(), budget, " (delay)");
    if (e->isSetPriority())
      check_math(file, *e, e->getPriority()->getMath(), budget, " (priority)");
    for (unsigned k = 0; k < e->getNumEventAssignments(); ++k)
      check_math(file, *e->getEventAssignment(k), e->getEventAssignment(k)->getMath(), budget);
  }
}

}  // namespace

std::string where(const std::string& file, const SBase* element) {
  if (element && element->getLine() > 0)
    return file + ":" + std::to_string(element->getLine()) + ": ";
  return file + ": ";
}

std::string describe(const SBase& element) {
  std::string s = "<" + element.getElementName() + ">";
  if (element.isSetId()) s += " '" + element.getId() + "'";
  return s;
}

std::unique_ptr<SBMLDocument> read_document(const std::string& xml, const std::string& file,
                                            const std::vector<RequiredPackage>& required) {
  SBMLReader reader;
  std::unique_ptr<SBMLDocument> doc;
  // libsbml throws from inside its reader on some malformed documents (an
  // SBMLConstructorException for an element whose level/version it cannot
  // place): that is bad input, not a failure of ours.
  try {
    doc.reset(reader.readSBMLFromString(xml));
  } catch (const std::exception& e) {
    throw Error(Status::parse_error, file + ": not valid SBML: libsbml stopped reading it (" +
                                         std::string(e.what()) + ")");
  }
  if (!doc) throw Error(Status::parse_error, file + ": libsbml could not read the document");
  const unsigned n = doc->getNumErrors();
  unsigned n_errors = 0;
  const SBMLError* first = nullptr;
  for (unsigned i = 0; i < n; ++i) {
    const SBMLError* e = doc->getError(i);
    if (!e->isError() && !e->isFatal()) continue;
    // An XML declaration without its optional encoding: XML reads it as
    // UTF-8, and so does this reader (non-UTF-8 text is refused before).
    if (e->getErrorId() == MissingXMLEncoding) continue;
    if (!first) first = e;
    ++n_errors;
  }
  if (first) {
    std::string message = first->getMessage();
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    for (char& c : message)
      if (c == '\n') c = ' ';
    const std::string at = file + (first->getLine() > 0 ? ":" + std::to_string(first->getLine()) : "");
    const std::string more =
        n_errors > 1 ? " (and " + std::to_string(n_errors - 1) + " more errors)" : "";
    if (first->getErrorId() == RequiredPackagePresent) {  // one libsbml does not know
      for (const RequiredPackage& p : required)
        if (!doc->isPackageURIEnabled(p.uri)) reject_required_package(file, p);
      throw Error(Status::unsupported, at + ": " + message);
    }
    throw Error(Status::parse_error, at + ": not valid SBML: " + message + more);
  }
  if (!doc->getModel()) throw Error(Status::parse_error, file + ": the SBML document has no model");
  return doc;
}

void reject_unsupported(SBMLDocument& document, const std::string& file,
                        const std::vector<RequiredPackage>& required) {
  reject_package_elements(document, file);
  for (const RequiredPackage& p : required) {
    // comp changes nothing but through elements of its own, none of which
    // is left here: a flat model declared comp-required (as sbmlutils
    // writes them) is a core model.
    if (p.name == "comp" && document.isPackageURIEnabled(p.uri)) continue;
    reject_required_package(file, p);
  }
  reject_model_features(*document.getModel(), file);
}

}  // namespace odesens::expr::sbml
