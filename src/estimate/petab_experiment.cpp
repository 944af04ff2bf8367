// Solving one experiment of a PEtab problem (petab_experiment.hpp).
#include "estimate/petab_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "estimate/petab_objective.hpp"
#include "io/format_double.hpp"
#include "methods/choice/method_choice.hpp"
#include "odesens/methods.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

// Relative: the benchmark collection's test setting. Absolute: 1e-12, not
// that setting's 1e-8, because many real models have states of 1e-4 to 1e-8
// (concentrations in uM, fractions of a population) that an absolute
// tolerance near them resolves to a few digits only, and where such a
// state grows (an epidemic from 1e-7 of a population) its early errors
// grow with it: at 1e-10 the gradient of Fiedler_BMCSystBiol2016 at its
// nominal point was 5.6e-2 off, at 1e-12 1.6e-3 (rtol's share), and at a
// point a fit of Giordano_Nature2020 reached (noise sd 1e-5) 40 % off
// against 1 %, for 1.0-2.1 times the time (docs/petab.md, "Tolerances").
// Not 1e-14: Fujita_SciSignal2010's gradient took 7.8 times as long as at
// 1e-10 for no more accuracy.
constexpr double kDefaultRelativeTolerance = 1e-8;
constexpr double kDefaultAbsoluteTolerance = 1e-12;

// method: what the solves run; asked: what the options are for (the
// resolved method asked for: its options are not another method's).
Problem base_problem(const Definition& def, const PetabOptions& options, const std::string& asked,
                     const std::string& method, bool sensitivities) {
  Problem p;
  p.model = def.dynamics;
  p.t0 = 0.0;
  p.rtol = options.rtol.value_or(kDefaultRelativeTolerance);
  p.atol = options.atol.empty() ? std::vector<double>{kDefaultAbsoluteTolerance} : options.atol;
  p.max_steps = options.max_steps;
  if (method == asked) p.options = options.options;
  p.interrupt = options.interrupt;  // a run's, never a kept session's (prepared_solves.cpp)
  // The states alone when no S is wanted (cvodes_fsa's yardstick option,
  // odesd's states-only solve).
  if (!sensitivities && (method == "cvodes_fsa" || method == "odesd") &&
      !p.options.has("sensitivities"))
    p.options.set("sensitivities", 0);
  return p;
}

// cvodes_asa integrates the adjoint along the forward states, whose error
// control knows nothing of the gradient: at the same rtol its gradient was
// up to 80 times further from a tight reference than cvodes_fsa's, whose S
// is error-controlled (relative to the largest component: Bachmann_MSB2011
// 6.2e-3 against 8.1e-5, Brannmark_JBC2010 4.3e-4 against 1.2e-5). The
// forward states at a tenth of rtol bring that to 1.5e-3 and 1.2e-5 for
// 1.0-1.3 times the time; the backward states and quadratures keep rtol
// unless the caller set them (docs/petab.md, "Tolerances").
constexpr double kAdjointForwardRtolFactor = 0.1;

// An option the caller left unset or set to 0, cvodes_asa's "the problem's
// rtol", which is to stay the rtol asked for, not the forward one's.
void keep_rtol_unless_set(Options& options, const std::string& key, double rtol) {
  const auto it = options.values().find(key);
  const bool set = it != options.values().end() && it->second != OptionValue{0.0} &&
                   it->second != OptionValue{std::int64_t{0}};
  if (!set) options.set(key, rtol);
}

void tighten_forward_of_adjoint(Problem& run) {
  const double rtol = *run.rtol;
  keep_rtol_unless_set(run.options, "rtol_adjoint", rtol);
  keep_rtol_unless_set(run.options, "rtol_quadrature", rtol);
  // Not below 1e-14 (near the machine epsilon no step meets it), nor above rtol.
  run.rtol = std::max(rtol * kAdjointForwardRtolFactor, std::min(rtol, 1e-14));
}

std::string describe(const Definition& def, const Experiment& e) {
  std::string text = "condition '" + def.conditions[e.simulation].id + "'";
  if (e.preequilibration >= 0)
    text += " after pre-equilibration in '" +
            def.conditions[static_cast<std::size_t>(e.preequilibration)].id + "'";
  return text;
}

// Steady states integrate with cvodes_fsa: the options of another method
// are not its own.
Problem for_steady_state(Problem p, const std::string& method) {
  if (method != "cvodes_fsa") p.options = Options();
  p.objective = nullptr;
  return p;
}

// The parameters of Definition::dynamics among all of the full model's.
std::vector<double> dynamic_params(const Definition& def, std::vector<double> p) {
  p.resize(def.n_sbml_params);
  return p;
}

// The columns of S an experiment's solves carry. The likelihood reads S of
// the parameters of Definition::dynamics that estimated ones set in the
// simulation condition (a pre-equilibration's S, of those its own condition
// sets, carried into them: carried_sensitivities), not of fixed rows of the parameter table nor
// of the condition table's numbers. cvodes_fsa's, cvodes_asa's and odesd's
// cost grows with S's columns, and their steps with them (the error test
// covers S): so those solves run on the subset model of the parameters read
// (model/parameter_subset.hpp). Isensee_JCB2018: 32 of 51.
struct Columns {
  bool wanted = false;  // S or a gradient at all
  bool subset = false;  // of `free` only
  std::vector<std::size_t> free;  // every parameter where not a subset
  // Whether any column is solved for: none where no estimated parameter
  // acts on the dynamics of the experiment (its S is zero).
  bool solved() const { return wanted && !(subset && free.empty()); }
};

bool runs_on_subsets(const std::string& method) {
  return method == "cvodes_fsa" || method == "cvodes_asa" || method == "odesd";
}

bool estimated_setting(const Definition& def, const Setting& s) {
  return s.theta >= 0 && def.tables.parameters[static_cast<std::size_t>(s.theta)].estimate;
}

bool is_carrier(const Definition& def, std::size_t j) {
  return std::find(def.carriers.begin(), def.carriers.end(), j) != def.carriers.end();
}

// Whether carrier parameter j (Definition::carriers) carries something
// after `preequilibration` (none: nullptr): its theta set there on another
// model parameter. Its S is zero otherwise, and a method that solves
// subsets leaves it out.
bool carries(const Definition& def, std::size_t j, const Condition& condition,
             const Condition* preequilibration) {
  if (!preequilibration) return false;
  const int theta = condition.params[j].theta;
  for (std::size_t k = 0; k < def.n_sbml_params; ++k)
    if (preequilibration->params[k].theta == theta && !is_carrier(def, k)) return true;
  return false;
}

// The columns of the solves under `condition`'s settings, after
// `preequilibration` (nullptr: none, or the pre-equilibration's own).
Columns sensitivity_columns(const Definition& def, const Condition& condition, bool sensitivities,
                            const std::string& method,
                            const Condition* preequilibration = nullptr) {
  Columns c;
  c.wanted = sensitivities;
  for (std::size_t j = 0; j < def.n_sbml_params; ++j)
    if (!runs_on_subsets(method) ||
        (estimated_setting(def, condition.params[j]) &&
         (!is_carrier(def, j) || carries(def, j, condition, preequilibration))))
      c.free.push_back(j);
  c.subset = sensitivities && c.free.size() < def.n_sbml_params;
  return c;
}

// Whether the dynamics read model parameter j (every one where
// Definition::dynamics_reads does not say).
bool read_by_dynamics(const Definition& def, std::size_t j) {
  return j >= def.dynamics_reads.size() || def.dynamics_reads[j] != 0;
}

// The pre-equilibration's columns: its condition's, but for parameters the
// dynamics do not read, whose S is 0 there (kept where the method solves
// every parameter). Not so in the simulation: an adjoint's objective adds
// the observables' derivatives in its columns.
Columns preequilibration_columns(const Definition& def, const Condition& condition,
                                 bool sensitivities, const std::string& method) {
  Columns c = sensitivity_columns(def, condition, sensitivities, method);
  if (!runs_on_subsets(method)) return c;
  c.free.erase(std::remove_if(c.free.begin(), c.free.end(),
                              [&](std::size_t j) { return !read_by_dynamics(def, j); }),
               c.free.end());
  c.subset = sensitivities && c.free.size() < def.n_sbml_params;
  return c;
}

constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

// The simulation's column that the pre-equilibration's column of model
// parameter j, set to theta, starts in (carried_sensitivities): j's own
// where the simulation condition sets j to theta too, else the first that
// theta sets; kNoColumn where theta sets none.
std::size_t carrier_column(const Condition& sim, const Columns& columns, std::size_t j,
                           int theta) {
  std::size_t first = kNoColumn;
  for (std::size_t k = 0; k < columns.free.size(); ++k) {
    const std::size_t m = columns.free[k];
    if (sim.params[m].theta != theta) continue;
    if (m == j) return k;
    if (first == kNoColumn) first = k;
  }
  return first;
}

// (a pre-equilibration's column, the simulation's column it starts in)
using CarrierPairs = std::vector<std::pair<std::size_t, std::size_t>>;

// The pre-equilibration's columns (model parameters) that carry dx/dtheta
// of an estimated theta into the simulation: those its condition sets to
// an estimated parameter and the dynamics read (the S of the others is 0).
// Error(unsupported) where such a theta sets no model parameter of the
// simulation condition: its S would need a column the simulation's
// likelihood does not read. PetabProblem::load gives every such theta that
// column (a parameter of the dynamics of theta's id, which f does not read:
// sources/petab/petab_problem.cpp, choose_carriers), so only a Definition
// built otherwise meets the refusal.
CarrierPairs carriers(const Definition& def, const Experiment& e, const Columns& pre_columns,
                      const Columns& columns) {
  const Condition& pre = def.conditions[static_cast<std::size_t>(e.preequilibration)];
  const Condition& sim = def.conditions[e.simulation];
  CarrierPairs pairs;
  for (std::size_t c = 0; c < pre_columns.free.size(); ++c) {
    const std::size_t j = pre_columns.free[c];
    const Setting& set = pre.params[j];
    if (!estimated_setting(def, set) || !read_by_dynamics(def, j)) continue;
    const std::size_t k = columns.solved() ? carrier_column(sim, columns, j, set.theta) : kNoColumn;
    if (k == kNoColumn)
      throw Error(Status::unsupported,
                  "estimated parameter '" +
                      def.tables.parameters[static_cast<std::size_t>(set.theta)].id +
                      "' sets model parameter '" + def.model->param_names()[j] +
                      "' in pre-equilibration condition '" + pre.id +
                      "' and no model parameter in simulation condition '" + sim.id +
                      "': sensitivities of a steady state to a parameter the simulation does "
                      "not read are not supported (the likelihood alone is evaluated: without "
                      "the gradient, FIM or residuals' Jacobian)");
    pairs.emplace_back(c, k);
  }
  return pairs;
}

// S at the start of the simulation (nx x its columns) from the steady
// state's (nx x the pre-equilibration's columns). The likelihood reads the
// sum of the columns one estimated parameter sets (total_derivatives,
// add_model_gradient), and S is linear in its initial value: the steady
// state's dx/dtheta may start in any one of them (carrier_column), which
// lets the two conditions set an estimated parameter differently (a
// stimulus 0 before, estimated after).
std::vector<double> carried_sensitivities(const CarrierPairs& pairs,
                                          const std::vector<double>& steady, std::size_t nx,
                                          std::size_t columns) {
  std::vector<double> S(nx * columns, 0.0);
  if (steady.empty()) return S;
  for (const auto& [c, k] : pairs)
    for (std::size_t i = 0; i < nx; ++i) S[i + k * nx] += steady[i + c * nx];
  return S;
}

// The model and parameters of a solve under the model parameters `params`
// (all of the full model's, as model_params gives them).
void set_dynamics(PreparedSolves& solves, const Definition& def, const Columns& columns,
                  const std::vector<double>& params, Problem& problem) {
  std::vector<double> p = dynamic_params(def, params);
  if (!columns.subset) {
    problem.model = def.dynamics;
    problem.params = std::move(p);
    return;
  }
  problem.model = solves.subset_model(def.dynamics, columns.free, p);
  problem.params.clear();
  for (std::size_t j : columns.free) problem.params.push_back(p[j]);
}

// n blocks of rows x |free| columns (an adjoint's gradient: one block of
// one row) widened to rows x np, zero in the columns not computed, which
// the likelihood does not read. An empty S (a method that gives none)
// stays empty, for the caller's check to name; any other size is a bug.
void widen(std::vector<double>& blocks, std::size_t n, std::size_t rows, const Columns& columns,
           std::size_t np, const char* what) {
  const std::size_t nf = columns.free.size();
  if (!columns.subset || (blocks.empty() && nf > 0)) return;
  if (blocks.size() != n * rows * nf)
    throw Error(Status::internal_error, std::string(what) + " has " +
                                            std::to_string(blocks.size()) + " entries, not " +
                                            std::to_string(n * rows * nf));
  std::vector<double> wide(n * rows * np, 0.0);
  for (std::size_t b = 0; b < n; ++b)
    for (std::size_t k = 0; k < nf; ++k)
      std::copy_n(blocks.begin() + static_cast<std::ptrdiff_t>((b * nf + k) * rows), rows,
                  wide.begin() + static_cast<std::ptrdiff_t>((b * np + columns.free[k]) * rows));
  blocks = std::move(wide);
}

// Measurements at t0 alone: x0 and S0, no solve.
void initial_values(const Problem& sim, bool sensitivities, ExperimentSolution& out) {
  const Model& model = *sim.model;
  const std::size_t nx = model.nx(), np = model.np();
  out.x = sim.initial_state;
  if (out.x.empty()) {
    out.x.resize(nx);
    model.initial_state(sim.params.data(), out.x.data());
  }
  if (!sensitivities) return;
  out.S = sim.initial_sensitivity;
  if (out.S.empty()) {
    out.S.resize(nx * np);
    if (sim.initial_state.empty()) model.initial_sensitivity(sim.params.data(), out.S.data());
  }
}

bool adjoint_method(const std::string& id) {
  const MethodCapabilities& c = method_info(id).capabilities;
  return c.gradient && !c.s_trajectory;
}

// The adjoint gives the gradient, not S: where S is needed (the FIM,
// pre-equilibration, steady states) the experiment runs forward; so it
// does in a hierarchical evaluation, whose likelihood terms (the adjoint's
// seeds) wait for the inner parameters' optimum.
bool uses_adjoint(const Experiment& e, const PetabOptions& options, const std::string& method) {
  return adjoint_method(method) && !options.fim && !options.residual_jacobian &&
         !options.hierarchical &&
         e.preequilibration < 0 &&
         !e.steady_state_measured && !e.times.empty() && e.times.back() > 0.0;
}

// The estimated parameters that act on the dynamics: some condition sets a
// model parameter from them.
std::size_t dynamic_estimated(const Definition& def) {
  std::vector<bool> dynamic(def.tables.parameters.size(), false);
  for (const Condition& c : def.conditions)
    for (std::size_t j = 0; j < def.n_sbml_params; ++j)
      if (c.params[j].theta >= 0) dynamic[static_cast<std::size_t>(c.params[j].theta)] = true;
  std::size_t n = 0;
  for (std::size_t row : def.estimated) n += dynamic[row];
  return n;
}

// auto's forward sensitivities: odesd where the library's auto takes it for
// S, on the columns of the estimated parameters (the subset models). With
// residual Jacobians at the nominal points of the 20 shared benchmark
// problems (Lang_PLOSComputBiol2024 aside: S too large) it was 1.0 to 8
// times faster than cvodes_fsa (Raia_CancerResearch2011 7x, Zheng_PNAS2012
// 8x, Brannmark_JBC2010 1.0x) with errors of the same size against a tight
// reference (benchmarks/RESULTS.md, "PEtab problems"). Options given with
// "auto" are cvodes_fsa's (the command line checks them so): they keep it.
// S too large for odesd is too large for forward sensitivities of a
// gradient: one threshold.
static_assert(kPetabAdjointSensitivityEntries == methods::kOdesdSensitivityLimit);

std::string automatic_forward(const Definition& def, const PetabOptions& options,
                              std::size_t dynamic) {
  const bool odesd = options.options.values().empty() &&
                     methods::odesd_suits_sensitivities(*def.dynamics, dynamic);
  return odesd ? "odesd" : "cvodes_fsa";
}

// The methods of an evaluation: the one asked for (auto's choice), and
// the forward one of the experiments that need S (auto's, or cvodes_fsa
// when an adjoint method is asked for).
struct EvaluationMethods {
  std::string asked, forward;
};

EvaluationMethods evaluation_methods(const Definition& def, const PetabOptions& options) {
  if (options.method != "auto") {
    const bool adjoint = adjoint_method(options.method);
    return {options.method, adjoint ? std::string("cvodes_fsa") : options.method};
  }
  const std::size_t n = dynamic_estimated(def);
  const std::string forward = automatic_forward(def, options, n);
  // odesd's forward gradient was faster than the adjoint on the shared
  // benchmark problems (Raia_CancerResearch2011 0.017 s against 0.15 s,
  // Bachmann_MSB2011 0.27 s against 0.50 s; Brannmark_JBC2010 even).
  if (!options.gradient || options.fim || options.residual_jacobian || options.hierarchical ||
      forward == "odesd")
    return {forward, forward};
  // Else the adjoint where the parameters acting on the dynamics outnumber
  // the measurement times of an experiment (its backward problem restarts
  // at each, and cvodes_fsa's cost grows with the parameters), n > times /
  // experiments in integers (bench_petab, RESULTS.md).
  // Or where S, too large for odesd, makes every forward step costly:
  // Lang_PLOSComputBiol2024 (124 states x 294 parameters, 600 measurement
  // times) took 598 s for the gradient by cvodes_fsa, 21 s by cvodes_asa,
  // the two within 4.5e-8 of each other.
  std::size_t times = 0;
  for (const Experiment& e : def.experiments) times += e.times.size();
  const double entries = static_cast<double>(def.dynamics->nx()) * static_cast<double>(n);
  const bool adjoint =
      n >= kPetabAdjointMinParameters &&
      (n * def.experiments.size() > times || entries > kPetabAdjointSensitivityEntries);
  return {adjoint ? "cvodes_asa" : forward, forward};
}


// x0 and S0 of the simulation after pre-equilibration: the steady state,
// with the states the simulation condition sets re-initialized.
void preequilibrate(PreparedSolves& solves, const Definition& def, const Experiment& e,
                    const std::vector<double>& theta, const Problem& base,
                    const PetabOptions& options, const std::string& method,
                    const Columns& columns, Preequilibrations* shared, Problem& simulation) {
  const Condition& condition = def.conditions[static_cast<std::size_t>(e.preequilibration)];
  const Columns pre_columns = preequilibration_columns(def, condition, columns.wanted, method);
  const CarrierPairs pairs =
      columns.wanted ? carriers(def, e, pre_columns, columns) : CarrierPairs{};
  const bool sensitivities = columns.solved();
  // The steady state's S where some column carries into the simulation.
  const bool steady_sensitivities = sensitivities && !pairs.empty();
  const Model& model = *simulation.model;
  const std::size_t nx = model.nx(), np = model.np();
  Problem pre = base;
  set_dynamics(solves, def, pre_columns, model_params(condition.params, theta), pre);
  SteadyStateOptions so = options.steady_state;
  so.sensitivities = steady_sensitivities;
  auto solve = [&] { return steady_state(for_steady_state(pre, method), so); };
  const PreequilibrationKey key{static_cast<std::size_t>(e.preequilibration), method,
                                steady_sensitivities, pre_columns.free};
  SteadyState ss = shared ? shared->get(key, solve) : solve();
  std::vector<double> x0(nx), S0(sensitivities ? nx * np : 0);
  model.initial_state(simulation.params.data(), x0.data());
  if (sensitivities) model.initial_sensitivity(simulation.params.data(), S0.data());
  std::vector<double> S =
      sensitivities ? carried_sensitivities(pairs, ss.S, nx, np) : std::vector<double>{};
  for (std::size_t i : def.conditions[e.simulation].reinitialized_states) {
    ss.x[i] = x0[i];
    for (std::size_t j = 0; j < np && sensitivities; ++j) S[i + j * nx] = S0[i + j * nx];
  }
  simulation.initial_state = std::move(ss.x);
  if (sensitivities) simulation.initial_sensitivity = std::move(S);
}

// S under cvodes_fsa's error test can fail where the states alone do not
// (a sensitivity that grows by orders of magnitude, as in
// Lang_PLOSComputBiol2024): then the solve is repeated with S outside the
// error test, and says so, unless the caller chose sens_error_control.
Result solve_cvodes_forward(PreparedSolves& solves, const Problem& problem,
                            const std::string& method, bool sensitivities,
                            std::vector<std::string>& warnings) {
  try {
    return solves.solve(problem, method);
  } catch (const Error& error) {
    if (!sensitivities || method != "cvodes_fsa" || error.status() != Status::solver_failed ||
        problem.options.has("sens_error_control"))
      throw;
    Problem again = problem;
    again.options.set("sens_error_control", 0);
    Result r = solves.solve(again, method);
    warnings.push_back(std::string("the forward sensitivities failed CVODES' error test (") +
                       error.what() +
                       "); solved again with S outside the error test (sens_error_control=0), "
                       "so S, the gradient and the FIM are not error-controlled");
    return r;
  }
}

// auto's odesd ends after the step attempts the library's auto allows it
// (methods::odesd_step_allowance), and cvodes_fsa solves the experiment
// instead (solve_forward). At the nominal parameters of the shared benchmark
// problems odesd takes at most about 1 200 steps an experiment on average
// (Brannmark_JBC2010, Laske).

void limit_automatic_odesd(Problem& run) {
  if (run.options.has("max_total_steps")) return;
  run.options.set("max_total_steps", methods::odesd_step_allowance(run.output_times.size()));
}

// A solve of auto's choice that fails where the CVODES baseline may not (a
// step size that collapses at a point a fit visits, or the steps
// limit_automatic_odesd allows used up) runs again with cvodes_fsa, as the
// library's auto falls back, and says so.
Result solve_forward(PreparedSolves& solves, const Problem& problem, const std::string& method,
                     bool automatic, bool sensitivities, std::vector<std::string>& warnings) {
  if (!automatic || method != "odesd")
    return solve_cvodes_forward(solves, problem, method, sensitivities, warnings);
  try {
    return solves.solve(problem, method);
  } catch (const Error& error) {
    if (!methods::falls_back_on(error.status())) throw;
    Problem again = problem;
    again.options = Options();  // auto's options are none of cvodes_fsa's
    if (!sensitivities) again.options.set("sensitivities", 0);  // the states alone still
    Result r = solve_cvodes_forward(solves, again, "cvodes_fsa", sensitivities, warnings);
    warnings.push_back(std::string("auto's odesd failed (") + error.what() +
                       "); cvodes_fsa solved the experiment instead");
    return r;
  }
}

}  // namespace

std::string resolve_method(const Definition& def, const PetabOptions& options) {
  return evaluation_methods(def, options).asked;
}

bool some_gradient_by_adjoint(const Definition& def, const PetabOptions& options) {
  const std::string asked = evaluation_methods(def, options).asked;
  return std::any_of(def.experiments.begin(), def.experiments.end(),
                     [&](const Experiment& e) { return uses_adjoint(e, options, asked); });
}

void add_stats(Stats& into, const Stats& s) {
  into.steps += s.steps;
  into.rhs_evals += s.rhs_evals;
  into.jac_evals += s.jac_evals;
  into.linear_setups += s.linear_setups;
  into.error_test_failures += s.error_test_failures;
}

std::vector<double> table_values(const Definition& def, const std::vector<double>& x) {
  std::vector<double> theta;
  for (const ParameterRow& row : def.tables.parameters) theta.push_back(row.nominal);
  for (std::size_t i = 0; i < def.estimated.size(); ++i) {
    const ParameterRow& row = def.tables.parameters[def.estimated[i]];
    theta[def.estimated[i]] = unscale(x[i], row.scale);
  }
  return theta;
}

std::vector<double> model_params(const std::vector<Setting>& settings,
                                 const std::vector<double>& theta) {
  std::vector<double> p(settings.size());
  for (std::size_t j = 0; j < settings.size(); ++j)
    p[j] = settings[j].theta >= 0 ? theta[static_cast<std::size_t>(settings[j].theta)]
                                  : settings[j].number;
  return p;
}

namespace {

// A model parameter by what it is to the user: the condition table's
// initial values are parameters ID@initial of the imported model.
std::string model_parameter_text(const std::string& name) {
  const std::string suffix = "@initial";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return "the initial value of '" + name.substr(0, name.size() - suffix.size()) + "'";
  return "model parameter '" + name + "'";
}

}  // namespace

// A parameter table's nominalValue or a condition table's cell of inf
// reaches the model as a parameter: named here, with where it came from.
void check_finite_params(const Definition& def, const std::vector<Setting>& settings,
                         const std::vector<double>& p) {
  for (std::size_t j = 0; j < def.n_sbml_params && j < p.size(); ++j) {
    if (std::isfinite(p[j])) continue;
    const int theta = settings[j].theta;
    const std::string from =
        theta >= 0 ? "parameter table row '" +
                         def.tables.parameters[static_cast<std::size_t>(theta)].id + "'"
                   : "the condition table or the model";
    throw Error(Status::not_finite, model_parameter_text(def.model->param_names()[j]) + " is " +
                                        io::format_double(p[j]) + " (from " + from + ")");
  }
}

namespace {

// Error(interrupted) when the evaluation's caller asks it to end
// (PetabOptions::interrupt).
void check_interrupt(const PetabOptions& options, const char* before) {
  if (options.interrupt && options.interrupt())
    throw Error(Status::interrupted,
                std::string("the evaluation was interrupted before ") + before);
}

// How an experiment's simulation runs (solve_experiment).
struct SimulationPlan {
  const std::string& method;
  bool automatic;  // the method is auto's choice
  bool solved;     // S has columns to solve for
  bool adjoint;    // the adjoint's gradient in place of S
  bool state_check;  // PetabOptions::state_check
};


// auto's adjoint failed where the forward sensitivities may not: its
// forward pass runs at tighter tolerances (tighten_forward_of_adjoint), and
// at a point a fit of Chen_MSB2009 visited its error test failed at t =
// 3069 where cvodes_fsa's solve went through. The gradient then comes from
// S, as the library's auto falls back, and the result says so.
Result forward_instead_of_adjoint(PreparedSolves& solves, const Problem& sim,
                                  const std::string& method, const Error& error,
                                  std::vector<std::string>& warnings) {
  Problem again = sim;
  again.options = Options();  // auto's options are none of cvodes_fsa's
  again.objective = nullptr;
  again.adjoint_weights.clear();
  Result r = solve_cvodes_forward(solves, again, "cvodes_fsa", true, warnings);
  warnings.push_back("auto's " + method + " failed (" + error.what() +
                     "); cvodes_fsa solved the experiment with forward sensitivities instead");
  return r;
}

// The simulation over the measurement times (sim.output_times): x, and S or
// the adjoint's gradient, into out.
void simulate_times(PreparedSolves& solves, const Problem& sim, const SimulationPlan& plan,
                    ExperimentSolution& out) {
  const std::string& method = plan.method;
  const bool adjoint = plan.adjoint;
  Problem run = sim;
  // The likelihood and its gradient need no S(T): an adjoint method's
  // default final_sensitivity=1 adds one backward problem per state
  // (Chen_MSB2009, 500 states: over 10 min for a gradient of 17 s; the
  // states alone of Lang_PLOSComputBiol2024 by cvodes_asa: 64 s with
  // them, 0.15 s without).
  if (adjoint_method(method) && !run.options.has("final_sensitivity"))
    run.options.set("final_sensitivity", std::int64_t{0});
  // The states alone by an adjoint method: weights 0, not its default
  // G = sum_i x_i(T), leave nothing to carry back (no backward sweep).
  if (adjoint_method(method) && !adjoint)
    run.adjoint_weights.assign(run.output_times.size() * run.model->nx(), 0.0);
  if (adjoint && method == "cvodes_asa") tighten_forward_of_adjoint(run);
  if (plan.automatic && method == "odesd") limit_automatic_odesd(run);
  if (plan.state_check && !run.options.has("state_check") &&
      declares_option(method_info(method), "state_check"))
    run.options.set("state_check", std::int64_t{1});
  Result r;
  bool by_adjoint = adjoint;
  try {
    r = solve_forward(solves, run, method, plan.automatic, plan.solved && !adjoint, out.warnings);
  } catch (const Error& error) {
    if (!adjoint || !plan.automatic || !methods::falls_back_on(error.status())) throw;
    r = forward_instead_of_adjoint(solves, sim, method, error, out.warnings);
    by_adjoint = false;
  }
  out.x = std::move(r.x);
  if (by_adjoint) out.model_gradient = std::move(r.gradient);
  else if (plan.solved) out.S = std::move(r.s);
  add_stats(out.stats, r.stats);
  for (std::string& w : r.warnings) out.warnings.push_back(std::move(w));
}

// S, the steady state's S and the adjoint's gradient from the solved
// columns to every parameter of the model.
void widen_all(const Definition& def, const Columns& columns, ExperimentSolution& out) {
  const std::size_t nx = def.dynamics->nx(), np = def.n_sbml_params;
  if (!out.x.empty()) widen(out.S, out.times.size(), nx, columns, np, "S");
  if (!out.x_steady.empty()) widen(out.S_steady, 1, nx, columns, np, "the steady state's S");
  // The adjoint's gradient, where the adjoint gave it (not its fallback).
  if (!out.model_gradient.empty())
    widen(out.model_gradient, 1, 1, columns, np, "the adjoint's gradient");
}

}  // namespace

ExperimentSolution solve_experiment(PreparedSolves& solves, const Definition& def,
                                    const Experiment& e, const std::vector<double>& theta,
                                    const PetabOptions& options, bool sensitivities,
                                    Preequilibrations* preequilibrations) {
  ExperimentSolution out;
  try {
    check_interrupt(options, "its solves");
    const bool automatic = options.method == "auto";
    const auto [asked, forward] = evaluation_methods(def, options);
    const bool adjoint_asked = sensitivities && uses_adjoint(e, options, asked);
    const Condition* preequilibration =
        e.preequilibration >= 0 ? &def.conditions[static_cast<std::size_t>(e.preequilibration)]
                                : nullptr;
    const Columns columns =
        sensitivity_columns(def, def.conditions[e.simulation], sensitivities,
                            adjoint_asked ? asked : forward, preequilibration);
    const bool solved = columns.solved();
    const bool adjoint = adjoint_asked && solved;
    // The adjoint where it has columns to solve for; S, or the states
    // alone, forward.
    const std::string method = sensitivities && !adjoint ? forward : asked;
    const Problem base = base_problem(def, options, asked, method, solved);
    Problem sim = base;
    out.params = model_params(def.conditions[e.simulation].params, theta);
    check_finite_params(def, def.conditions[e.simulation].params, out.params);
    set_dynamics(solves, def, columns, out.params, sim);
    if (e.preequilibration >= 0) {
      preequilibrate(solves, def, e, theta, base, options, method, columns, preequilibrations,
                     sim);
      check_interrupt(options, "its simulation (after its pre-equilibration)");
    }
    out.times = e.times;
    if (adjoint) sim.objective = experiment_objective(def, e, theta, columns.free);
    if (!e.times.empty() && e.times.back() <= sim.t0) {
      initial_values(sim, solved, out);
    } else if (!e.times.empty()) {
      sim.output_times = e.times;
      simulate_times(solves, sim, {method, automatic, solved, adjoint, options.state_check},
                     out);
    }
    if (e.steady_state_measured) {
      SteadyStateOptions so = options.steady_state;
      so.sensitivities = solved;
      SteadyState ss = steady_state(for_steady_state(sim, method), so);
      out.x_steady = std::move(ss.x);
      out.S_steady = std::move(ss.S);
    }
    if (sensitivities) widen_all(def, columns, out);
  } catch (const Error& error) {
    throw Error(error.status(), describe(def, e) + ": " + error.what());
  }
  for (std::string& w : out.warnings) w = describe(def, e) + ": " + w;
  return out;
}

}  // namespace odesens::petab
