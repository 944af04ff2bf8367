// Model: the ODE system dx/dt = f(t, x, p), x(t0) = x0(p), and the
// derivative services the methods need.
//
// A Model knows its sizes, names, nominal parameters and right-hand side.
// Everything else has a default implementation in terms of simpler services
// (dense Jacobians by central differences, products by dense matrix algebra),
// so a model source overrides exactly what it can do better. Methods ask
// `has_analytic_jacobians()` to decide whether to trust J_x and J_p or let
// their integrator approximate them.
//
// Conventions: dense matrices are column-major. J_x is nx x nx, J_p is
// nx x np, dx0/dp is nx x np. Several vectors at once are passed as the
// columns of a column-major block.
//
// Thread safety: a Model is immutable once built. Every evaluation function
// is const and takes the caller's Workspace (workspace.hpp; made by
// make_workspace()), which holds everything that changes during evaluation,
// so one model may be evaluated by several threads at once, each with its
// own workspace (provided the user functions behind the model allow it).
// The workspace argument may be omitted for one-off calls; a temporary one
// is then used.
//
// Optional capabilities (model_capabilities.hpp): second derivatives,
// batched f over lanes, named observables, source details. Each accessor
// returns null (or an empty list) when the model lacks it.
//
// Errors: evaluation functions throw odesens::Error (callback_failed when a
// user function reports failure).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "odesens/model_capabilities.hpp"
#include "odesens/sparsity.hpp"
#include "odesens/workspace.hpp"

namespace odesens {

class Model {
 public:
  virtual ~Model() = default;

  virtual std::size_t nx() const = 0;
  virtual std::size_t np() const = 0;
  virtual const std::vector<std::string>& state_names() const = 0;
  virtual const std::vector<std::string>& param_names() const = 0;
  virtual std::vector<double> nominal_params() const = 0;
  // Short description used by `odesens info` and in results.
  virtual std::string name() const = 0;

  // Time span the model is meant for, used when the caller gives none.
  virtual double default_t0() const { return 0.0; }
  virtual double default_t_end() const { return 1.0; }

  // x0(p) and dx0/dp (nx x np). The defaults: x0 is model data and
  // independent of p (dx0/dp = 0).
  virtual void initial_state(const double* p, double* x0, Workspace* ws = nullptr) const = 0;
  virtual void initial_sensitivity(const double* p, double* dx0_dp,
                                   Workspace* ws = nullptr) const;
  // False when dx0/dp is known to be zero (x0 is data), so that methods may
  // skip forming the nx x np matrix. Default: true (it may depend on p).
  virtual bool initial_state_depends_on_params() const { return true; }

  virtual void rhs(double t, const double* x, const double* p, double* xdot,
                   Workspace* ws = nullptr) const = 0;

  // True when jac_x / jac_p are exact (analytic or symbolic), false when
  // they fall back to finite differences.
  virtual bool has_analytic_jacobians() const { return false; }

  // True when J_x and J_p depend on neither t nor x (f affine in x with
  // coefficients independent of t), so that methods may evaluate them once.
  virtual bool has_constant_jacobians() const { return false; }

  // False when f reads t nowhere (f(t, x, p) = f(x, p)), so that a state at
  // rest (f = 0) stays there unless events move it. Default true; models
  // that know (ExprModel) override it.
  virtual bool rhs_depends_on_time() const { return true; }

  // A kink of f that moves with t or x (min, max or abs of them: f is
  // continuous there, J_x or J_p jumps) as text for messages ("'min' kink
  // `min(x, a)`"); empty where f has none or the model does not tell (the
  // default). Integrators do not locate kinks; a discrete adjoint that
  // steps across one is off (erk_adjoint warns).
  virtual std::string rhs_kink() const { return {}; }

  // Which of f and J_x, and of the columns `columns` of J_p (all np where
  // null), may change with t at parameters p. f may read t only through
  // terms that vanish there (an input times a dose that is 0): f is then
  // autonomous at p, while J_p's column of the dose still reads t.
  // Conservative (true where unsure). Default: rhs_depends_on_time() for
  // both; ExprModel decides it from its expressions.
  // `jac_p_between_switches`: J_p's columns may change with t other than
  // at the switches of f (t reaching them only through conditions, as in
  // `piecewise(dose, t > 2 && t < 5, 0)`, makes them constant between).
  struct TimeReading {
    bool rhs = true;                     // f or J_x
    bool jac_p = true;                   // the chosen columns of J_p
    bool jac_p_between_switches = true;  // the same, between switches
  };
  virtual TimeReading time_reading_at(const double* p,
                                      const std::vector<std::size_t>* columns) const {
    (void)p;
    (void)columns;
    const bool t = rhs_depends_on_time();
    return {t, t, t};
  }

  // Dense J_x (nx x nx, column-major). Default: central differences of rhs,
  // see finite_difference_step() for the step rule.
  virtual void jac_x(double t, const double* x, const double* p, double* J,
                     Workspace* ws = nullptr) const;

  // Sparsity of J_x, or nullptr when the model does not know it.
  virtual const SparsityPattern* jac_x_pattern() const { return nullptr; }
  // Values of J_x in the order of jac_x_pattern(). Default: gathered from
  // jac_x(), or, when the model has a pattern but no analytic Jacobian, from
  // central differences with columns grouped so that structurally
  // orthogonal columns share one pair of rhs evaluations.
  virtual void jac_x_values(double t, const double* x, const double* p, double* values,
                            Workspace* ws = nullptr) const;

  // The partial derivative of f in t at fixed x and p (nx), which
  // Rosenbrock methods need for non-autonomous f (HNW II (7.4')). Default:
  // central differences of rhs in t with step finite_difference_step(t),
  // exactly zero for a model whose f ignores t; models that know it
  // (ExprModel symbolically, the autonomous built-ins) override it.
  virtual void dfdt(double t, const double* x, const double* p, double* out,
                    Workspace* ws = nullptr) const;

  // Dense J_p (nx x np). Default: central differences of rhs in p.
  virtual void jac_p(double t, const double* x, const double* p, double* Jp,
                     Workspace* ws = nullptr) const;

  // Sparsity of J_p (nx x np), or nullptr when the model does not know it.
  // Large models should give it: methods then keep J_p in O(nnz) memory.
  virtual const SparsityPattern* jac_p_pattern() const { return nullptr; }
  // Values of J_p in the order of jac_p_pattern() (all nx*np entries,
  // column-major, without a pattern). Default: gathered from jac_p().
  virtual void jac_p_values(double t, const double* x, const double* p, double* values,
                            Workspace* ws = nullptr) const;

  // out (nx x nv) = J_x V for V (nx x nv).
  virtual void jvp(double t, const double* x, const double* p, std::size_t nv,
                   const double* V, double* out, Workspace* ws = nullptr) const;
  // out (nx x nw) = J_x^T W for W (nx x nw).
  virtual void vjp_x(double t, const double* x, const double* p, std::size_t nw,
                     const double* W, double* out, Workspace* ws = nullptr) const;
  // out (np x nw) = J_p^T W for W (nx x nw).
  virtual void vjp_p(double t, const double* x, const double* p, std::size_t nw,
                     const double* W, double* out, Workspace* ws = nullptr) const;
  // out_x (nx x nw) = J_x^T W and out_p (np x nw) += J_p^T W for W (nx x nw):
  // the two products an adjoint sweep needs per stage, the parameter part
  // accumulated in place (no np x nw temporary). out_p may be null (only
  // out_x). Default: vjp_x, then vjp_p into workspace scratch added to
  // out_p; models with a cheaper fused form override it.
  virtual void vjp_accumulate(double t, const double* x, const double* p, std::size_t nw,
                              const double* W, double* out_x, double* out_p,
                              Workspace* ws = nullptr) const;

  // The parameter parts of the adjoint products at n points, summed:
  // out_p (np x nw) += sum_q J_p(t[q], X_q)^T W_q, X (nx x n, column q the
  // point's state), W (nx x nw per point, point slowest). Default: one
  // vjp_p per point added in.
  virtual void vjp_p_accumulate_points(std::size_t n, const double* t, const double* X,
                                       const double* p, std::size_t nw, const double* W,
                                       double* out_p, Workspace* ws = nullptr) const;
  // True when vjp_p_accumulate_points over several points costs about what
  // one point's parameter products cost (J_p^T W of a few points is then
  // one low-rank update of out_p, as for glv): adjoint sweeps then take
  // vjp_x at each stage and the parameter parts of a whole step at once,
  // so that the np x nw block is read and written once per step.
  virtual bool batches_parameter_products() const { return false; }

  // A workspace for evaluating this model (see workspace.hpp). lane_width:
  // SIMD lanes of batched evaluations, 0 for the widest this model and CPU
  // support; a model without lanes ignores it. Throws Error(unsupported)
  // for a width it supports but the CPU lacks.
  virtual std::unique_ptr<Workspace> make_workspace(int lane_width = 0) const;

  // Optional capabilities (model_capabilities.hpp); null when absent.
  virtual const SecondDerivatives* second_derivatives() const { return nullptr; }
  virtual const BatchedRhs* batched_rhs() const { return nullptr; }
  virtual const ObservableSet* observable_set() const { return nullptr; }
  virtual const RetainedValues* retained_values() const { return nullptr; }
  // Events and switches of f; null (or one with no events and no roots) when the model has none.
  virtual const EventSystem* event_system() const { return nullptr; }
  // Facts about the model's source for `odesens info`, in order (for SBML:
  // level, version, counts of reactions, rules...); empty when none.
  virtual const std::vector<std::pair<std::string, std::string>>& source_details() const;
};

// The caller's workspace, or `local` (made on first use) when there is none:
// the one-off path of every evaluation function.
inline Workspace& workspace_or_local(const Model& model, Workspace* ws,
                                     std::unique_ptr<Workspace>& local) {
  if (ws) return *ws;
  if (!local) local = model.make_workspace(1);
  return *local;
}

// The step used by every finite-difference fallback for the variable with
// value v: h = cbrt(machine epsilon) * max(|v|, 1), the step that balances
// truncation and rounding error of central differences for unit-scaled
// variables. Variables of very small scale should be given analytically.
double finite_difference_step(double v);

}  // namespace odesens
