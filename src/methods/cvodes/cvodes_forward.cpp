// cvodes_fsa: forward sensitivities with CVODES.
//
// The sensitivity right-hand side is s_j' = J_x s_j + (J_p)_j for all j at
// once, from the model (one product J_x S per call), unless the model has
// no exact Jacobians (then CVODES' difference quotients, option jacobian).
// Sensitivities take part in the error test (option sens_error_control) with
// CVODES' estimated tolerances: rtol, and atol / |p_j| for parameter j
// (atol where p_j = 0), so that each S column is controlled in the scale
// of a relative parameter change.
#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/usable_memory.hpp"
#include "integrate/output_grid.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/cvodes/batched_sensitivity_newton.hpp"
#include "methods/cvodes/cvodes_methods.hpp"
#include "methods/common/cvodes_options.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/cvodes_stepper.hpp"
#include "methods/cvodes/forward_events.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {

// Whether row i of J_x at (t, x) holds a NaN or Inf. J_x S by tangents can
// be NaN where J_x is finite: a tangent through a parameter's infinite
// derivative (sqrt(p) at p = 0) meets 0 * Inf, and the message is then to
// blame the parameter, not a state. Called once, on the first failure.
bool state_derivatives_finite(Session& s, double t, const double* x, std::size_t i) {
  const Model& model = s.model();
  const std::size_t n = s.nx();
  const SparsityPattern* pattern = model.jac_x_pattern();
  std::vector<double> values(pattern ? pattern->nnz() : n * n);
  try {
    if (pattern)
      model.jac_x_values(t, x, s.params().data(), values.data(), s.workspace());
    else
      model.jac_x(t, x, s.params().data(), values.data(), s.workspace());
  } catch (const Error&) {
    return false;
  }
  for (std::size_t c = 0; c < n; ++c) {
    if (!pattern) {
      if (!std::isfinite(values[i + c * n])) return false;
      continue;
    }
    for (auto q = pattern->col_ptr[c]; q < pattern->col_ptr[c + 1]; ++q)
      if (static_cast<std::size_t>(pattern->row_idx[q]) == i && !std::isfinite(values[q]))
        return false;
  }
  return true;
}

// Column j of dS/dt (n entries) holds no NaN or Inf; else the session
// notes the first such entry, and whether J_x S (js, column j of it) was
// already not finite there because of J_x, which its not_finite message names.
bool column_is_finite(Session& s, double t, const double* x, std::size_t j,
                      const double* column, const double* js) {
  const std::size_t n = s.nx();
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(column[i])) {
      if (!s.nonfinite_sensitivity_noted())
        s.note_nonfinite_sensitivity(
            t, i, j, !std::isfinite(js[i]) && !state_derivatives_finite(s, t, x, i));
      return false;
    }
  return true;
}

// JS = J_x S from J_x's values on its (column-compressed) pattern, or
// from the dense J_x (column-major) of a model without a pattern.
void jacobian_times(Session& s, double t, const double* x, std::size_t np, const double* S,
                    double* JS) {
  const SparsityPattern* pattern = s.model().jac_x_pattern();
  double* values = s.sens_jac_x_values();
  const std::size_t n = s.nx();
  if (pattern)
    s.model().jac_x_values(t, x, s.params().data(), values, s.workspace());
  else
    s.model().jac_x(t, x, s.params().data(), values, s.workspace());
  std::fill(JS, JS + n * np, 0.0);
  for (std::size_t j = 0; j < np; ++j) {
    const double* column = S + j * n;
    double* out = JS + j * n;
    for (std::size_t c = 0; c < n; ++c) {
      const double v = column[c];
      if (v == 0.0) continue;
      if (!pattern) {
        for (std::size_t i = 0; i < n; ++i) out[i] += values[i + c * n] * v;
        continue;
      }
      for (auto q = pattern->col_ptr[c]; q < pattern->col_ptr[c + 1]; ++q)
        out[pattern->row_idx[q]] += values[q] * v;
    }
  }
}

int sensitivity_rhs(int ns, sunrealtype t, N_Vector y, N_Vector, N_Vector* ys, N_Vector* ysdot,
                    void* user_data, N_Vector, N_Vector) {
  auto* s = static_cast<Session*>(user_data);
  const std::size_t n = s->nx(), np = static_cast<std::size_t>(ns);
  return s->guard().run([&] {
    s->ask_interrupt(t);
    const double* x = N_VGetArrayPointer(y);
    double* S = s->sens_s();
    double* JS = s->sens_js();
    gather_columns(ys, np, n, S);
    if (s->sens_products_by_jacobian())
      jacobian_times(*s, t, x, np, S, JS);
    else
      s->model().jvp(t, x, s->params().data(), np, S, JS, s->workspace());
    bool finite = true;
    if (const SparsityPattern* pattern = s->model().jac_p_pattern()) {
      // J_p in O(nnz): its values, added column by column.
      double* values = s->jac_p_values();
      s->model().jac_p_values(t, x, s->params().data(), values, s->workspace());
      for (std::size_t j = 0; j < np; ++j) {
        double* out = N_VGetArrayPointer(ysdot[j]);
        std::copy(JS + j * n, JS + (j + 1) * n, out);
        for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
          out[pattern->row_idx[q]] += values[q];
        finite = column_is_finite(*s, t, x, j, out, JS + j * n) && finite;
      }
      return finite;
    }
    // J_p goes into S, which is no longer needed.
    s->model().jac_p(t, x, s->params().data(), S, s->workspace());
    for (std::size_t j = 0; j < np; ++j) {
      double* out = N_VGetArrayPointer(ysdot[j]);
      for (std::size_t i = 0; i < n; ++i) out[i] = JS[i + j * n] + S[i + j * n];
      finite = column_is_finite(*s, t, x, j, out, JS + j * n) && finite;
    }
    return finite;
  });
}

}  // namespace

std::vector<OptionSpec> forward_option_specs() {
  auto specs = common_option_specs();
  specs.push_back({"corrector", OptionType::text, std::string("simultaneous"),
                   "sensitivity corrector: simultaneous (states and sensitivities in one Newton "
                   "iteration) or staggered (sensitivities after the states converge)",
                   {"simultaneous", "staggered"}});
  specs.push_back(flag_option("sens_error_control", true,
                              "1: sensitivities take part in the local error test; 0: only states "
                              "do"));
  specs.push_back(flag_option("batched_solves", true,
                              "1: with the simultaneous corrector, solve the Newton systems of "
                              "the states and all sensitivities in one multi-right-hand-side call "
                              "(same iteration, faster with many parameters); 0: CVODES' own "
                              "Newton solver, one vector at a time"));
  specs.push_back({"sens_products", OptionType::text, std::string("auto"),
                   "how J_x S is formed in the sensitivity right-hand side: tangents (np "
                   "directional derivatives of f, in SIMD lanes), jacobian (J_x's values times "
                   "S, nnz x np products; linear in np where f's size grows with np; models "
                   "with analytic Jacobians), or auto: jacobian from 500 parameters and 4 per "
                   "state where J_x's pattern is known, else tangents",
                   {"auto", "tangents", "jacobian"}});
  specs.push_back(flag_option("sensitivities", true,
                              "1: S at every output time; 0: the states alone (the cost of a "
                              "state-only solve, to compare methods against)"));
  specs.push_back(methods::state_check_option(
      false, "off by default, as CVODES: 0.97 to 1.26 times the time on the shared models, "
             "median 1.07; on with method auto"));
  return specs;
}

namespace {

// cvodes_fsa's options, read once.
struct ForwardSettings {
  SessionSettings session;
  int corrector;  // CV_SIMULTANEOUS or CV_STAGGERED
  bool sens_error_control;
  bool sensitivities;
  bool batched_solves;
  std::string sens_products;
  bool state_check;
};

ForwardSettings read_forward_settings(const MethodOptions& options) {
  return {read_session_settings(options),
          options.get_string("corrector") == "staggered" ? CV_STAGGERED : CV_SIMULTANEOUS,
          options.get_int("sens_error_control") != 0, options.get_int("sensitivities") != 0,
          options.get_int("batched_solves") != 0, options.get_string("sens_products"),
          options.get_int("state_check") != 0};
}

// auto: tangents cost about np / lanes passes over f's tape, the products
// nnz(J_x) x np plus one J_x; where the model has many parameters (f sums
// over them: its tape, and with it each tangent pass, grows with np) the
// products win. Measured (bench_many_parameters, benchmarks/RESULTS.md,
// "cvodes_fsa with many parameters"): one state and 16000 parameters, 10.3
// s with tangents and 0.8 s with products; on the shared SBML models the
// two are within 10 % of each other, and the builtin glv:20 and linear:100
// are 5 % slower with products, so below 500 parameters the tangents stay.
// A model without analytic Jacobians keeps the tangents (its J_x would be
// differences); one without a pattern takes the dense J_x when asked, and
// auto leaves it alone (nx^2 values).
bool products_by_jacobian(const std::string& choice, const Model& model, std::size_t np) {
  if (!model.has_analytic_jacobians()) return false;
  if (choice != "auto") return choice == "jacobian";
  return model.jac_x_pattern() && np >= 500 && np >= 4 * model.nx();
}

}  // namespace

namespace {

// cvodes_fsa set up once: the CVODES memory with its linear solver,
// sensitivity set-up and nonlinear solver, reinitialised for each run.
class PreparedForward final : public methods::PreparedMethod {
 public:
  PreparedForward(const Problem& problem, const MethodOptions& options)
      : settings_(read_forward_settings(options)),
        session_(initial_value_problem(problem), settings_.session),
        np_(settings_.sensitivities ? session_.np() : 0),  // 0: the states alone
        ys_(static_cast<int>(np_), session_.state()) {
    session_.create_integrator();
    if (np_ > 0) init_sensitivities();
  }

  Result run(const Problem& problem) override;

 private:
  void init_sensitivities();
  // S(t0) and the parameter scales of the error test for this run's p.
  void reinit_sensitivities();
  void reach_outputs(const Problem& problem, methods::ResultBuilder& out);
  void report(methods::ResultBuilder& out);

  const ForwardSettings settings_;
  Session session_;
  const std::size_t np_;
  VectorArray ys_;
  std::vector<double> pbar_;
  // Declared after the session: CVODES does not own it, and it must go
  // before the integrator that calls it.
  std::unique_ptr<BatchedSensitivityNewton> newton_;
};

void PreparedForward::init_sensitivities() {
  void* mem = session_.mem();
  session_.size_sensitivity_scratch(
      np_, products_by_jacobian(settings_.sens_products, session_.model(), np_));
  scatter_columns(session_.initial_sensitivity().data(), np_, session_.nx(), ys_.get());
  // CVodeSensInit's vector clones crash where an allocation fails: its
  // history (q_max + 1) and about ten work vectors per column, asked first.
  const double columns = static_cast<double>(np_) * static_cast<double>(session_.nx());
  require_allocatable(8.0 * columns * 16.0,
                      "the sensitivities' vectors (" + std::to_string(np_) + " columns of " +
                          std::to_string(session_.nx()) + " states)",
                      "fewer parameters in S (--sens-params), or cvodes_asa for a gradient");
  session_.check(CVodeSensInit(mem, static_cast<int>(np_), settings_.corrector,
                               session_.use_model_jacobian() ? &sensitivity_rhs : nullptr,
                               ys_.get()),
                 "CVodeSensInit");
  session_.count_sensitivities();
  session_.check(CVodeSensEEtolerances(mem), "CVodeSensEEtolerances");
  session_.check(CVodeSetSensErrCon(mem, settings_.sens_error_control), "CVodeSetSensErrCon");
  if (settings_.corrector == CV_SIMULTANEOUS && settings_.batched_solves) {
    newton_ = std::make_unique<BatchedSensitivityNewton>(session_, np_,
                                                         settings_.session.lmm == CV_BDF);
    session_.check(CVodeSetNonlinearSolverSensSim(mem, newton_->get()),
                   "CVodeSetNonlinearSolverSensSim");
  }
  pbar_.resize(np_);
}

// CVODES weighs S_ij, in its error test and in the Newton iterations alike
// (with sens_error_control=0 too), by 1 / (rtol |S_ij| + atol_i / pbar_j):
// infinite where atol_i is 0 and S_ij starts at 0, which it refuses with
// "Initial ewtS has component(s) equal to zero". Said in the problem's
// terms instead.
void check_sensitivity_weights(const Session& session, std::size_t np) {
  const std::vector<double>& atol = session.atol();
  if (std::find(atol.begin(), atol.end(), 0.0) == atol.end()) return;
  const std::vector<double>& s0 = session.initial_sensitivity();
  const std::size_t nx = session.nx();
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t i = 0; i < nx; ++i)
      if (atol[atol.size() == 1 ? 0 : i] == 0.0 && s0[i + j * nx] == 0.0)
        throw Error(Status::invalid_argument,
                    "cvodes_fsa: state '" + session.model().state_names()[i] +
                        "' has atol 0 and its sensitivity to '" +
                        session.model().param_names()[j] + "' is 0 at t0: CVODES weighs S by 1/(rtol |S| + atol/|p|), infinite "
                        "there; give atol > 0 for this state (odesd, pbsr, exp, grk4as and "
                        "the adjoint methods take atol 0 here)");
}

void PreparedForward::reinit_sensitivities() {
  void* mem = session_.mem();
  check_sensitivity_weights(session_, np_);
  scatter_columns(session_.initial_sensitivity().data(), np_, session_.nx(), ys_.get());
  session_.check(CVodeSensReInit(mem, settings_.corrector, ys_.get()), "CVodeSensReInit");
  for (std::size_t j = 0; j < np_; ++j) {
    const double pj = std::fabs(session_.params()[j]);
    pbar_[j] = pj > 0.0 ? pj : 1.0;
  }
  // With difference quotients CVODES perturbs the parameter array the
  // right-hand side reads, so it is given the session's own.
  const bool from_model = session_.use_model_jacobian();
  session_.check(CVodeSetSensParams(mem, from_model ? nullptr : session_.params().data(),
                                    pbar_.data(), nullptr),
                 "CVodeSetSensParams");
  if (newton_) newton_->reset_counts();
}

Result PreparedForward::run(const Problem& problem) {
  session_.set_interrupt(&problem.interrupt);
  session_.begin_solve(effective_params(problem), problem.initial_state,
                       problem.initial_sensitivity);
  if (np_ > 0) reinit_sensitivities();
  methods::ResultBuilder out(problem, session_.nx(), session_.np(),
                             settings_.sensitivities ? methods::SensitivityLayout::every_output
                                                     : methods::SensitivityLayout::none);
  reach_outputs(problem, out);
  report(out);
  Result r = out.take();
  if (settings_.state_check)
    methods::check_state_error(problem, settings_.session, np_ > 0 ? "S" : "what is computed",
                               r);
  return r;
}

// States through the shared output grid; S at each output from CVODES'
// interpolant over the step that covers it, as CV_NORMAL mode would.
void PreparedForward::reach_outputs(const Problem& problem, methods::ResultBuilder& out) {
  const std::size_t n = session_.nx();
  integrate::EventRunner events(session_.model(), session_.params().data(), np_,
                                session_.workspace());
  if (events.active()) {
    integrate_with_events(session_, problem, events, ys_.get(), np_, settings_.corrector, out);
    return;
  }
  CvodesStepper stepper(session_, problem.t0, problem.max_steps, /*stop_at_outputs=*/false);
  const auto& times = problem.output_times;
  for (std::size_t k = 0; k < times.size(); ++k) {
    stepper.begin_output();
    integrate::reach_outputs(stepper, &times[k], 1, stepper.grid_settings(), out.x(k));
    if (np_ == 0) continue;
    if (times[k] > problem.t0) {
      session_.check(CVodeGetSensDky(session_.mem(), times[k], 0, ys_.get()), "CVodeGetSensDky");
      gather_columns(ys_.get(), np_, n, out.s(k));
    } else {
      out.set_s(k, session_.initial_sensitivity().data());
    }
  }
}

void PreparedForward::report(methods::ResultBuilder& out) {
  add_counters(session_.counters(), out.stats(), np_ > 0);
  const double n = static_cast<double>(session_.nx());
  out.stats().extra["workspace_bytes"] =
      session_.workspace_bytes() + (newton_ ? 8.0 * n * static_cast<double>(1 + np_) : 0.0);
  if (np_ > 0)
    out.stats().extra["sens_products_by_jacobian"] = session_.sens_products_by_jacobian() ? 1 : 0;
  if (newton_) {
    out.stats().extra["batched_solves"] = static_cast<double>(newton_->batched_solves());
    out.stats().extra["unbatched_solves"] = static_cast<double>(newton_->fallback_solves());
  }
}

}  // namespace

std::unique_ptr<methods::PreparedMethod> prepare_forward(const Problem& problem,
                                                         const MethodOptions& options) {
  return std::make_unique<PreparedForward>(problem, options);
}

}  // namespace odesens::cvodes
