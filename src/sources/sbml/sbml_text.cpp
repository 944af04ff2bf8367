#include "sources/sbml/sbml_text.hpp"

#include "sources/sbml/xml_outline.hpp"
#include "core/text_encoding.hpp"
#include "odesens/status.hpp"

namespace odesens::expr::sbml {
namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

bool is_utf8_name(std::string encoding) {
  for (char& c : encoding)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return encoding == "UTF-8" || encoding == "UTF8";
}

// SBML Level 3 package namespaces look like
// http://www.sbml.org/sbml/level3/version1/NAME/version1.
std::string package_name(const std::string& uri, const std::string& prefix) {
  const std::string marker = "/level3/version";
  const auto k = uri.find(marker);
  if (k != std::string::npos) {
    const auto start = uri.find('/', k + marker.size());
    if (start != std::string::npos) {
      const auto end = uri.find('/', start + 1);
      const std::string name =
          uri.substr(start + 1, end == std::string::npos ? end : end - start - 1);
      if (!name.empty()) return name;
    }
  }
  return prefix;
}

std::vector<RequiredPackage> required_packages(const XmlOutline& outline) {
  std::vector<RequiredPackage> out;
  for (const auto& [name, value] : outline.root_attributes) {
    const auto colon = name.find(':');
    if (colon == std::string::npos || name.compare(colon + 1, std::string::npos, "required") != 0)
      continue;
    const std::string v = trimmed(value);
    if (v != "true" && v != "1") continue;  // xsd:boolean
    RequiredPackage p;
    p.prefix = name.substr(0, colon);
    for (const auto& [other, uri] : outline.root_attributes)
      if (other == "xmlns:" + p.prefix) p.uri = uri;
    p.name = package_name(p.uri, p.prefix);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

SbmlText check_sbml_text(const std::string& xml, const std::string& file) {
  SbmlText out;
  out.xml = model_text_as_utf8(xml, file);
  // The outline reads bytes, so it finds a declared encoding first: a file
  // that declares Latin-1 is refused for that, not for its first é.
  const XmlOutline outline = outline_xml(out.xml, kMaxXmlDepth);
  if (!outline.encoding.empty() && !is_utf8_name(outline.encoding))
    throw Error(Status::unsupported,
                file + ":1: the XML declaration names the encoding '" + outline.encoding +
                    "': SBML files must be UTF-8 (convert the file and declare "
                    "encoding=\"UTF-8\")");
  require_utf8(out.xml, file, "SBML files must be UTF-8");
  if (outline.too_deep_at != XmlOutline::none)
    throw Error(Status::unsupported,
                file + ":" + std::to_string(line_of(out.xml, outline.too_deep_at)) +
                    ": XML elements nested more than " + std::to_string(kMaxXmlDepth) +
                    " levels deep; refused before reading, since reading them could overflow "
                    "the stack (real models nest fewer than 20 levels)");
  if (outline.entity_at != XmlOutline::none)
    throw Error(Status::unsupported,
                file + ":" + std::to_string(line_of(out.xml, outline.entity_at)) +
                    ": the document declares XML entities (<!ENTITY>), which SBML does not use; "
                    "they are not supported");
  out.required_packages = required_packages(outline);
  return out;
}

std::string describe(const RequiredPackage& package) {
  return package.prefix + ":required=\"true\"" +
         (package.uri.empty() ? "" : " (namespace " + package.uri + ")");
}

}  // namespace odesens::expr::sbml
