// A streaming pass over XML text that finds, without building anything and
// without recursion, what must be known before libsbml reads it: how deeply
// elements nest (libsbml reads nested elements, MathML above all, by
// recursion, so a deep enough document overflows the stack of whoever
// calls it), the encoding the XML declaration names, entity declarations
// (whose expansion the pass could not see) and the root element's
// attributes (where SBML declares its packages).
//
// The pass understands comments, CDATA sections, processing instructions,
// the document type declaration with its internal subset, and quoted
// attribute values (which may hold '<' and '>'). It does not check
// well-formedness: on malformed text it stops or counts an element too
// many, never one too few, and libsbml reports the error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace odesens::expr::sbml {

struct XmlOutline {
  static constexpr std::size_t none = std::string_view::npos;
  std::size_t depth = 0;           // deepest element nesting seen (the root is 1)
  std::size_t too_deep_at = none;  // offset of the first element deeper than the limit
  std::size_t entity_at = none;    // offset of the first <!ENTITY declaration
  std::string encoding;            // named by the XML declaration; "" when none is
  // The root element's attributes, name and value as written (no entity
  // or character references resolved).
  std::vector<std::pair<std::string, std::string>> root_attributes;
};

// Stops at the first element deeper than `max_depth` (too_deep_at).
XmlOutline outline_xml(std::string_view xml, std::size_t max_depth);

// The line (from 1) of byte `offset`.
std::size_t line_of(std::string_view text, std::size_t offset);

}  // namespace odesens::expr::sbml
