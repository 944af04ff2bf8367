#include "methods/bounds/parameter_box.hpp"

#include <algorithm>

namespace odesens::bounds {

ParameterBox make_parameter_box(const std::vector<double>& lower,
                                const std::vector<double>& upper) {
  ParameterBox box;
  box.lower = lower;
  box.upper = upper;
  const std::size_t np = lower.size();
  box.mid.resize(np);
  box.rad.resize(np);
  box.variable.assign(np, ParameterBox::npos);
  for (std::size_t j = 0; j < np; ++j) {
    const double lo = lower[j], hi = upper[j];
    if (lo == hi) {
      box.mid[j] = lo;
      box.rad[j] = 0.0;
      continue;
    }
    // Any double in [lo, hi] will do as the centre; the radius is rounded
    // up (the scope rounds upward), so [lo, hi] lies in mid +- rad.
    double m = lo * 0.5 + hi * 0.5;
    m = std::min(std::max(m, lo), hi);
    box.mid[j] = m;
    box.rad[j] = std::max(hi - m, m - lo);  // both rounded up
    box.variable[j] = box.n_variables++;
  }
  return box;
}

std::vector<PolyModel> parameter_models(const ParameterBox& box, const PolyArithmetic& arith) {
  std::vector<PolyModel> p(box.mid.size(), arith.make());
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (box.variable[j] == ParameterBox::npos)
      arith.set_constant(p[j], box.mid[j]);
    else
      arith.set_affine(p[j], box.variable[j], box.mid[j], box.rad[j]);
  }
  return p;
}

}  // namespace odesens::bounds
