#include "methods/cvodes/cvodes_session.hpp"

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
#include "integrate/events/event_runner.hpp"
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
void capture_message(int, const char* module, const char* function, char* msg, void* data) {
  // The adjoint module reports a backward failure after the backward
  // integrator has said why, so the previous message is kept too.
  auto* last = static_cast<std::string*>(data);
  const std::string text = std::string(module ? module : "CVODES") + "::" +
                           (function ? function : "?") + ": " + (msg ? msg : "");
  *last = last->empty() ? text : *last + "; " + text;
}

Status status_for_flag(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return Status::too_much_work;
    case CV_MEM_FAIL: return Status::out_of_memory;
    case CV_ILL_INPUT: return Status::invalid_argument;
    default: return Status::solver_failed;
  }
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

std::vector<OptionSpec> common_option_specs() {
  return {
      {"lmm", OptionType::text, std::string("bdf"),
       "linear multistep method: bdf (stiff problems) or adams (non-stiff)", {"bdf", "adams"}},
      {"linear_solver", OptionType::text, std::string("auto"),
       "Newton linear solver: dense LU, klu (sparse; needs a model sparsity pattern), or auto "
       "(klu when the model has a pattern and nx >= sparse_threshold)",
       {"auto", "dense", "klu"}},
      bounded({"sparse_threshold", OptionType::integer, std::int64_t{100},
               "smallest nx for which the automatic choices go sparse (linear_solver=auto "
               "picks klu; pbsr and exp with updates=auto use sparse updates)", {}},
              1, 1e15),
      {"jacobian", OptionType::text, std::string("auto"),
       "source of J_x (and, for cvodes_fsa, of the sensitivity right-hand side): model, "
       "difference_quotient (CVODES' internal approximations; dense solver only), or auto "
       "(model when it has exact Jacobians or the solver is klu)",
       {"auto", "model", "difference_quotient"}},
  };
}

SessionSettings read_session_settings(const MethodOptions& options) {
  return {options.get_string("lmm") == "adams" ? CV_ADAMS : CV_BDF,
          options.get_string("linear_solver"), options.get_int("sparse_threshold"),
          options.get_string("jacobian")};
}

Session::Session(const Problem& problem, const SessionSettings& settings)
    : model_(*problem.model),
      settings_(settings),
      workspace_(model_.make_workspace()),
      nx_(model_.nx()),
      np_(model_.np()),
      params_(effective_params(problem)),
      t0_(problem.t0) {
  SUNContext raw = nullptr;
  if (SUNContext_Create(nullptr, &raw) != 0 || !raw)
    throw Error(Status::internal_error, "SUNContext_Create failed");
  ctx_.reset(raw);
  y_.reset(N_VNew_Serial(static_cast<sunindextype>(nx_), ctx_.get()));
  if (!y_) throw Error(Status::out_of_memory, "N_VNew_Serial failed (out of memory)");
  // Fused and vector-array operations: CVODES then combines its many
  // per-vector operations on the np sensitivity vectors (prediction,
  // corrections, error norms) into single passes. Every vector CVODES
  // clones from this one inherits them.
  if (N_VEnableFusedOps_Serial(y_.get(), SUNTRUE) != 0)
    throw Error(Status::internal_error, "N_VEnableFusedOps_Serial failed");
  double* x0 = N_VGetArrayPointer(y_.get());
  s0_.assign(nx_ * np_, 0.0);
  if (problem.initial_state.empty()) {
    model_.initial_state(params_.data(), x0, workspace());
    model_.initial_sensitivity(params_.data(), s0_.data(), workspace());
  } else {
    std::copy(problem.initial_state.begin(), problem.initial_state.end(), x0);
  }
  if (!all_finite(x0, nx_))
    throw Error(Status::not_finite, "the initial state x0(p) contains NaN or Inf");
  x0_.assign(x0, x0 + nx_);
  if (!all_finite(s0_.data(), s0_.size()))
    throw Error(Status::not_finite, "the initial sensitivity dx0/dp contains NaN or Inf");
  choose_linear_solver();
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
    merge_diagonal(*pattern, klu_pattern, klu_position);
    jac_values.resize(pattern->nnz());
  }
}

void Session::create_integrator(const Problem& problem) {
  mem_.reset(CVodeCreate(settings_.lmm, ctx_.get()));
  if (!mem_) throw Error(Status::out_of_memory, "CVodeCreate failed (out of memory)");
  capture_messages(mem_.get());
  check(CVodeInit(mem(), &Session::rhs, problem.t0, state()), "CVodeInit");
  if (problem.atol.size() == 1) {
    check(CVodeSStolerances(mem(), *problem.rtol, problem.atol[0]), "CVodeSStolerances");
  } else {
    VectorPtr atol(N_VNew_Serial(static_cast<sunindextype>(nx_), ctx_.get()));
    std::copy(problem.atol.begin(), problem.atol.end(), N_VGetArrayPointer(atol.get()));
    check(CVodeSVtolerances(mem(), *problem.rtol, atol.get()), "CVodeSVtolerances");
  }
  check(CVodeSetUserData(mem(), this), "CVodeSetUserData");
  check(CVodeSetMaxNumSteps(mem(), static_cast<long>(problem.max_steps)), "CVodeSetMaxNumSteps");
  attach_linear_solver();
}

void Session::attach_linear_solver() {
  const auto n = static_cast<sunindextype>(nx_);
  if (solver_kind_ == LinearSolverKind::dense) {
    matrix_.reset(SUNDenseMatrix(n, n, ctx_.get()));
    solver_.reset(SUNLinSol_Dense(state(), matrix_.get(), ctx_.get()));
  } else {
    matrix_.reset(SUNSparseMatrix(n, n, static_cast<sunindextype>(klu_pattern.nnz()), CSC_MAT,
                                  ctx_.get()));
    solver_.reset(SUNLinSol_KLU(state(), matrix_.get(), ctx_.get()));
  }
  if (!matrix_ || !solver_) throw Error(Status::internal_error, "linear solver creation failed");
  check(CVodeSetLinearSolver(mem(), solver_.get(), matrix_.get()), "CVodeSetLinearSolver");
  if (use_model_jacobian_)
    check(CVodeSetJacFn(mem(), solver_kind_ == LinearSolverKind::dense ? &Session::dense_jacobian
                                                                       : &Session::sparse_jacobian),
          "CVodeSetJacFn");
}

namespace {

int backward_dense_jacobian(sunrealtype t, N_Vector y, N_Vector, N_Vector, SUNMatrix JB,
                            void* user_data, N_Vector, N_Vector, N_Vector) {
  auto* s = static_cast<Session*>(user_data);
  const std::size_t n = s->nx();
  return s->guard().run([&] {
    double* J = s->work_a.data();
    s->model().jac_x(t, N_VGetArrayPointer(y), s->params().data(), J, s->workspace());
    double* out = SUNDenseMatrix_Data(JB);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n; ++i) out[i + j * n] = -J[j + i * n];
    return all_finite(out, n * n);
  });
}

// -J^T in CSR form has the index arrays of J in CSC form.
int backward_sparse_jacobian(sunrealtype t, N_Vector y, N_Vector, N_Vector, SUNMatrix JB,
                             void* user_data, N_Vector, N_Vector, N_Vector) {
  return static_cast<Session*>(user_data)->fill_sparse_jacobian(t, y, JB, -1.0);
}

}  // namespace

void Session::attach_backward_linear_solver(int which) {
  const auto n = static_cast<sunindextype>(nx_);
  MatrixPtr matrix;
  LinearSolverPtr solver;
  if (solver_kind_ == LinearSolverKind::dense) {
    matrix.reset(SUNDenseMatrix(n, n, ctx_.get()));
    solver.reset(SUNLinSol_Dense(state(), matrix.get(), ctx_.get()));
    work_a.resize(std::max(work_a.size(), nx_ * nx_));  // backward_dense_jacobian's J
  } else {
    matrix.reset(SUNSparseMatrix(n, n, static_cast<sunindextype>(klu_pattern.nnz()), CSR_MAT,
                                 ctx_.get()));
    solver.reset(SUNLinSol_KLU(state(), matrix.get(), ctx_.get()));
  }
  if (!matrix || !solver) throw Error(Status::internal_error, "linear solver creation failed");
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
  std::ostringstream msg;
  const char* name = CVodeGetReturnFlagName(flag);
  msg << call << " failed (" << (name ? name : "?") << ")";
  free(const_cast<char*>(name));
  if (!last_message_.empty()) msg << ": " << last_message_;
  Status status = status_for_flag(flag);
  const bool evaluation_failure =
      flag == CV_RHSFUNC_FAIL || flag == CV_FIRST_RHSFUNC_ERR || flag == CV_REPTD_RHSFUNC_ERR ||
      flag == CV_SRHSFUNC_FAIL || flag == CV_FIRST_SRHSFUNC_ERR ||
      flag == CV_REPTD_SRHSFUNC_ERR || flag == CV_QRHSFUNC_FAIL ||
      flag == CV_FIRST_QRHSFUNC_ERR || flag == CV_REPTD_QRHSFUNC_ERR ||
      flag == CV_CONV_FAILURE || flag == CV_LSETUP_FAIL;
  if (evaluation_failure || flag == CV_TOO_MUCH_WORK) fail_blaming_nonfinite(msg.str());
  throw Error(status, msg.str());
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
  VectorPtr v(N_VClone(y_.get()));
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
  throw Error(Status::not_finite,
              message + " (the right-hand side or a Jacobian produced NaN or Inf during the "
                        "solve, and the integrator could not step past it)");
}

int Session::rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    double* out = N_VGetArrayPointer(ydot);
    s->model_.rhs(t, N_VGetArrayPointer(y), s->params_.data(), out, s->workspace());
    return all_finite(out, s->nx_);
  });
}

int Session::event_roots(sunrealtype t, N_Vector y, sunrealtype* g, void* user_data) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    s->event_runner->root_values(t, N_VGetArrayPointer(y), g);
    return all_finite(g, s->event_runner->n_roots());
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
    model_.jac_x_values(t, N_VGetArrayPointer(y), params_.data(), jac_values.data(),
                        workspace());
    std::copy(klu_pattern.col_ptr.begin(), klu_pattern.col_ptr.end(),
              SUNSparseMatrix_IndexPointers(matrix));
    std::copy(klu_pattern.row_idx.begin(), klu_pattern.row_idx.end(),
              SUNSparseMatrix_IndexValues(matrix));
    double* data = SUNSparseMatrix_Data(matrix);
    std::fill(data, data + klu_pattern.nnz(), 0.0);
    for (std::size_t q = 0; q < jac_values.size(); ++q)
      data[klu_position[q]] = sign * jac_values[q];
    return all_finite(data, klu_pattern.nnz());
  });
}

void Session::add_stats(void* cvode_mem, Stats& stats) {
  long v = 0;
  if (CVodeGetNumSteps(cvode_mem, &v) == CV_SUCCESS) stats.steps += v;
  if (CVodeGetNumRhsEvals(cvode_mem, &v) == CV_SUCCESS) stats.rhs_evals += v;
  if (CVodeGetNumJacEvals(cvode_mem, &v) == CV_SUCCESS) stats.jac_evals += v;
  if (CVodeGetNumLinSolvSetups(cvode_mem, &v) == CV_SUCCESS) stats.linear_setups += v;
  if (CVodeGetNumErrTestFails(cvode_mem, &v) == CV_SUCCESS) stats.error_test_failures += v;
}

void Session::add_backward_stats(const Stats& backward, Stats& stats) {
  stats.steps += backward.steps;
  stats.rhs_evals += backward.rhs_evals;
  stats.jac_evals += backward.jac_evals;
  stats.linear_setups += backward.linear_setups;
  stats.error_test_failures += backward.error_test_failures;
  stats.extra["backward_steps"] = static_cast<double>(backward.steps);
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
                 8.0 * static_cast<double>(work_a.capacity() + work_b.capacity() +
                                           jac_values.capacity() + jac_p_values.capacity());
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

}  // namespace odesens::cvodes
