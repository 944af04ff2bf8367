// ExprModel: a Model given as expressions, from `.ode` text (see
// design/MODEL_FORMAT.md), from SBML (sbml_model.hpp) or from a C++
// function recorded with odesens::record() (record.hpp).
//
// Every derivative is exact: J_x, J_p, df/dt and dx0/dp are differentiated
// symbolically once, at load time, and compiled to flat instruction tapes;
// the sparsity pattern of J_x is the set of structurally non-zero entries.
// Products with J_x and J_p run on SIMD lanes, several vectors per pass:
// jvp in forward mode, vjp_x / vjp_p / vjp_accumulate in reverse mode. The
// lane width L is 8 with AVX-512, 4 with AVX2 and 1 otherwise, chosen from
// the CPU at run time.
//
// Beyond Model, the services the odeSD method needs: the second time
// derivative along solutions, xddot = J_x f + df/dt, with its sparse state
// Jacobian and its parameter Jacobian (built on first use); the model's
// outputs (`output NAME = EXPR`); and f at several points at once.
//
// Scalar evaluations (f, J_x, J_p, xddot...) run as native x86-64 code
// generated at load time where the platform allows (set ODESENS_JIT=0 to use
// the portable interpreter; both give bitwise identical results). Work that
// depends only on p is cached in the caller's Workspace and redone when p
// changes.
//
// A built ExprModel is immutable. Register files live in the Workspace of
// whoever evaluates (make_workspace(lane_width)): evaluation with a
// workspace allocates nothing per call once its buffers have grown, and
// several threads may evaluate one model at once, each with its own
// workspace. A workspace made by another model is refused
// (Error(invalid_argument)). Without a workspace a temporary one is used.
//
// Capabilities (model_capabilities.hpp): SecondDerivatives, BatchedRhs and
// ObservableSet are all provided.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

class ExprModel final : public Model,
                        public SecondDerivatives,
                        public BatchedRhs,
                        public ObservableSet,
                        public RetainedValues,
                        public EventSystem {
 public:
  class Impl;
  explicit ExprModel(std::unique_ptr<Impl> impl);
  ~ExprModel() override;

  std::size_t nx() const override;
  std::size_t np() const override;
  const std::vector<std::string>& state_names() const override;
  const std::vector<std::string>& param_names() const override;
  std::vector<double> nominal_params() const override;
  std::string name() const override;
  double default_t0() const override;
  // The model's end time: `time t_end = ...` of .ode files, 100 for SBML
  // (which has none), 1 when the source gives none (t0 + 1 for a t0 at or
  // past 1).
  double default_t_end() const override;

  // Workspaces with register files for this model; lane_width 1, 4 or 8
  // (0: the widest the CPU supports), Error(unsupported) for a width the CPU
  // or the build lacks.
  std::unique_ptr<Workspace> make_workspace(int lane_width = 0) const override;

  const SecondDerivatives* second_derivatives() const override { return this; }
  const BatchedRhs* batched_rhs() const override { return this; }
  const ObservableSet* observable_set() const override { return this; }
  const RetainedValues* retained_values() const override { return this; }
  // Events (.ode `event`, SBML <event>) and the comparisons f switches on;
  // null when the model has neither.
  const EventSystem* event_system() const override;

  // EventSystem (model_capabilities.hpp); Error(invalid_argument) when
  // event_system() is null.
  const std::vector<Event>& events() const override;
  const std::vector<Root>& roots() const override;
  void root_values(double t, const double* x, const double* p, double* g,
                   Workspace* ws = nullptr) const override;
  void root_gradient(std::size_t i, double t, const double* x, const double* p, double* g_t,
                     double* g_x, double* g_p, Workspace* ws = nullptr) const override;
  bool root_range_over_time(std::size_t i, double ta, double tb, const double* p, double* lo,
                            double* hi, Workspace* ws = nullptr) const override;
  void triggers(const int* sides, bool* out) const override;
  const std::vector<std::size_t>& trigger_roots(std::size_t k) const override;
  double delay(std::size_t k, double t, const double* x, const double* p,
               Workspace* ws = nullptr) const override;
  void delay_gradient(std::size_t k, double t, const double* x, const double* p, double* d_t,
                      double* d_x, double* d_p, Workspace* ws = nullptr) const override;
  double priority(std::size_t k, double t, const double* x, const double* p,
                  Workspace* ws = nullptr) const override;
  void assignment_values(std::size_t k, double t, const double* x, const double* p,
                         double* values, Workspace* ws = nullptr) const override;
  void assignment_jacobians(std::size_t k, double t, const double* x, const double* p,
                            double* h_t, double* h_x, double* h_p,
                            Workspace* ws = nullptr) const override;
  const std::vector<std::size_t>& branch_roots() const override;
  void rhs_points_on_branches(std::size_t n, const double* t, const double* X, const double* P,
                              const double* truth, double* F,
                              Workspace* ws = nullptr) const override;
  void vjp_on_branches(double t, const double* x, const double* p, const double* truth,
                       std::size_t nw, const double* W, double* out_x, double* out_p,
                       Workspace* ws = nullptr) const override;

  void initial_state(const double* p, double* x0, Workspace* ws = nullptr) const override;
  void initial_sensitivity(const double* p, double* dx0_dp,
                           Workspace* ws = nullptr) const override;
  // Decided symbolically: dx0/dp has a structurally non-zero entry.
  bool initial_state_depends_on_params() const override;
  void rhs(double t, const double* x, const double* p, double* xdot,
           Workspace* ws = nullptr) const override;

  bool has_analytic_jacobians() const override { return true; }
  // Decided symbolically: no entry of J_x or J_p depends on t or x.
  bool has_constant_jacobians() const override;
  bool rhs_depends_on_time() const override;
  std::string rhs_kink() const override;
  // Decided from the expressions of f, J_x and J_p with p's values in.
  TimeReading time_reading_at(const double* p,
                              const std::vector<std::size_t>* columns) const override;
  void jac_x(double t, const double* x, const double* p, double* J,
             Workspace* ws = nullptr) const override;
  const SparsityPattern* jac_x_pattern() const override;
  void jac_x_values(double t, const double* x, const double* p, double* values,
                    Workspace* ws = nullptr) const override;
  void jac_p(double t, const double* x, const double* p, double* Jp,
             Workspace* ws = nullptr) const override;

  void jvp(double t, const double* x, const double* p, std::size_t nv, const double* V,
           double* out, Workspace* ws = nullptr) const override;
  void vjp_x(double t, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws = nullptr) const override;
  void vjp_p(double t, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws = nullptr) const override;
  // Both products of one reverse sweep: out_x (nx x nw) = J_x^T W and
  // out_p (np x nw) = J_p^T W; either may be null.
  void vjp(double t, const double* x, const double* p, std::size_t nw, const double* W,
           double* out_x, double* out_p, Workspace* ws = nullptr) const;
  // The same sweep with J_p^T W added into out_p: bitwise vjp_x's out_x
  // and out_p + vjp_p's output, at every lane width.
  void vjp_accumulate(double t, const double* x, const double* p, std::size_t nw,
                      const double* W, double* out_x, double* out_p,
                      Workspace* ws = nullptr) const override;

  // Sparse J_p: its structurally non-zero entries, values in pattern order.
  const SparsityPattern* jac_p_pattern() const override;
  void jac_p_values(double t, const double* x, const double* p, double* values,
                    Workspace* ws = nullptr) const override;
  // df/dt (nx), differentiated symbolically; zero for autonomous models.
  void dfdt(double t, const double* x, const double* p, double* out,
            Workspace* ws = nullptr) const override;

  // SecondDerivatives: xddot = J_x f + df/dt (nx), its state Jacobian
  // (sparse pattern, values, dense nx x nx), its parameter Jacobian (dense
  // nx x np, or sparse pattern and values) and its partial time derivative.
  void xddot(double t, const double* x, const double* p, double* out,
             Workspace* ws = nullptr) const override;
  const SparsityPattern& xddot_jac_x_pattern() const override;
  void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override;
  void xddot_jac_x(double t, const double* x, const double* p, double* J,
                   Workspace* ws = nullptr) const override;
  void xddot_jac_p(double t, const double* x, const double* p, double* Jp,
                   Workspace* ws = nullptr) const override;
  const SparsityPattern* xddot_jac_p_pattern() const override;
  void xddot_jac_p_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override;
  void xddot_dt(double t, const double* x, const double* p, double* out,
                Workspace* ws = nullptr) const override;

  // Observables declared with `output NAME = EXPR`.
  std::size_t n_outputs() const;
  const std::vector<std::string>& output_names() const;
  void outputs(double t, const double* x, const double* p, double* out,
               Workspace* ws = nullptr) const;
  // Exact gradients of the outputs which[0..n): out_x (nx x n) and out_p
  // (np x n), column m for which[m], by reverse sweeps of a tape of the
  // outputs alone (built on first use).
  void output_gradients(double t, const double* x, const double* p, std::size_t n,
                        const std::size_t* which, double* out_x, double* out_p,
                        Workspace* ws = nullptr) const;

  // Every named value of the model, as functions of (t, x, p): for .ode
  // models the lets, then the states and outputs; for SBML models every id
  // with a value (species as declared, and also as ID:amount and
  // ID:concentration), then the states not named so. observables() writes
  // all of them, in this order (its tape is built on first use).
  // odesens::evaluate_observables (observables.hpp) picks some at the
  // output times of a result.
  const std::vector<std::string>& observable_names() const override;
  void observables(double t, const double* x, const double* p, double* out,
                   Workspace* ws = nullptr) const override;
  // By reverse sweeps of an adjoint tape of every observable (built on
  // first use), one per lane group of `which`.
  void observable_gradients(double t, const double* x, const double* p, std::size_t n,
                            const std::size_t* which, double* out_x, double* out_p,
                            Workspace* ws = nullptr) const override;
  std::string observable_switch(std::size_t i) const override;

  // Facts about the model source shown by `odesens info`, in order: for SBML
  // the level and version and the counts of reactions, rules and so on.
  const std::vector<std::pair<std::string, std::string>>& source_details() const override;

  // RetainedValues: f by the single-assignment tape of the adjoint
  // products, its registers kept per slot in the workspace.
  void rhs_retained(std::size_t slot, double t, const double* x, const double* p, double* f,
                    Workspace* ws) const override;
  void vjp_accumulate_retained(std::size_t slot, std::size_t nw, const double* W, double* out_x,
                               double* out_p, Workspace* ws) const override;

  // BatchedRhs: F (nx x n) = f at n points: t[k], column k of X (nx x n)
  // and P (np x n), the workspace's lane width of points per pass
  // (transcendental functions through SLEEF; equal to rhs() to within a few
  // ulp). jvp and vjp use the same lanes for their vectors.
  void rhs_points(std::size_t n, const double* t, const double* X, const double* P, double* F,
                  Workspace* ws = nullptr) const override;
  std::size_t parameter_branch_count() const override;
  void rhs_points_on_first_parameters(std::size_t n, const double* t, const double* X,
                                      const double* P, double* F,
                                      Workspace* ws = nullptr) const override;
  void jvp_on_first_parameters(double t, const double* x, const double* p, const double* p_first,
                               std::size_t nv, const double* V, double* out,
                               Workspace* ws = nullptr) const override;

 private:
  friend const Impl& expr_model_internals(const ExprModel& model);
  std::unique_ptr<Impl> impl_;
};

// A model from .ode text; messages name `filename_for_messages`. Throws
// Error(parse_error, "FILE:LINE:COLUMN: message") for malformed text,
// expressions nested more than 200 levels deep included. The text is UTF-8
// (ASCII outside comments), with or without a byte-order mark; UTF-16 and
// UTF-32 text is Error(unsupported) naming the encoding, NUL bytes
// Error(parse_error).
std::shared_ptr<ExprModel> load_ode_text(const std::string& text,
                                         const std::string& filename_for_messages);
// A model from an .ode file. Throws Error(unknown_model) when the file does
// not exist, Error(io_error) when it cannot be read, is not a regular file
// or is larger than the size limit (model_loader.hpp), and errors as
// load_ode_text.
std::shared_ptr<ExprModel> load_ode_file(const std::string& path);

// The widest lane width this CPU supports (8, 4 or 1).
int widest_expr_lane_width();

}  // namespace odesens
