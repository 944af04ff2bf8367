// Small SBML documents written inside the tests: a Level 3 Version 2
// wrapper and MathML helpers, so each test shows the elements it is about.
#pragma once

#include <string>

namespace odesens::sbml_testing {

inline std::string math(const std::string& body) {
  return "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">" + body + "</math>";
}

inline std::string ci(const std::string& id) { return "<ci> " + id + " </ci>"; }
inline std::string cn(double v) { return "<cn> " + std::to_string(v) + " </cn>"; }
// <apply><op/>args</apply> (not "apply": std::apply would be found by ADL)
inline std::string fn(const std::string& op, const std::string& args) {
  return "<apply><" + op + "/>" + args + "</apply>";
}

// A Level 3 Version 2 document around the model's lists.
inline std::string l3v2(const std::string& lists) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<sbml xmlns=\"http://www.sbml.org/sbml/level3/version2/core\" level=\"3\" "
         "version=\"2\">\n<model id=\"test\">\n" +
         lists + "</model>\n</sbml>\n";
}

inline std::string compartment(const std::string& id, const std::string& size,
                               bool constant = true) {
  return "<compartment id=\"" + id + "\" size=\"" + size + "\" constant=\"" +
         (constant ? "true" : "false") + "\"/>";
}

// initial: `initialAmount="1"` or `initialConcentration="2"`.
inline std::string species(const std::string& id, const std::string& compartment,
                           const std::string& initial, bool only_substance = false,
                           bool boundary = false, bool constant = false) {
  auto b = [](bool v) { return v ? "\"true\"" : "\"false\""; };
  return "<species id=\"" + id + "\" compartment=\"" + compartment + "\" " + initial +
         " hasOnlySubstanceUnits=" + b(only_substance) + " boundaryCondition=" + b(boundary) +
         " constant=" + b(constant) + "/>";
}

inline std::string parameter(const std::string& id, const std::string& value, bool constant) {
  return "<parameter id=\"" + id + "\"" + (value.empty() ? "" : " value=\"" + value + "\"") +
         " constant=\"" + (constant ? "true" : "false") + "\"/>";
}

inline std::string rate_rule(const std::string& variable, const std::string& body) {
  return "<rateRule variable=\"" + variable + "\">" + math(body) + "</rateRule>";
}
inline std::string assignment_rule(const std::string& variable, const std::string& body) {
  return "<assignmentRule variable=\"" + variable + "\">" + math(body) + "</assignmentRule>";
}
inline std::string initial_assignment(const std::string& symbol, const std::string& body) {
  return "<initialAssignment symbol=\"" + symbol + "\">" + math(body) + "</initialAssignment>";
}

// A reaction with reactants and products given as "S:2,T:1" (species:stoichiometry).
inline std::string reaction(const std::string& id, const std::string& reactants,
                            const std::string& products, const std::string& law,
                            const std::string& local_parameters = "") {
  auto refs = [](const std::string& list) {
    std::string out;
    std::size_t start = 0;
    while (start < list.size()) {
      const auto comma = list.find(',', start);
      const std::string item = list.substr(start, comma - start);
      const auto colon = item.find(':');
      out += "<speciesReference species=\"" + item.substr(0, colon) + "\" stoichiometry=\"" +
             item.substr(colon + 1) + "\" constant=\"true\"/>";
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return out;
  };
  std::string r = "<reaction id=\"" + id + "\" reversible=\"false\">";
  if (!reactants.empty()) r += "<listOfReactants>" + refs(reactants) + "</listOfReactants>";
  if (!products.empty()) r += "<listOfProducts>" + refs(products) + "</listOfProducts>";
  r += "<kineticLaw>" + math(law);
  if (!local_parameters.empty())
    r += "<listOfLocalParameters>" + local_parameters + "</listOfLocalParameters>";
  return r + "</kineticLaw></reaction>";
}

inline std::string list(const std::string& name, const std::string& items) {
  return "<listOf" + name + ">" + items + "</listOf" + name + ">\n";
}

}  // namespace odesens::sbml_testing
