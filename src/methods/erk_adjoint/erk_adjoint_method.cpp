// erk_adjoint: forward ERK solve with states checkpointing, then one reverse
// sweep for the M objectives psi_m = sum_k w_{k,m}^T x(t_k) + integral of
// R_m (the adjoint paper's Eq. 41-42) and, with final_sensitivity, nx more
// adjoint vectors seeded with unit vectors at T (rows of S(T), Eq. 34). Accepted step sizes are frozen:
// the gradient is exact for the discrete solution of that step sequence
// (no dh/dp terms); rejected trials play no part.
#include "methods/erk_adjoint/erk_adjoint_method.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "integrate/erk/erk_engine.hpp"
#include "linalg/dense.hpp"
#include "methods/common/lane_option.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "methods/erk_adjoint/checkpoint_schedule.hpp"
#include "methods/erk_adjoint/parallel_reverse.hpp"
#include "integrate/erk/stability_limit.hpp"
#include "methods/erk_adjoint/state_error_check.hpp"
#include "methods/erk_adjoint/step_adjoint.hpp"
#include "model/initial_state_check.hpp"
#include "odesens/status.hpp"
#include "problem/objective_terms.hpp"

namespace odesens::erk_adjoint {

std::vector<OptionSpec> option_specs() {
  std::vector<std::string> names;
  int count = 0;
  const integrate::erk::Tableau* all = integrate::erk::all_tableaux(&count);
  for (int i = 0; i < count; ++i) names.push_back(all[i].name);
  const double inf = std::numeric_limits<double>::infinity();
  return {
      {"tableau", OptionType::text, std::string("dopri5"),
       "explicit Runge-Kutta tableau: dopri5 (Dormand-Prince 5(4)), cash_karp (the paper's), "
       "bs3, dop853, or the fixed-step euler and rk4 (with h_fixed)",
       names},
      bounded({"h_fixed", OptionType::real, 0.0,
               "fixed step size (required for euler and rk4); 0: adaptive steps", {}},
              0.0, inf),
      bounded({"h0", OptionType::real, 0.0, "first step size; 0: the HNW starting-step guess", {}},
              0.0, inf),
      bounded({"h_max", OptionType::real, 0.0, "largest step size; 0: no bound", {}}, 0.0, inf),
      {"checkpointing", OptionType::text, std::string("states"),
       "what the forward pass keeps for the reverse sweep: states (t_n, h_n, x_n per step; "
       "stages recomputed, the paper's choice), stages (the stage values: no recomputation, "
       "about s times the memory), revolve (the step sequence and at most `checkpoints` states, "
       "Griewank's binomial schedule)",
       {"states", "stages", "revolve"}},
      bounded({"checkpoints", OptionType::integer, std::int64_t{100},
               "checkpointing=revolve: states kept besides x0", {}},
              1, 1e9),
      flag_option("final_sensitivity", true,
                  "1: also S(T), by nx more adjoint vectors seeded with unit vectors; 0: only "
                  "the gradient"),
      methods::lane_option(
          "SIMD lanes of the vector-Jacobian products (adjoint vectors per pass) for "
          "models with lanes (.ode, SBML, recorded): 0 the widest the CPU has, 1, 4 or 8; "
          "results are bitwise the same"),
      flag_option("stability_limit", true,
                  "1: every adaptive step also stays inside the tableau's stability region, "
                  "|h| <= 0.9 boundary / rho(J), rho from a power iteration on J v every fourth step: "
                  "where the solution rests, the error estimate would let steps grow past it and "
                  "the discrete adjoint overflow (its steps count as steps at the stability "
                  "limit for stiffness_check); 0: accuracy alone sizes the steps"),
      flag_option("state_check", true,
                  "1: solve the states again with the same tableau at tolerances 10 times "
                  "tighter and warn when the states' global error exceeds 300 times their "
                  "tolerances (the gradient and S(T) inherit it); 0: skip"),
      flag_option("stiffness_check", true,
                  "1: Hairer's stiffness test of DOPRI5/DOP853 (h|lambda| estimated from the last "
                  "two stages of accepted steps; 15 tests at the stability boundary declare the "
                  "problem stiff) ends the forward pass early with status stiff and the methods "
                  "that suit the model (other tableaux are not tested); 0: step on at the "
                  "stability limit, however many steps that takes"),
      bounded({"threads", OptionType::integer, std::int64_t{1},
               "threads of the reverse sweep, each reversing a block of whole lane groups of "
               "adjoint vectors over the shared trajectory (fewer when there are fewer than "
               "two lane groups per thread); 0: one per core. The model's functions must then "
               "be safe to call concurrently; results are bitwise the same",
               {}},
              0, 1024),
  };
}

namespace {

integrate::erk::ErkSettings engine_settings(const Problem& problem, const MethodOptions& options,
                                            const integrate::erk::Tableau& tableau) {
  integrate::erk::ErkSettings s;
  s.tolerances.rtol = *problem.rtol;
  if (problem.atol.size() == 1)
    s.tolerances.atol = problem.atol[0];
  else
    s.tolerances.atol_per_state = problem.atol;
  s.h0 = options.get_double("h0");
  s.h_max = options.get_double("h_max");
  const double h_fixed = options.get_double("h_fixed");
  if (h_fixed > 0.0) s.h_fixed = h_fixed;
  if (tableau.fixed_step_only && !s.h_fixed)
    throw Error(Status::option_type, std::string("tableau ") + tableau.name +
                                         " has no error estimate: give option h_fixed > 0");
  // max_steps bounds the step attempts between two output times (the output
  // grid starts each interval's budget).
  s.max_steps = static_cast<long>(problem.max_steps);
  s.detect_stiffness = options.get_int("stiffness_check") != 0;
  return s;
}

// x0 (nx) and dx0/dp (nx x np: the problem's initial_state and
// initial_sensitivity, or the model's), the latter left empty where it is
// zero (nx x np: 64 MB for glv:200).
void initial_values(const Problem& problem, const std::vector<double>& p, Workspace* ws,
                    std::vector<double>& x0, std::vector<double>& dx0_dp) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np();
  x0.assign(nx, 0.0);
  dx0_dp.clear();
  if (!problem.initial_state.empty()) {
    x0 = problem.initial_state;
    dx0_dp = problem.initial_sensitivity;  // empty: zero
  } else {
    model.initial_state(p.data(), x0.data(), ws);
    require_finite_initial_state(model, x0.data());
    if (!model.initial_state_depends_on_params()) return;
    dx0_dp.resize(nx * np);
    model.initial_sensitivity(p.data(), dx0_dp.data(), ws);
  }
  if (std::none_of(dx0_dp.begin(), dx0_dp.end(), [](double v) { return v != 0.0; }))
    std::vector<double>().swap(dx0_dp);
}

// The states stayed finite (the engine checks them), so a non-finite
// adjoint comes from the derivatives of the steps: an infinite derivative of
// f (x^p at x = 0 with p < 1), or, where the solution barely moves, steps
// the error estimate let grow past the tableau's stability region, whose
// derivative overflows (Lucarelli_CellSystems2018).
void check_adjoint_finite(const std::vector<double>& lambda, const std::vector<double>& mu) {
  const auto finite = [](double v) { return std::isfinite(v); };
  if (std::all_of(lambda.begin(), lambda.end(), finite) && std::all_of(mu.begin(), mu.end(), finite))
    return;
  throw Error(Status::not_finite,
              "erk_adjoint: the adjoint of the discrete solution became NaN or Inf while the "
              "states stayed finite: either a derivative of the right-hand side is infinite "
              "(such as x^p at x = 0 with p < 1), or, where the solution barely changes, the "
              "error estimate let steps grow beyond the explicit tableau's stability region "
              "and their derivative overflowed (the model is stiff there: use cvodes_asa or "
              "cvodes_fsa, or bound the steps with h_max below about 3 over its fastest rate)");
}

// The SIMD lanes asked for: 0 (the widest), 1, 4 or 8.
int lanes_option(const MethodOptions& options) {
  const std::int64_t lanes = options.get_int("lanes");
  if (lanes != 0 && lanes != 1 && lanes != 4 && lanes != 8)
    throw Error(Status::option_type,
                "option 'lanes' must be 0 (the widest), 1, 4 or 8, got " + std::to_string(lanes));
  return static_cast<int>(lanes);
}

Checkpointing checkpointing_option(const MethodOptions& options) {
  const std::string name = options.get_string("checkpointing");
  return name == "stages"    ? Checkpointing::stages
         : name == "revolve" ? Checkpointing::revolve
                             : Checkpointing::states;
}

// What a solve sets up once and its steps share.
struct Solve {
  const Problem& problem;
  const Model& model;
  const integrate::erk::Tableau& tableau;
  integrate::erk::ErkSettings& settings;
  const std::vector<double>& p;
  Workspace* ws;
};

// The forward pass, its states at the output times into x_out; a stiff
// problem's early end names the methods that suit it.
ForwardTrajectory forward_pass(const Solve& s, const std::vector<double>& x0, Checkpointing mode,
                               double* x_out, double* q, integrate::EventRunner& events) {
  try {
    return run_forward(s.model, s.p.data(), s.ws, s.problem.t0, x0.data(),
                       s.problem.output_times, s.tableau, s.settings, x_out, mode,
                       live_stage_count(s.tableau), {s.problem.integrand.get(), q}, &events);
  } catch (const Error& e) {
    if (e.status() != Status::stiff) throw;
    throw Error(e.status(), std::string("erk_adjoint: ") + e.what() +
                                ". Use an implicit method: cvodes_asa for gradients, cvodes_fsa "
                                "or odesd for S (or option stiffness_check=0 to continue anyway)");
  }
}

// The states again at tolerances 10 times tighter: a warning where their
// global error exceeds 300 times the tolerances.
void check_states(const Solve& s, const std::vector<double>& x0, methods::ResultBuilder& out) {
  const double ratio =
      state_error_ratio(s.problem, s.p.data(), x0, s.tableau, s.settings, out.x(0));
  if (!std::isfinite(ratio)) return;
  out.stats().extra["state_error_ratio"] = ratio;
  const std::string warning = state_error_warning(ratio, s.settings.tolerances.rtol);
  if (!warning.empty()) out.warn(warning);
}

// The result from the adjoint vectors after the sweep: dpsi/dp = mu +
// (dx0/dp)^T lambda_0 for every vector at once (one gemm; none when x0 does
// not depend on p, the common case), dpsi/dx0 = lambda_0, the objectives'
// explicit terms, and row i of S(T) from vector n_objectives + i.
void assemble(const Problem& problem, std::size_t nx, std::size_t np, std::size_t m,
              const std::vector<double>& dx0_dp, const std::vector<double>& lambda,
              std::vector<double>& mu, const ObjectiveTerms& terms, const std::vector<double>& q,
              bool rows, methods::ResultBuilder& out) {
  const std::size_t n_objectives = problem.n_objectives;
  if (!dx0_dp.empty())
    linalg::gemm(linalg::Trans::yes, linalg::Trans::no, np, m, nx, 1.0, dx0_dp.data(), nx,
                 lambda.data(), nx, 1.0, mu.data(), np);
  out.gradient().assign(mu.begin(), mu.begin() + static_cast<std::ptrdiff_t>(np * n_objectives));
  out.gradient_x0().assign(lambda.begin(),
                           lambda.begin() + static_cast<std::ptrdiff_t>(nx * n_objectives));
  for (std::size_t j = 0; j < np * n_objectives; ++j) out.gradient()[j] += terms.gradient_p[j];
  out.objective_values() = q;
  for (std::size_t v = 0; v < n_objectives; ++v) out.objective_values()[v] += terms.values[v];
  if (!rows) return;
  double* s_final = out.s(0);
  const double* rows_mu = mu.data() + n_objectives * np;
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t i = 0; i < nx; ++i) s_final[i + j * nx] = rows_mu[j + i * np];
}

// The warnings of the events and of the sweeps, each once.
void add_warnings(const integrate::EventRunner& events, const ReverseCounts& total,
                  methods::ResultBuilder& out) {
  for (const auto& w : events.warnings()) out.warn(w);
  for (const auto& w : total.warnings)
    if (std::find(events.warnings().begin(), events.warnings().end(), w) == events.warnings().end())
      out.warn(w);
}

// A kink of f (min, max, abs of t or x) is not located: the step that
// crosses it has stages on both branches, and the discrete adjoint, exact
// for that step, is not the ODE's sensitivity there (0.4 % off at the
// default tolerances on x' = -k min(x, a), 14 % with an output on the kink).
// The switches of comparisons and floors are located and held.
void warn_of_kink(const Model& model, methods::ResultBuilder& out) {
  const std::string kink = model.rhs_kink();
  if (kink.empty()) return;
  out.warn("f has a " + kink + ", which no step is made to end on: where the solution crosses "
           "it, erk_adjoint's gradient and S(T) can be off far beyond the tolerances. Write "
           "it as a piecewise (min(a, b) as piecewise(a, a <= b, b)), whose switch is "
           "located, or use cvodes_asa or a forward method");
}

// Counters and memory. Revolve's checkpoints and work states (per thread)
// come on top of the step sequence. Workspace: lambda and mu; per stage nu
// (and theta when the model batches its parameter products, with its
// n_stages x M (nx + 1) gemm operand); dx0/dp when kept; the replay's stage
// values per thread.
void fill_stats(const Solve& s, const ForwardTrajectory& trajectory, const ReverseCounts& total,
                const integrate::EventRunner& events, std::size_t m, std::size_t lanes,
                std::size_t threads, Checkpointing mode, std::size_t checkpoints,
                std::size_t dx0_dp_size, Stats& stats) {
  const std::size_t nx = s.model.nx(), np = s.model.np();
  if (events.active()) {
    stats.extra["events_executed"] = static_cast<double>(events.events_executed());
    stats.extra["instants"] = static_cast<double>(trajectory.instants.size());
  }
  stats.steps = trajectory.stats.accepted;
  stats.rhs_evals = trajectory.stats.rhs_evaluations + total.rhs_evals;
  stats.error_test_failures = trajectory.stats.rejected;
  stats.extra["rejected_steps"] = static_cast<double>(trajectory.stats.rejected);
  stats.extra["reverse_rhs_evals"] = static_cast<double>(total.rhs_evals);
  stats.extra["recomputed_steps"] = static_cast<double>(total.recomputed_steps);
  stats.extra["vjp_products"] = static_cast<double>(total.vjp_products);
  stats.extra["adjoint_vectors"] = static_cast<double>(m);
  stats.extra["lanes"] = static_cast<double>(lanes);
  stats.extra["threads"] = static_cast<double>(threads);
  const double revolve_bytes =
      mode == Checkpointing::revolve
          ? 8.0 * static_cast<double>((checkpoints + 3) * nx * threads)
          : 0.0;
  stats.extra["trajectory_bytes"] = trajectory.bytes() + revolve_bytes;
  const std::size_t stages = static_cast<std::size_t>(s.tableau.stages);
  const bool batched = s.model.batches_parameter_products();
  stats.extra["workspace_bytes"] =
      trajectory.bytes() + revolve_bytes +
      8.0 * static_cast<double>(nx * m * (1 + stages + (batched ? stages : 1)) + np * m +
                                (batched ? stages * m * (nx + 1) : 0) + dx0_dp_size +
                                2 * stages * nx * threads);
}

}  // namespace

Result solve(const Problem& problem, const MethodOptions& options) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np(), nt = problem.output_times.size();
  const integrate::erk::Tableau* tableau =
      integrate::erk::find_tableau(options.get_string("tableau"));
  if (!tableau)
    throw Error(Status::option_type, "unknown tableau '" + options.get_string("tableau") + "'");
  integrate::erk::ErkSettings settings = engine_settings(problem, options, *tableau);
  const bool rows = options.get_int("final_sensitivity") != 0;
  const std::size_t n_objectives = problem.n_objectives;
  const std::vector<double> p = effective_params(problem);
  auto ws = model.make_workspace(lanes_option(options));
  const std::size_t lanes = static_cast<std::size_t>(ws->lane_width());
  std::vector<double> x0, dx0_dp;
  initial_values(problem, p, ws.get(), x0, dx0_dp);
  integrate::erk::StabilityLimit stability(model, p.data(), ws.get(),
                                           integrate::erk::cached_stability_boundary(*tableau));
  if (options.get_int("stability_limit") != 0 && !settings.h_fixed) settings.step_limit = &stability;
  const Solve s{problem, model, *tableau, settings, p, ws.get()};

  methods::ResultBuilder out(problem, nx, np,
                             rows ? methods::SensitivityLayout::final_time_only
                                  : methods::SensitivityLayout::none);
  // Adjoint vectors: the objectives, then the rows of S(T).
  const std::size_t m = n_objectives + (rows ? nx : 0);
  const Checkpointing mode = checkpointing_option(options);
  // Events and switches of f: the forward pass records the instants, the
  // reverse sweep carries the adjoints back across them (docs/events.md).
  integrate::EventRunner events(model, p.data(), 0, ws.get());
  if (events.active()) events.record_instants(true);
  std::vector<double> q(n_objectives, 0.0);
  const ForwardTrajectory trajectory = forward_pass(s, x0, mode, out.x(0), q.data(), events);

  // The reverse sweeps, one per block of vectors, each on its own thread
  // with its own workspace over the shared trajectory, seeded at output k
  // with w_k = dphi_k/dx of the block's objectives (vectors first + c <
  // n_objectives), from the forward states at the output times.
  const ObjectiveTerms terms = objective_terms(problem, out.x(0), p.data(), ws.get());
  const std::vector<double>& weights = terms.weights;
  std::vector<double> lambda(nx * m, 0.0), mu(np * m, 0.0);
  for (std::size_t i = 0; rows && i < nx; ++i) lambda[i + (n_objectives + i) * nx] = 1.0;
  const auto checkpoints = static_cast<std::size_t>(options.get_int("checkpoints"));
  const std::vector<VectorBlock> blocks = split_vectors(m, lanes, options.get_int("threads"));
  const ReverseJob job{&model, p.data(), tableau, &trajectory, problem.integrand.get(),
                       static_cast<int>(lanes), checkpoints};
  // With no row of S(T), no running cost and every weight 0 (the states
  // alone, as a PEtab evaluation without a gradient asks) the adjoints stay
  // 0: no reverse sweep.
  const bool reverse = rows || problem.integrand || terms.any_weight();
  const ReverseCounts total = !reverse ? ReverseCounts{} : reverse_in_blocks(
      job, blocks, lambda.data(), mu.data(),
      [&](std::size_t k, std::size_t first, std::size_t count, double* l) {
        for (std::size_t c = 0; first + c < n_objectives && c < count; ++c) {
          const double* w = weights.data() + (first + c) * nx * nt + k * nx;
          for (std::size_t i = 0; i < nx; ++i) l[i + c * nx] += w[i];
        }
      });

  check_adjoint_finite(lambda, mu);
  if (options.get_int("state_check") != 0 && !settings.h_fixed) check_states(s, x0, out);
  assemble(problem, nx, np, m, dx0_dp, lambda, mu, terms, q, rows, out);
  add_warnings(events, total, out);
  if (reverse) warn_of_kink(model, out);
  fill_stats(s, trajectory, total, events, m, lanes, blocks.size(), mode, checkpoints,
             dx0_dp.size(), out.stats());
  return out.take();
}

}  // namespace odesens::erk_adjoint
