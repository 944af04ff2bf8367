// SBML text checked before libsbml reads it: its encoding, its nesting
// depth (libsbml reads nested elements by recursion: a deep enough document
// would overflow the caller's stack inside libsbml, where nothing can catch
// it) and the packages it declares required.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace odesens::expr::sbml {

// The deepest element nesting accepted, the <sbml> element being level 1.
// Real models nest fewer than 20 levels (MathML is flat: n-ary operators);
// at 256 levels libsbml's reader needs about 0.4 MB of stack, which a
// thread with 1 MB of stack still has. (libxml2 has the same default limit.)
constexpr std::size_t kMaxXmlDepth = 256;

// A package the <sbml> element declares with PREFIX:required="true".
struct RequiredPackage {
  // From the namespace URI (".../level3/version1/comp/version1": comp), else
  // the prefix.
  std::string name;
  std::string prefix;
  std::string uri;  // "" when the prefix has no namespace declaration on <sbml>
};

struct SbmlText {
  std::string_view xml;  // the text without a UTF-8 byte-order mark
  std::vector<RequiredPackage> required_packages;
};

// Error(unsupported) for text in UTF-16 or UTF-32, an XML declaration that
// names an encoding other than UTF-8, elements nested more than
// kMaxXmlDepth levels, or entity declarations (SBML has no use for them,
// and their expansion could hide any nesting); Error(parse_error) for text
// that is not UTF-8 or holds NUL bytes. `xml` must outlive the result.
SbmlText check_sbml_text(const std::string& xml, const std::string& file);

// "comp:required=\"true\" (namespace URI)": how a message names a package.
std::string describe(const RequiredPackage& package);

}  // namespace odesens::expr::sbml
