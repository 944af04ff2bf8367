// Van der Pol oscillator, adjoint paper section 4.2: mu = 1000, x(0) = 2,
// v(0) = -2/3 + 10/(81 mu) - 292/(2187 mu^2), t in [0, 0.5].
#include <algorithm>

#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {
namespace {

// SecondDerivatives, analytic (indices 1-based in this comment). With
// q = (1 - x^2) v - x (so f2 = mu q):
//   J = [[0, 1], [-mu (2 x v + 1), mu (1 - x^2)]],
//   a = J f = (f2, J21 f1 + J22 f2)  (autonomous: df/dt = 0, da/dt = 0),
//   da/dx = J J + sum_j f_j dJ[:, j]/dx; only row 2 of J depends on x:
//           dJ21/dx = -2 mu v, dJ21/dv = -2 mu x, dJ22/dx = -2 mu x,
//           dJ22/dv = 0, so row 2 gains (-2 mu (v f1 + x f2), -2 mu x f1),
//   da/dmu = (dJ/dmu) f + J (df/dmu) with dJ/dmu = J / mu in row 2 (row 1
//           is 0) and df/dmu = (0, q):
//           da/dmu = (q, -(2 x v + 1) f1 + (1 - x^2) f2 + J22 q).
// The initial state depends on mu, but x0 plays no part in a(t, x, p).
// J^2 is structurally full, so da/dx uses the dense 2 x 2 pattern.
class VanDerPol final : public BuiltinModel, public SecondDerivatives {
 public:
  VanDerPol()
      : BuiltinModel("builtin:vanderpol", {"x", "v"}, {"mu"}, {1000.0}, 0.5),
        xddot_pattern_(SparsityPattern::dense(2, 2)) {}

  const SecondDerivatives* second_derivatives() const override { return this; }

  void initial_state(const double* p, double* x0, Workspace* ws = nullptr) const override {
    const double mu = p[0];
    x0[0] = 2.0;
    x0[1] = -2.0 / 3.0 + 10.0 / (81.0 * mu) - 292.0 / (2187.0 * mu * mu);
  }

  bool initial_state_depends_on_params() const override { return true; }
  void initial_sensitivity(const double* p, double* s0, Workspace* ws = nullptr) const override {
    const double mu = p[0];
    s0[0] = 0.0;
    s0[1] = -10.0 / (81.0 * mu * mu) + 584.0 / (2187.0 * mu * mu * mu);
  }

  void rhs(double, const double* x, const double* p, double* f, Workspace* ws = nullptr) const override {
    f[0] = x[1];
    f[1] = p[0] * (1.0 - x[0] * x[0]) * x[1] - p[0] * x[0];
  }

  void jac_x(double, const double* x, const double* p, double* J, Workspace* ws = nullptr) const override {
    J[0] = 0.0;
    J[1] = -2.0 * p[0] * x[0] * x[1] - p[0];
    J[2] = 1.0;
    J[3] = p[0] * (1.0 - x[0] * x[0]);
  }

  void jac_p(double, const double* x, const double*, double* Jp, Workspace* ws = nullptr) const override {
    Jp[0] = 0.0;
    Jp[1] = (1.0 - x[0] * x[0]) * x[1] - x[0];
  }

  void xddot(double t, const double* x, const double* p, double* a,
             Workspace* ws = nullptr) const override {
    double f[2], J[4];
    rhs(t, x, p, f, ws);
    jac_x(t, x, p, J, ws);
    a[0] = f[1];
    a[1] = J[1] * f[0] + J[3] * f[1];
  }

  const SparsityPattern& xddot_jac_x_pattern() const override { return xddot_pattern_; }

  // The dense pattern lists the entries column by column, as the dense matrix.
  void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override {
    xddot_jac_x(t, x, p, values, ws);
  }

  void xddot_jac_x(double t, const double* x, const double* p, double* Ja,
                   Workspace* ws = nullptr) const override {
    double f[2], J[4];
    rhs(t, x, p, f, ws);
    jac_x(t, x, p, J, ws);
    const double mu = p[0];
    // J^2, column-major; J[0] = J11 = 0.
    Ja[0] = J[2] * J[1];
    Ja[1] = J[1] * J[0] + J[3] * J[1];
    Ja[2] = J[2] * J[3];
    Ja[3] = J[1] * J[2] + J[3] * J[3];
    Ja[1] += -2.0 * mu * (x[1] * f[0] + x[0] * f[1]);
    Ja[3] += -2.0 * mu * x[0] * f[0];
  }

  void xddot_jac_p(double t, const double* x, const double* p, double* Ap,
                   Workspace* ws = nullptr) const override {
    double f[2], J[4];
    rhs(t, x, p, f, ws);
    jac_x(t, x, p, J, ws);
    const double q = (1.0 - x[0] * x[0]) * x[1] - x[0];
    Ap[0] = q;
    Ap[1] = -(2.0 * x[0] * x[1] + 1.0) * f[0] + (1.0 - x[0] * x[0]) * f[1] + J[3] * q;
  }

  // Autonomous: f does not depend on t.
  void dfdt(double, const double*, const double*, double* out,
            Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

  void xddot_dt(double, const double*, const double*, double* out,
                Workspace* = nullptr) const override {
    out[0] = out[1] = 0.0;
  }

 private:
  SparsityPattern xddot_pattern_;
};

}  // namespace

std::shared_ptr<Model> make_vanderpol() { return std::make_shared<VanDerPol>(); }

}  // namespace odesens::builtin
