// Van der Pol oscillator, adjoint paper section 4.2: mu = 1000, x(0) = 2,
// v(0) = -2/3 + 10/(81 mu) - 292/(2187 mu^2), t in [0, 0.5].
#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {
namespace {

class VanDerPol final : public BuiltinModel {
 public:
  VanDerPol() : BuiltinModel("builtin:vanderpol", {"x", "v"}, {"mu"}, {1000.0}, 0.5) {}

  void initial_state(const double* p, double* x0, Workspace* ws = nullptr) const override {
    const double mu = p[0];
    x0[0] = 2.0;
    x0[1] = -2.0 / 3.0 + 10.0 / (81.0 * mu) - 292.0 / (2187.0 * mu * mu);
  }

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
};

}  // namespace

std::shared_ptr<Model> make_vanderpol() { return std::make_shared<VanDerPol>(); }

}  // namespace odesens::builtin
