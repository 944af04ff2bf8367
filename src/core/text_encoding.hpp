// The character encoding of model text. Model files are UTF-8 (SBML
// requires it, and the .ode format is ASCII outside comments); a UTF-8
// byte-order mark is allowed and dropped. Text in another Unicode encoding
// is recognised by its byte-order mark or, without one, by the pattern of
// NUL bytes its first characters leave (ASCII in UTF-16 or UTF-32), and
// refused by name rather than misread as something else.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace odesens {

// `text` without a leading UTF-8 byte-order mark. Error(unsupported,
// "NAME: UTF-16 (little-endian) is not supported; convert the file to
// UTF-8") for UTF-16 and UTF-32 text (with or without a byte-order mark),
// and Error(parse_error) for text that holds a NUL byte (binary data).
std::string_view model_text_as_utf8(const std::string& text, const std::string& name);

// Error(unsupported, "NAME: UTF-16 (little-endian) is not supported; ...")
// when the text that begins with `head` is UTF-16 or UTF-32: tables and
// other text files, refused by name rather than read as odd ids.
void refuse_other_unicode(std::string_view head, const std::string& name);

// Where the first byte sequence that is not UTF-8 starts
// (std::string_view::npos when the whole text is UTF-8): overlong forms,
// surrogates and values beyond U+10FFFF are not UTF-8 either.
std::size_t first_invalid_utf8(std::string_view text);

// Error(parse_error, "NAME:LINE:COLUMN: not valid UTF-8 (byte 0xE9) ...")
// when `text` is not UTF-8; `what` says why it has to be ("SBML files must be
// UTF-8").
void require_utf8(std::string_view text, const std::string& name, const std::string& what);

}  // namespace odesens
