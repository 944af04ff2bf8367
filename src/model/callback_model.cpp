// A Model whose services are user function pointers; what the user did not
// give falls back to the defaults of Model (finite differences, products).
#include "odesens/callback_model.hpp"

#include <cmath>
#include <sstream>

#include "core/number_text.hpp"
#include "linalg/csc.hpp"
#include "model/finite_differences.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

std::vector<std::string> default_names(const char* prefix, std::size_t n) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i + 1));
  return names;
}

class CallbackModel final : public Model {
 public:
  explicit CallbackModel(CallbackModelSpec spec) : s_(std::move(spec)) {
    if (has_pattern()) groups_ = detail::group_structurally_orthogonal_columns(s_.pattern);
  }

  std::size_t nx() const override { return s_.nx; }
  std::size_t np() const override { return s_.np; }
  const std::vector<std::string>& state_names() const override { return s_.state_names; }
  const std::vector<std::string>& param_names() const override { return s_.param_names; }
  std::vector<double> nominal_params() const override { return s_.nominal_params; }
  std::string name() const override { return s_.name; }
  double default_t0() const override { return s_.t0; }
  double default_t_end() const override { return s_.t_end; }

  void initial_state(const double* p, double* x0, Workspace* = nullptr) const override {
    if (!s_.initial_state) {
      std::copy(s_.x0.begin(), s_.x0.end(), x0);
      return;
    }
    check(s_.initial_state(p, x0, s_.user), "x0 (initial_state)", nullptr);
  }

  // Without an initial_state callback x0 is data.
  bool initial_state_depends_on_params() const override {
    return s_.initial_sensitivity || s_.initial_state;
  }
  void initial_sensitivity(const double* p, double* dx0_dp,
                           Workspace* ws = nullptr) const override {
    if (s_.initial_sensitivity)
      check(s_.initial_sensitivity(p, dx0_dp, s_.user), "dx0dp (initial_sensitivity)", nullptr);
    else if (s_.initial_state)
      fd_initial_sensitivity(p, dx0_dp, ws);
    else
      Model::initial_sensitivity(p, dx0_dp, ws);
  }

  void rhs(double t, const double* x, const double* p, double* xdot,
           Workspace* = nullptr) const override {
    check(s_.f(t, x, p, xdot, s_.user), "f", &t);
  }

  bool has_analytic_jacobians() const override {
    return (s_.jac_x || s_.jac_x_sparse) && s_.jac_p;
  }

  void jac_x(double t, const double* x, const double* p, double* J,
             Workspace* ws = nullptr) const override {
    if (s_.jac_x) {
      check(s_.jac_x(t, x, p, J, s_.user), "jac_x", &t);
    } else if (s_.jac_x_sparse) {
      std::unique_ptr<Workspace> local;
      double* values = workspace_or_local(*this, ws, local)
                           .scratch(Workspace::Scratch::jacobian_values, s_.pattern.nnz());
      check(s_.jac_x_sparse(t, x, p, values, s_.user), "jac_x_sparse", &t);
      linalg::csc_to_dense(s_.pattern, values, J);
    } else {
      Model::jac_x(t, x, p, J, ws);
    }
  }

  const SparsityPattern* jac_x_pattern() const override {
    return has_pattern() ? &s_.pattern : nullptr;
  }

  void jac_x_values(double t, const double* x, const double* p, double* values,
                    Workspace* ws = nullptr) const override {
    if (s_.jac_x_sparse)
      check(s_.jac_x_sparse(t, x, p, values, s_.user), "jac_x_sparse", &t);
    else if (has_pattern() && !s_.jac_x)
      fd_jac_x_grouped(t, x, p, values, ws);
    else
      Model::jac_x_values(t, x, p, values, ws);
  }

  void jac_p(double t, const double* x, const double* p, double* Jp,
             Workspace* ws = nullptr) const override {
    if (s_.jac_p)
      check(s_.jac_p(t, x, p, Jp, s_.user), "jac_p", &t);
    else
      Model::jac_p(t, x, p, Jp, ws);
  }

  void jvp(double t, const double* x, const double* p, std::size_t nv, const double* V,
           double* out, Workspace* ws = nullptr) const override {
    if (s_.jvp)
      check(s_.jvp(t, x, p, static_cast<std::int64_t>(nv), V, out, s_.user), "jvp", &t);
    else
      Model::jvp(t, x, p, nv, V, out, ws);
  }

  void vjp_x(double t, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws = nullptr) const override {
    if (s_.vjp)
      check(s_.vjp(t, x, p, static_cast<std::int64_t>(nw), W, out, nullptr, s_.user), "vjp",
            &t);
    else
      Model::vjp_x(t, x, p, nw, W, out, ws);
  }

  void vjp_p(double t, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws = nullptr) const override {
    if (s_.vjp)
      check(s_.vjp(t, x, p, static_cast<std::int64_t>(nw), W, nullptr, out, s_.user), "vjp",
            &t);
    else
      Model::vjp_p(t, x, p, nw, W, out, ws);
  }

 private:
  bool has_pattern() const { return s_.pattern.rows != 0; }

  void fd_initial_sensitivity(const double* p, double* dx0_dp, Workspace* ws) const {
    std::unique_ptr<Workspace> local;
    detail::fd_initial_sensitivity(*this, p, dx0_dp, workspace_or_local(*this, ws, local));
  }
  void fd_jac_x_grouped(double t, const double* x, const double* p, double* values,
                        Workspace* ws) const {
    std::unique_ptr<Workspace> local;
    detail::fd_jac_x_grouped(*this, s_.pattern, groups_, t, x, p, values,
                             workspace_or_local(*this, ws, local));
  }

  static void check(int code, const char* which, const double* t) {
    if (code == 0) return;
    std::ostringstream msg;
    msg << "user function '" << which << "' returned " << code;
    if (t) msg << " at t = " << number_text(*t);
    throw Error(Status::callback_failed, msg.str());
  }

  CallbackModelSpec s_;
  std::vector<std::vector<std::size_t>> groups_;
};

void check_names(std::vector<std::string>& names, std::size_t n, const char* prefix,
                 const char* what) {
  if (names.empty()) {
    names = default_names(prefix, n);
    return;
  }
  if (names.size() != n)
    throw Error(Status::invalid_argument, std::string(what) + ": " +
                                              std::to_string(names.size()) +
                                              " names given for " + std::to_string(n));
}

}  // namespace

std::shared_ptr<Model> make_callback_model(CallbackModelSpec spec) {
  auto fail = [](const std::string& what) { throw Error(Status::invalid_argument, what); };
  if (!spec.f) fail("callback model: the right-hand side f is required");
  check_names(spec.state_names, spec.nx, "x", "state names");
  check_names(spec.param_names, spec.np, "p", "parameter names");
  if (spec.nominal_params.empty()) spec.nominal_params.assign(spec.np, 0.0);
  if (spec.nominal_params.size() != spec.np)
    fail("callback model: " + std::to_string(spec.nominal_params.size()) +
         " nominal parameter values for np = " + std::to_string(spec.np));
  for (double v : spec.nominal_params)
    if (!std::isfinite(v)) throw Error(Status::not_finite, "callback model: nominal parameter is NaN or Inf");
  if (spec.x0.empty()) spec.x0.assign(spec.nx, 0.0);
  if (spec.x0.size() != spec.nx)
    fail("callback model: x0 has " + std::to_string(spec.x0.size()) + " entries for nx = " +
         std::to_string(spec.nx));
  for (double v : spec.x0)
    if (!std::isfinite(v)) throw Error(Status::not_finite, "callback model: x0 is NaN or Inf");
  if (!(spec.t_end > spec.t0)) fail("callback model: t_end must be greater than t0");
  if (spec.pattern.rows != 0 || !spec.pattern.col_ptr.empty()) {
    if (spec.pattern.rows != spec.nx || spec.pattern.cols != spec.nx)
      fail("callback model: sparsity pattern must be nx x nx");
    spec.pattern.validate();
  }
  if (spec.jac_x_sparse && spec.pattern.rows == 0)
    fail("callback model: a sparse Jacobian callback needs a sparsity pattern");
  return std::make_shared<CallbackModel>(std::move(spec));
}

}  // namespace odesens
