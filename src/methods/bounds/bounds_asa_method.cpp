#include "methods/bounds/bounds_asa_method.hpp"

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_diag.h>
#include <nvector/nvector_serial.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "expr/symbolic_model.hpp"
#include "methods/bounds/bounding_solve.hpp"
#include "methods/bounds/bounding_tapes.hpp"
#include "methods/bounds/bounds_output.hpp"
#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/gradient_quadrature.hpp"
#include "methods/bounds/system_bounder.hpp"
#include "methods/cvodes/sundials_handles.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"

namespace odesens::bounds {
namespace {

using cvodes::ContextPtr;
using cvodes::CvodeMemPtr;
using cvodes::VectorPtr;

// Hermite interpolation keeps (checkpoint_steps + 1) pairs of state vectors
// from the start: the number of steps between checkpoints is capped so that
// they take at most this many bytes.
constexpr double kHermiteBytes = 512.0 * 1024.0 * 1024.0;

// Everything the CVODES callbacks reach.
struct AdjointSolve : StateSolve {
  SystemBounder* adjoint = nullptr;
  GradientQuadrature* quadrature = nullptr;
};

// The adjoint and quadrature bounding systems are bounded forward in
// reversed time tau = -t (bounding_tapes.hpp); CVODES integrates them
// backward in t, where d/dt = -d/dtau.
// Runs a backward system's bound (adjoint or quadrature) at t on the
// interpolated state y and the backward vector yB, negated for CVODES.
template <class System>
int reversed(AdjointSolve& s, System& system, sunrealtype t, N_Vector y, N_Vector yB,
             N_Vector out_vector) {
  double* out = N_VGetArrayPointer(out_vector);
  const std::size_t n = system.layout().size();
  return s.guard.run(t, out, n, [&] {
    system.rhs(t, N_VGetArrayPointer(yB), N_VGetArrayPointer(y), out);
    for (std::size_t i = 0; i < n; ++i) out[i] = -out[i];
  });
}

int adjoint_rhs(sunrealtype t, N_Vector y, N_Vector yB, N_Vector yBdot, void* data) {
  auto* s = static_cast<AdjointSolve*>(static_cast<StateSolve*>(data));
  return reversed(*s, *s->adjoint, t, y, yB, yBdot);
}

int quadrature_rhs(sunrealtype t, N_Vector y, N_Vector yB, N_Vector qBdot, void* data) {
  auto* s = static_cast<AdjointSolve*>(static_cast<StateSolve*>(data));
  return reversed(*s, *s->quadrature, t, y, yB, qBdot);
}

void silence(void* mem) {
  CVodeSetErrHandlerFn(mem, [](int, const char*, const char*, char*, void*) {}, nullptr);
}

// The failure of CVodeF or CVodeB: the callback's error if it caused it.
[[noreturn]] void integration_failed(int flag, const AdjointSolve& solve, const char* pass,
                                     double t) {
  if (solve.guard.failure) throw *solve.guard.failure;
  const Status status = flag == CV_TOO_MUCH_WORK ? Status::too_much_work : Status::solver_failed;
  throw Error(status, std::string("CVODES could not integrate the ") + pass +
                          " bounding system to t = " + time_text(t) + " (flag " +
                          std::to_string(flag) +
                          (flag == CV_TOO_MUCH_WORK ? ", max_steps reached" : "") +
                          "); the enclosure may be growing too fast: a smaller box, a higher "
                          "order or a shorter time span help");
}

// lambda's jump at output time k, dm_k/dx (paper (14)-(15)): w_k for F =
// sum_k w_k^T x(t_k); 2 (x(t_k) - d_k) on the observed states for the
// least-squares objective, whose part in the state's ellipsoid is the gain
// 2 on it (SystemBounder::add_jump).
class ObjectiveJumps {
 public:
  ObjectiveJumps(const Problem& problem, const SystemBounder& state, const PolyArithmetic& arith)
      : data_(&problem.objective_data),
        weights_(problem.objective_data.empty() ? objective_weights(problem)
                                                : std::vector<double>{}),
        state_(&state),
        arith_(&arith),
        nx_(problem.model->nx()),
        x_(nx_, arith.make()),
        residual_(arith.make()) {}

  // Under directed rounding.
  void at(std::size_t k, const double* x, std::vector<PolyModel>& jump,
          std::vector<double>& gain) {
    jump.assign(nx_, arith_->make());
    gain.assign(nx_, 0.0);
    if (data_->empty()) {
      for (std::size_t i = 0; i < nx_; ++i) arith_->set_constant(jump[i], weights_[i + k * nx_]);
      return;
    }
    state_->models_outside_ellipsoid(x, x_);
    for (std::size_t i = 0; i < nx_; ++i) {
      const double d = (*data_)[i + k * nx_];
      if (std::isnan(d)) {
        arith_->set_constant(jump[i], 0.0);
        continue;
      }
      arith_->set_constant(residual_, -d);
      arith_->add(x_[i], residual_, jump[i]);
      arith_->scale(jump[i], 2.0, jump[i]);
      gain[i] = 2.0;
    }
  }

 private:
  const std::vector<double>* data_;
  std::vector<double> weights_;
  const SystemBounder* state_;
  const PolyArithmetic* arith_;
  std::size_t nx_;
  std::vector<PolyModel> x_;
  PolyModel residual_;
};

// One stage [start, end] of the forward pass (`output`: the index of
// `end` among the output times) and the CVODES memory of its checkpoints.
struct Stage {
  double start, end;
  std::size_t output;
  CvodeMemPtr mem;
};

struct Counters {
  long forward_steps = 0, forward_rhs = 0, forward_fails = 0;
  long backward_steps = 0, backward_rhs = 0, quadrature_rhs = 0;
};

void add_backward_counters(void* bmem, Counters& c) {
  long steps = 0, rhs = 0, quad = 0;
  CVodeGetNumSteps(bmem, &steps);
  CVodeGetNumRhsEvals(bmem, &rhs);
  if (CVodeGetQuadNumRhsEvals(bmem, &quad) < 0) quad = 0;
  c.backward_steps += steps;
  c.backward_rhs += rhs;
  c.quadrature_rhs += quad;
}

}  // namespace

std::vector<OptionSpec> bounds_asa_option_specs() {
  std::vector<OptionSpec> specs = bounds_option_specs();
  specs.push_back(bounded({"checkpoint_steps", OptionType::integer, std::int64_t{25000},
                           "steps of the state bounding system between two checkpoints "
                           "(CVodeAdjInit; Hermite interpolation); capped so that the "
                           "interpolation data take at most 512 MB",
                           {}},
                          1, 100000000));
  return specs;
}

Result solve_bounds_asa(const Problem& problem, const MethodOptions& options) {
  ReleaseThreadCaches release_caches;
  const Model& model = *problem.model;
  const expr::SymbolicModel& sym = model.symbolic_form()->symbolic_model();
  const BoundsSettings settings = read_bounds_settings(options);
  const std::size_t nx = model.nx(), np = model.np();
  check_bounding_size(problem, settings.order,
                      2.0 * static_cast<double>(nx) + static_cast<double>(np), "bounds_asa");
  const std::vector<double>& times = problem.output_times;
  const std::size_t n_t = times.size();
  const double t0 = problem.t0;

  TapeSelection which = tapes_for(settings);
  which.adjoint = true;
  const BoundingTapes tapes = build_bounding_tapes(sym, which);

  std::optional<BoundingArithmetic> a;
  StateBounding bounding;
  std::unique_ptr<SystemBounder> adjoint;
  std::unique_ptr<GradientQuadrature> quadrature;
  std::vector<PolyModel> x0, dx0;
  std::vector<double> y0;
  AdjointSolve solve;
  try {
    UpwardRounding upward;
    a = make_bounding_arithmetic(problem, settings);
    bounding = make_state_bounding(tapes, *a, settings);
    adjoint = std::make_unique<SystemBounder>(tapes.adjoint(), bounding.state.get(), *a->arith,
                                              *a->jac_arith, settings, a->params,
                                              bounding.jacobian.get());
    quadrature = std::make_unique<GradientQuadrature>(tapes.gradient_integrand, *bounding.state, *adjoint,
                                                      *a->arith, a->params.order_q);
    initial_models(problem, tapes, *a, x0, dx0);
    y0.resize(bounding.state->layout().size());
    bounding.state->initial(x0, y0.data());
  } catch (const Error& e) {
    if (e.status() != Status::unbounded) throw;
    throw Error(e.status(), std::string(e.what()) + " at t = " + time_text(t0));
  }
  solve.state = bounding.state.get();
  solve.adjoint = adjoint.get();
  solve.quadrature = quadrature.get();
  const std::size_t n = bounding.state->layout().size();
  const std::size_t n_adj = adjoint->layout().size();
  const std::size_t n_quad = quadrature->layout().size();

  SUNContext raw_ctx = nullptr;
  if (SUNContext_Create(nullptr, &raw_ctx) != 0)
    throw Error(Status::out_of_memory, "SUNContext_Create failed");
  ContextPtr ctx(raw_ctx);
  auto new_vector = [&](std::size_t size) {
    VectorPtr v(N_VNew_Serial(static_cast<sunindextype>(std::max<std::size_t>(size, 1)),
                              ctx.get()));
    if (!v) throw Error(Status::out_of_memory, "N_VNew_Serial failed (out of memory)");
    N_VConst(0.0, v.get());
    return v;
  };
  VectorPtr y = new_vector(n), atol = new_vector(n);
  VectorPtr lambda = new_vector(n_adj), atol_b = new_vector(n_adj);
  VectorPtr q = new_vector(n_quad), atol_q = new_vector(n_quad);
  std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(y.get()));
  fill_tolerances(bounding.state->layout(), problem.atol[0], settings.shape_atol,
                  N_VGetArrayPointer(atol.get()));
  fill_tolerances(adjoint->layout(), problem.atol[0], settings.shape_atol,
                  N_VGetArrayPointer(atol_b.get()));
  fill_tolerances(quadrature->layout(), problem.atol[0], settings.shape_atol,
                  N_VGetArrayPointer(atol_q.get()));

  // The forward pass, stage by stage: the output times are the paper's
  // stage boundaries t_k, so each stage [t_{k-1}, t_k] is its own CVODES
  // integration with its own checkpoints; neither pass ever steps across
  // a boundary (a right-hand side that switches with t there, a piecewise
  // control, is integrated exactly as bounds_fsa does).
  std::vector<double> x_at(n_t * n);
  std::vector<Stage> stages;
  for (std::size_t k = 0; k < n_t; ++k)
    if (times[k] > t0) stages.push_back(Stage{k == 0 ? t0 : times[k - 1], times[k], k, nullptr});
  const double cap = std::floor(
      kHermiteBytes / (16.0 * static_cast<double>(n) * static_cast<double>(std::max<std::size_t>(stages.size(), 1))));
  const long checkpoint_steps = static_cast<long>(
      std::max(1.0, std::min(static_cast<double>(options.get_int("checkpoint_steps")), cap)));
  Counters count;
  using Clock = std::chrono::steady_clock;
  const auto forward_start = Clock::now();
  for (std::size_t k = 0; k < n_t && !(times[k] > t0); ++k)
    std::copy(y0.begin(), y0.end(), x_at.data() + k * n);
  for (Stage& stage : stages) {
    stage.mem.reset(CVodeCreate(CV_BDF, ctx.get()));
    void* cv = stage.mem.get();
    if (!cv) throw Error(Status::out_of_memory, "CVodeCreate failed (out of memory)");
    check_cvodes(CVodeInit(cv, bounding_state_rhs, stage.start, y.get()), "CVodeInit");
    check_cvodes(CVodeSVtolerances(cv, *problem.rtol, atol.get()), "CVodeSVtolerances");
    check_cvodes(CVodeSetUserData(cv, static_cast<StateSolve*>(&solve)), "CVodeSetUserData");
    check_cvodes(CVodeSetMaxNumSteps(cv, problem.max_steps), "CVodeSetMaxNumSteps");
    check_cvodes(CVDiag(cv), "CVDiag");
    silence(cv);
    check_cvodes(CVodeAdjInit(cv, checkpoint_steps, CV_HERMITE), "CVodeAdjInit");
    check_cvodes(CVodeSetStopTime(cv, stage.end), "CVodeSetStopTime");
    sunrealtype reached = stage.start;
    int checkpoints = 0;
    const int flag = CVodeF(cv, stage.end, y.get(), &reached, CV_NORMAL, &checkpoints);
    if (flag < 0) integration_failed(flag, solve, "state", stage.end);
    solve.guard.failure.reset();  // recovered from by shorter steps
    std::copy(N_VGetArrayPointer(y.get()), N_VGetArrayPointer(y.get()) + n,
              x_at.data() + stage.output * n);
    long steps = 0, rhs = 0, fails = 0;
    CVodeGetNumSteps(cv, &steps);
    CVodeGetNumRhsEvals(cv, &rhs);
    CVodeGetNumErrTestFails(cv, &fails);
    count.forward_steps += steps;
    count.forward_rhs += rhs;
    count.forward_fails += fails;
  }
  auto x_state = [&](std::size_t k) { return x_at.data() + k * n; };
  const auto backward_start = Clock::now();

  // The backward pass, stage by stage from the last: lambda(t_N) = dm_N/dx
  // (14), the jumps (15) at the earlier output times, the gradient's
  // integral as quadratures carried from stage to stage.
  ObjectiveJumps objective(problem, *bounding.state, *a->arith);
  std::vector<PolyModel> jump;
  std::vector<double> gain;
  auto apply_jump = [&](std::size_t k) {
    try {
      UpwardRounding upward;
      objective.at(k, x_state(k), jump, gain);
      adjoint->add_jump(N_VGetArrayPointer(lambda.get()), jump, x_state(k), gain);
    } catch (const Error& e) {
      if (e.status() != Status::unbounded) throw;
      throw Error(e.status(), std::string(e.what()) + " at t = " + time_text(times[k]));
    }
  };
  apply_jump(n_t - 1);
  for (std::size_t s = stages.size(); s-- > 0;) {
    Stage& stage = stages[s];
    void* cv = stage.mem.get();
    int which_b = -1;
    check_cvodes(CVodeCreateB(cv, CV_BDF, &which_b), "CVodeCreateB");
    void* bmem = CVodeGetAdjCVodeBmem(cv, which_b);
    silence(bmem);
    check_cvodes(CVodeInitB(cv, which_b, adjoint_rhs, stage.end, lambda.get()), "CVodeInitB");
    check_cvodes(CVodeSVtolerancesB(cv, which_b, *problem.rtol, atol_b.get()),
                 "CVodeSVtolerancesB");
    check_cvodes(CVodeSetUserDataB(cv, which_b, static_cast<StateSolve*>(&solve)), "CVodeSetUserDataB");
    check_cvodes(CVodeSetMaxNumStepsB(cv, which_b, problem.max_steps), "CVodeSetMaxNumStepsB");
    check_cvodes(CVDiagB(cv, which_b), "CVDiagB");
    if (np > 0) {  // no parameters: no gradient to integrate
      check_cvodes(CVodeQuadInitB(cv, which_b, quadrature_rhs, q.get()), "CVodeQuadInitB");
      check_cvodes(CVodeQuadSVtolerancesB(cv, which_b, *problem.rtol, atol_q.get()),
                   "CVodeQuadSVtolerancesB");
      check_cvodes(CVodeSetQuadErrConB(cv, which_b, SUNTRUE), "CVodeSetQuadErrConB");
    }
    const int flag = CVodeB(cv, stage.start, CV_NORMAL);
    if (flag < 0) integration_failed(flag, solve, "adjoint", stage.start);
    solve.guard.failure.reset();
    sunrealtype reached = stage.start;
    check_cvodes(CVodeGetB(cv, which_b, &reached, lambda.get()), "CVodeGetB");
    if (np > 0) check_cvodes(CVodeGetQuadB(cv, which_b, &reached, q.get()), "CVodeGetQuadB");
    add_backward_counters(bmem, count);
    stage.mem.reset();  // its checkpoints are no longer needed
    // The jump at the stage's start, an output time (or t0 when it is one).
    if (s > 0)
      apply_jump(stages[s - 1].output);
    else if (!(times[0] > t0))
      apply_jump(0);
  }

  const auto backward_end = Clock::now();
  // (12) enclosed as (55): dF/dp_j = Q_j(t0) + sum_i dx0_i/dp_j lambda_i(t0).
  BoundsOutput out(problem, a->box, *a->arith, settings, *bounding.state, {});
  Result result;
  {
    UpwardRounding upward;
    for (std::size_t k = 0; k < n_t; ++k) out.record(k, x_state(k), {});
    std::vector<PolyModel> lambda_models(nx, a->arith->make()), gradient(np, a->arith->make());
    PolyModel term = a->arith->make();
    adjoint->models(N_VGetArrayPointer(lambda.get()), lambda_models);
    quadrature->models(N_VGetArrayPointer(q.get()), gradient);
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        a->arith->mul(dx0[i + j * nx], lambda_models[i], term);
        a->arith->add(gradient[j], term, gradient[j]);
      }
    result = out.finish(&gradient);
  }
  result.stats.steps = count.forward_steps;
  result.stats.rhs_evals = count.forward_rhs;
  result.stats.error_test_failures = count.forward_fails;
  result.stats.extra["backward_steps"] = static_cast<double>(count.backward_steps);
  result.stats.extra["backward_rhs_evals"] = static_cast<double>(count.backward_rhs);
  result.stats.extra["quadrature_rhs_evals"] = static_cast<double>(count.quadrature_rhs);
  result.stats.extra["monomials"] = static_cast<double>(a->arith->n_monomials());
  // The two passes' wall times (the paper's Tables 3-4 report them apart).
  result.stats.extra["state_pass_seconds"] =
      std::chrono::duration<double>(backward_start - forward_start).count();
  result.stats.extra["adjoint_pass_seconds"] =
      std::chrono::duration<double>(backward_end - backward_start).count();
  return result;
}

}  // namespace odesens::bounds
