// The values of the JSON result document: numbers that read back to the
// same double, text that is always valid UTF-8, and flat arrays as nested
// lists.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "odesens/result_arrays.hpp"

namespace odesens::io {

using Json = nlohmann::ordered_json;  // fields in the documented order

// nlohmann prints every double with a fraction ("2.0"); an integral value
// below 1e15 is exact as an integer and printed as the tool always has ("2");
// -0 stays a double, so that its sign survives. NaN and Inf become null
// (nlohmann's choice too).
Json number(double d);
Json numbers(const std::vector<double>& v);

// Streaming a document (operator<<) throws at a string that is not UTF-8,
// after part of it is written; such a string (a file name, say) goes in with
// its invalid bytes replaced by U+FFFD.
Json text(const std::string& s);
Json texts(const std::vector<std::string>& v);

// One axis of a flat array: its length and the distance between its
// neighbouring elements.
struct Axis {
  std::size_t count, stride;
};

// The values of v as nested lists, axes outermost first: element [a][b]...
// is v[offset + a * axes[0].stride + b * axes[1].stride + ...].
Json nested(const std::vector<double>& v, const std::vector<Axis>& axes, std::size_t level = 0,
            std::size_t offset = 0);

// One array of a result's table as nested lists in the documents' order
// (ResultArraySpec::layout); [] when empty.
Json array_json(const ResultArrayView& view);

}  // namespace odesens::io
