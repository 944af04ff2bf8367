#include "methods/bounds/bounds_fsa_method.hpp"

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_diag.h>
#include <nvector/nvector_serial.h>

#include <cmath>
#include <exception>
#include <new>
#include <optional>
#include <sstream>
#include <string>

#include "expr/symbolic_model.hpp"
#include "methods/bounds/bounding_tapes.hpp"
#include "methods/bounds/bounds_output.hpp"
#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/parameter_box.hpp"
#include "methods/bounds/system_bounder.hpp"
#include "methods/cvodes/sundials_handles.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"

namespace odesens::bounds {
namespace {

using cvodes::ContextPtr;
using cvodes::CvodeMemPtr;
using cvodes::VectorArray;
using cvodes::VectorPtr;

std::string time_text(double t) {
  std::ostringstream os;
  os.precision(10);
  os << t;
  return os.str();
}

// Everything the CVODES callbacks reach.
struct BoundingSolve {
  SystemBounder* state = nullptr;
  std::vector<std::unique_ptr<SystemBounder>> sens;
  // The last error of a callback: reported if CVODES gives up.
  std::optional<Error> failure;

  // Runs body under upward rounding. A range that cannot be enclosed is
  // recoverable for CVODES (+1): Newton's trial iterates and too long steps
  // may leave the region where the model can be bounded, and a shorter
  // step may not; it is the solve's error only if CVODES gives up. Other
  // exceptions are unrecoverable (-1).
  template <class Body>
  int guarded(double t, double* out, std::size_t n, Body body) {
    try {
      UpwardRounding upward;
      body();
    } catch (const Error& e) {
      failure = Error(e.status(), std::string(e.what()) + " at t = " + time_text(t));
      return e.status() == Status::unbounded ? 1 : -1;
    } catch (const std::bad_alloc&) {
      failure = Error(Status::out_of_memory, "out of memory bounding the model");
      return -1;
    } catch (const std::exception& e) {
      failure = Error(Status::internal_error, e.what());
      return -1;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite(out[i])) {
        failure = Error(Status::unbounded,
                        "the bounding system grew without bound (a value of its right-hand "
                        "side is not finite) at t = " + time_text(t));
        return 1;
      }
    return 0;
  }
};

int state_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
  auto* s = static_cast<BoundingSolve*>(data);
  double* out = N_VGetArrayPointer(ydot);
  return s->guarded(t, out, s->state->layout().size(),
                    [&] { s->state->rhs(t, N_VGetArrayPointer(y), nullptr, out); });
}

int sens_rhs(int, sunrealtype t, N_Vector y, N_Vector, int j, N_Vector yS, N_Vector ySdot,
             void* data, N_Vector, N_Vector) {
  auto* s = static_cast<BoundingSolve*>(data);
  double* out = N_VGetArrayPointer(ySdot);
  SystemBounder& b = *s->sens[static_cast<std::size_t>(j)];
  return s->guarded(t, out, b.layout().size(), [&] {
    b.rhs(t, N_VGetArrayPointer(yS), N_VGetArrayPointer(y), out);
  });
}

void check(int flag, const char* what) {
  if (flag < 0)
    throw Error(flag == CV_MEM_FAIL ? Status::out_of_memory : Status::internal_error,
                std::string(what) + " failed (CVODES flag " + std::to_string(flag) + ")");
}

// Absolute tolerances: atol on coefficients and interval bounds, the shape
// atol on Q's entries (the paper's 1e-20, i.e. 1e-10 on its square root).
void fill_tolerances(const SystemLayout& layout, double atol, double shape_atol, double* v) {
  for (std::size_t k = 0; k < layout.size(); ++k) v[k] = atol;
  for (std::size_t k = 0; k < layout.shape_size(); ++k) v[layout.shape_offset() + k] = shape_atol;
}

// The most doubles the bounding systems may hold (coefficients of x and S
// at one time): 1e8, 800 MB.
constexpr double kMaxCoefficients = 1e8;

// Refuses a box and order whose bounding systems would not fit in memory,
// before anything is allocated: n_mon = C(n_var + q, q) coefficients per
// component, nx (1 + np) components.
void check_size(const Problem& problem, int order) {
  std::size_t n_var = 0;
  for (std::size_t j = 0; j < problem.param_lower.size(); ++j)
    if (problem.param_lower[j] < problem.param_upper[j]) ++n_var;
  double n_mon = 1.0;
  for (int k = 1; k <= order; ++k)
    n_mon = n_mon * static_cast<double>(n_var + static_cast<std::size_t>(k)) / k;
  const double nx = static_cast<double>(problem.model->nx());
  const double total = n_mon * nx * (1.0 + static_cast<double>(problem.model->np()));
  if (total > kMaxCoefficients)
    throw Error(Status::invalid_argument,
                "bounds_fsa: " + std::to_string(n_var) + " box parameters at order " +
                    std::to_string(order) + " give " + std::to_string(n_mon) +
                    " coefficients per model, " + std::to_string(total) +
                    " in the bounding systems (at most 1e8): a lower order or fewer "
                    "parameters with lower < upper");
}

}  // namespace

std::vector<OptionSpec> bounds_fsa_option_specs() { return bounds_option_specs(); }

Result solve_bounds_fsa(const Problem& problem, const MethodOptions& options) {
  // MPFR's per-thread caches go when the solve does, however it ends.
  struct ReleaseCaches {
    ~ReleaseCaches() { release_thread_caches(); }
  } release_caches;
  const Model& model = *problem.model;
  const expr::SymbolicModel& sym = model.symbolic_form()->symbolic_model();
  const BoundsSettings settings = read_bounds_settings(options);
  check_size(problem, settings.order);
  const std::size_t nx = model.nx(), np = model.np();
  const std::size_t n_t = problem.output_times.size();

  const TapeSelection which{settings.remainder == RemainderKind::interval,
                            settings.remainder == RemainderKind::ellipsoid, true};
  const BoundingTapes tapes = build_bounding_tapes(sym, which);

  // Arithmetic, parameter models and initial values: directed rounding.
  std::optional<ParameterBox> box_holder;
  std::unique_ptr<PolyArithmetic> arith, jac_arith;
  ParameterModels params;
  std::unique_ptr<StateJacobian> jacobian;
  std::unique_ptr<SystemBounder> state;
  BoundingSolve solve;
  std::vector<double> y0, ys0;
  try {
    UpwardRounding upward;
    box_holder = make_parameter_box(problem.param_lower, problem.param_upper);
    const ParameterBox& box = *box_holder;
    arith = std::make_unique<PolyArithmetic>(box.n_variables, settings.order, settings.basis,
                                             settings.bounder, settings.max_width);
    jac_arith = std::make_unique<PolyArithmetic>(box.n_variables, settings.jac_order,
                                                 settings.basis, settings.bounder,
                                                 settings.max_width);
    params.order_q = parameter_models(box, *arith);
    params.order_jac = parameter_models(box, *jac_arith);
    if (settings.remainder == RemainderKind::ellipsoid)
      jacobian = std::make_unique<StateJacobian>(tapes.jac_x, *arith, *jac_arith, params.order_jac,
                                                 nx);
    state = std::make_unique<SystemBounder>(tapes, SystemBounder::state_system, *arith, *jac_arith,
                                            settings, params, jacobian.get());
    for (std::size_t j = 0; j < np; ++j)
      solve.sens.push_back(std::make_unique<SystemBounder>(tapes, j, *arith, *jac_arith, settings,
                                                           params, jacobian.get()));
    solve.state = state.get();

    // x0(p) and dx0/dp over the box (an initial-state override is data).
    std::vector<PolyModel> x0(nx, arith->make()), dx0(nx * np, arith->make());
    if (!problem.initial_state.empty()) {
      for (std::size_t i = 0; i < nx; ++i) arith->set_constant(x0[i], problem.initial_state[i]);
      for (auto& m : dx0) arith->set_constant(m, 0.0);
    } else {
      ModelOperations ops(*arith);
      expr::RegistersOver<ModelOperations> r0(tapes.x0, ops), r1(tapes.dx0_dp, ops);
      for (std::size_t j = 0; j < np; ++j) {
        ops.assign(r0.param(j), params.order_q[j]);
        ops.assign(r1.param(j), params.order_q[j]);
      }
      expr::evaluate_prefix_over(r0, ops, x0.data());
      expr::evaluate_main_over(r0, ops, x0.data());
      expr::evaluate_prefix_over(r1, ops, dx0.data());
      expr::evaluate_main_over(r1, ops, dx0.data());
    }
    const SystemLayout& layout = state->layout();
    y0.resize(layout.size());
    state->initial(x0, y0.data());
    ys0.resize(layout.size() * np);
    for (std::size_t j = 0; j < np; ++j) {
      std::vector<PolyModel> s0(dx0.begin() + static_cast<std::ptrdiff_t>(j * nx),
                                dx0.begin() + static_cast<std::ptrdiff_t>((j + 1) * nx));
      solve.sens[j]->initial(s0, ys0.data() + j * layout.size());
    }
  } catch (const Error& e) {
    // The initial values and the parameter-only parts of f.
    if (e.status() != Status::unbounded) throw;
    throw Error(e.status(), std::string(e.what()) + " at t = " + time_text(problem.t0));
  }
  const SystemLayout& layout = state->layout();
  const std::size_t n = layout.size();

  SUNContext raw_ctx = nullptr;
  if (SUNContext_Create(nullptr, &raw_ctx) != 0)
    throw Error(Status::out_of_memory, "SUNContext_Create failed");
  ContextPtr ctx(raw_ctx);
  VectorPtr y(N_VNew_Serial(static_cast<sunindextype>(n), ctx.get()));
  VectorPtr atol(N_VClone(y.get()));
  if (!y || !atol) throw Error(Status::out_of_memory, "N_VNew_Serial failed (out of memory)");
  std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(y.get()));
  CvodeMemPtr mem(CVodeCreate(CV_BDF, ctx.get()));
  if (!mem) throw Error(Status::out_of_memory, "CVodeCreate failed (out of memory)");
  void* cv = mem.get();
  check(CVodeInit(cv, state_rhs, problem.t0, y.get()), "CVodeInit");
  fill_tolerances(layout, problem.atol[0], settings.shape_atol, N_VGetArrayPointer(atol.get()));
  check(CVodeSVtolerances(cv, *problem.rtol, atol.get()), "CVodeSVtolerances");
  check(CVodeSetUserData(cv, &solve), "CVodeSetUserData");
  check(CVodeSetMaxNumSteps(cv, problem.max_steps), "CVodeSetMaxNumSteps");
  check(CVDiag(cv), "CVDiag");
  CVodeSetErrHandlerFn(cv, [](int, const char*, const char*, char*, void*) {}, nullptr);

  VectorArray yS(static_cast<int>(np), y.get());
  VectorArray atolS(static_cast<int>(np), y.get());
  if (np > 0) {
    for (std::size_t j = 0; j < np; ++j) {
      std::copy(ys0.begin() + static_cast<std::ptrdiff_t>(j * n),
                ys0.begin() + static_cast<std::ptrdiff_t>((j + 1) * n), N_VGetArrayPointer(yS[j]));
      fill_tolerances(layout, problem.atol[0], settings.shape_atol, N_VGetArrayPointer(atolS[j]));
    }
    check(CVodeSensInit1(cv, static_cast<int>(np), CV_SIMULTANEOUS, sens_rhs, yS.get()),
          "CVodeSensInit1");
    check(CVodeSensSVtolerances(cv, *problem.rtol, atolS.get()), "CVodeSensSVtolerances");
    check(CVodeSetSensErrCon(cv, SUNTRUE), "CVodeSetSensErrCon");
  }

  // CVODES' counters restart with every CVodeReInit: summed per stage.
  Stats stats;
  double sens_rhs_evals = 0.0;
  auto add_stage_counters = [&] {
    long steps = 0, rhs = 0, sens = 0, fails = 0;
    CVodeGetNumSteps(cv, &steps);
    CVodeGetNumRhsEvals(cv, &rhs);
    CVodeGetNumErrTestFails(cv, &fails);
    if (np > 0) CVodeGetSensNumRhsEvals(cv, &sens);
    stats.steps += steps;
    stats.rhs_evals += rhs;
    stats.error_test_failures += fails;
    sens_rhs_evals += static_cast<double>(sens);
  };
  BoundsOutput out(problem, *box_holder, *arith, settings, *state, solve.sens);
  for (std::size_t k = 0; k < n_t; ++k) {
    const double tk = problem.output_times[k];
    if (tk > problem.t0) {
      check(CVodeSetStopTime(cv, tk), "CVodeSetStopTime");
      sunrealtype reached = problem.t0;
      const int flag = CVode(cv, tk, y.get(), &reached, CV_NORMAL);
      if (flag < 0 && solve.failure) throw *solve.failure;
      solve.failure.reset();  // recovered from by shorter steps
      if (flag < 0) {
        const Status status = flag == CV_TOO_MUCH_WORK ? Status::too_much_work
                                                       : Status::solver_failed;
        throw Error(status, "CVODES could not integrate the bounding system before t = " +
                                time_text(tk) + " (flag " + std::to_string(flag) +
                                (flag == CV_TOO_MUCH_WORK ? ", max_steps reached" : "") +
                                "); the enclosure may be growing too fast: a smaller box, a "
                                "higher order or a shorter time span help");
      }
      if (np > 0) check(CVodeGetSens(cv, &reached, yS.get()), "CVodeGetSens");
      // Output times are stage boundaries (the paper's t_k): the
      // integration restarts there, so a right-hand side that switches
      // with t (a piecewise control) is never stepped across.
      if (k + 1 < n_t) {
        add_stage_counters();
        check(CVodeReInit(cv, tk, y.get()), "CVodeReInit");
        if (np > 0) check(CVodeSensReInit(cv, CV_SIMULTANEOUS, yS.get()), "CVodeSensReInit");
      }
    }
    std::vector<const double*> sens_vectors(np);
    for (std::size_t j = 0; j < np; ++j)
      sens_vectors[j] = tk > problem.t0 ? N_VGetArrayPointer(yS[j]) : ys0.data() + j * n;
    const double* yk = tk > problem.t0 ? N_VGetArrayPointer(y.get()) : y0.data();
    UpwardRounding upward;
    out.record(k, yk, sens_vectors);
  }

  Result result;
  {
    UpwardRounding upward;
    result = out.finish();
  }
  add_stage_counters();
  result.stats.steps = stats.steps;
  result.stats.rhs_evals = stats.rhs_evals;
  result.stats.error_test_failures = stats.error_test_failures;
  result.stats.extra["sens_rhs_evals"] = sens_rhs_evals;
  result.stats.extra["monomials"] = static_cast<double>(arith->n_monomials());
  return result;
}

}  // namespace odesens::bounds
