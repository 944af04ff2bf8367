// Numbers in the CSV documents and the tool's text outputs.
#pragma once

#include <string>

namespace odesens::io {

// Shortest decimal form of d that reads back to the same double (%g style:
// "0.1", "2", "1e-07").
std::string format_double(double d);

}  // namespace odesens::io
