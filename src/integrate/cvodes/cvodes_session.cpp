#include "integrate/cvodes/cvodes_session.hpp"

#include <cvodes/cvodes_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <sstream>

#include "core/number_text.hpp"
#include "core/usable_memory.hpp"
#include "integrate/cvodes/cvodes_flags.hpp"
#include "integrate/events/event_runner.hpp"
#include "model/initial_state_check.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {

bool all_finite(const double* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

namespace {

// CVODES reports errors through this handler instead of printing them; the
// last message becomes part of the odesens error.
void capture_message(int, const char*, const char*, char* msg, void* data) {
  // The adjoint module reports a backward failure after the backward
  // integrator has said why, so the previous message is kept too.
  // Its words only: the module and function names are CVODES' internals.
  auto* last = static_cast<std::string*>(data);
  const std::string text = msg ? msg : "";
  if (text.empty()) return;
  // A message CVODES repeats (its t + h = t warning, up to ten times) is kept once.
  if (last->size() >= text.size() &&
      last->compare(last->size() - text.size(), text.size(), text) == 0)
    return;
  *last = last->empty() ? text : *last + "; " + text;
}

// CVODES' warning that the step size fell below the resolution of t.
bool says_step_below_resolution(const std::string& messages) {
  return messages.find("are such that t + h = t") != std::string::npos;
}

// The model pattern plus every missing diagonal entry, and for each model
// entry its position in the merged pattern.
void merge_diagonal(const SparsityPattern& in, SparsityPattern& out,
                    std::vector<std::int64_t>& position) {
  out.rows = in.rows;
  out.cols = in.cols;
  out.col_ptr.assign(in.cols + 1, 0);
  out.row_idx.clear();
  position.assign(in.nnz(), 0);
  for (std::size_t j = 0; j < in.cols; ++j) {
    const auto diag = static_cast<std::int64_t>(j);
    bool placed = false;
    for (auto q = in.col_ptr[j]; q < in.col_ptr[j + 1]; ++q) {
      const auto row = in.row_idx[q];
      if (!placed && row > diag) {
        out.row_idx.push_back(diag);
        placed = true;
      }
      if (row == diag) placed = true;
      position[q] = static_cast<std::int64_t>(out.row_idx.size());
      out.row_idx.push_back(row);
    }
    if (!placed) out.row_idx.push_back(diag);
    out.col_ptr[j + 1] = static_cast<std::int64_t>(out.row_idx.size());
  }
}

}  // namespace

Session::Session(const InitialValueProblem& ivp, const SessionSettings& settings)
    : model_(*ivp.model),
      ivp_(ivp),
      settings_(settings),
      workspace_(model_.make_workspace()),
      nx_(model_.nx()),
      np_(model_.np()),
      params_(ivp.params),
      t0_(ivp.t0),
      ctx_(make_context()),
      y_(make_vector(nx_, ctx_.get())) {
  // Fused and vector-array operations: CVODES then combines its many
  // per-vector operations on the np sensitivity vectors (prediction,
  // corrections, error norms) into single passes. Every vector CVODES
  // clones from this one inherits them.
  if (N_VEnableFusedOps_Serial(y_.get(), SUNTRUE) != 0)
    throw Error(Status::internal_error, "N_VEnableFusedOps_Serial failed");
  set_initial_values();
  choose_linear_solver();
}

void Session::set_initial_values() {
  double* x0 = N_VGetArrayPointer(y_.get());
  s0_.assign(nx_ * np_, 0.0);
  if (ivp_.initial_state.empty()) {
    model_.initial_state(params_.data(), x0, workspace());
    require_finite_initial_state(model_, x0);
    model_.initial_sensitivity(params_.data(), s0_.data(), workspace());
  } else {
    std::copy(ivp_.initial_state.begin(), ivp_.initial_state.end(), x0);
    if (ivp_.initial_sensitivity.size() == s0_.size())  // else none given: zero
      s0_ = ivp_.initial_sensitivity;
  }
  if (!all_finite(x0, nx_))
    throw Error(Status::not_finite, "the initial state x0(p) contains NaN or Inf");
  x0_.assign(x0, x0 + nx_);
  if (!all_finite(s0_.data(), s0_.size()))
    throw Error(Status::not_finite, "the initial sensitivity dx0/dp contains NaN or Inf");
}

void Session::begin_solve(const std::vector<double>& params,
                          const std::vector<double>& initial_state,
                          const std::vector<double>& initial_sensitivity) {
  params_ = params;  // same size: the pointer CVODES may hold stays valid
  ivp_.params = params;
  ivp_.initial_state = initial_state;
  ivp_.initial_sensitivity = initial_sensitivity;
  set_initial_values();
  restarts_.reset();
  last_message_.clear();
  guard_.reset();
  nonfinite_sensitivity_ = {};
  nonfinite_rate_ = {};
  if (!mem_) return;
  if (solver_kind_ == LinearSolverKind::klu) forget_klu_factorization();
  check(CVodeReInit(mem(), t0_, state()), "CVodeReInit");
}

// SUNDIALS analyses and factorises anew at the first step after a
// CVodeReInit (SUNLinSolInitialize); freeing the old factorization first
// keeps KLU's peak memory that of one solve, as solve() reports it.
void Session::forget_klu_factorization() {
  if (SUNLinSol_KLUReInit(solver_.get(), matrix_.get(),
                          static_cast<sunindextype>(klu_pattern_.nnz()),
                          SUNKLU_REINIT_PARTIAL) != SUNLS_SUCCESS)
    throw Error(Status::internal_error, "SUNLinSol_KLUReInit failed");
  if (sun_klu_common* common = SUNLinSol_KLUGetCommon(solver_.get())) common->mempeak = 0;
}

void Session::choose_linear_solver() {
  const std::string& kind = settings_.linear_solver;
  const SparsityPattern* pattern = model_.jac_x_pattern();
  const auto threshold = settings_.sparse_threshold;
  if (kind == "klu" && !pattern)
    throw Error(Status::unsupported,
                "linear_solver=klu needs a model that declares the sparsity pattern of J_x");
  solver_kind_ = (kind == "klu" || (kind == "auto" && pattern &&
                                    static_cast<std::int64_t>(nx_) >= threshold))
                     ? LinearSolverKind::klu
                     : LinearSolverKind::dense;
  const std::string& jac = settings_.jacobian;
  if (jac == "difference_quotient" && solver_kind_ == LinearSolverKind::klu)
    throw Error(Status::unsupported,
                "jacobian=difference_quotient is only available with the dense linear solver");
  use_model_jacobian_ = jac == "model" || (jac == "auto" && (model_.has_analytic_jacobians() ||
                                                             solver_kind_ == LinearSolverKind::klu));
  if (solver_kind_ == LinearSolverKind::klu) {
    merge_diagonal(*pattern, klu_pattern_, klu_position_);
    jac_values_.resize(pattern->nnz());
  }
}

// What CVodeInit and the linear solver allocate, asked of the memory left
// before SUNDIALS asks for it: its vector clones crash where an allocation
// fails (heat2d:1000 under ulimit -v: SIGSEGV in N_VClone).
void Session::require_integrator_memory() const {
  const double n = static_cast<double>(nx_);
  // A dense matrix beyond the memory is refused by make_dense_matrix, with
  // the way to a smaller one.
  const double usable = usable_memory_bytes();
  if (solver_kind_ == LinearSolverKind::dense && usable > 0.0 && 8.0 * n * n > usable) return;
  // The Nordsieck history (q_max + 1) and about ten work vectors.
  const double vectors = (settings_.lmm == CV_BDF ? 6.0 : 13.0) + 10.0;
  // The Newton matrix (dense LU works in it), or the sparse one and KLU's
  // factors (their fill-in unknown here: a few times the pattern).
  const double matrix =
      solver_kind_ == LinearSolverKind::dense
          ? 8.0 * n * n
          : 4.0 * (12.0 * static_cast<double>(klu_pattern_.nnz()) + 8.0 * (n + 1.0));
  require_allocatable(8.0 * n * vectors + matrix,
                      "the integrator of " + std::to_string(nx_) + " states (its vectors and "
                      "Newton matrices)",
                      "a model this large needs more memory (ulimit -v, or a larger machine)");
}

// CVODES clones the Newton matrix (its saved J) at its first step, and its
// clone crashes where the allocation fails (pbsr on heat2d:1000 under
// ulimit -v: SIGSEGV in SUNMatClone): asked once, just before.
void Session::require_first_step_memory() {
  if (first_step_memory_checked_) return;
  first_step_memory_checked_ = true;
  const double n = static_cast<double>(nx_);
  const double matrix = solver_kind_ == LinearSolverKind::dense
                            ? 8.0 * n * n
                            : 12.0 * static_cast<double>(klu_pattern_.nnz()) + 8.0 * (n + 1.0);
  require_allocatable(matrix,
                      "the copy of the Newton matrix of " + std::to_string(nx_) +
                          " states that CVODES keeps",
                      "a model this large needs more memory (ulimit -v, or a larger machine)");
}

void Session::create_integrator() {
  require_integrator_memory();
  mem_ = make_cvode(settings_.lmm, ctx_.get());
  capture_messages(mem_.get());
  check(init_cvode(mem(), &Session::rhs, ivp_.t0, state()), "CVodeInit");
  if (ivp_.atol.size() == 1) {
    check(CVodeSStolerances(mem(), ivp_.rtol, ivp_.atol[0]), "CVodeSStolerances");
  } else {
    VectorPtr atol = make_vector(nx_, ctx_.get());
    std::copy(ivp_.atol.begin(), ivp_.atol.end(), N_VGetArrayPointer(atol.get()));
    check(CVodeSVtolerances(mem(), ivp_.rtol, atol.get()), "CVodeSVtolerances");
  }
  check(CVodeSetUserData(mem(), this), "CVodeSetUserData");
  check(CVodeSetMaxNumSteps(mem(), static_cast<long>(ivp_.max_steps)), "CVodeSetMaxNumSteps");
  attach_linear_solver();
}

void Session::reinit(double t) {
  restarts_.bank(mem());
  check(CVodeReInit(mem(), t, state()), "CVodeReInit");
}

Counters Session::backward_counters(int which) const {
  return read_counters(CVodeGetAdjCVodeBmem(mem(), which), false);
}

void Session::size_sensitivity_scratch(std::size_t np, bool by_jacobian) {
  work_a_.resize(std::max(work_a_.size(), nx_ * np));
  work_b_.resize(std::max(work_b_.size(), nx_ * np));
  if (const SparsityPattern* jp = model_.jac_p_pattern()) jac_p_values_.resize(jp->nnz());
  sens_products_by_jacobian_ = by_jacobian;
  const SparsityPattern* jx = model_.jac_x_pattern();
  if (by_jacobian) sens_jac_x_values_.resize(jx ? jx->nnz() : nx_ * nx_);
}

void Session::attach_linear_solver() {
  if (solver_kind_ == LinearSolverKind::dense) {
    matrix_ = make_dense_matrix(nx_, ctx_.get());
    solver_ = make_dense_solver(state(), matrix_.get(), ctx_.get());
  } else {
    matrix_ = make_sparse_matrix(nx_, klu_pattern_.nnz(), CSC_MAT, ctx_.get());
    solver_ = make_klu_solver(state(), matrix_.get(), ctx_.get());
  }
  check(CVodeSetLinearSolver(mem(), solver_.get(), matrix_.get()), "CVodeSetLinearSolver");
  if (use_model_jacobian_)
    check(CVodeSetJacFn(mem(), solver_kind_ == LinearSolverKind::dense ? &Session::dense_jacobian
                                                                       : &Session::sparse_jacobian),
          "CVodeSetJacFn");
}

int Session::backward_dense_jacobian(sunrealtype t, N_Vector y, N_Vector, N_Vector, SUNMatrix JB,
                                     void* user_data, N_Vector, N_Vector, N_Vector) {
  auto* s = static_cast<Session*>(user_data);
  const std::size_t n = s->nx();
  return s->guard().run([&] {
    double* J = s->work_a_.data();
    s->model().jac_x(t, N_VGetArrayPointer(y), s->params().data(), J, s->workspace());
    double* out = SUNDenseMatrix_Data(JB);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n; ++i) out[i + j * n] = -J[j + i * n];
    return all_finite(out, n * n);
  });
}

// -J^T in CSR form has the index arrays of J in CSC form.
int Session::backward_sparse_jacobian(sunrealtype t, N_Vector y, N_Vector, N_Vector, SUNMatrix JB,
                                      void* user_data, N_Vector, N_Vector, N_Vector) {
  return static_cast<Session*>(user_data)->fill_sparse_jacobian(t, y, JB, -1.0);
}

void Session::attach_backward_linear_solver(int which) {
  MatrixPtr matrix;
  LinearSolverPtr solver;
  if (solver_kind_ == LinearSolverKind::dense) {
    matrix = make_dense_matrix(nx_, ctx_.get());
    solver = make_dense_solver(state(), matrix.get(), ctx_.get());
    work_a_.resize(std::max(work_a_.size(), nx_ * nx_));  // backward_dense_jacobian's J
  } else {
    matrix = make_sparse_matrix(nx_, klu_pattern_.nnz(), CSR_MAT, ctx_.get());
    solver = make_klu_solver(state(), matrix.get(), ctx_.get());
  }
  check(CVodeSetLinearSolverB(mem(), which, solver.get(), matrix.get()), "CVodeSetLinearSolverB");
  if (use_model_jacobian_)
    check(CVodeSetJacFnB(mem(), which,
                         solver_kind_ == LinearSolverKind::dense ? &backward_dense_jacobian
                                                                 : &backward_sparse_jacobian),
          "CVodeSetJacFnB");
  backward_matrices_.push_back(std::move(matrix));
  backward_solvers_.push_back(std::move(solver));
}

void Session::capture_messages(void* cvode_mem) {
  CVodeSetErrHandlerFn(cvode_mem, &capture_message, &last_message_);
}

void Session::check(int flag, const char* call) {
  guard_.rethrow_pending();
  if (flag >= 0) {
    last_message_.clear();
    return;
  }
  const std::string stalled = zero_step_reason();
  if (!stalled.empty()) throw Error(Status::not_finite, call + (": " + stalled));
  sunrealtype t_now = 0.0;
  if (says_step_below_resolution(last_message_) && mem() &&
      CVodeGetCurrentTime(mem(), &t_now) == CV_SUCCESS) {
    // One sentence, as the one-step drivers say it (CvodesStepper), not
    // CVODES' warnings: the solution may blow up there.
    const std::string message = std::string(call) + " could not advance past t = " +
                                number_text(t_now) +
                                ": the step size fell below the resolution of t (the solution "
                                "may blow up there)";
    last_message_.clear();
    fail_blaming_nonfinite(message);
    throw Error(Status::solver_failed, message);
  }
  std::string message = std::string(call) + " failed: " + flag_text(flag);
  if (!last_message_.empty()) message += " (" + last_message_ + ")";
  if (may_come_from_nonfinite(flag)) fail_blaming_nonfinite(message);
  throw Error(status_for_flag(flag), message);
}

// CVODES bounds its first step by h <= (0.1 |y_i| + atol_i) / |dy_i/dt| over
// the states and sensitivities; for rates near the largest double (a
// stoichiometry of 1e300) the ratio overflows, the bound is 0 and so is the
// step size. CVODES then "steps" without moving and fails later with
// messages whose times mean nothing (CVodeF takes tout as reached and cannot
// interpolate there: "t = 1 is not between tcur - hu = 0 and tcur = 0").
// The state with the smallest bound shows the scale.
std::string Session::zero_step_reason() {
  // The step size reads 0 too before the first step is chosen: only
  // corrector iterations show that steps of size 0 were attempted.
  sunrealtype h = 1.0, t = 0.0;
  long iterations = 0;
  if (!mem() || CVodeGetCurrentStep(mem(), &h) != CV_SUCCESS || h != 0.0 ||
      CVodeGetNumNonlinSolvIters(mem(), &iterations) != CV_SUCCESS || iterations == 0 ||
      CVodeGetCurrentTime(mem(), &t) != CV_SUCCESS)
    return "";
  std::string why = "the step size is 0 at t = " + number_text(t);
  // Stuck at t0, as it is in practice: CVODES' own state there may already
  // hold what steps of size 0 made of it.
  std::vector<double> x = x0_, f(nx_);
  VectorPtr v(N_VClone(y_.get()));  // unchecked: without it the message is shorter
  if (v && t != t0_) {
    if (CVodeGetDky(mem(), t, 0, v.get()) == CV_SUCCESS)
      std::copy(N_VGetArrayPointer(v.get()), N_VGetArrayPointer(v.get()) + nx_, x.begin());
    else
      x.clear();
  }
  if (v && nx_ > 0 && !x.empty() && CVodeGetErrWeights(mem(), v.get()) == CV_SUCCESS) {
    try {
      model_.rhs(t, x.data(), params_.data(), f.data(), workspace());
      const double* w = N_VGetArrayPointer(v.get());  // 1 / (rtol |x| + atol)
      auto inverse_bound = [&](std::size_t i) {
        return std::abs(f[i]) / (0.1 * std::abs(x[i]) + 1.0 / w[i]);
      };
      std::size_t i = 0;
      for (std::size_t k = 1; k < nx_; ++k)
        if (!(inverse_bound(k) <= inverse_bound(i))) i = k;
      why += ", where '" + model_.state_names()[i] + "' = " + number_text(x[i]) +
             " changes at " + number_text(f[i]) + " per unit time";
    } catch (const Error&) {
      // the step size alone is the message
    }
  }
  if (t == t0_)
    why += ": the integrator's bound on its first step, (0.1 |y| + atol) / |dy/dt| over the "
           "states and their sensitivities, is 0 in double precision";
  last_message_.clear();  // what CVODES said about steps of size 0 is not the reason
  return why + " (rates near the largest double cannot be integrated; rescale the model)";
}

void Session::fail_blaming_nonfinite(const std::string& message) const {
  if (!guard_.saw_nonfinite()) return;
  std::string where;
  if (nonfinite_sensitivity_.seen) {
    const NonfiniteSensitivity& n = nonfinite_sensitivity_;
    const auto& states = model_.state_names();
    const auto& params = model_.param_names();
    where = "; first in the sensitivity of state '" +
            (n.state < states.size() ? states[n.state] : std::to_string(n.state)) +
            "' to parameter '" +
            (n.param < params.size() ? params[n.param] : std::to_string(n.param)) +
            "' at t = " + number_text(n.t) +
            (n.in_jx ? ": in J_x S, a derivative of f in a state that is not finite there (a "
                       "root or power below 1 of a state at 0, or a power that overflows?)"
                     : ": a derivative of f in that parameter that is not finite there (a power "
                       "or logarithm of a value at or below 0, or a power that overflows?)");
  } else if (nonfinite_rate_.seen) {
    const NonfiniteRate& n = nonfinite_rate_;
    // NaN by name: its sign bit ("-nan") means nothing.
    where = "; first d'" + model_.state_names()[n.state] +
            "'/dt = " + (std::isnan(n.value) ? std::string("NaN") : number_text(n.value)) +
            " at t = " + number_text(n.t) +
            (n.t == t0_ ? " (at the start: a model constant or parameter that is NaN or Inf, a "
                          "division by 0, or a root or logarithm of a negative value?)"
                        : "");
  }
  throw Error(Status::not_finite,
              message + " (the right-hand side or a Jacobian produced NaN or Inf during the "
                        "solve, and the integrator could not step past it" + where + ")");
}

void Session::throw_interrupted(double t) {
  throw Error(Status::interrupted,
              "the solve was interrupted at t = " + number_text(t) + " (the caller's interrupt)");
}

int Session::rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    s->ask_interrupt(t);
    if (s->replay_guard_) s->replay_guard_->check(s->mem());
    double* out = N_VGetArrayPointer(ydot);
    s->model_.rhs(t, N_VGetArrayPointer(y), s->params_.data(), out, s->workspace());
    if (all_finite(out, s->nx_)) return true;
    s->note_nonfinite_rate(t, out);
    return false;
  });
}

void Session::note_nonfinite_rate(double t, const double* f) {
  if (nonfinite_rate_.seen) return;
  std::size_t i = 0;
  while (i + 1 < nx_ && std::isfinite(f[i])) ++i;
  nonfinite_rate_ = {true, t, f[i], i};
}

namespace {

// CVODES fails on a root function that is not a number. A comparison with
// NaN is false (!= true), as the one-step methods' bisection takes it
// (EventSystem::holds): CVODES is given a value on that side instead, so
// that it locates where g becomes a number and the trigger can turn there.
// +-Inf keep their side at a magnitude CVODES' secant can divide.
void ordered_roots(const std::vector<EventSystem::Root>& roots, double* g) {
  constexpr double kLarge = 1e300;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (std::isnan(g[i])) {
      const auto c = roots[i].comparison;
      g[i] = c == EventSystem::Comparison::gt || c == EventSystem::Comparison::ge ? -1.0 : 1.0;
    } else if (std::isinf(g[i])) {
      g[i] = g[i] > 0.0 ? kLarge : -kLarge;
    }
  }
}

}  // namespace

int Session::event_roots(sunrealtype t, N_Vector y, sunrealtype* g, void* user_data) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    s->event_runner_->root_values(t, N_VGetArrayPointer(y), g);
    ordered_roots(s->event_runner_->roots_of_system(), g);
    return true;
  });
}

int Session::dense_jacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix J, void* user_data,
                            N_Vector, N_Vector, N_Vector) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    double* out = SUNDenseMatrix_Data(J);
    s->model_.jac_x(t, N_VGetArrayPointer(y), s->params_.data(), out, s->workspace());
    return all_finite(out, s->nx_ * s->nx_);
  });
}

int Session::sparse_jacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix J, void* user_data,
                             N_Vector, N_Vector, N_Vector) {
  return static_cast<Session*>(user_data)->fill_sparse_jacobian(t, y, J, 1.0);
}

int Session::fill_sparse_jacobian(double t, N_Vector y, SUNMatrix matrix, double sign) {
  return guard_.run([&] {
    model_.jac_x_values(t, N_VGetArrayPointer(y), params_.data(), jac_values_.data(),
                        workspace());
    std::copy(klu_pattern_.col_ptr.begin(), klu_pattern_.col_ptr.end(),
              SUNSparseMatrix_IndexPointers(matrix));
    std::copy(klu_pattern_.row_idx.begin(), klu_pattern_.row_idx.end(),
              SUNSparseMatrix_IndexValues(matrix));
    double* data = SUNSparseMatrix_Data(matrix);
    std::fill(data, data + klu_pattern_.nnz(), 0.0);
    for (std::size_t q = 0; q < jac_values_.size(); ++q)
      data[klu_position_[q]] = sign * jac_values_[q];
    return all_finite(data, klu_pattern_.nnz());
  });
}

namespace {

double integrator_bytes(void* cvode_mem) {
  long rw = 0, iw = 0, rw_ls = 0, iw_ls = 0;
  if (CVodeGetWorkSpace(cvode_mem, &rw, &iw) != CV_SUCCESS) rw = iw = 0;
  if (CVodeGetLinWorkSpace(cvode_mem, &rw_ls, &iw_ls) != CVLS_SUCCESS) rw_ls = iw_ls = 0;
  return static_cast<double>(rw + rw_ls) * sizeof(sunrealtype) +
         static_cast<double>(iw + iw_ls) * sizeof(long);
}

double klu_bytes(SUNLinearSolver solver) {
  if (!solver || SUNLinSolGetID(solver) != SUNLINEARSOLVER_KLU) return 0.0;
  const sun_klu_common* common = SUNLinSol_KLUGetCommon(solver);
  return common ? static_cast<double>(common->mempeak) : 0.0;
}

}  // namespace

double Session::workspace_bytes() const {
  void* mem = this->mem();
  double bytes = integrator_bytes(mem) + klu_bytes(solver_.get()) +
                 8.0 * static_cast<double>(work_a_.capacity() + work_b_.capacity() +
                                           jac_values_.capacity() + jac_p_values_.capacity());
  for (int which = 0; which < static_cast<int>(backward_solvers_.size()); ++which) {
    void* bmem = CVodeGetAdjCVodeBmem(mem, which);
    if (bmem) bytes += integrator_bytes(bmem);
    bytes += klu_bytes(backward_solvers_[static_cast<std::size_t>(which)].get());
  }
  return bytes;
}

void gather_columns(N_Vector* vs, std::size_t m, std::size_t n, double* out) {
  for (std::size_t j = 0; j < m; ++j) {
    const double* src = N_VGetArrayPointer(vs[j]);
    std::copy(src, src + n, out + j * n);
  }
}

void scatter_columns(const double* in, std::size_t m, std::size_t n, N_Vector* vs) {
  for (std::size_t j = 0; j < m; ++j) std::copy(in + j * n, in + (j + 1) * n, N_VGetArrayPointer(vs[j]));
}

void Session::state_tolerances(const double* x, double* tol) const {
  for (std::size_t i = 0; i < nx_; ++i)
    tol[i] = ivp_.rtol * std::fabs(x[i]) + ivp_.atol[ivp_.atol.size() == 1 ? 0 : i];
}

}  // namespace odesens::cvodes
