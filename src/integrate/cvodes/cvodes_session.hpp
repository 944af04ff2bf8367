// What every CVODES user shares: the SUNDIALS context and state vector,
// the C callbacks that evaluate the model, the choice and set-up of the
// linear solver (dense or KLU, forward and backward), translation of
// CVODES return flags and messages into odesens::Error, and counters that
// survive CVodeReInit. Option parsing and Results are the methods' (the
// CVODES methods read SessionSettings from their options).
//
// User code runs inside CVODES callbacks, which are C functions: each body
// runs through the session's CallbackGuard, which stores an exception and
// rethrows it after CVODES returns, so that nothing unwinds through C frames.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "integrate/callback_guard.hpp"
#include "integrate/cvodes/cvodes_counters.hpp"
#include "integrate/cvodes/replay_guard.hpp"
#include "integrate/cvodes/sundials_handles.hpp"
#include "odesens/model.hpp"

namespace odesens::integrate {
class EventRunner;
}

namespace odesens::cvodes {

enum class LinearSolverKind { dense, klu };

// How the integrator is built (read from a method's options by the method).
struct SessionSettings {
  int lmm;                    // CV_BDF or CV_ADAMS
  std::string linear_solver;  // auto, dense or klu
  std::int64_t sparse_threshold;
  std::string jacobian;       // auto, model or difference_quotient
};

// The initial-value problem the session integrates.
struct InitialValueProblem {
  const Model* model = nullptr;
  std::vector<double> params;         // np
  double t0 = 0.0;
  std::vector<double> initial_state;  // empty: x0(p) from the model, with dx0/dp
  // dx0/dp with initial_state (nx x np); empty: zero there.
  std::vector<double> initial_sensitivity;
  double rtol = 1e-8;
  std::vector<double> atol;           // 1 or nx
  std::int64_t max_steps = 100000;    // between two output times
};

class Session {
 public:
  Session(const InitialValueProblem& ivp, const SessionSettings& settings);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Model& model() const { return model_; }
  // The solve's workspace for every model evaluation.
  Workspace* workspace() const { return workspace_.get(); }
  std::size_t nx() const { return nx_; }
  double t0() const { return t0_; }
  std::size_t np() const { return np_; }
  SUNContext context() const { return ctx_.get(); }
  void* mem() const { return mem_.get(); }
  N_Vector state() const { return y_.get(); }
  std::vector<double>& params() { return params_; }
  const std::vector<double>& initial_sensitivity() const { return s0_; }
  const std::vector<double>& atol() const { return ivp_.atol; }  // 1 or nx
  // What the forward problem holds x to: rtol |x_i| + atol_i into tol (nx).
  void state_tolerances(const double* x, double* tol) const;
  const std::vector<double>& initial_state() const { return x0_; }
  LinearSolverKind linear_solver_kind() const { return solver_kind_; }
  // The forward problem's Newton matrix and linear solver (after
  // create_integrator()): SUNDIALS' dense LU or KLU.
  SUNMatrix newton_matrix() const { return matrix_.get(); }
  SUNLinearSolver linear_solver() const { return solver_.get(); }
  bool use_model_jacobian() const { return use_model_jacobian_; }

  // Creates cvode_mem (lmm from the settings), initial state, tolerances,
  // limits, error capture and the linear solver.
  void create_integrator();
  // Error(out_of_memory) where what create_integrator allocates would not
  // fit in the memory left (core/usable_memory.hpp).
  void require_integrator_memory() const;
  // The same for what CVODES allocates at its first step (its saved J);
  // once per session.
  void require_first_step_memory();
  // A new solve of the same problem with other parameters (np), initial
  // state (nx, or empty for x0(p)) and its dx0/dp (nx x np, or empty for
  // zero; ignored without an initial state): the initial values anew,
  // counters and messages cleared, CVodeReInit at t0 (after
  // create_integrator()). The integrator's options, linear solver and
  // sensitivity set-up stay; SUNDIALS' solvers are initialised afresh at
  // the next step, as after CVodeInit.
  void begin_solve(const std::vector<double>& params, const std::vector<double>& initial_state,
                   const std::vector<double>& initial_sensitivity);
  // CVodeReInit at t from state() (the caller wrote it), keeping the
  // counters so far (counters()).
  void reinit(double t);
  // The forward integrator's counters over all its restarts.
  Counters counters() const { return restarts_.total(mem()); }
  // The forward integrator carries sensitivities (their counters are read).
  void count_sensitivities() { restarts_.count_sensitivities(true); }
  // The counters of backward problem `which` (of an adjoint solve).
  Counters backward_counters(int which) const;

  // The caller's Problem::interrupt for the solves from here on (null:
  // none; the function must outlive them). Every callback that evaluates a
  // right-hand side asks ask_interrupt first.
  void set_interrupt(const std::function<bool()>* interrupt) {
    interrupt_ = interrupt && *interrupt ? interrupt : nullptr;
  }
  // Every 64th call: Error(interrupted) at t when the interrupt says stop
  // (a clock read and a call per 64 evaluations cost nothing measurable).
  void ask_interrupt(double t) {
    if (interrupt_ && (++interrupt_calls_ & 63u) == 0 && (*interrupt_)()) throw_interrupted(t);
  }

  // While CVodeB runs (null otherwise): the forward right-hand side asks the
  // guard before each evaluation (replay_guard.hpp).
  void set_replay_guard(ReplayGuard* guard) { replay_guard_ = guard; }

  // Throws the pending callback exception if any, else an Error for a
  // negative CVODES flag; `call` names the CVODES function.
  void check(int flag, const char* call);
  // Every callback body runs through the session's guard
  // (methods/common/callback_guard.hpp).
  integrate::CallbackGuard& guard() { return guard_; }
  // After a failure that NaN or Inf from the model may have caused (too
  // much work, repeated evaluation or convergence failures): throws
  // Error(not_finite) with `message` and that reason if a callback saw one;
  // returns otherwise, and the caller throws its own status.
  void fail_blaming_nonfinite(const std::string& message) const;
  // The first entry of the sensitivity right-hand side that was NaN or Inf
  // in this solve (dS_ij/dt), named by fail_blaming_nonfinite; in_jx: its
  // J_x S term was (a derivative of f in a state), else f's derivative in
  // the parameter.
  void note_nonfinite_sensitivity(double t, std::size_t state, std::size_t param, bool in_jx) {
    if (nonfinite_sensitivity_.seen) return;
    nonfinite_sensitivity_ = {true, t, state, param, in_jx};
  }
  bool nonfinite_sensitivity_noted() const { return nonfinite_sensitivity_.seen; }

  // Installs the message capture on another cvode_mem (backward problems).
  void capture_messages(void* cvode_mem);

  // Linear solver for a backward problem (-J_x^T), same kind as forward.
  void attach_backward_linear_solver(int which);

  // Bytes of work space of this session's CVODES memory and its backward
  // problems: what CVODES reports for the integrators and their linear
  // solvers and matrices (CVodeGetWorkSpace, CVodeGetLinWorkSpace), plus
  // KLU's peak memory for sparse factorizations. Checkpoint data of an
  // adjoint solve is not included (the adjoint method adds it); the
  // session's scratch buffers are.
  double workspace_bytes() const;

  // Buffers of the forward sensitivity right-hand side, sized once here:
  // S and J_x S (nx x np each), J_p's values on its pattern, and J_x's on
  // its pattern (or dense, without one) where J_x S is formed from them
  // (by_jacobian).
  void size_sensitivity_scratch(std::size_t np, bool by_jacobian = false);
  double* sens_s() { return work_a_.data(); }
  double* sens_js() { return work_b_.data(); }
  double* jac_p_values() { return jac_p_values_.data(); }
  double* sens_jac_x_values() { return sens_jac_x_values_.data(); }
  // J_x S as J_x's values on its pattern times S (nnz x np products) rather
  // than np directional derivatives of f (np passes over f's whole tape,
  // which grows with np where f sums over the parameters: quadratic in np).
  bool sens_products_by_jacobian() const { return sens_products_by_jacobian_; }
  // Nonzeros of the KLU Newton matrix (the model's J_x pattern and the diagonal).
  std::size_t klu_nnz() const { return klu_pattern_.nnz(); }
  // The model's events while a solve runs them: CVODES' root functions.
  void set_event_runner(integrate::EventRunner* runner) { event_runner_ = runner; }

  // CVODES callbacks (user_data is the Session). event_roots: the root
  // functions of event_runner.
  static int event_roots(sunrealtype t, N_Vector y, sunrealtype* g, void* user_data);
  static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data);
  static int dense_jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J,
                            void* user_data, N_Vector, N_Vector, N_Vector);
  static int sparse_jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J,
                             void* user_data, N_Vector, N_Vector, N_Vector);

  // The backward problems' Newton matrices: -J_x^T, dense or as CSR.
  static int backward_dense_jacobian(sunrealtype t, N_Vector y, N_Vector, N_Vector, SUNMatrix JB,
                                     void* user_data, N_Vector, N_Vector, N_Vector);
  static int backward_sparse_jacobian(sunrealtype t, N_Vector y, N_Vector, N_Vector,
                                      SUNMatrix JB, void* user_data, N_Vector, N_Vector,
                                      N_Vector);

  // sign * J_x into a KLU matrix: the forward Newton matrix (CSC, sign 1)
  // or the backward one (-J_x^T as CSR, which shares J's CSC index arrays).
  // A callback's return value.
  int fill_sparse_jacobian(double t, N_Vector y, SUNMatrix matrix, double sign);

 private:
  // x0 (into state()) and dx0/dp from the parameters, or the given x0.
  void set_initial_values();
  void choose_linear_solver();
  void forget_klu_factorization();
  void attach_linear_solver();
  // Why the forward integrator stands still, when its step size is 0; "".
  std::string zero_step_reason();

  const Model& model_;
  InitialValueProblem ivp_;
  SessionSettings settings_;
  std::unique_ptr<Workspace> workspace_;
  std::size_t nx_, np_;
  std::vector<double> params_;
  double t0_;
  std::vector<double> x0_;  // for messages
  std::vector<double> s0_;
  ContextPtr ctx_;
  VectorPtr y_;
  CvodeMemPtr mem_;
  MatrixPtr matrix_;
  LinearSolverPtr solver_;
  std::vector<MatrixPtr> backward_matrices_;
  std::vector<LinearSolverPtr> backward_solvers_;
  LinearSolverKind solver_kind_ = LinearSolverKind::dense;
  bool use_model_jacobian_ = true;
  bool first_step_memory_checked_ = false;
  integrate::CallbackGuard guard_;
  const std::function<bool()>* interrupt_ = nullptr;
  std::uint32_t interrupt_calls_ = 0;
  ReplayGuard* replay_guard_ = nullptr;
  struct NonfiniteSensitivity {
    bool seen = false;
    double t = 0.0;
    std::size_t state = 0, param = 0;
    bool in_jx = false;
  } nonfinite_sensitivity_;
  // The first rate dx_i/dt the right-hand side gave as NaN or Inf in this
  // solve, named by fail_blaming_nonfinite.
  struct NonfiniteRate {
    bool seen = false;
    double t = 0.0, value = 0.0;
    std::size_t state = 0;
  } nonfinite_rate_;
  void note_nonfinite_rate(double t, const double* f);
  [[noreturn]] static void throw_interrupted(double t);
  std::string last_message_;
  RestartCounters restarts_;
  integrate::EventRunner* event_runner_ = nullptr;
  // Scratch of callbacks: work_a_ and work_b_ nx x np for the sensitivity
  // right-hand side, work_a_ nx x nx for a dense backward J (never nx x nx
  // with a sparse linear solver).
  std::vector<double> work_a_, work_b_, jac_values_, jac_p_values_, sens_jac_x_values_;
  bool sens_products_by_jacobian_ = false;
  // Sparse structure handed to KLU: the model's pattern plus the diagonal
  // (the Newton matrix I - gamma J needs it), and where each model entry goes.
  SparsityPattern klu_pattern_;
  std::vector<std::int64_t> klu_position_;
};

// True when none of the n values is NaN or Inf.
bool all_finite(const double* v, std::size_t n);

// Copies nx x m column blocks between N_Vector arrays and a column-major buffer.
void gather_columns(N_Vector* vs, std::size_t m, std::size_t n, double* out);
void scatter_columns(const double* in, std::size_t m, std::size_t n, N_Vector* vs);

}  // namespace odesens::cvodes
