// cvodes_asa: checkpointed adjoint sensitivities with CVODES.
//
// Objective G = sum_k w_k^T x(t_k). The adjoint lambda solves
// lambda' = -J_x^T lambda backwards from lambda(T) = w_K, jumping by w_k at
// each earlier output time, and
//   dG/dp = lambda(t0)^T dx0/dp + int_{t0}^{T} lambda^T J_p dt,
// the integral as a backward quadrature q' = -J_p^T lambda, q(T) = 0.
// Optionally (final_sensitivity) one more backward problem per state i with
// lambda(T) = e_i gives row i of S(T); all backward problems share the
// forward checkpoints and are integrated together.
#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/cvodes/adjoint_tolerances.hpp"
#include "methods/cvodes/cvodes_methods.hpp"
#include "methods/cvodes/cvodes_session.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {

// lambda' = -J_x^T lambda
int adjoint_rhs(sunrealtype t, N_Vector y, N_Vector lambda, N_Vector lambda_dot, void* user_data) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    double* out = N_VGetArrayPointer(lambda_dot);
    s->model().vjp_x(t, N_VGetArrayPointer(y), s->params().data(), 1,
                     N_VGetArrayPointer(lambda), out, s->workspace());
    for (std::size_t i = 0; i < s->nx(); ++i) out[i] = -out[i];
    return all_finite(out, s->nx());
  });
}

// q' = -J_p^T lambda
int adjoint_quadrature(sunrealtype t, N_Vector y, N_Vector lambda, N_Vector q_dot,
                       void* user_data) {
  auto* s = static_cast<Session*>(user_data);
  return s->guard().run([&] {
    double* out = N_VGetArrayPointer(q_dot);
    s->model().vjp_p(t, N_VGetArrayPointer(y), s->params().data(), 1,
                     N_VGetArrayPointer(lambda), out, s->workspace());
    for (std::size_t j = 0; j < s->np(); ++j) out[j] = -out[j];
    return all_finite(out, s->np());
  });
}

// One backward problem: its CVODES index and its terminal/current values.
struct BackwardProblem {
  int which = -1;
  VectorPtr lambda;
  VectorPtr q;
};

}  // namespace

std::vector<OptionSpec> adjoint_option_specs() {
  auto specs = common_option_specs();
  specs.push_back({"interpolation", OptionType::text, std::string("hermite"),
                   "forward trajectory between checkpoints: hermite (cubic Hermite) or "
                   "polynomial (variable-degree, matches the BDF/Adams order)",
                   {"hermite", "polynomial"}});
  specs.push_back(bounded({"checkpoint_steps", OptionType::integer, std::int64_t{100},
                           "integration steps between two checkpoints (at least 13 with "
                           "interpolation=polynomial)",
                           {}},
                          1, 1e9));
  specs.push_back(flag_option("final_sensitivity", true,
                              "1: also compute the full S(T) by one backward problem per state; "
                              "0: only the gradient"));
  // The backward tolerances: 0 derives them (adjoint_tolerances.hpp).
  const double inf = std::numeric_limits<double>::infinity();
  auto tolerance = [&](const char* name, double max, const char* description) {
    specs.push_back(bounded({name, OptionType::real, 0.0, description, {}}, 0.0, max));
  };
  tolerance("rtol_adjoint", 1.0,
            "relative tolerance of the backward states lambda (0: the problem's rtol)");
  tolerance("atol_adjoint", inf,
            "absolute tolerance of lambda (0: rtol_adjoint * max |w|, the scale of lambda's "
            "terminal value)");
  tolerance("rtol_quadrature", 1.0,
            "relative tolerance of the gradient quadratures (0: the problem's rtol)");
  tolerance("atol_quadrature", inf,
            "absolute tolerance of the gradient quadratures, all parameters (0: per parameter, "
            "rtol_quadrature times an estimate of |dG/dp_j| from J_p along the forward solution)");
  return specs;
}

namespace {

// cvodes_asa's options, read once.
struct AdjointSettings {
  SessionSettings session;
  bool polynomial_interpolation;
  std::int64_t checkpoint_steps;
  bool final_sensitivity;
  AdjointToleranceOptions tolerances;
};

AdjointSettings read_adjoint_settings(const MethodOptions& options) {
  return {read_session_settings(options),
          options.get_string("interpolation") == "polynomial",
          options.get_int("checkpoint_steps"),
          options.get_int("final_sensitivity") != 0,
          {options.get_double("rtol_adjoint"), options.get_double("atol_adjoint"),
           options.get_double("rtol_quadrature"), options.get_double("atol_quadrature")}};
}

// What to change when a backward solve fails: the tolerances it ran with
// and the limit it hit.
std::string backward_hint(const BackwardTolerances& t, std::int64_t max_steps) {
  double q_min = 0.0, q_max = 0.0;
  if (!t.atol_quadrature.empty()) {
    const auto [lo, hi] = std::minmax_element(t.atol_quadrature.begin(), t.atol_quadrature.end());
    q_min = *lo;
    q_max = *hi;
  }
  std::string hint = " [backward problem: rtol_adjoint = " + number_text(t.rtol_adjoint) +
                     ", atol_adjoint = " + number_text(t.atol_adjoint);
  if (!t.atol_quadrature.empty())
    hint += ", rtol_quadrature = " + number_text(t.rtol_quadrature) + ", atol_quadrature in [" +
            number_text(q_min) + ", " + number_text(q_max) + "]";
  hint += ", max_steps = " + std::to_string(max_steps) +
          "; loosen these options or raise max_steps]";
  return hint;
}

}  // namespace

Result solve_adjoint(const Problem& problem, const MethodOptions& options) {
  const AdjointSettings settings = read_adjoint_settings(options);
  Session session(problem, settings.session);
  session.create_integrator(problem);
  const std::size_t n = session.nx(), np = session.np();
  const auto& times = problem.output_times;
  const std::size_t nt = times.size();
  void* mem = session.mem();
  const double t_final = times.back();

  const auto steps = settings.checkpoint_steps;
  const bool polynomial = settings.polynomial_interpolation;
  // CVODES' polynomial interpolation reads up to (maximum order + 1) stored
  // steps and crashes with fewer between two checkpoints (seen with
  // SUNDIALS 6.4); 13 covers Adams' order 12.
  const std::int64_t min_steps = polynomial ? 13 : 1;
  if (steps < min_steps)
    throw Error(Status::option_type, "option 'checkpoint_steps' must be at least " +
                                         std::to_string(min_steps) +
                                         (polynomial ? " with interpolation=polynomial" : ""));
  const int interp = polynomial ? CV_POLYNOMIAL : CV_HERMITE;
  session.check(CVodeAdjInit(mem, static_cast<long>(steps), interp), "CVodeAdjInit");

  const bool rows = settings.final_sensitivity;
  methods::ResultBuilder out(problem, n, np,
                             rows ? methods::SensitivityLayout::final_time_only
                                  : methods::SensitivityLayout::none);
  // The forward pass runs through CVodeF, which records the checkpoints the
  // backward pass reads; it stops at each output time as CV_NORMAL does.
  const double* y = N_VGetArrayPointer(session.state());
  const std::vector<double> weights = objective_weights(problem);
  auto weight = [&](std::size_t k) { return weights.data() + k * n; };
  // The forward solution at t0 and the output times, for the tolerances of
  // the backward problems.
  TrajectorySample sample;
  auto add_sample = [&](double t, const double* w) {
    sample.times.push_back(t);
    sample.states.insert(sample.states.end(), y, y + n);
    if (w)
      sample.weights.insert(sample.weights.end(), w, w + n);
    else
      sample.weights.insert(sample.weights.end(), n, 0.0);
  };
  if (nt == 0 || times[0] > problem.t0) add_sample(problem.t0, nullptr);
  int checkpoints = 0;
  for (std::size_t k = 0; k < nt; ++k) {
    if (times[k] > problem.t0) {
      sunrealtype tret = problem.t0;
      int ncheck = 0;
      session.check(CVodeF(mem, times[k], session.state(), &tret, CV_NORMAL, &ncheck), "CVodeF");
      checkpoints = ncheck;
    }
    out.set_x(k, y);
    add_sample(times[k], weight(k));
  }

  const int lmm = settings.session.lmm;
  std::vector<BackwardProblem> backward(1 + (rows ? n : 0));
  const std::vector<BackwardTolerances> tolerances =
      derive_backward_tolerances(settings.tolerances, *problem.rtol, session.model(),
                                 session.params().data(), session.workspace(), sample, rows);
  VectorPtr atol_q(N_VNew_Serial(static_cast<sunindextype>(np > 0 ? np : 1), session.context()));
  if (!atol_q) throw Error(Status::internal_error, "N_VNew_Serial failed");
  for (std::size_t b = 0; b < backward.size(); ++b) {
    auto& bp = backward[b];
    bp.lambda.reset(N_VNew_Serial(static_cast<sunindextype>(n), session.context()));
    bp.q.reset(N_VNew_Serial(static_cast<sunindextype>(np > 0 ? np : 1), session.context()));
    if (!bp.lambda || !bp.q) throw Error(Status::internal_error, "N_VNew_Serial failed");
    double* l = N_VGetArrayPointer(bp.lambda.get());
    if (b == 0)
      std::copy(weight(nt - 1), weight(nt - 1) + n, l);
    else {
      std::fill(l, l + n, 0.0);
      l[b - 1] = 1.0;
    }
    N_VConst(0.0, bp.q.get());
    session.check(CVodeCreateB(mem, lmm, &bp.which), "CVodeCreateB");
    session.capture_messages(CVodeGetAdjCVodeBmem(mem, bp.which));
    session.check(CVodeInitB(mem, bp.which, &adjoint_rhs, t_final, bp.lambda.get()), "CVodeInitB");
    const BackwardTolerances& tol = tolerances[b];
    session.check(CVodeSStolerancesB(mem, bp.which, tol.rtol_adjoint, tol.atol_adjoint),
                  "CVodeSStolerancesB");
    session.check(CVodeSetUserDataB(mem, bp.which, &session), "CVodeSetUserDataB");
    session.check(CVodeSetMaxNumStepsB(mem, bp.which, static_cast<long>(problem.max_steps)),
                  "CVodeSetMaxNumStepsB");
    session.attach_backward_linear_solver(bp.which);
    if (np > 0) {
      session.check(CVodeQuadInitB(mem, bp.which, &adjoint_quadrature, bp.q.get()),
                    "CVodeQuadInitB");
      session.check(CVodeSetQuadErrConB(mem, bp.which, SUNTRUE), "CVodeSetQuadErrConB");
      std::copy(tol.atol_quadrature.begin(), tol.atol_quadrature.end(),
                N_VGetArrayPointer(atol_q.get()));
      // CVODES copies the vector.
      session.check(CVodeQuadSVtolerancesB(mem, bp.which, tol.rtol_quadrature, atol_q.get()),
                    "CVodeQuadSVtolerancesB");
    }
  }

  // A failed backward solve names the tolerances and limit it ran with.
  auto check_backward = [&](int flag) {
    try {
      session.check(flag, "CVodeB");
    } catch (const Error& e) {
      if (e.status() == Status::not_finite || e.status() == Status::callback_failed) throw;
      throw Error(e.status(), e.what() + backward_hint(tolerances[0], problem.max_steps));
    }
  };

  // Backwards from T through the earlier output times, where the objective's
  // adjoint jumps by w_k.
  auto& objective = backward[0];
  sunrealtype tret = t_final;
  for (std::size_t k = nt - 1; k-- > 0;) {
    if (!(times[k] > problem.t0)) break;
    check_backward(CVodeB(mem, times[k], CV_NORMAL));
    // Both values are read before the re-initialisation, which discards
    // the interpolation data they come from.
    session.check(CVodeGetB(mem, objective.which, &tret, objective.lambda.get()), "CVodeGetB");
    if (np > 0)
      session.check(CVodeGetQuadB(mem, objective.which, &tret, objective.q.get()), "CVodeGetQuadB");
    double* l = N_VGetArrayPointer(objective.lambda.get());
    for (std::size_t i = 0; i < n; ++i) l[i] += weight(k)[i];
    session.check(CVodeReInitB(mem, objective.which, times[k], objective.lambda.get()),
                  "CVodeReInitB");
    if (np > 0)
      session.check(CVodeQuadReInitB(mem, objective.which, objective.q.get()), "CVodeQuadReInitB");
  }
  check_backward(CVodeB(mem, problem.t0, CV_NORMAL));

  // dG/dp (or a row of S(T)) = lambda(t0)^T dx0/dp + q(t0).
  const auto& s0 = session.initial_sensitivity();
  auto finish = [&](BackwardProblem& bp, bool add_w0, double* dg) {
    session.check(CVodeGetB(mem, bp.which, &tret, bp.lambda.get()), "CVodeGetB");
    double* l = N_VGetArrayPointer(bp.lambda.get());
    if (add_w0)
      for (std::size_t i = 0; i < n; ++i) l[i] += weight(0)[i];
    if (np == 0) return;
    session.check(CVodeGetQuadB(mem, bp.which, &tret, bp.q.get()), "CVodeGetQuadB");
    const double* q = N_VGetArrayPointer(bp.q.get());
    for (std::size_t j = 0; j < np; ++j) {
      double g = q[j];
      for (std::size_t i = 0; i < n; ++i) g += l[i] * s0[i + j * n];
      dg[j] = g;
    }
  };
  out.gradient().assign(np, 0.0);
  finish(objective, nt > 1 && !(times[0] > problem.t0), out.gradient().data());
  if (rows) {
    double* s_final = out.s(0);
    std::vector<double> row(np);
    for (std::size_t i = 0; i < n; ++i) {
      finish(backward[1 + i], false, row.data());
      for (std::size_t j = 0; j < np; ++j) s_final[i + j * n] = row[j];
    }
  }

  Stats& stats = out.stats();
  Session::add_stats(mem, stats);
  Stats backward_stats;
  for (auto& bp : backward) Session::add_stats(CVodeGetAdjCVodeBmem(mem, bp.which), backward_stats);
  stats.steps += backward_stats.steps;
  stats.rhs_evals += backward_stats.rhs_evals;
  stats.jac_evals += backward_stats.jac_evals;
  stats.linear_setups += backward_stats.linear_setups;
  stats.error_test_failures += backward_stats.error_test_failures;
  stats.extra["backward_steps"] = static_cast<double>(backward_stats.steps);
  stats.extra["backward_problems"] = static_cast<double>(backward.size());
  stats.extra["checkpoints"] = checkpoints;
  return out.take();
}

}  // namespace odesens::cvodes
