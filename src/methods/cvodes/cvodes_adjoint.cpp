// cvodes_asa: checkpointed adjoint sensitivities with CVODES.
//
// Objective G = sum_k w_k^T x(t_k). The adjoint lambda solves
// lambda' = -J_x^T lambda backwards from lambda(T) = w_K, jumping by w_k at
// each earlier output time, and
//   dG/dp = lambda(t0)^T dx0/dp + int_{t0}^{T} lambda^T J_p dt,
// the integral as a backward quadrature q' = -J_p^T lambda, q(T) = 0.
// Optionally (final_sensitivity) one more backward problem per state i with
// lambda(T) = e_i gives row i of S(T); all backward problems share the
// forward checkpoints. CVODES integrates its backward problems together,
// each with its own memory, linear solver and matrix (O(nx + nnz) each), so
// the rows run in batches that fit a memory budget (option backward_batch):
// nx problems at once would need O(nx^2) memory.
#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "methods/common/cvodes_options.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/cvodes/adjoint_callbacks.hpp"
#include "methods/cvodes/adjoint_events.hpp"
#include "methods/cvodes/adjoint_tolerances.hpp"
#include "methods/cvodes/cvodes_methods.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {

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

namespace {

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
  specs.push_back(bounded({"backward_batch", OptionType::integer, std::int64_t{0},
                           "final_sensitivity: rows of S(T) integrated in one backward sweep "
                           "(each sweep after the first recomputes the forward interpolation "
                           "data); 0: as many as fit in 1 GiB of backward work space",
                           {}},
                          0, 1e9));
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
  std::int64_t backward_batch;
  AdjointToleranceOptions tolerances;
};

AdjointSettings read_adjoint_settings(const MethodOptions& options) {
  return {read_session_settings(options),
          options.get_string("interpolation") == "polynomial",
          options.get_int("checkpoint_steps"),
          options.get_int("final_sensitivity") != 0,
          options.get_int("backward_batch"),
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

// Work space of one backward problem, estimated: CVODES' vectors (the
// history array of up to 13 vectors for Adams, 6 for BDF, and about 8
// more), its quadratures, and the Newton matrix with its saved copy (dense,
// or CSR with an allowance for KLU's factors: ten times J's entries, what a
// 2-D grid's factors fill in to at 3600 states).
double backward_problem_bytes(std::size_t nx, std::size_t np, std::size_t nnz, bool dense,
                              bool adams) {
  const double n = static_cast<double>(nx), vectors = adams ? 21.0 : 14.0;
  double bytes = 8.0 * vectors * (n + static_cast<double>(np));
  if (dense)
    bytes += 2.0 * 8.0 * n * n + 8.0 * n;
  else
    bytes += 2.0 * (12.0 * static_cast<double>(nnz) + 8.0 * (n + 1)) +
             10.0 * 12.0 * static_cast<double>(nnz);
  return bytes;
}

constexpr double kBackwardMemoryBudget = 1024.0 * 1024.0 * 1024.0;  // bytes

}  // namespace

Result solve_adjoint(const Problem& problem, const MethodOptions& options) {
  const AdjointSettings settings = read_adjoint_settings(options);
  if (problem.model->event_system()) {
    if (settings.polynomial_interpolation && settings.checkpoint_steps < 13)
      throw Error(Status::option_type,
                  "option 'checkpoint_steps' must be at least 13 with interpolation=polynomial");
    return solve_adjoint_with_events(
        problem, {settings.session, settings.polynomial_interpolation ? CV_POLYNOMIAL : CV_HERMITE,
                  settings.checkpoint_steps, settings.final_sensitivity, settings.tolerances});
  }
  Session session(initial_value_problem(problem), settings.session);
  session.create_integrator();
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
      try {
        session.check(CVodeF(mem, times[k], session.state(), &tret, CV_NORMAL, &ncheck),
                      "CVodeF");
      } catch (const Error& e) {
        if (e.status() != Status::too_much_work) throw;
        throw Error(e.status(), e.what() + std::string(" [max_steps = ") +
                                    std::to_string(problem.max_steps) +
                                    " steps between output times; raise max_steps, or check "
                                    "the model for stiffness or a blow-up]");
      }
      checkpoints = ncheck;
    }
    out.set_x(k, y);
    add_sample(times[k], weight(k));
  }

  const int lmm = settings.session.lmm;
  const std::size_t per_problem = static_cast<std::size_t>(backward_problem_bytes(
      n, np, session.klu_nnz(),
      session.linear_solver_kind() == LinearSolverKind::dense, lmm == CV_ADAMS));
  std::size_t batch = 0;  // row problems per backward sweep
  if (rows) {
    batch = settings.backward_batch > 0
                ? static_cast<std::size_t>(settings.backward_batch)
                : static_cast<std::size_t>(
                      std::max(1.0, std::floor(kBackwardMemoryBudget /
                                               static_cast<double>(std::max<std::size_t>(
                                                   per_problem, 1)))));
    batch = std::min(batch, n);
  }
  std::vector<BackwardProblem> backward(1 + batch);
  const std::vector<BackwardTolerances> tolerances =
      derive_backward_tolerances(settings.tolerances, *problem.rtol, session.model(),
                                 session.params().data(), session.workspace(), sample, rows);
  VectorPtr atol_q = make_vector(np > 0 ? np : 1, session.context());
  // Problem b of a sweep whose first row is `first`: the objective (b = 0)
  // or row first + b - 1; none past the last row (it then idles at 0).
  auto row_of = [&](std::size_t b, std::size_t first) { return first + b - 1; };
  // lambda(T) of problem b in the sweep starting at row `first`: w_K for
  // the objective in the first sweep, e_row for a row, 0 for an idle one.
  auto terminal_value = [&](std::size_t b, std::size_t first, double* l) {
    std::fill(l, l + n, 0.0);
    if (b == 0) {
      if (first == 0) std::copy(weight(nt - 1), weight(nt - 1) + n, l);
    } else if (row_of(b, first) < n) {
      l[row_of(b, first)] = 1.0;
    }
  };
  auto set_tolerances = [&](std::size_t b, std::size_t first) {
    const std::size_t index = b == 0 ? 0 : 1 + std::min(row_of(b, first), n - 1);
    const BackwardTolerances& tol = tolerances[index];
    session.check(CVodeSStolerancesB(mem, backward[b].which, tol.rtol_adjoint, tol.atol_adjoint),
                  "CVodeSStolerancesB");
    if (np > 0) {
      std::copy(tol.atol_quadrature.begin(), tol.atol_quadrature.end(),
                N_VGetArrayPointer(atol_q.get()));
      // CVODES copies the vector.
      session.check(CVodeQuadSVtolerancesB(mem, backward[b].which, tol.rtol_quadrature,
                                           atol_q.get()),
                    "CVodeQuadSVtolerancesB");
    }
  };
  for (std::size_t b = 0; b < backward.size(); ++b) {
    auto& bp = backward[b];
    bp.lambda = make_vector(n, session.context());
    bp.q = make_vector(np > 0 ? np : 1, session.context());
    terminal_value(b, 0, N_VGetArrayPointer(bp.lambda.get()));
    N_VConst(0.0, bp.q.get());
    session.check(CVodeCreateB(mem, lmm, &bp.which), "CVodeCreateB");
    session.capture_messages(CVodeGetAdjCVodeBmem(mem, bp.which));
    session.check(CVodeInitB(mem, bp.which, &adjoint_rhs, t_final, bp.lambda.get()), "CVodeInitB");
    session.check(CVodeSetUserDataB(mem, bp.which, &session), "CVodeSetUserDataB");
    session.check(CVodeSetMaxNumStepsB(mem, bp.which, static_cast<long>(problem.max_steps)),
                  "CVodeSetMaxNumStepsB");
    session.attach_backward_linear_solver(bp.which);
    if (np > 0) {
      session.check(CVodeQuadInitB(mem, bp.which, &adjoint_quadrature, bp.q.get()),
                    "CVodeQuadInitB");
      session.check(CVodeSetQuadErrConB(mem, bp.which, SUNTRUE), "CVodeSetQuadErrConB");
    }
    set_tolerances(b, 0);
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
  // A backward memory's counters restart at each re-initialisation: they
  // are added up sweep by sweep.
  Counters backward_counters;
  auto add_backward_stats = [&] {
    for (auto& bp : backward) backward_counters += session.backward_counters(bp.which);
  };
  out.gradient().assign(np, 0.0);
  finish(objective, nt > 1 && !(times[0] > problem.t0), out.gradient().data());
  std::size_t sweeps = 1;
  if (rows) {
    double* s_final = out.s(0);
    std::vector<double> row(np);
    for (std::size_t first = 0; first < n; first += batch) {
      if (first > 0) {  // the next rows, from T again; the objective idles at 0
        add_backward_stats();
        for (std::size_t b = 0; b < backward.size(); ++b) {
          auto& bp = backward[b];
          terminal_value(b, first, N_VGetArrayPointer(bp.lambda.get()));
          session.check(CVodeReInitB(mem, bp.which, t_final, bp.lambda.get()), "CVodeReInitB");
          if (np > 0) {
            N_VConst(0.0, bp.q.get());
            session.check(CVodeQuadReInitB(mem, bp.which, bp.q.get()), "CVodeQuadReInitB");
          }
          set_tolerances(b, first);
        }
        check_backward(CVodeB(mem, problem.t0, CV_NORMAL));
        ++sweeps;
      }
      for (std::size_t b = 1; b < backward.size() && row_of(b, first) < n; ++b) {
        finish(backward[b], false, row.data());
        const std::size_t i = row_of(b, first);
        for (std::size_t j = 0; j < np; ++j) s_final[i + j * n] = row[j];
      }
    }
  }
  add_backward_stats();

  Stats& stats = out.stats();
  add_counters(session.counters(), stats, false);
  add_backward_counters(backward_counters, stats);
  stats.extra["backward_problems"] = static_cast<double>(backward.size());
  stats.extra["backward_sweeps"] = static_cast<double>(sweeps);
  // Checkpoints hold the integrator's history (up to 13 vectors for Adams,
  // 6 for BDF); the interpolation data of one interval, one (polynomial)
  // or two (Hermite) vectors per step.
  const double history = lmm == CV_ADAMS ? 13.0 : 6.0;
  stats.extra["workspace_bytes"] =
      session.workspace_bytes() +
      8.0 * static_cast<double>(n) *
          (history * checkpoints + (polynomial ? 1.0 : 2.0) * static_cast<double>(steps + 1) +
           2.0 * static_cast<double>(backward.size())) +
      8.0 * static_cast<double>(np) * static_cast<double>(backward.size());
  stats.extra["checkpoints"] = checkpoints;
  return out.take();
}

}  // namespace odesens::cvodes
