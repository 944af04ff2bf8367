#include "cli/text_wrap.hpp"

#include <sstream>
#include <vector>

namespace odesens::cli {
namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

void write_wrapped(std::ostream& out, const std::string& first, const std::string& text,
                   std::size_t indent, std::size_t width) {
  const auto words = words_of(text);
  if (words.empty()) {
    out << first << '\n';
    return;
  }
  std::string line = first;
  if (first.size() < indent)
    line += std::string(indent - first.size(), ' ');
  else if (!first.empty())
    line += ' ';
  bool line_has_words = false;
  for (const auto& word : words) {
    if (line_has_words && line.size() + 1 + word.size() > width) {
      out << line << '\n';
      line = std::string(indent, ' ');
      line_has_words = false;
    }
    if (line_has_words) line += ' ';
    line += word;
    line_has_words = true;
  }
  out << line << '\n';
}

}  // namespace odesens::cli
