#include "core/text_encoding.hpp"

#include <cstdio>

#include "odesens/status.hpp"

namespace odesens {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The Unicode encoding other than UTF-8 that `text` is in, or null: by its
// byte-order mark, else by the NUL bytes around its first character
// (XML 1.0, Appendix F, applied to any first character that is ASCII).
const char* other_unicode_encoding(std::string_view text) {
  using namespace std::string_view_literals;
  if (starts_with(text, "\xFF\xFE\0\0"sv)) return "UTF-32 (little-endian)";
  if (starts_with(text, "\0\0\xFE\xFF"sv)) return "UTF-32 (big-endian)";
  if (starts_with(text, "\xFF\xFE"sv)) return "UTF-16 (little-endian)";
  if (starts_with(text, "\xFE\xFF"sv)) return "UTF-16 (big-endian)";
  auto nul = [&](std::size_t i) { return i < text.size() && text[i] == '\0'; };
  // Printable ASCII or a tab or line end: text begins so, binary data
  // (bytes 0, 1, 2, ...) need not, and is not named UTF-16 for it.
  auto ascii = [&](std::size_t i) {
    if (i >= text.size()) return false;
    const auto c = static_cast<unsigned char>(text[i]);
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
  };
  // The second character, where there is one, as the first.
  const bool more16 = text.size() >= 4, more32 = text.size() >= 8;
  if (ascii(0) && nul(1) && nul(2) && nul(3) && (!more32 || (ascii(4) && nul(5))))
    return "UTF-32 (little-endian)";
  if (nul(0) && nul(1) && nul(2) && ascii(3) && (!more32 || (nul(4) && ascii(7))))
    return "UTF-32 (big-endian)";
  if (ascii(0) && nul(1) && (!more16 || (ascii(2) && nul(3)))) return "UTF-16 (little-endian)";
  if (nul(0) && ascii(1) && (!more16 || (nul(2) && ascii(3)))) return "UTF-16 (big-endian)";
  return nullptr;
}

std::string line_and_column(std::string_view text, std::size_t at) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;  // columns count characters, not the continuation bytes of one
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

std::string byte_text(char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
  return buf;
}

}  // namespace

void refuse_other_unicode(std::string_view head, const std::string& name) {
  if (const char* encoding = other_unicode_encoding(head))
    throw Error(Status::unsupported,
                name + ": " + encoding + " is not supported; convert the file to UTF-8");
}

std::string_view model_text_as_utf8(const std::string& text, const std::string& name) {
  std::string_view view(text);
  refuse_other_unicode(view, name);
  if (starts_with(view, "\xEF\xBB\xBF")) view.remove_prefix(3);
  const std::size_t nul = view.find('\0');
  if (nul != std::string_view::npos)
    throw Error(Status::parse_error, name + ":" + line_and_column(view, nul) +
                                         ": a NUL byte: this is not text (binary data?)");
  return view;
}

std::size_t first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length;
    unsigned low = 0x80, high = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;   // overlong
      if (c == 0xED) high = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;   // overlong
      if (c == 0xF4) high = 0x8F;  // beyond U+10FFFF
    } else {
      return i;  // a continuation byte, an overlong lead byte or no UTF-8 at all
    }
    if (i + length > n || s[i + 1] < low || s[i + 1] > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if ((s[i + k] & 0xC0) != 0x80) return i;
    i += length;
  }
  return std::string_view::npos;
}

void require_utf8(std::string_view text, const std::string& name, const std::string& what) {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return;
  throw Error(Status::parse_error, name + ":" + line_and_column(text, bad) +
                                       ": not valid UTF-8 (byte " + byte_text(text[bad]) + "); " +
                                       what + " (was it saved as Latin-1 or Windows-1252?)");
}

}  // namespace odesens
