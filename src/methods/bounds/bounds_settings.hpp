// The options of the set-valued methods, read once per solve.
#pragma once

#include <vector>

#include "methods/bounds/verified_arithmetic.hpp"
#include "odesens/options.hpp"

namespace odesens::bounds {

enum class RemainderKind { interval, ellipsoid };

struct BoundsSettings {
  int order = 4;                      // q
  Basis basis = Basis::chebyshev;
  RangeBounder bounder = RangeBounder::lsb;
  RemainderKind remainder = RemainderKind::ellipsoid;
  int jac_order = 2;                  // q' of the Jacobian models (section 4.2)
  double scaled_trace = 1e-5;         // RTOL of the scaled trace and radius, (2)-(3)
  double ellipsoid_eps = 1e-20;       // the regularisation epsilon of nu, kappa
  double shape_atol = 1e-20;          // CVODES absolute tolerance of Q's entries
  double max_width = 1e20;            // wider ranges are `unbounded`
  double max_work = 1e10;             // products of coefficients per evaluation, at most
};

std::vector<OptionSpec> bounds_option_specs();
BoundsSettings read_bounds_settings(const MethodOptions& options);

const char* basis_name(Basis b);
const char* remainder_name(RemainderKind r);

}  // namespace odesens::bounds
