// The names and order of the fixed statistics, shared by the C++ API, the
// C ABI and the tool.
#include "odesens/result.hpp"

namespace odesens {

const std::vector<std::string>& Stats::fixed_names() {
  static const std::vector<std::string> names = {
      "steps", "rhs_evals", "jac_evals", "linear_setups", "error_test_failures", "wall_seconds"};
  return names;
}

std::vector<double> Stats::fixed_values() const {
  return {static_cast<double>(steps),         static_cast<double>(rhs_evals),
          static_cast<double>(jac_evals),     static_cast<double>(linear_setups),
          static_cast<double>(error_test_failures), wall_seconds};
}

std::vector<std::pair<std::string, double>> Stats::all() const {
  std::vector<std::pair<std::string, double>> out;
  const auto values = fixed_values();
  for (std::size_t i = 0; i < values.size(); ++i) out.emplace_back(fixed_names()[i], values[i]);
  for (const auto& [name, value] : extra) out.emplace_back(name, value);
  return out;
}

}  // namespace odesens
