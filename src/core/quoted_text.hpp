// Text from a user's file, quoted for a message: bytes that are not
// printable ASCII (control characters, escape sequences that could act on
// a terminal, a lone CR, NUL, bytes of other encodings) are written as \xNN,
// and text beyond 1024 bytes is cut, its length said.
#pragma once

#include <string>
#include <vector>

namespace odesens {

// 'text' with its quotes.
std::string quoted_text(const std::string& text);
// The same without the quotes.
std::string printable_text(const std::string& text);
// The first `shown` of `names`, comma-separated, then "and N more".
std::string first_names(const std::vector<std::string>& names, std::size_t shown);

}  // namespace odesens
