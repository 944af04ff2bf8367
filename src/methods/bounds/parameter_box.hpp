// The parameter box as polynomial variables: p_j = mid_j + rad_j xi_j with
// xi_j in [-1, 1] (set-valued sensitivity paper, section 1.1). Parameters
// whose lower and upper bounds agree are constants and get no variable.
#pragma once

#include <cstddef>
#include <vector>

#include "methods/bounds/verified_arithmetic.hpp"

namespace odesens::bounds {

struct ParameterBox {
  std::vector<double> lower, upper;
  // mid and rad as doubles with [lower, upper] inside [mid - rad, mid + rad]
  // exactly (rad rounded up), so the models hold on the whole box.
  std::vector<double> mid, rad;
  // Polynomial variable of each parameter, or npos for a constant one.
  std::vector<std::size_t> variable;
  std::size_t n_variables = 0;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// Computes mid and rad (call inside an UpwardRounding scope: rad is an
// upper bound).
ParameterBox make_parameter_box(const std::vector<double>& lower,
                                const std::vector<double>& upper);

// The model of every parameter in the arithmetic.
std::vector<PolyModel> parameter_models(const ParameterBox& box, const PolyArithmetic& arith);

}  // namespace odesens::bounds
