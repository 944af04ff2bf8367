#include "io/json_values.hpp"

#include <cmath>
#include <cstdint>

namespace odesens::io {

Json number(double d) {
  if (!std::isfinite(d)) return nullptr;
  if (d == std::trunc(d) && std::fabs(d) < 1e15 && !(d == 0.0 && std::signbit(d)))
    return static_cast<std::int64_t>(d);
  return d;
}

Json numbers(const std::vector<double>& v) {
  Json array = Json::array();
  for (double d : v) array.push_back(number(d));
  return array;
}

Json text(const std::string& s) {
  return Json::parse(Json(s).dump(-1, ' ', false, Json::error_handler_t::replace));
}

Json texts(const std::vector<std::string>& v) {
  Json array = Json::array();
  for (const auto& s : v) array.push_back(text(s));
  return array;
}

Json nested(const std::vector<double>& v, const std::vector<Axis>& axes, std::size_t level,
            std::size_t offset) {
  if (level == axes.size()) return number(v[offset]);
  Json array = Json::array();
  for (std::size_t a = 0; a < axes[level].count; ++a)
    array.push_back(nested(v, axes, level + 1, offset + a * axes[level].stride));
  return array;
}

}  // namespace odesens::io

namespace odesens::io {

Json array_json(const ResultArrayView& view) {
  if (view.empty()) return Json::array();
  std::vector<Axis> axes;
  for (const auto& axis : view.layout()) axes.push_back({axis.extent, axis.stride});
  return nested(*view.data, axes);
}

}  // namespace odesens::io
