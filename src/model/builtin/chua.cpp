// Chua's circuit, PBS paper section 6: p1 = 7, p2 = 15, x0 = (0, 0, -0.1),
// t in [0, 10]; g(x1) = -8/7 x1 + 4/63 x1^3.
#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {
namespace {

class Chua final : public BuiltinModel {
 public:
  Chua() : BuiltinModel("builtin:chua", {"x1", "x2", "x3"}, {"p1", "p2"}, {7.0, 15.0}, 10.0) {}

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

 private:
  static double g(double x1) { return -8.0 / 7.0 * x1 + 4.0 / 63.0 * x1 * x1 * x1; }
};

}  // namespace

std::shared_ptr<Model> make_chua() { return std::make_shared<Chua>(); }

}  // namespace odesens::builtin
