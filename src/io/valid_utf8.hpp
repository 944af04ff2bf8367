// Text for a file format that requires UTF-8 (HDF5's UTF-8 strings).
#pragma once

#include <string>

namespace odesens::io {

// `text` with every byte that is not part of valid UTF-8 (overlong forms,
// surrogates and values past U+10FFFF included) replaced by U+FFFD.
std::string valid_utf8(const std::string& text);

}  // namespace odesens::io
