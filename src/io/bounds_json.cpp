#include "io/bounds_json.hpp"

#include <cstdint>

namespace odesens::io {

Json bounds_json(const Result& r) {
  const BoundsResult& b = r.bounds;
  const std::size_t nm = b.n_monomials;
  Json exponents = Json::array();
  for (std::size_t c = 0; c < nm; ++c)
    exponents.push_back(Json(std::vector<std::int64_t>(
        b.exponents.begin() + static_cast<std::ptrdiff_t>(c * r.np),
        b.exponents.begin() + static_cast<std::ptrdiff_t>((c + 1) * r.np))));
  Json doc = {{"basis", text(b.basis)},
              {"remainder", text(b.remainder)},
              {"order", b.order},
              {"n_monomials", nm},
              {"exponents", std::move(exponents)}};
  // The enclosures' arrays of the result's table, in the documents' order:
  // models of x per time and state, of S per time, state and parameter, of
  // the gradient per parameter, each model's coefficients or (lower, upper)
  // innermost.
  for (const ResultArrayView& view : result_arrays(r))
    if (std::string(view.spec->group) == "bounds") doc[view.spec->name] = array_json(view);
  return doc;
}

}  // namespace odesens::io
