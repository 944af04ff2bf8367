#include "methods/bounds/bounds_settings.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "odesens/options.hpp"

namespace odesens::bounds {

std::vector<OptionSpec> bounds_option_specs() {
  const double inf = std::numeric_limits<double>::infinity();
  return {
      bounded({"order", OptionType::integer, std::int64_t{4},
               "order q of the polynomial models in the parameters (n_mon = C(np + q, q) "
               "coefficients per model)",
               {}},
              0, 12),
      {"basis", OptionType::text, std::string("chebyshev"),
       "polynomial basis: chebyshev (products of Chebyshev polynomials T_k of the scaled "
       "parameters, all the paper's runs) or taylor (monomials)",
       {"chebyshev", "taylor"}},
      {"remainder", OptionType::text, std::string("ellipsoid"),
       "remainder of the state, sensitivity and adjoint models: ellipsoid (section 3.2, a shape "
       "matrix Q; mitigates wrapping) or interval (section 3.1, differential inequalities)",
       {"ellipsoid", "interval"}},
      {"bounder", OptionType::text, std::string("lsb"),
       "range bounder of polynomials over the box: lsb (linear and pure quadratic terms of "
       "each parameter exactly, the rest termwise), naive (termwise) or bernstein (Bernstein "
       "coefficients; lsb when (q+1)^np > 1e6)",
       {"lsb", "naive", "bernstein"}},
      bounded({"jac_order", OptionType::integer, std::int64_t{2},
               "order q' <= q of the Jacobian models that give the linear part A and the "
               "nonlinearity bound of the ellipsoidal remainder (section 4.2)",
               {}},
              0, 12),
      bounded({"scaled_trace", OptionType::real, 1e-5,
               "RTOL of the scaled trace (2) and radius (3) that choose nu and kappa", {}},
              0.0, 1.0),
      bounded({"ellipsoid_eps", OptionType::real, 1e-20,
               "regularisation epsilon in nu, kappa (section 4.2)", {}},
              std::numeric_limits<double>::min(), 1.0),
      bounded({"shape_atol", OptionType::real, 1e-20,
               "absolute tolerance of the shape matrix entries (the paper's 1e-20: 1e-10 on "
               "its square root)",
               {}},
              std::numeric_limits<double>::min(), inf),
      bounded({"max_width", OptionType::real, 1e20,
               "a range wider than this stops the solve as `unbounded`", {}},
              std::numeric_limits<double>::min(), inf),
      bounded({"max_work", OptionType::real, 1e10,
               "products of polynomial coefficients one evaluation of the bounding system "
               "may take, estimated before the solve (products of models x n_mon^2; a core "
               "does a few 1e9 a second, a solve takes tens to hundreds of evaluations): a "
               "box and order above it are refused",
               {}},
              1.0, inf),
  };
}

BoundsSettings read_bounds_settings(const MethodOptions& options) {
  BoundsSettings s;
  s.order = static_cast<int>(options.get_int("order"));
  s.basis = options.get_string("basis") == "taylor" ? Basis::taylor : Basis::chebyshev;
  s.remainder = options.get_string("remainder") == "interval" ? RemainderKind::interval
                                                              : RemainderKind::ellipsoid;
  const std::string& b = options.get_string("bounder");
  s.bounder = b == "naive" ? RangeBounder::naive
                           : (b == "bernstein" ? RangeBounder::bernstein : RangeBounder::lsb);
  s.jac_order = static_cast<int>(options.get_int("jac_order"));
  if (s.jac_order > s.order) s.jac_order = s.order;
  s.scaled_trace = options.get_double("scaled_trace");
  s.ellipsoid_eps = options.get_double("ellipsoid_eps");
  s.shape_atol = options.get_double("shape_atol");
  s.max_width = options.get_double("max_width");
  s.max_work = options.get_double("max_work");
  return s;
}

const char* basis_name(Basis b) { return b == Basis::taylor ? "taylor" : "chebyshev"; }
const char* remainder_name(RemainderKind r) {
  return r == RemainderKind::interval ? "interval" : "ellipsoid";
}

}  // namespace odesens::bounds
