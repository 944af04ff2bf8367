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

#include "integrate/cvodes/cvodes_counters.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/sundials_handles.hpp"
#include "methods/bounds/bounding_solve.hpp"
#include "methods/bounds/bounds_output.hpp"
#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/parameter_box.hpp"
#include "methods/bounds/system_bounder.hpp"
#include "methods/bounds/verified_arithmetic.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"

namespace odesens::bounds {
namespace {

using cvodes::ContextPtr;
using cvodes::CvodeMemPtr;
using cvodes::VectorArray;
using cvodes::VectorPtr;

// Everything the CVODES callbacks reach.
struct BoundingSolve : StateSolve {
  std::vector<std::unique_ptr<SystemBounder>> sens;
};

int sens_rhs(int, sunrealtype t, N_Vector y, N_Vector, int j, N_Vector yS, N_Vector ySdot,
             void* data, N_Vector, N_Vector) {
  auto* s = static_cast<BoundingSolve*>(static_cast<StateSolve*>(data));
  double* out = N_VGetArrayPointer(ySdot);
  SystemBounder& b = *s->sens[static_cast<std::size_t>(j)];
  return s->guard.run(t, out, b.layout().size(), [&] {
    b.rhs(t, N_VGetArrayPointer(yS), N_VGetArrayPointer(y), out);
  });
}

}  // namespace

std::vector<OptionSpec> bounds_fsa_option_specs() { return bounds_option_specs(); }

namespace {

// CVODES gave up on the bounding system before t.
[[noreturn]] void bounding_failed(int flag, double t) {
  const Status status = flag == CV_TOO_MUCH_WORK ? Status::too_much_work : Status::solver_failed;
  throw Error(status, "CVODES could not integrate the bounding system before t = " +
                          time_text(t) + " (" + cvodes::flag_text(flag) +
                          "); the enclosure may be growing too fast: a smaller box, a higher "
                          "order or a shorter time span help");
}

// The bounding system and its sensitivity systems in CVODES: BDF with a
// diagonal Newton matrix (CVDiag), tolerances per component of the layout.
class BoundingIntegrator {
 public:
  BoundingIntegrator(const Problem& problem, const BoundsSettings& settings,
                     const SystemLayout& layout, std::size_t np, BoundingSolve& solve,
                     const std::vector<double>& y0, const std::vector<double>& ys0)
      : np_(np),
        ctx_(cvodes::make_context()),
        y_(cvodes::make_vector(layout.size(), ctx_.get())),
        atol_(cvodes::clone_vector(y_.get())),
        mem_(cvodes::make_cvode(CV_BDF, ctx_.get())),
        ys_(static_cast<int>(np), y_.get()),
        atol_s_(static_cast<int>(np), y_.get()) {
    void* cv = mem_.get();
    std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(y_.get()));
    check_cvodes(cvodes::init_cvode(cv, bounding_state_rhs, problem.t0, y_.get()), "CVodeInit");
    fill_tolerances(layout, problem.atol[0], settings.shape_atol, N_VGetArrayPointer(atol_.get()));
    check_cvodes(CVodeSVtolerances(cv, *problem.rtol, atol_.get()), "CVodeSVtolerances");
    check_cvodes(CVodeSetUserData(cv, static_cast<StateSolve*>(&solve)), "CVodeSetUserData");
    check_cvodes(CVodeSetMaxNumSteps(cv, problem.max_steps), "CVodeSetMaxNumSteps");
    check_cvodes(CVDiag(cv), "CVDiag");
    CVodeSetErrHandlerFn(cv, [](int, const char*, const char*, char*, void*) {}, nullptr);
    if (np == 0) return;
    const std::size_t n = layout.size();
    for (std::size_t j = 0; j < np; ++j) {
      std::copy(ys0.begin() + static_cast<std::ptrdiff_t>(j * n),
                ys0.begin() + static_cast<std::ptrdiff_t>((j + 1) * n), N_VGetArrayPointer(ys_[j]));
      fill_tolerances(layout, problem.atol[0], settings.shape_atol, N_VGetArrayPointer(atol_s_[j]));
    }
    check_cvodes(CVodeSensInit1(cv, static_cast<int>(np), CV_SIMULTANEOUS, sens_rhs, ys_.get()),
                 "CVodeSensInit1");
    check_cvodes(CVodeSensSVtolerances(cv, *problem.rtol, atol_s_.get()), "CVodeSensSVtolerances");
    check_cvodes(CVodeSetSensErrCon(cv, SUNTRUE), "CVodeSetSensErrCon");
  }

  void* mem() const { return mem_.get(); }
  const double* state() const { return N_VGetArrayPointer(y_.get()); }
  const double* sensitivity(std::size_t j) const { return N_VGetArrayPointer(ys_[j]); }

  // Integrates the stage up to tk (an output time); restart: a new stage
  // begins there (CVodeReInit, its counters banked first).
  void stage(double t0, double tk, bool restart, BoundingSolve& solve,
             cvodes::RestartCounters& counters) {
    void* cv = mem_.get();
    check_cvodes(CVodeSetStopTime(cv, tk), "CVodeSetStopTime");
    sunrealtype reached = t0;
    const int flag = CVode(cv, tk, y_.get(), &reached, CV_NORMAL);
    if (flag < 0 && solve.guard.failure) throw *solve.guard.failure;
    solve.guard.failure.reset();  // recovered from by shorter steps
    if (flag < 0) bounding_failed(flag, tk);
    // A box so wide that the bounding system overflows: CVODES' step
    // size turns non-finite without a failure of its own.
    if (!cvodes::all_finite(state(), static_cast<std::size_t>(N_VGetLength(y_.get()))) ||
        (np_ > 0 && CVodeGetSens(cv, &reached, ys_.get()) != CV_SUCCESS))
      throw Error(Status::unbounded,
                  "the bounding system is no longer finite before t = " + time_text(tk) +
                      ": the box is too wide to enclose the solution; a smaller box helps");
    if (!restart) return;
    counters.bank(cv);
    check_cvodes(CVodeReInit(cv, tk, y_.get()), "CVodeReInit");
    if (np_ > 0) check_cvodes(CVodeSensReInit(cv, CV_SIMULTANEOUS, ys_.get()), "CVodeSensReInit");
  }

 private:
  std::size_t np_;
  ContextPtr ctx_;
  VectorPtr y_, atol_;
  CvodeMemPtr mem_;
  VectorArray ys_, atol_s_;
};

// The bounding systems of x and of each s_j, with their initial values.
struct FsaSystems {
  std::optional<BoundingArithmetic> a;
  StateBounding bounding;
  BoundingSolve solve;
  std::vector<double> y0, ys0;  // x's system; the s_j's, one after another
};

// Arithmetic, parameter models and initial values: directed rounding.
void prepare_systems(const Problem& problem, const BoundsSettings& settings,
                     const BoundingFunctions& tapes, FsaSystems& sys) {
  const std::size_t nx = problem.model->nx(), np = problem.model->np();
  try {
    UpwardRounding upward;
    sys.a = make_bounding_arithmetic(problem, settings);
    sys.bounding = make_state_bounding(tapes, *sys.a, settings);
    for (std::size_t j = 0; j < np; ++j)
      sys.solve.sens.push_back(std::make_unique<SystemBounder>(
          tapes.sensitivity(j), sys.bounding.state.get(), *sys.a->arith, *sys.a->jac_arith,
          settings, sys.a->params, sys.bounding.jacobian.get()));
    sys.solve.state = sys.bounding.state.get();

    std::vector<PolyModel> x0, dx0;
    initial_models(problem, tapes, *sys.a, x0, dx0);
    const SystemLayout& layout = sys.bounding.state->layout();
    sys.y0.resize(layout.size());
    sys.bounding.state->initial(x0, sys.y0.data());
    sys.ys0.resize(layout.size() * np);
    for (std::size_t j = 0; j < np; ++j) {
      std::vector<PolyModel> s0(dx0.begin() + static_cast<std::ptrdiff_t>(j * nx),
                                dx0.begin() + static_cast<std::ptrdiff_t>((j + 1) * nx));
      sys.solve.sens[j]->initial(s0, sys.ys0.data() + j * layout.size());
    }
  } catch (const Error& e) {
    // The initial values and the parameter-only parts of f.
    if (e.status() != Status::unbounded) throw;
    throw Error(e.status(), std::string(e.what()) + " at t = " + time_text(problem.t0));
  }
}

}  // namespace

Result solve_bounds_fsa(const Problem& problem, const MethodOptions& options) {
  ReleaseThreadCaches release_caches;
  const Model& model = *problem.model;
  const BoundsSettings settings = read_bounds_settings(options);
  const std::size_t nx = model.nx(), np = model.np();
  check_bounding_size(problem, settings.order,
                      static_cast<double>(nx) * (1.0 + static_cast<double>(np)), "bounds_fsa");
  const std::size_t n_t = problem.output_times.size();

  FunctionSelection which = functions_for(settings);
  which.sensitivities = true;
  const BoundingFunctions tapes = build_bounding_functions(model, which);
  std::vector<const Function*> evaluated{&tapes.f};  // per evaluation: x' and every s_j'
  for (std::size_t j = 0; j < np; ++j) evaluated.push_back(tapes.sensitivity(j).rhs);
  const double work = check_bounding_work(problem, settings, evaluated, "bounds_fsa");

  FsaSystems sys;
  prepare_systems(problem, settings, tapes, sys);
  const SystemLayout& layout = sys.bounding.state->layout();
  const std::size_t n = layout.size();

  BoundingIntegrator integrator(problem, settings, layout, np, sys.solve, sys.y0, sys.ys0);

  // CVODES' counters restart with every CVodeReInit: banked per stage.
  cvodes::RestartCounters counters;
  counters.count_sensitivities(np > 0);
  counters.without_jacobians();  // CVDiag
  BoundsOutput out(problem, sys.a->box, *sys.a->arith, settings, *sys.bounding.state,
                   &sys.solve.sens);
  std::vector<const double*> sens_vectors(np);
  for (std::size_t k = 0; k < n_t; ++k) {
    const double tk = problem.output_times[k];
    const bool stepped = tk > problem.t0;
    // Output times are stage boundaries (the paper's t_k): the integration
    // restarts there, so a right-hand side that switches with t (a
    // piecewise control) is never stepped across.
    if (stepped) integrator.stage(problem.t0, tk, k + 1 < n_t, sys.solve, counters);
    for (std::size_t j = 0; j < np; ++j)
      sens_vectors[j] = stepped ? integrator.sensitivity(j) : sys.ys0.data() + j * n;
    UpwardRounding upward;
    out.record(k, stepped ? integrator.state() : sys.y0.data(), sens_vectors);
  }

  Result result;
  {
    UpwardRounding upward;
    result = out.finish();
  }
  const cvodes::Counters total = counters.total(integrator.mem());
  result.stats.steps = total.steps;
  result.stats.rhs_evals = total.rhs_evals;
  result.stats.error_test_failures = total.error_test_failures;
  result.stats.extra["sens_rhs_evals"] = static_cast<double>(total.sens_rhs_evals);
  result.stats.extra["monomials"] = static_cast<double>(sys.a->arith->n_monomials());
  result.stats.extra["products_per_evaluation"] = work;
  return result;
}

}  // namespace odesens::bounds
