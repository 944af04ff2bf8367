#include "methods/common/cvodes_options.hpp"

#include <cvodes/cvodes.h>

namespace odesens::cvodes {

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

InitialValueProblem initial_value_problem(const Problem& problem) {
  InitialValueProblem ivp;
  ivp.model = problem.model.get();
  ivp.params = effective_params(problem);
  ivp.t0 = problem.t0;
  ivp.initial_state = problem.initial_state;
  ivp.initial_sensitivity = problem.initial_sensitivity;
  ivp.rtol = *problem.rtol;
  ivp.atol = problem.atol;
  ivp.max_steps = problem.max_steps;
  return ivp;
}

void add_counters(const Counters& c, Stats& stats, bool sensitivities) {
  stats.steps += c.steps;
  stats.rhs_evals += c.rhs_evals;
  stats.jac_evals += c.jac_evals;
  stats.linear_setups += c.linear_setups;
  stats.error_test_failures += c.error_test_failures;
  if (!sensitivities) return;
  stats.extra["sens_rhs_evals"] += static_cast<double>(c.sens_rhs_evals);
  stats.extra["sens_error_test_failures"] += static_cast<double>(c.sens_error_test_failures);
  stats.extra["newton_iterations"] += static_cast<double>(c.newton_iterations);
}

void add_backward_counters(const Counters& c, Stats& stats) {
  add_counters(c, stats, false);
  stats.extra["backward_steps"] = static_cast<double>(c.steps);
}

}  // namespace odesens::cvodes
