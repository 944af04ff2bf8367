// PetabProblem: loading, and evaluation over the experiments (petab.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "estimate/experiment_readers.hpp"
#include "estimate/experiment_solver.hpp"
#include "estimate/inner_parameters.hpp"
#include "estimate/petab_least_squares.hpp"
#include "estimate/petab_likelihood.hpp"
#include "odesens/methods.hpp"
#include "odesens/petab.hpp"
#include "odesens/problem.hpp"
#include "io/format_double.hpp"
#include "odesens/status.hpp"

namespace odesens {

namespace {

const char* scale_name(petab::Scale s) {
  switch (s) {
    case petab::Scale::log: return "log";
    case petab::Scale::log10: return "log10";
    case petab::Scale::lin: break;
  }
  return "lin";
}

// -inf is the value 0 on a log scale (a nominal value of 0 there): allowed.
void check_point(const std::vector<double>& x, const std::vector<std::string>& scales,
                 const std::vector<std::string>& ids) {
  const std::size_t n = scales.size();
  if (x.size() != n)
    throw Error(Status::invalid_argument, "PEtab evaluation: " + std::to_string(x.size()) +
                                              " parameter values given, the problem estimates " +
                                              std::to_string(n));
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i]) && !(x[i] < 0 && scales[i] != "lin"))
      throw Error(Status::invalid_argument,
                  "PEtab evaluation: the value of parameter '" + ids[i] + "' is " +
                      io::format_double(x[i]) +
                      ", not finite (only -inf, the value 0 on a log scale, is allowed; an "
                      "estimated parameter's nominalValue must be given for evaluations at "
                      "the nominal point)");
}

void check_hold(const PetabOptions& options, std::size_t n) {
  if (!options.hold.empty() && options.hold.size() != n)
    throw Error(Status::invalid_argument,
                "PEtab evaluation: hold has " + std::to_string(options.hold.size()) +
                    " entries for " + std::to_string(n) + " estimated parameters");
}

}  // namespace

PetabProblem::PetabProblem(std::unique_ptr<petab::Definition> def)
    : def_(std::move(def)),
      layout_(std::make_unique<petab::LeastSquaresLayout>(petab::least_squares_layout(*def_))),
      inner_(std::make_unique<const std::vector<petab::InnerParameter>>(
          petab::find_inner_parameters(*def_))) {
  for (const petab::InnerParameter& p : *inner_) inner_ids_.push_back(p.estimated);
  std::sort(inner_ids_.begin(), inner_ids_.end());
  for (std::size_t row : def_->estimated) {
    const petab::ParameterRow& p = def_->tables.parameters[row];
    ids_.push_back(p.id);
    scales_.push_back(scale_name(p.scale));
    lower_.push_back(petab::scale_value(p.lower, p.scale));
    upper_.push_back(petab::scale_value(p.upper, p.scale));
    nominal_.push_back(petab::scale_value(p.nominal, p.scale));
  }
}

PetabProblem::~PetabProblem() = default;

std::shared_ptr<const PetabProblem> PetabProblem::load(const std::string& path) {
  auto def = std::make_unique<petab::Definition>(
      petab::build_definition(petab::read_tables(path)));
  def->dynamics_reads = petab::parameters_the_dynamics_read(*def);
  return std::shared_ptr<const PetabProblem>(new PetabProblem(std::move(def)));
}

// A value written at a bound (a fit's best point on it, `--best` as
// 10^x) comes back from its scale up to a few units in the last place
// outside it (log10(10^x) != x for about one bound in 500): it is the bound,
// not a point outside the box that `profile --from` and `--starts-from`
// would refuse.
double PetabProblem::to_scale(std::size_t i, double linear) const {
  const petab::Scale scale = def_->tables.parameters[def_->estimated.at(i)].scale;
  const double x = petab::scale_value(linear, scale);
  if (scale == petab::Scale::lin) return x;  // no scale to come back from: exact
  // log10(10^x) is off by about eps max(|x|, 1/ln 10).
  const double slack = 4 * std::numeric_limits<double>::epsilon();
  const auto near = [&](double bound) {
    return std::fabs(x - bound) <= slack * std::max(std::fabs(bound), 1.0);
  };
  if (x < lower_.at(i) && near(lower_[i])) return lower_[i];
  if (x > upper_.at(i) && near(upper_[i])) return upper_[i];
  return x;
}

bool PetabProblem::gradient_by_adjoint(const PetabOptions& given) const {
  PetabOptions o = given;
  o.gradient = true;
  o.fim = o.residual_jacobian = o.least_squares = false;
  return petab::some_gradient_by_adjoint(*def_, o);
}

std::shared_ptr<const Model> PetabProblem::model() const { return def_->model; }
std::size_t PetabProblem::n_measurements() const { return def_->measurements.size(); }
bool PetabProblem::has_least_squares_form() const { return layout_->refusal.empty(); }
std::size_t PetabProblem::n_residuals() const {
  return has_least_squares_form() ? layout_->n_rows : 0;
}
std::size_t PetabProblem::n_experiments() const { return def_->experiments.size(); }
const std::string& PetabProblem::file() const { return def_->tables.problem_file; }
const std::vector<std::string>& PetabProblem::input_files() const { return def_->tables.files; }


// Set-valued methods bound x over a parameter box: no likelihood.
void check_petab_method(const std::string& method) {
  if (method == "auto" || !method_info(method).capabilities.bounds) return;
  throw Error(Status::invalid_argument,
              "PEtab evaluation: method '" + method +
                  "' encloses the states over a parameter box and gives no likelihood; use "
                  "auto, cvodes_fsa, cvodes_asa, odesd, pbsr, exp, dopri8s, grk4as or "
                  "erk_adjoint");
}

void check_petab_tolerances(const PetabOptions& options) {
  try {
    validate_solver_settings(options.rtol, options.atol, options.max_steps);
  } catch (const Error& e) {
    throw Error(e.status(), std::string("PEtab evaluation: ") + e.what());
  }
}

PetabResult PetabProblem::evaluate(const std::vector<double>& x,
                                   const PetabOptions& options) const {
  petab::ThreadedSolves solves;
  return *evaluate_with(x, options, solves);
}

PetabSession::PetabSession(std::shared_ptr<const PetabProblem> problem)
    : problem_(std::move(problem)), solves_(std::make_unique<petab::ThreadedSolves>()) {
  if (!problem_) throw Error(Status::invalid_argument, "PetabSession: no problem given");
}

PetabSession::~PetabSession() = default;

PetabResult PetabSession::evaluate(const std::vector<double>& x, const PetabOptions& options) {
  return *problem_->evaluate_with(x, options, *solves_);
}

std::optional<PetabResult> PetabProblem::evaluate_with(const std::vector<double>& x,
                                                      const PetabOptions& given,
                                                      petab::ExperimentSolver& solver) const {
  // "auto" stays in the options: the experiments resolve it, and after a
  // failure of its choice fall back as the library's auto does.
  PetabOptions options = given;
  const std::string method = petab::resolve_method(*def_, given);
  check_petab_method(method);
  check_petab_tolerances(given);
  options.least_squares = given.least_squares || given.residual_jacobian;
  if (options.least_squares && !has_least_squares_form())
    throw Error(Status::unsupported,
                "PEtab evaluation: no least-squares form: " + layout_->refusal);
  const petab::LeastSquaresLayout* layout = options.least_squares ? layout_.get() : nullptr;
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = ids_.size();
  check_point(x, scales_, ids_);
  std::vector<double> theta = petab::table_values(*def_, x);
  const bool sensitivities = options.gradient || options.fim || options.residual_jacobian;
  check_hold(options, n);
  std::vector<petab::ExperimentSolution> solutions;
  if (!solver.solve(*def_, theta, options, sensitivities, solutions)) return std::nullopt;

  PetabResult r;
  r.point = x;
  if (options.hierarchical)
    petab::optimize_inner(*def_, *inner_, options.hold, solutions, theta, r.point);
  r.method = method;
  r.parameter_ids = ids_;
  r.n_experiments = def_->experiments.size();
  const std::size_t nm = def_->measurements.size();
  r.simulations.assign(nm, 0.0);
  r.sigmas.assign(nm, 0.0);
  r.residuals.assign(nm, 0.0);
  if (options.gradient) r.gradient.assign(n, 0.0);
  if (options.fim) r.fim.assign(n * n, 0.0);
  if (layout) r.least_squares_residuals.assign(layout->n_rows, 0.0);
  if (options.residual_jacobian) r.residual_jacobian.assign(layout_->n_rows * n, 0.0);
  const petab::Chain chain = petab::make_chain(*def_, r.point);
  for (std::size_t k = 0; k < solutions.size(); ++k) {
    const petab::ExperimentSolution& sol = solutions[k];
    const std::size_t nxp = def_->dynamics->nx() * def_->dynamics->np();
    if (sensitivities && sol.model_gradient.empty() && sol.S.size() != sol.times.size() * nxp)
      throw Error(Status::unsupported,
                  "method '" + method +
                      "' does not give S at every output time; the PEtab gradient and FIM "
                      "need a method that does (cvodes_fsa, odesd, pbsr, exp, dopri8s, grk4as)");
    petab::add_measurements(*def_, def_->experiments[k], sol, theta, chain, layout, r);
    petab::add_stats(r.stats, sol.stats);
    for (const std::string& w : sol.warnings) r.warnings.push_back(w);
  }
  r.llh = -r.nllh;
  petab::add_priors(*def_, r.point, layout, r);
  r.nlpost = r.nllh - r.log_prior;
  r.stats.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace odesens
