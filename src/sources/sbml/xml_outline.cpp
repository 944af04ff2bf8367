#include "sources/sbml/xml_outline.hpp"

#include <algorithm>

namespace odesens::expr::sbml {
namespace {

constexpr std::size_t npos = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool at(std::string_view s, std::size_t i, std::string_view token) {
  return s.substr(i, token.size()) == token;
}

// Past the end of `close` searched from `from`, or npos.
std::size_t past(std::string_view s, std::size_t from, std::string_view close) {
  const std::size_t k = s.find(close, from);
  return k == npos ? npos : k + close.size();
}

// Past the end of the markup declaration, comment or processing
// instruction of a document type declaration that starts at `i` ("<!" or
// "<?"); a quoted literal may hold '>', the internal subset '[...]' holds
// declarations of its own.
std::size_t past_doctype(std::string_view s, std::size_t i, XmlOutline& out) {
  std::size_t j = i + 2;
  int brackets = 0;
  while (j < s.size()) {
    const char c = s[j];
    if (c == '"' || c == '\'') {
      j = past(s, j + 1, std::string_view(&c, 1));
    } else if (at(s, j, "<!--")) {
      j = past(s, j + 4, "-->");
    } else if (at(s, j, "<?")) {
      j = past(s, j + 2, "?>");
    } else {
      if (at(s, j, "<!ENTITY") && out.entity_at == npos) out.entity_at = j;
      if (c == '[') ++brackets;
      if (c == ']') --brackets;
      ++j;
      if (c == '>' && brackets <= 0) return j;
    }
    if (j == npos) return npos;
  }
  return npos;
}

// The end of the start tag that begins at `i`: the position of its '>'
// (attribute values may hold '>'), or npos.
std::size_t start_tag_end(std::string_view s, std::size_t i) {
  std::size_t j = i + 1;
  while (j < s.size()) {
    const char c = s[j];
    if (c == '>') return j;
    if (c == '"' || c == '\'') {
      j = s.find(c, j + 1);
      if (j == npos) return npos;
    }
    ++j;
  }
  return npos;
}

// name="value" pairs after the element name in `tag` (the text between
// '<' and '>'); stops at anything else.
std::vector<std::pair<std::string, std::string>> attributes(std::string_view tag) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t j = 0;
  while (j < tag.size() && !is_space(tag[j]) && tag[j] != '/') ++j;  // the element name
  while (true) {
    while (j < tag.size() && is_space(tag[j])) ++j;
    const std::size_t name_start = j;
    while (j < tag.size() && !is_space(tag[j]) && tag[j] != '=' && tag[j] != '/') ++j;
    if (j == name_start) break;
    const std::string_view name = tag.substr(name_start, j - name_start);
    while (j < tag.size() && is_space(tag[j])) ++j;
    if (j >= tag.size() || tag[j] != '=') break;
    ++j;
    while (j < tag.size() && is_space(tag[j])) ++j;
    if (j >= tag.size() || (tag[j] != '"' && tag[j] != '\'')) break;
    const std::size_t close = tag.find(tag[j], j + 1);
    if (close == npos) break;
    out.emplace_back(std::string(name), std::string(tag.substr(j + 1, close - j - 1)));
    j = close + 1;
  }
  return out;
}

}  // namespace

XmlOutline outline_xml(std::string_view s, std::size_t max_depth) {
  XmlOutline out;
  std::size_t depth = 0;
  bool seen_root = false;
  std::size_t i = 0;
  while ((i = s.find('<', i)) != npos) {
    if (at(s, i, "<!--")) {
      i = past(s, i + 4, "-->");
    } else if (at(s, i, "<![CDATA[")) {
      i = past(s, i + 9, "]]>");
    } else if (at(s, i, "<?")) {
      const std::size_t end = s.find("?>", i + 2);
      if (i == 0 && at(s, 0, "<?xml") && s.size() > 5 && is_space(s[5]) && end != npos) {
        for (const auto& [name, value] : attributes(s.substr(2, end - 2)))
          if (name == "encoding") out.encoding = value;
      }
      i = end == npos ? npos : end + 2;
    } else if (at(s, i, "<!")) {
      i = past_doctype(s, i, out);
    } else if (at(s, i, "</")) {
      depth -= depth > 0 ? 1 : 0;
      i = past(s, i + 2, ">");
    } else {
      const std::size_t end = start_tag_end(s, i);
      out.depth = std::max(out.depth, depth + 1);
      if (depth + 1 > max_depth) {
        out.too_deep_at = i;
        return out;
      }
      if (end == npos) return out;
      if (!seen_root) {
        out.root_attributes = attributes(s.substr(i + 1, end - i - 1));
        seen_root = true;
      }
      if (s[end - 1] != '/') ++depth;  // not an empty-element tag
      i = end + 1;
    }
    if (i == npos) break;  // unterminated: libsbml says what is wrong
  }
  return out;
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(
                 text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace odesens::expr::sbml
