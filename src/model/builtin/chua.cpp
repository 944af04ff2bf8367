// Chua's circuit, PBS paper section 6: p1 = 7, p2 = 15, x0 = (0, 0, -0.1),
// t in [0, 10]; g(x1) = -8/7 x1 + 4/63 x1^3.
#include <algorithm>

#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {
namespace {

// SecondDerivatives, analytic (indices 1-based in this comment). With c = 1 + g'(x1), g' = -8/7 + 4/21 x1^2,
// g'' = 8/21 x1 and h = x2 - x1 - g(x1) (so f1 = p1 h):
//   J = [[-p1 c, p1, 0], [1, -1, 1], [0, -p2, 0]],
//   a = J f  (autonomous: df/dt = 0, so da/dt = 0 too),
//   da/dx = J J + sum_j f_j dJ[:, j]/dx; only J11 = -p1 c depends on x (on
//           x1, with derivative -p1 g''), so da/dx = J^2 + e1 e1^T (-p1 g'' f1),
//   da/dp_m = (dJ/dp_m) f + J (df/dp_m):
//     p1: dJ/dp1 has row 1 = (-c, 1, 0) and df/dp1 = h e1, so
//         da/dp1 = (-c f1 + f2, 0, 0) + h J[:, 1],
//     p2: dJ/dp2 has J32 entry -1 and df/dp2 = -x2 e3, so
//         da/dp2 = (0, 0, -f2) - x2 J[:, 3] = (0, -x2, -f2).
// J^2 is structurally full, so da/dx uses the dense 3 x 3 pattern.
class Chua final : public BuiltinModel, public SecondDerivatives {
 public:
  Chua()
      : BuiltinModel("builtin:chua", {"x1", "x2", "x3"}, {"p1", "p2"}, {7.0, 15.0}, 10.0),
        xddot_pattern_(SparsityPattern::dense(3, 3)) {}

  const SecondDerivatives* second_derivatives() const override { return this; }

  void initial_state(const double*, double* x0, Workspace* ws = nullptr) const override {
    x0[0] = 0.0;
    x0[1] = 0.0;
    x0[2] = -0.1;
  }

  void rhs(double, const double* x, const double* p, double* f, Workspace* ws = nullptr) const override {
    f[0] = p[0] * (x[1] - x[0] - g(x[0]));
    f[1] = x[0] - x[1] + x[2];
    f[2] = -p[1] * x[1];
  }

  void jac_x(double, const double* x, const double* p, double* J, Workspace* ws = nullptr) const override {
    const double dg = -8.0 / 7.0 + 12.0 / 63.0 * x[0] * x[0];
    // column-major 3 x 3
    J[0] = -p[0] * (1.0 + dg); J[1] = 1.0;  J[2] = 0.0;
    J[3] = p[0];               J[4] = -1.0; J[5] = -p[1];
    J[6] = 0.0;                J[7] = 1.0;  J[8] = 0.0;
  }

  void jac_p(double, const double* x, const double*, double* Jp, Workspace* ws = nullptr) const override {
    Jp[0] = x[1] - x[0] - g(x[0]); Jp[1] = 0.0; Jp[2] = 0.0;
    Jp[3] = 0.0;                   Jp[4] = 0.0; Jp[5] = -x[1];
  }

  void xddot(double t, const double* x, const double* p, double* a,
             Workspace* ws = nullptr) const override {
    double f[3], J[9];
    rhs(t, x, p, f, ws);
    jac_x(t, x, p, J, ws);
    for (int i = 0; i < 3; ++i) a[i] = J[i] * f[0] + J[i + 3] * f[1] + J[i + 6] * f[2];
  }

  const SparsityPattern& xddot_jac_x_pattern() const override { return xddot_pattern_; }

  // The dense pattern lists the entries column by column, as the dense matrix.
  void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override {
    xddot_jac_x(t, x, p, values, ws);
  }

  void xddot_jac_x(double t, const double* x, const double* p, double* Ja,
                   Workspace* ws = nullptr) const override {
    double f[3], J[9];
    rhs(t, x, p, f, ws);
    jac_x(t, x, p, J, ws);
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 3; ++i)
        Ja[i + 3 * k] = J[i] * J[3 * k] + J[i + 3] * J[1 + 3 * k] + J[i + 6] * J[2 + 3 * k];
    const double d2g = 8.0 / 21.0 * x[0];
    Ja[0] += -p[0] * d2g * f[0];
  }

  void xddot_jac_p(double t, const double* x, const double* p, double* Ap,
                   Workspace* ws = nullptr) const override {
    double f[3], J[9];
    rhs(t, x, p, f, ws);
    jac_x(t, x, p, J, ws);
    const double c = 1.0 + (-8.0 / 7.0 + 12.0 / 63.0 * x[0] * x[0]);
    const double h = x[1] - x[0] - g(x[0]);
    Ap[0] = -c * f[0] + f[1] + h * J[0];
    Ap[1] = h * J[1];
    Ap[2] = h * J[2];
    Ap[3] = 0.0;
    Ap[4] = -x[1];
    Ap[5] = -f[1];
  }

  // Autonomous: f does not depend on t.
  void dfdt(double, const double*, const double*, double* out,
            Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

  void xddot_dt(double, const double*, const double*, double* out,
                Workspace* = nullptr) const override {
    out[0] = out[1] = out[2] = 0.0;
  }

 private:
  static double g(double x1) { return -8.0 / 7.0 * x1 + 4.0 / 63.0 * x1 * x1 * x1; }

  SparsityPattern xddot_pattern_;
};

}  // namespace

std::shared_ptr<Model> make_chua() { return std::make_shared<Chua>(); }

}  // namespace odesens::builtin
