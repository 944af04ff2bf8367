// The set-valued sensitivity paper's case studies (Peric, Villanueva &
// Chachuat, SIAM J. Sci. Comput. 39(6), 2017, section 5) as problems for
// the bounds methods, shared by their tests and bench_bounds: the cubic
// oscillator (5.1), the anaerobic digester (5.2, Table 2's data) and the
// batch reactor with N stages of the jacket temperature (5.3).
// Needs ODESENS_SOURCE_DIR and ODESENS_DEFAULT_SHARED_DIR defined.
#pragma once

#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/expr_model.hpp"
#include "odesens/odesens.hpp"

namespace odesens::testing {

inline std::string shared_ode_model(const std::string& file) {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return std::string(env ? env : ODESENS_DEFAULT_SHARED_DIR) + "/models/ode/" + file;
}

struct CaseStudy {
  std::string name;
  std::shared_ptr<const Model> model;
  std::vector<double> lower, upper, tout;
  std::vector<double> weights;  // n_t x nx, or empty with data
  std::vector<double> data;     // n_t x nx, NaN unobserved
};

// (57)-(59): F = integral of x1^2 over [0, t_end], the quadrature state q
// of ../shared/models/ode/cubic_oscillator.ode at t_end.
inline CaseStudy cubic_oscillator(double t_end = 100.0) {
  CaseStudy c;
  c.name = "cubic oscillator";
  c.model = load_ode_file(shared_ode_model("cubic_oscillator.ode"));
  c.lower = {1.5, -0.5};
  c.upper = {2.5, 0.5};
  c.tout = {t_end / 2, t_end};
  c.weights = {0, 0, 0, 0, 0, 1};
  return c;
}

// (60)-(71): the least-squares objective on Table 2's S1, S2 and C.
inline CaseStudy digester() {
  CaseStudy c;
  c.name = "anaerobic digester";
  c.model = load_ode_file(std::string(ODESENS_SOURCE_DIR) + "/tests/models/digester.ode");
  c.lower = {0.46, 0.92, 36.8};
  c.upper = {0.54, 1.08, 43.2};
  const double s1[] = {0.74, 0.63, 0.61, 0.58, 0.59, 0.60, 0.61, 0.63, 0.64, 0.66, 0.67, 0.70};
  const double s2[] = {2.3, 2.2, 2.2, 2.1, 2.2, 2.3, 2.3, 2.3, 2.4, 2.4, 2.4, 2.5};
  const double cm[] = {51.1, 53.4, 54.0, 54.0, 54.0, 54.0, 53.9, 53.9, 53.8, 53.8, 53.8, 53.7};
  const double nan = std::nan("");
  for (int k = 0; k < 12; ++k) {
    c.tout.push_back(0.25 * (k + 1));
    c.data.insert(c.data.end(), {nan, nan, s1[k], s2[k], nan, cm[k]});
  }
  return c;
}

// (72)-(73) with N stages of the jacket temperature Tj (piecewise constant
// on [0, 900], stage boundaries are output times); values as printed in
// the issue that cites the paper: k0 0.022, CA0 10, V 0.1, Cp 60, Ea 6000,
// R 8.314, dHR -140000, UA 3; X(0) = 0, T(0) in [350, 370] K, Tj(k) in
// [290, 310] K; F = X(900).
inline CaseStudy batch_reactor(int stages = 2) {
  std::ostringstream s;
  s << "const k0 = 0.022\nconst CA0 = 10\nconst V = 0.1\nconst Cp = 60\nconst Ea = 6000\n"
       "const R = 8.314\nconst dHR = -140000\nconst UA = 3\nparam T_0 = 360\n";
  for (int k = 1; k <= stages; ++k) s << "param Tj" << k << " = 300\n";
  s << "state X = 0\nstate T = T_0\nlet Tj = piecewise(";
  for (int k = 1; k < stages; ++k) s << "Tj" << k << ", t <= " << 900.0 * k / stages << ", ";
  s << "Tj" << stages << ")\n";
  s << "let rate = k0*exp(-Ea/(R*T))*(1 - X)\ndX/dt = rate\n"
       "dT/dt = UA/(CA0*V*Cp)*(Tj - T) - dHR/Cp*rate\n";
  CaseStudy c;
  c.name = "batch reactor N=" + std::to_string(stages);
  c.model = load_ode_text(s.str(), "batch_reactor.ode");
  const std::size_t n = static_cast<std::size_t>(stages);
  c.lower.assign(1 + n, 290.0);
  c.upper.assign(1 + n, 310.0);
  c.lower[0] = 350.0;
  c.upper[0] = 370.0;
  for (int k = 1; k <= stages; ++k) c.tout.push_back(900.0 * k / stages);
  c.weights.assign(2 * n, 0.0);
  c.weights[2 * n - 2] = 1.0;  // F = X(900)
  return c;
}

// x' = A x with A = [[-0.3, 2], [-2, -0.3]], x(0) = (p1, p2): x(t) =
// e^(-0.3 t) [[cos 2t, sin 2t], [-sin 2t, cos 2t]] p, linear in p, so
// models of order 1 are exact.
inline std::shared_ptr<const Model> damped_rotation() {
  return load_ode_text(
      "param p1 = 1\nparam p2 = 0\nstate x1 = p1\nstate x2 = p2\n"
      "dx1/dt = -0.3*x1 + 2*x2\ndx2/dt = -2*x1 - 0.3*x2\n",
      "linear.ode");
}

inline Problem bounds_problem(const CaseStudy& c, int order, const std::string& remainder,
                              const std::string& basis = "chebyshev") {
  Problem pr;
  pr.model = c.model;
  pr.output_times = c.tout;
  pr.param_lower = c.lower;
  pr.param_upper = c.upper;
  pr.adjoint_weights = c.weights;
  pr.objective_data = c.data;
  pr.options.set("order", order);
  pr.options.set("remainder", remainder);
  pr.options.set("basis", basis);
  return pr;
}

}  // namespace odesens::testing
