#include "support/reference.hpp"

#include <algorithm>
#include <cmath>

namespace odesens::testing {

std::vector<double> linspace(double a, double b, std::size_t n) {
  std::vector<double> t(n);
  for (std::size_t k = 0; k < n; ++k)
    t[k] = k + 1 == n ? b : a + (b - a) * static_cast<double>(k) / static_cast<double>(n - 1);
  return t;
}

Problem builtin_problem(const std::string& spec, std::vector<double> times) {
  Problem p;
  p.model = make_builtin_model(spec);
  p.t0 = p.model->default_t0();
  p.output_times = std::move(times);
  return p;
}

namespace {

// The model with its parameters fixed at p and hidden (np = 0), so that
// the forward method integrates the trajectory alone.
class FrozenParameters final : public Model {
 public:
  FrozenParameters(std::shared_ptr<const Model> inner, std::vector<double> p)
      : inner_(std::move(inner)), p_(std::move(p)) {}
  std::size_t nx() const override { return inner_->nx(); }
  std::size_t np() const override { return 0; }
  const std::vector<std::string>& state_names() const override { return inner_->state_names(); }
  const std::vector<std::string>& param_names() const override { return none_; }
  std::vector<double> nominal_params() const override { return {}; }
  std::string name() const override { return inner_->name(); }
  void initial_state(const double*, double* x0, Workspace* ws = nullptr) const override {
    inner_->initial_state(p_.data(), x0, ws);
  }
  void rhs(double t, const double* x, const double*, double* f,
           Workspace* ws = nullptr) const override {
    inner_->rhs(t, x, p_.data(), f, ws);
  }
  // Evaluations run on the inner model, with its workspace.
  std::unique_ptr<Workspace> make_workspace(int lane_width = 0) const override {
    return inner_->make_workspace(lane_width);
  }
  bool has_analytic_jacobians() const override { return inner_->has_analytic_jacobians(); }
  void jac_x(double t, const double* x, const double*, double* J,
             Workspace* ws = nullptr) const override {
    inner_->jac_x(t, x, p_.data(), J, ws);
  }
  void jac_p(double, const double*, const double*, double*, Workspace* = nullptr) const override {}

 private:
  std::shared_ptr<const Model> inner_;
  std::vector<double> p_;
  std::vector<std::string> none_;
};

std::vector<double> trajectory(const Problem& base, const std::vector<double>& p) {
  Problem pr;
  pr.model = std::make_shared<FrozenParameters>(base.model, p);
  pr.t0 = base.t0;
  pr.output_times = base.output_times;
  pr.rtol = 1e-12;
  pr.atol = {1e-14};
  pr.max_steps = 1000000;
  if (!base.initial_state.empty()) pr.initial_state = base.initial_state;
  return solve(pr, "cvodes_fsa").x;
}

}  // namespace

std::vector<double> central_difference_sensitivities(const Problem& problem, double rel_step) {
  const std::size_t nx = problem.model->nx(), np = problem.model->np();
  const std::size_t nt = problem.output_times.size();
  const std::vector<double> p = effective_params(problem);
  std::vector<double> s(nx * np * nt);
  for (std::size_t j = 0; j < np; ++j) {
    const double h = rel_step * std::max(std::fabs(p[j]), 1e-3);
    auto plus = p, minus = p;
    plus[j] += h;
    minus[j] -= h;
    const auto xp = trajectory(problem, plus), xm = trajectory(problem, minus);
    const double width = plus[j] - minus[j];
    for (std::size_t k = 0; k < nt; ++k)
      for (std::size_t i = 0; i < nx; ++i)
        s[i + j * nx + k * nx * np] = (xp[i + k * nx] - xm[i + k * nx]) / width;
  }
  return s;
}

double relative_max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  if (a.size() != b.size()) return INFINITY;
  return scale > 0.0 ? diff / scale : diff;
}

}  // namespace odesens::testing
