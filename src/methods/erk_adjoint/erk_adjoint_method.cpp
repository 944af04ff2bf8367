// erk_adjoint: forward ERK solve with states checkpointing, then one reverse
// sweep for the objective G = sum_k w_k^T x(t_k) and, with
// final_sensitivity, nx more adjoint vectors seeded with unit vectors at T
// (rows of S(T), the paper's Eq. 34). Accepted step sizes are frozen:
// the gradient is exact for the discrete solution of that step sequence
// (no dh/dp terms); rejected trials play no part.
#include "methods/erk_adjoint/erk_adjoint_method.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "integrate/erk/erk_engine.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "methods/erk_adjoint/checkpoint_schedule.hpp"
#include "methods/erk_adjoint/reverse_sweep.hpp"
#include "odesens/status.hpp"

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
  // max_steps bounds the steps between two output times; the engine counts
  // attempts over the whole solve.
  const double intervals = static_cast<double>(std::max<std::size_t>(problem.output_times.size(), 1));
  s.max_steps = static_cast<long>(std::min(static_cast<double>(problem.max_steps) * intervals, 4e18));
  return s;
}

}  // namespace

Result solve(const Problem& problem, const MethodOptions& options) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np();
  const auto& times = problem.output_times;
  const integrate::erk::Tableau* tableau =
      integrate::erk::find_tableau(options.get_string("tableau"));
  if (!tableau) throw Error(Status::option_type, "unknown tableau '" + options.get_string("tableau") + "'");
  const integrate::erk::ErkSettings settings = engine_settings(problem, options, *tableau);
  const bool rows = options.get_int("final_sensitivity") != 0;

  const std::vector<double> p = effective_params(problem);
  auto ws = model.make_workspace();
  std::vector<double> x0(nx), dx0_dp(nx * np);
  model.initial_state(p.data(), x0.data(), ws.get());
  model.initial_sensitivity(p.data(), dx0_dp.data(), ws.get());
  if (!problem.initial_state.empty()) {
    x0 = problem.initial_state;
    std::fill(dx0_dp.begin(), dx0_dp.end(), 0.0);
  }

  methods::ResultBuilder out(problem, nx, np,
                             rows ? methods::SensitivityLayout::final_time_only
                                  : methods::SensitivityLayout::none);
  // Adjoint vectors: the objective, then the rows of S(T).
  const std::size_t m = 1 + (rows ? nx : 0);
  StepAdjoint adjoint(model, p.data(), ws.get(), *tableau, m);
  const std::string mode_name = options.get_string("checkpointing");
  const Checkpointing mode = mode_name == "stages"    ? Checkpointing::stages
                             : mode_name == "revolve" ? Checkpointing::revolve
                                                      : Checkpointing::states;
  const ForwardTrajectory trajectory =
      run_forward(model, p.data(), ws.get(), problem.t0, x0.data(), times, *tableau, settings,
                  out.x(0), mode, adjoint.live_stages());

  const std::vector<double> weights = objective_weights(problem);
  std::vector<double> lambda(nx * m, 0.0), mu(np * m, 0.0);
  for (std::size_t i = 0; rows && i < nx; ++i) lambda[i + (1 + i) * nx] = 1.0;
  const auto checkpoints = static_cast<std::size_t>(options.get_int("checkpoints"));
  run_reverse(trajectory, adjoint, lambda.data(), mu.data(),
              [&](std::size_t k, double* l) {
                for (std::size_t i = 0; i < nx; ++i) l[i] += weights[k * nx + i];
              },
              checkpoints);

  // dpsi/dp = mu + (dx0/dp)^T lambda_0.
  auto finish = [&](std::size_t v, double* dp) {
    for (std::size_t j = 0; j < np; ++j) {
      double g = mu[j + v * np];
      for (std::size_t i = 0; i < nx; ++i) g += dx0_dp[i + j * nx] * lambda[i + v * nx];
      dp[j] = g;
    }
  };
  out.gradient().assign(np, 0.0);
  finish(0, out.gradient().data());
  if (rows) {
    std::vector<double> row(np);
    double* s_final = out.s(0);
    for (std::size_t i = 0; i < nx; ++i) {
      finish(1 + i, row.data());
      for (std::size_t j = 0; j < np; ++j) s_final[i + j * nx] = row[j];
    }
  }

  Stats& stats = out.stats();
  stats.steps = trajectory.stats.accepted;
  const ReverseCounts& counts = adjoint.counts();
  stats.rhs_evals = trajectory.stats.rhs_evaluations + counts.rhs_evals;
  stats.error_test_failures = trajectory.stats.rejected;
  stats.extra["rejected_steps"] = static_cast<double>(trajectory.stats.rejected);
  stats.extra["reverse_rhs_evals"] = static_cast<double>(counts.rhs_evals);
  stats.extra["recomputed_steps"] = static_cast<double>(counts.recomputed_steps);
  stats.extra["vjp_products"] = static_cast<double>(counts.vjp_products);
  stats.extra["adjoint_vectors"] = static_cast<double>(m);
  // Revolve's checkpoints and work states come on top of the step sequence.
  const double revolve_bytes =
      mode == Checkpointing::revolve ? 8.0 * static_cast<double>((checkpoints + 3) * nx) : 0.0;
  stats.extra["trajectory_bytes"] = trajectory.bytes() + revolve_bytes;
  stats.extra["workspace_bytes"] =
      trajectory.bytes() + revolve_bytes +
      8.0 * static_cast<double>(nx * m * (2 + tableau->stages) + np * m * 2 +
                                2 * tableau->stages * nx);
  return out.take();
}

}  // namespace odesens::erk_adjoint
