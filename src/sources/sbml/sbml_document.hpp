// Reading SBML with libsbml, and the features the importer does not support
// yet. Both reject a document as a whole, with a message that names the file,
// the line where libsbml knows it, the element and its id.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sources/sbml/sbml_api.hpp"
#include "sources/sbml/sbml_text.hpp"

namespace odesens::expr::sbml {

// "FILE:LINE: " (or "FILE: " when the element has no line).
std::string where(const std::string& file, const SBase* element);
// `<reaction> 'R1'`: the element's XML name and its id when it has one.
std::string describe(const SBase& element);

// The document, or Error(parse_error) with libsbml's first error (XML and
// schema-level problems), Error(unsupported) naming the package when that
// error is a required package libsbml does not know. `xml` has passed
// check_sbml_text, which found `required`.
std::unique_ptr<SBMLDocument> read_document(const std::string& xml, const std::string& file,
                                            const std::vector<RequiredPackage>& required);

// Error(unsupported) for the first of: an element of an SBML package, a
// package declared required (even without elements of its own, except
// comp, which changes nothing without them), an event, an algebraic rule, a constraint with
// math, a fast reaction, a delay or rateOf in any math. (Math the importer
// translates is checked again there; this pass also covers function
// definitions no one calls.)
void reject_unsupported(SBMLDocument& document, const std::string& file,
                        const std::vector<RequiredPackage>& required);

}  // namespace odesens::expr::sbml
