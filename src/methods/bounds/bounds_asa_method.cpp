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

#include "integrate/cvodes/sundials_handles.hpp"
#include "methods/bounds/bounding_solve.hpp"
#include "methods/bounds/bounds_output.hpp"
#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/gradient_quadrature.hpp"
#include "methods/bounds/objective_jumps.hpp"
#include "methods/bounds/system_bounder.hpp"
#include "methods/bounds/verified_arithmetic.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"

namespace odesens::bounds {
namespace {

using cvodes::ContextPtr;
using cvodes::CvodeMemPtr;
using cvodes::VectorPtr;

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
  // Asked for valid times, CVODES says CV_BAD_T only when its step size
  // has turned non-finite: a box so wide that the bounding system overflows.
  if (flag == CV_BAD_T)
    throw Error(Status::unbounded, std::string("the ") + pass +
                                       " bounding system is no longer finite before t = " +
                                       time_text(t) +
                                       ": the box is too wide to enclose the solution; a "
                                       "smaller box helps");
  const Status status = flag == CV_TOO_MUCH_WORK ? Status::too_much_work : Status::solver_failed;
  throw Error(status, std::string("CVODES could not integrate the ") + pass +
                          " bounding system to t = " + time_text(t) + " (" +
                          cvodes::flag_text(flag) +
                          "); the enclosure may be growing too fast: a smaller box, a higher "
                          "order or a shorter time span help");
}

// One stage [start, end] of the forward pass (`output`: the index of
// `end` among the output times) and the CVODES memory of its checkpoints.
struct Stage {
  double start, end;
  std::size_t output;
  CvodeMemPtr mem;
  long checkpoint_steps = 0;  // CVodeAdjInit's
  int checkpoints = 0;        // CVodeF's count
};

// Steps between checkpoints for each stage's CVodeAdjInit. CVODES allocates
// the Hermite data of that many steps (two vectors each) when a stage
// starts, however few it takes, and every stage's data live until the
// backward pass reaches it: each stage gets twice the steps the previous
// one took (the first 1000), at least 16 and at most `checkpoint_steps`,
// within kHermiteBytes for all stages. A stage that takes more steps gets
// more checkpoints, recomputed by CVODES during the backward pass.
class CheckpointBudget {
 public:
  static constexpr double kHermiteBytes = 256.0 * 1024.0 * 1024.0;
  static constexpr double kVectorOverhead = 1024.0;  // a serial N_Vector's own structures

  CheckpointBudget(std::int64_t most, std::size_t n, std::size_t stages)
      : most_(static_cast<double>(most)),
        point_bytes_(2.0 * (8.0 * static_cast<double>(n) + kVectorOverhead)),
        stages_left_(static_cast<double>(std::max<std::size_t>(stages, 1))) {}

  // For the next stage, after one that took `previous_steps` (0: none yet).
  long next(long previous_steps) {
    const double wanted = previous_steps > 0 ? 2.0 * static_cast<double>(previous_steps) : 1000.0;
    const double share = (kHermiteBytes - used_) / stages_left_ / point_bytes_ - 1.0;
    const double steps = std::max(1.0, std::min({std::max(wanted, 16.0), most_, std::floor(share)}));
    used_ += (steps + 1.0) * point_bytes_;
    stages_left_ = std::max(1.0, stages_left_ - 1.0);
    return static_cast<long>(steps);
  }

 private:
  double most_, point_bytes_, stages_left_, used_ = 0.0;
};

struct Counters {
  long forward_steps = 0, forward_rhs = 0, forward_fails = 0;
  long backward_steps = 0, backward_rhs = 0, quadrature_rhs = 0;
};

// One bounds_asa solve: the bounding systems, the CVODES vectors, and the
// passes.
class AdjointBounding {
 public:
  AdjointBounding(const Problem& problem, const MethodOptions& options);
  void forward_pass();
  void backward_pass();
  Result result();

 private:
  VectorPtr new_vector(std::size_t size) const;
  void apply_jump(std::size_t k);
  double* x_state(std::size_t k) { return x_at_.data() + k * n_; }

  const Problem& problem_;
  const std::vector<double>& times_;
  const double t0_;
  const std::size_t nx_, np_, n_t_;
  const BoundsSettings settings_;
  const std::int64_t checkpoint_steps_;
  BoundingFunctions tapes_;
  std::optional<BoundingArithmetic> a_;
  StateBounding bounding_;
  std::unique_ptr<SystemBounder> adjoint_;
  std::unique_ptr<GradientQuadrature> quadrature_;
  std::unique_ptr<ObjectiveJumps> objective_;
  std::vector<PolyModel> dx0_, jump_;
  std::vector<double> gain_;
  AdjointSolve solve_;
  cvodes::ReplayGuard replay_;  // during CVodeB (replay_guard.hpp)
  std::size_t n_ = 0;
  ContextPtr ctx_;
  VectorPtr y_, atol_, lambda_, atol_b_, q_, atol_q_;
  std::vector<double> x_at_;  // the state bounding vector at the output times
  std::vector<Stage> stages_;
  Counters count_;
  double forward_seconds_ = 0.0, backward_seconds_ = 0.0;
  double work_ = 0.0;  // products of coefficients per evaluation (check_bounding_work)
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

AdjointBounding::AdjointBounding(const Problem& problem, const MethodOptions& options)
    : problem_(problem),
      times_(problem.output_times),
      t0_(problem.t0),
      nx_(problem.model->nx()),
      np_(problem.model->np()),
      n_t_(problem.output_times.size()),
      settings_(read_bounds_settings(options)),
      checkpoint_steps_(options.get_int("checkpoint_steps")) {
  check_bounding_size(problem, settings_.order,
                      2.0 * static_cast<double>(nx_) + static_cast<double>(np_), "bounds_asa");
  FunctionSelection which = functions_for(settings_);
  which.adjoint = true;
  tapes_ = build_bounding_functions(*problem.model, which);
  // Per evaluation: x' forward; lambda' and the gradient's integrand backward.
  work_ = check_bounding_work(problem, settings_,
                              {&tapes_.f, &tapes_.adj, &tapes_.gradient_integrand}, "bounds_asa");
  std::vector<double> y0;
  try {
    UpwardRounding upward;
    a_ = make_bounding_arithmetic(problem, settings_);
    bounding_ = make_state_bounding(tapes_, *a_, settings_);
    adjoint_ = std::make_unique<SystemBounder>(tapes_.adjoint(), bounding_.state.get(),
                                               *a_->arith, *a_->jac_arith, settings_,
                                               a_->params, bounding_.jacobian.get());
    quadrature_ = std::make_unique<GradientQuadrature>(
        tapes_.gradient_integrand, *bounding_.state, *adjoint_, *a_->arith, a_->params.order_q);
    objective_ = std::make_unique<ObjectiveJumps>(problem, *bounding_.state, *a_->arith);
    std::vector<PolyModel> x0;
    initial_models(problem, tapes_, *a_, x0, dx0_);
    y0.resize(bounding_.state->layout().size());
    bounding_.state->initial(x0, y0.data());
  } catch (const Error& e) {
    if (e.status() != Status::unbounded) throw;
    throw Error(e.status(), std::string(e.what()) + " at t = " + time_text(t0_));
  }
  solve_.state = bounding_.state.get();
  solve_.adjoint = adjoint_.get();
  solve_.quadrature = quadrature_.get();
  n_ = bounding_.state->layout().size();

  ctx_ = cvodes::make_context();
  y_ = new_vector(n_);
  atol_ = new_vector(n_);
  lambda_ = new_vector(adjoint_->layout().size());
  atol_b_ = new_vector(adjoint_->layout().size());
  q_ = new_vector(quadrature_->layout().size());
  atol_q_ = new_vector(quadrature_->layout().size());
  std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(y_.get()));
  const double atol = problem.atol[0];
  fill_tolerances(bounding_.state->layout(), atol, settings_.shape_atol,
                  N_VGetArrayPointer(atol_.get()));
  fill_tolerances(adjoint_->layout(), atol, settings_.shape_atol, N_VGetArrayPointer(atol_b_.get()));
  fill_tolerances(quadrature_->layout(), atol, settings_.shape_atol,
                  N_VGetArrayPointer(atol_q_.get()));
  x_at_.resize(n_t_ * n_);
  for (std::size_t k = 0; k < n_t_ && !(times_[k] > t0_); ++k)
    std::copy(y0.begin(), y0.end(), x_state(k));
  for (std::size_t k = 0; k < n_t_; ++k)
    if (times_[k] > t0_) stages_.push_back(Stage{k == 0 ? t0_ : times_[k - 1], times_[k], k, nullptr});
}

VectorPtr AdjointBounding::new_vector(std::size_t size) const {
  VectorPtr v = cvodes::make_vector(std::max<std::size_t>(size, 1), ctx_.get());
  N_VConst(0.0, v.get());
  return v;
}

// The forward pass, stage by stage: the output times are the paper's stage
// boundaries t_k, so each stage [t_{k-1}, t_k] is its own CVODES
// integration with its own checkpoints; neither pass ever steps across a
// boundary (a right-hand side that switches with t there, a piecewise
// control, is integrated exactly as bounds_fsa does).
void AdjointBounding::forward_pass() {
  const auto start = Clock::now();
  CheckpointBudget budget(checkpoint_steps_, n_, stages_.size());
  long previous_steps = 0;
  for (Stage& stage : stages_) {
    stage.mem = cvodes::make_cvode(CV_BDF, ctx_.get());
    void* cv = stage.mem.get();
    check_cvodes(cvodes::init_cvode(cv, bounding_state_rhs, stage.start, y_.get()), "CVodeInit");
    check_cvodes(CVodeSVtolerances(cv, *problem_.rtol, atol_.get()), "CVodeSVtolerances");
    check_cvodes(CVodeSetUserData(cv, static_cast<StateSolve*>(&solve_)), "CVodeSetUserData");
    check_cvodes(CVodeSetMaxNumSteps(cv, problem_.max_steps), "CVodeSetMaxNumSteps");
    check_cvodes(CVDiag(cv), "CVDiag");
    silence(cv);
    stage.checkpoint_steps = budget.next(previous_steps);
    check_cvodes(CVodeAdjInit(cv, stage.checkpoint_steps, CV_HERMITE), "CVodeAdjInit");
    check_cvodes(CVodeSetStopTime(cv, stage.end), "CVodeSetStopTime");
    sunrealtype reached = stage.start;
    int checkpoints = 0;
    const int flag = CVodeF(cv, stage.end, y_.get(), &reached, CV_NORMAL, &checkpoints);
    if (flag < 0) integration_failed(flag, solve_, "state", stage.end);
    stage.checkpoints = checkpoints;
    solve_.guard.failure.reset();  // recovered from by shorter steps
    std::copy(N_VGetArrayPointer(y_.get()), N_VGetArrayPointer(y_.get()) + n_,
              x_state(stage.output));
    long rhs = 0, fails = 0;
    CVodeGetNumSteps(cv, &previous_steps);
    CVodeGetNumRhsEvals(cv, &rhs);
    CVodeGetNumErrTestFails(cv, &fails);
    count_.forward_steps += previous_steps;
    count_.forward_rhs += rhs;
    count_.forward_fails += fails;
  }
  forward_seconds_ = seconds_since(start);
}

void AdjointBounding::apply_jump(std::size_t k) {
  try {
    UpwardRounding upward;
    objective_->at(k, x_state(k), jump_, gain_);
    adjoint_->add_jump(N_VGetArrayPointer(lambda_.get()), jump_, x_state(k), gain_);
  } catch (const Error& e) {
    if (e.status() != Status::unbounded) throw;
    throw Error(e.status(), std::string(e.what()) + " at t = " + time_text(times_[k]));
  }
}

// The backward pass, stage by stage from the last: lambda(t_N) = dm_N/dx
// (14), the jumps (15) at the earlier output times, the gradient's integral
// as quadratures carried from stage to stage.
void AdjointBounding::backward_pass() {
  if (np_ == 0) return;  // no gradient to enclose
  const auto start = Clock::now();
  apply_jump(n_t_ - 1);
  for (std::size_t s = stages_.size(); s-- > 0;) {
    Stage& stage = stages_[s];
    void* cv = stage.mem.get();
    int which = -1;
    check_cvodes(CVodeCreateB(cv, CV_BDF, &which), "CVodeCreateB");
    void* bmem = CVodeGetAdjCVodeBmem(cv, which);
    silence(bmem);
    check_cvodes(CVodeInitB(cv, which, adjoint_rhs, stage.end, lambda_.get()), "CVodeInitB");
    check_cvodes(CVodeSVtolerancesB(cv, which, *problem_.rtol, atol_b_.get()),
                 "CVodeSVtolerancesB");
    check_cvodes(CVodeSetUserDataB(cv, which, static_cast<StateSolve*>(&solve_)),
                 "CVodeSetUserDataB");
    check_cvodes(CVodeSetMaxNumStepsB(cv, which, problem_.max_steps), "CVodeSetMaxNumStepsB");
    check_cvodes(CVDiagB(cv, which), "CVDiagB");
    check_cvodes(CVodeQuadInitB(cv, which, quadrature_rhs, q_.get()), "CVodeQuadInitB");
    check_cvodes(CVodeQuadSVtolerancesB(cv, which, *problem_.rtol, atol_q_.get()),
                 "CVodeQuadSVtolerancesB");
    check_cvodes(CVodeSetQuadErrConB(cv, which, SUNTRUE), "CVodeSetQuadErrConB");
    replay_.arm(cv, stage.checkpoints, stage.checkpoint_steps);
    solve_.replay = &replay_;
    solve_.replay_mem = cv;
    const int flag = CVodeB(cv, stage.start, CV_NORMAL);
    solve_.replay = nullptr;
    if (flag < 0) integration_failed(flag, solve_, "adjoint", stage.start);
    solve_.guard.failure.reset();
    sunrealtype reached = stage.start;
    check_cvodes(CVodeGetB(cv, which, &reached, lambda_.get()), "CVodeGetB");
    check_cvodes(CVodeGetQuadB(cv, which, &reached, q_.get()), "CVodeGetQuadB");
    long steps = 0, rhs = 0, quad = 0;
    CVodeGetNumSteps(bmem, &steps);
    CVodeGetNumRhsEvals(bmem, &rhs);
    CVodeGetQuadNumRhsEvals(bmem, &quad);
    count_.backward_steps += steps;
    count_.backward_rhs += rhs;
    count_.quadrature_rhs += quad;
    stage.mem.reset();  // its checkpoints are no longer needed
    // The jump at the stage's start, an output time (or t0 when it is one).
    if (s > 0)
      apply_jump(stages_[s - 1].output);
    else if (!(times_[0] > t0_))
      apply_jump(0);
  }
  backward_seconds_ = seconds_since(start);
}

// (12) enclosed as (55): dF/dp_j = Q_j(t0) + sum_i dx0_i/dp_j lambda_i(t0).
Result AdjointBounding::result() {
  const PolyArithmetic& arith = *a_->arith;
  BoundsOutput out(problem_, a_->box, arith, settings_, *bounding_.state, nullptr);
  Result r;
  {
    UpwardRounding upward;
    for (std::size_t k = 0; k < n_t_; ++k) out.record(k, x_state(k), {});
    std::vector<PolyModel> lambda(nx_, arith.make()), gradient(np_, arith.make());
    PolyModel term = arith.make();
    adjoint_->models(N_VGetArrayPointer(lambda_.get()), lambda);
    quadrature_->models(N_VGetArrayPointer(q_.get()), gradient);
    for (std::size_t j = 0; j < np_; ++j)
      for (std::size_t i = 0; i < nx_; ++i) {
        arith.mul(dx0_[i + j * nx_], lambda[i], term);
        arith.add(gradient[j], term, gradient[j]);
      }
    r = out.finish(&gradient);
  }
  r.stats.steps = count_.forward_steps;
  r.stats.rhs_evals = count_.forward_rhs;
  r.stats.error_test_failures = count_.forward_fails;
  auto& extra = r.stats.extra;
  extra["backward_steps"] = static_cast<double>(count_.backward_steps);
  extra["backward_rhs_evals"] = static_cast<double>(count_.backward_rhs);
  extra["quadrature_rhs_evals"] = static_cast<double>(count_.quadrature_rhs);
  extra["monomials"] = static_cast<double>(arith.n_monomials());
  extra["products_per_evaluation"] = work_;
  // The two passes' wall times (the paper's Tables 3-4 report them apart).
  extra["state_pass_seconds"] = forward_seconds_;
  extra["adjoint_pass_seconds"] = backward_seconds_;
  return r;
}

}  // namespace

std::vector<OptionSpec> bounds_asa_option_specs() {
  std::vector<OptionSpec> specs = bounds_option_specs();
  specs.push_back(bounded({"checkpoint_steps", OptionType::integer, std::int64_t{25000},
                           "most steps of the state bounding system between two checkpoints "
                           "(CVodeAdjInit, Hermite interpolation); each stage between output "
                           "times gets twice the steps of the one before, within 256 MB of "
                           "interpolation data for all stages",
                           {}},
                          1, 100000000));
  return specs;
}

Result solve_bounds_asa(const Problem& problem, const MethodOptions& options) {
  ReleaseThreadCaches release_caches;
  AdjointBounding solve(problem, options);
  solve.forward_pass();
  solve.backward_pass();
  return solve.result();
}

}  // namespace odesens::bounds
