// The option "lanes" of the methods that evaluate the model on SIMD lanes
// (.ode, SBML and recorded models): 0 (the widest the CPU has), 1, 4 or 8,
// checked when set.
#pragma once

#include <cstdint>
#include <string>

#include "odesens/options.hpp"

namespace odesens::methods {

inline OptionSpec lane_option(std::string doc) {
  return restricted(bounded({"lanes", OptionType::integer, std::int64_t{0}, std::move(doc), {}},
                            0, 8),
                    "0, 1, 4 or 8", [](double v) { return v == 0 || v == 1 || v == 4 || v == 8; });
}

}  // namespace odesens::methods
