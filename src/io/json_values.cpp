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

Json columns(const std::vector<double>& v, std::size_t m) {
  if (m <= 1) return numbers(v);
  const std::size_t n = v.size() / m;
  Json array = Json::array();
  for (std::size_t k = 0; k < m; ++k) {
    Json column = Json::array();
    for (std::size_t i = 0; i < n; ++i) column.push_back(number(v[i + k * n]));
    array.push_back(std::move(column));
  }
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
