#include "io/bounds_json.hpp"

#include <cstdint>

namespace odesens::io {
namespace {

// Models of x (per time and state), S (per time, state and parameter) or
// the gradient (per parameter), `inner` values each (coefficients or a
// (lower, upper) pair), in the order of the output's x, S and gradient.
std::vector<Axis> x_axes(const Result& r, std::size_t inner) {
  return {{r.times.size(), inner * r.nx}, {r.nx, inner}, {inner, 1}};
}
std::vector<Axis> s_axes(const Result& r, std::size_t inner) {
  return {{r.s_times.size(), inner * r.nx * r.np}, {r.nx, inner}, {r.np, inner * r.nx}, {inner, 1}};
}
std::vector<Axis> gradient_axes(const Result& r, std::size_t inner) {
  return {{r.np, inner}, {inner, 1}};
}

}  // namespace

Json bounds_json(const Result& r) {
  const BoundsResult& b = r.bounds;
  const std::size_t nm = b.n_monomials;
  Json exponents = Json::array();
  for (std::size_t c = 0; c < nm; ++c)
    exponents.push_back(Json(std::vector<std::int64_t>(
        b.exponents.begin() + static_cast<std::ptrdiff_t>(c * r.np),
        b.exponents.begin() + static_cast<std::ptrdiff_t>((c + 1) * r.np))));
  const std::size_t shapes = b.x_shape.empty() ? 0 : r.times.size();
  return {{"basis", text(b.basis)},
          {"remainder", text(b.remainder)},
          {"order", b.order},
          {"n_monomials", nm},
          {"box_lower", numbers(b.box_lower)},
          {"box_upper", numbers(b.box_upper)},
          {"box_mid", numbers(b.box_mid)},
          {"box_rad", numbers(b.box_rad)},
          {"exponents", std::move(exponents)},
          {"x_coef", nested(b.x_coef, x_axes(r, nm))},
          {"x_rem", nested(b.x_rem, x_axes(r, 2))},
          {"x_hull", nested(b.x_hull, x_axes(r, 2))},
          {"x_shape", nested(b.x_shape, {{shapes, r.nx * r.nx}, {r.nx, 1}, {r.nx, r.nx}})},
          {"s_coef", nested(b.s_coef, s_axes(r, nm))},
          {"s_rem", nested(b.s_rem, s_axes(r, 2))},
          {"s_hull", nested(b.s_hull, s_axes(r, 2))},
          {"gradient_coef", nested(b.gradient_coef, gradient_axes(r, nm))},
          {"gradient_rem", nested(b.gradient_rem, gradient_axes(r, 2))},
          {"gradient_hull", nested(b.gradient_hull, gradient_axes(r, 2))}};
}

}  // namespace odesens::io
