// Text wrapped to the width of a terminal, for the tool's listings and help.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

namespace odesens::cli {

// The width the tool's listings are written for.
inline constexpr std::size_t text_width = 100;

// Writes `text` as lines of at most `width` characters, breaking at spaces
// (a word longer than a line gets a line of its own). The first line starts
// with `first`, padded with spaces to `indent` (or followed by one space when
// longer and not empty); the others with `indent` spaces. Ends with a newline.
void write_wrapped(std::ostream& out, const std::string& first, const std::string& text,
                   std::size_t indent, std::size_t width = text_width);

}  // namespace odesens::cli
