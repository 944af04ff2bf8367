#include "methods/internal_diff/grk4as_method.hpp"

#include <limits>
#include <string>

#include "integrate/implicit/rosenbrock_tableau.hpp"
#include "methods/internal_diff/internal_diff_settings.hpp"
#include "methods/internal_diff/internal_diff_solve.hpp"
#include "methods/internal_diff/rosenbrock_bundle_integrator.hpp"
#include "odesens/status.hpp"

namespace odesens::grk4as {
namespace {

integrate::RosenbrockJacobian jacobian_mode(const std::string& text) {
  if (text == "frozen") return integrate::RosenbrockJacobian::frozen;
  return integrate::RosenbrockJacobian::corrected;  // the only other choice
}

// One of the option's values (checked against them before).
const integrate::RosenbrockTableau& tableau_named(const std::string& name) {
  if (name == "grk4a") return integrate::grk4a();
  if (name == "ros4") return integrate::ros4();
  return integrate::rodas4();
}

}  // namespace

std::vector<OptionSpec> option_specs() {
  std::vector<OptionSpec> specs = internal_diff::option_specs();
  // Componentwise perturbation sizes by default: on stiff models a
  // normwise perturbation moves components far below the largest by more
  // than their own size, and a species pushed below 0 makes its perturbed
  // trajectory blow up (Laske_PLOSComputBiol2019: the trajectories of L1 and
  // L2 took 272452 steps to t = 20; componentwise, 9092 to t = 100).
  for (OptionSpec& spec : specs)
    if (spec.key == "scaling") {
      spec.default_value = std::string("componentwise");
      spec.doc += "; grk4as' default is componentwise: normwise, a stiff model's small "
                  "components can be pushed below 0, where their perturbed trajectory blows up";
    }
  specs.push_back(
      {"jacobian", OptionType::text, std::string("corrected"),
       "how the perturbed trajectories use the nominal's J_x (all share its LU of "
       "I - h*gamma*J): corrected, their stages add products with their own Jacobian, "
       "(I - h gamma W) k_i^ = h f(Y_i^) + h J^(sum_{j<i} gamma_ij k_j^ + gamma k_i) - h gamma W "
       "k_i, O(eps^2) off their exact Rosenbrock step, so S*R keeps order 4; frozen, the "
       "paper's GRK4AS, W = J of the nominal in every stage: for a perturbed trajectory a "
       "W-method, and GRK4A has sum b_i alpha_i = 0.4881 != 1/2, so S*R converges at order 1 "
       "only for nonlinear f",
       {"corrected", "frozen"}});
  specs.push_back(
      {"tableau", OptionType::text, std::string("rodas4"),
       "the Rosenbrock method under the bundle: rodas4, Hairer & Wanner's stiffly accurate "
       "6-stage RODAS4, free of the order reduction of the others on very stiff models; ros4, "
       "their L-stable ROS4 (gamma = 0.57282, R(inf) = 0), which damps very stiff modes in one "
       "step; grk4a, the "
       "paper's GRK4A (R(inf) = 0.995), whose step size stays near 10/|lambda_max| on models "
       "with very stiff modes (the real models of the method matrix: 5 to 30 times cvodes_fsa's "
       "steps)",
       {"ros4", "grk4a", "rodas4"}});
  specs.push_back(bounded({"sparse_threshold", OptionType::integer, std::int64_t{100},
                           "I - h*gamma*J is factored by dense LAPACK LU below this many states "
                           "and by KLU from it on, when the model has a sparse J_x pattern "
                           "(dense LU otherwise)",
                           {}},
                          1, std::numeric_limits<double>::infinity()));
  return specs;
}

Result solve(const Problem& problem, const MethodOptions& options) {
  const internal_diff::InternalDiffSettings settings = internal_diff::read_settings(problem, options);
  integrate::NewtonMatrixOptions newton;
  newton.sparse_threshold = static_cast<std::size_t>(options.get_int("sparse_threshold"));
  const internal_diff::RosenbrockBundleIntegratorFactory factory(
      tableau_named(options.get_string("tableau")),
      jacobian_mode(options.get_string("jacobian")), newton);
  return internal_diff::solve(problem, settings, factory);
}

}  // namespace odesens::grk4as
