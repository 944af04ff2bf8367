// PEtab problems: the negative log-likelihood of measured data under an
// SBML model, its gradient and the Fisher information, at a vector of the
// estimated parameters on their scales (PEtab v1, petab.readthedocs.io).
//
//   auto problem = odesens::PetabProblem::load("Boehm_JProteomeRes2014.yaml");
//   odesens::PetabOptions options;
//   options.gradient = true;
//   odesens::PetabResult r = problem->evaluate(problem->nominal_scaled(), options);
//   // r.llh, r.nllh, r.chi2, r.gradient (d nllh / d theta on the scales)
//
// Each measurement y of observable h with noise sigma (both formulas of the
// model's states and parameters, after the observable's transformation
// log or log10 where it has one, applied to y and h alike) contributes
//   normal:   1/2 log(2 pi sigma^2) + 1/2 ((y - h)/sigma)^2
//   laplace:  log(2 sigma) + |y - h| / sigma
// plus log(y) for log-transformed and log(y ln 10) for log10-transformed
// data (the density is of the untransformed y). chi2 = sum ((y - h)/sigma)^2.
// The gradient is exact through forward sensitivities S of the model
// (PetabOptions::method, any method that gives S); the Fisher information
// is the expected one of the data, from S:
//   normal:  sum (1/sigma^2) dh dh^T + (2/sigma^2) dsigma dsigma^T
//   laplace: sum (1/sigma^2) (dh dh^T + dsigma dsigma^T)
// with dh, dsigma the total derivatives in the scaled parameters; with
// priors (objectivePriorType), their Hessians are added, and the
// gradient and FIM are those of the negative log-posterior.
//
// Pre-equilibration conditions and measurements at time inf run to a
// steady state (steady_state.hpp) with its sensitivities; after
// pre-equilibration the states the simulation condition sets are
// re-initialized, the others keep their steady-state values and S.
//
// Least-squares form (PetabOptions::least_squares): residuals r with
//   1/2 sum r^2 = nlpost + a constant (the same at every x),
// for optimizers that use the Gauss-Newton matrix J^T J (J = dr/dx). In
// order: the data residuals (y - h)/sigma of every measurement; for each
// measurement with normal noise whose sigma depends on the estimated
// parameters (its noise formula names one, or a state),
//   sqrt(log(2 pi sigma^2) + kPetabResidualOffset),
// which keeps sigma's share of the objective a sum of squares (AMICI's
// "sigma residuals", with the same offset); and for each estimated
// parameter with a prior, (u - a)/b for normal and parameterScaleNormal
// priors (exact: their negative log-density is 1/2 ((u - a)/b)^2 plus a
// constant), else sqrt(2 (-log p + kPetabResidualOffset)). Laplace noise
// has no such form (PetabProblem::has_least_squares_form is false).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odesens/model.hpp"
#include "odesens/options.hpp"
#include "odesens/result.hpp"
#include "odesens/steady_state.hpp"

namespace odesens {

namespace petab {
struct Definition;
struct LeastSquaresLayout;
struct InnerParameter;
class ExperimentSolver;
}

// Where odesd does not suit (PetabOptions::method), the "auto" method
// computes the gradient by the adjoint when at least this many estimated
// parameters act on the dynamics and they outnumber the measurement times
// of an experiment (on average), or S (states x those parameters) has more
// than kPetabAdjointSensitivityEntries entries.
inline constexpr std::size_t kPetabAdjointMinParameters = 8;
inline constexpr double kPetabAdjointSensitivityEntries = 10000;

// Throws Error(unknown_method) for an unknown method id and
// Error(invalid_argument) for one that gives no likelihood (the set-valued
// methods); "auto" passes. Evaluations, fits and profiles call it first.
void check_petab_method(const std::string& method);

// The constant C of the least-squares form's sigma and prior residuals:
// sqrt(log(2 pi sigma^2) + C) is defined for sigma > exp(-C/2)/sqrt(2 pi)
// (5.5e-12); an evaluation below refuses with Error(not_finite).
inline constexpr double kPetabResidualOffset = 50.0;

struct PetabOptions {
  // The method of the simulations and the gradient: one that gives S
  // (forward sensitivities: cvodes_fsa, odesd, pbsr, exp, dopri8s, grk4as),
  // an adjoint method (cvodes_asa, erk_adjoint: the gradient by the adjoint
  // of the likelihood; S by cvodes_fsa where S is needed), or "auto":
  // odesd where the model gives second derivatives and S (states x the
  // estimated parameters acting on the dynamics) has at most 10 000
  // entries, as the library's auto takes it for S; otherwise cvodes_fsa,
  // and cvodes_asa for a gradient without FIM when at least
  // kPetabAdjointMinParameters estimated parameters act on the dynamics and
  // outnumber the measurement times per experiment (the backward problem
  // restarts at each; forward costs grow with the parameters) or S has more
  // than kPetabAdjointSensitivityEntries entries. odesd's
  // residual Jacobians and gradients were 1-8 times faster than
  // cvodes_fsa's and cvodes_asa's on the shared benchmark problems
  // (benchmarks/RESULTS.md); an experiment whose odesd solve fails runs
  // cvodes_fsa, with a warning. Options given with "auto" are CVODES' (the
  // command line checks them as cvodes_fsa's) and keep the CVODES rule:
  // cvodes_fsa, or cvodes_asa for the gradient as above. Unlike the
  // library's auto, no second state solve checks the states' error unless
  // state_check (below) asks for it. Its tolerances (unset: 1e-8 relative,
  // 1e-12 absolute: docs/petab.md, "Tolerances"), limit and options.
  std::string method = "auto";
  std::optional<double> rtol;
  std::vector<double> atol;
  std::int64_t max_steps = 100000;
  Options options;
  // Each simulation's method also checks the states' global error (its
  // option state_check: a second state solve at tolerances 10 times
  // tighter, and a warning above 300 times the tolerances, which S, the
  // gradient and the FIM inherit), where the options given do not set
  // state_check themselves. `odesens petab` sets it: on the shared
  // benchmark problems it warns on Crauste_CellSystems2017 alone, whose
  // gradient at rtol 1e-8 is 30-70 times its size off, and adds at most a
  // third to an evaluation (docs/petab.md, "The states' global error").
  // Fits leave it off: their starts judge points by nllh.
  bool state_check = false;
  bool gradient = false;  // d(nllh or nlpost)/d theta
  bool fim = false;       // Fisher information matrix
  // The residuals of the least-squares form (above); with
  // residual_jacobian also their Jacobian, from forward sensitivities
  // ("auto" runs its forward method, an adjoint method cvodes_fsa).
  // Error(unsupported) for a problem without that form.
  bool least_squares = false;
  bool residual_jacobian = false;  // implies least_squares
  // Experiments (pre-equilibration + simulation condition pairs) solved at
  // once; 0: one per core.
  unsigned threads = 1;
  SteadyStateOptions steady_state;
  // Asked before each experiment's solves (and again after its
  // pre-equilibration), from the threads that run them (at once when
  // threads > 1: it must be safe to call so); true ends the evaluation
  // with Error(Status::interrupted) naming the experiment. The CVODES
  // methods and odesd (what "auto" runs) also ask it during their solves
  // (Problem::interrupt), so that the evaluation ends within 64 right-hand
  // sides or 16 steps; with another method a solve under way finishes
  // first. Empty:
  // never interrupted. In an MPI evaluation each rank asks its own
  // options' interrupt. The fits set it from their stop flag and a start's
  // wall-time limit.
  std::function<bool()> interrupt;
  // Hierarchical evaluation (docs/petab.md, "Hierarchical evaluation"):
  // the inner parameters (PetabProblem::inner_parameters: scalings and
  // offsets of observables, noise parameters, whose optimum with the
  // others held has a closed form) are set to that optimum, within their
  // bounds, after the simulations; x's values of them are not used, and
  // PetabResult::point holds the point evaluated. The gradient in the
  // others is then that of nlpost minimized over the inner ones. The
  // optimum needs the simulations before the likelihood's terms, which
  // seed an adjoint: "auto" takes a forward method, and an adjoint method
  // runs its experiments forward (as for the FIM).
  bool hierarchical = false;
  // Per estimated parameter (empty: none): an inner parameter held at x's
  // value (a profile's parameter).
  std::vector<bool> hold;
};

// Throws Error(invalid_argument or not_finite) for an rtol outside (0, 1),
// below the machine epsilon or not finite, an atol entry that is negative
// or not finite, and a max_steps below 1: said once, before any
// simulation, rather than by each condition (or each start of a fit) that
// fails with it.
void check_petab_tolerances(const PetabOptions& options);

struct PetabResult {
  // The method that ran (what "auto" chose; an experiment where auto's
  // odesd failed ran cvodes_fsa, which a warning says).
  std::string method;
  double llh = 0.0;     // log-likelihood
  double nllh = 0.0;    // -llh
  double chi2 = 0.0;
  double log_prior = 0.0;  // sum of the priors' log-densities (0 without priors)
  double nlpost = 0.0;     // nllh - log_prior
  bool has_priors = false;
  // The estimated parameters, in the order of the gradient and the FIM.
  std::vector<std::string> parameter_ids;
  // Of nlpost (= nllh without priors) in the scaled estimated parameters;
  // empty unless asked for.
  std::vector<double> gradient;
  // n x n, row-major (symmetric); empty unless asked for.
  std::vector<double> fim;
  // h at every measurement, in the measurement table's order (unscaled,
  // the PEtab simulation table's values), and the residuals (y - h)/sigma
  // on the transformed scale.
  std::vector<double> simulations;
  std::vector<double> sigmas;
  std::vector<double> residuals;
  // The least-squares form's residuals (n_r) and dr/dx (n_r x n, row-major,
  // in the scaled estimated parameters); empty unless asked for.
  std::vector<double> least_squares_residuals;
  std::vector<double> residual_jacobian;
  Stats stats;  // summed over every solve
  std::size_t n_experiments = 0;
  // What has reason to be distrusted (a non-positive sigma, log of a
  // non-positive simulation, a method's own warnings), one sentence each.
  std::vector<std::string> warnings;
  // The point evaluated, on the parameters' scales: x, with the inner
  // parameters at their optimum in a hierarchical evaluation.
  std::vector<double> point;
};

class PetabProblem : public std::enable_shared_from_this<PetabProblem> {
 public:
  // Reads the YAML problem and every file it names, builds the model;
  // throws Error naming the file, row, column and the rule broken. PATH is
  // the problem file, or a directory holding it: its NAME.yaml where NAME is
  // the directory's name, else its only .yaml or .yml file, else the one of
  // several that reads as a problem file (a format_version or problems key).
  static std::shared_ptr<const PetabProblem> load(const std::string& path);
  ~PetabProblem();

  // The estimated parameters: ids, scales ("lin", "log", "log10"), bounds
  // and nominal values on their scales.
  const std::vector<std::string>& parameter_ids() const { return ids_; }
  const std::vector<std::string>& parameter_scales() const { return scales_; }
  const std::vector<double>& lower_scaled() const { return lower_; }
  const std::vector<double>& upper_scaled() const { return upper_; }
  const std::vector<double>& nominal_scaled() const { return nominal_; }
  // Whether the gradient alone (no FIM, no residuals' Jacobian) is taken by
  // an adjoint method at `options` (the one asked for, or auto's choice for
  // a large S: docs/petab.md, "The automatic method") in some experiment
  // (not hierarchically, nor after a pre-equilibration, which take forward
  // sensitivities). The residuals' Jacobian then takes forward
  // sensitivities, at many times the gradient's cost.
  bool gradient_by_adjoint(const PetabOptions& options) const;
  // Value on the parameter's scale of a linear value of estimated parameter i; on a log
  // scale, within a few units in the last place outside a bound, the bound (a value
  // written at it and read back).
  double to_scale(std::size_t i, double linear) const;
  // A value of estimated parameter i drawn uniformly in its scaled box,
  // `scaled`, mapped to one drawn from its initialization prior
  // (initializationPriorType): the prior's quantile at the same fraction of
  // the box, the prior truncated to the bounds (docs/fit.md, "Starts");
  // `scaled` itself where the parameter has no such prior or its bounds
  // meet. Error(invalid_argument) for a prior with no probability within
  // the bounds.
  double start_value(std::size_t i, double scaled) const;

  std::shared_ptr<const Model> model() const;
  std::size_t n_measurements() const;
  // Whether the objective has the least-squares form (no Laplace noise),
  // and its number of residuals (0 without).
  bool has_least_squares_form() const;
  std::size_t n_residuals() const;
  std::size_t n_experiments() const;
  // The estimated parameters a hierarchical evaluation sets to their
  // optimum (PetabOptions::hierarchical), as indices into parameter_ids():
  // decided from the form of the observable and noise formulas, once.
  const std::vector<std::size_t>& inner_parameters() const { return inner_ids_; }
  // The problem file read (within the directory where load() was given one).
  const std::string& file() const;
  // Every file of the problem (the YAML, the SBML model, the tables, and
  // the visualization tables it lists but odesens does not read), as
  // resolved: outputs must not replace them.
  const std::vector<std::string>& input_files() const;

  // At x (the estimated parameters on their scales, parameter_ids()
  // order). Throws Error(invalid_argument) for a wrong size or a non-finite
  // value, and Error as the method's solve for a failed simulation (its
  // message names the condition). Sets the method up anew: to evaluate
  // many times, use a PetabSession.
  PetabResult evaluate(const std::vector<double>& x, const PetabOptions& options) const;

  // Writes the PEtab simulation table of r (the measurement table with
  // `simulation` in place of `measurement`), replacing `path` atomically.
  void write_simulations(const PetabResult& r, const std::string& path) const;

  // Writes r, the evaluation at x (on the parameters' scales), as an HDF5
  // document (docs/petab.md, "HDF5 output"), written whole to PATH.partial
  // and renamed over `path`. Error(invalid_argument) for a result or x
  // not of this problem, or a path that is not a regular file;
  // Error(io_error) naming the file and the reason when it cannot be
  // written.
  void write_h5(const PetabResult& r, const std::vector<double>& x, const std::string& path) const;

  // Writes the problem's parameter table with the nominalValue of the
  // estimated parameters replaced by x (on their scales; written on the
  // linear scale), replacing `path` atomically: a problem whose nominal
  // point is x, and a table read_petab_parameter_values reads back.
  void write_parameter_table(const std::vector<double>& x, const std::string& path) const;

  // The internals the evaluation uses.
  const petab::Definition& definition() const { return *def_; }
  // evaluate() with the experiments solved by `solver` (internal: the
  // threads of evaluate() and PetabSession, the ranks of an MPI run);
  // empty where the solver leaves the sum to another process.
  std::optional<PetabResult> evaluate_with(const std::vector<double>& x,
                                           const PetabOptions& options,
                                           petab::ExperimentSolver& solver) const;

 private:
  explicit PetabProblem(std::unique_ptr<petab::Definition> def);
  std::unique_ptr<petab::Definition> def_;
  std::unique_ptr<petab::LeastSquaresLayout> layout_;
  std::unique_ptr<const std::vector<petab::InnerParameter>> inner_;
  std::vector<std::size_t> inner_ids_;
  std::vector<std::string> ids_, scales_;
  std::vector<double> lower_, upper_, nominal_;
};

// A PEtab problem prepared for many evaluations (optimizers, samplers,
// profiles). The method's session (integrator memory, linear solver,
// sparse analysis: session.hpp) is set up on the first evaluation that
// needs it, once per thread and kind of solve (states alone, with S), and
// reused by every experiment and every later evaluation. Results are bit
// for bit those of PetabProblem::evaluate with the same x and options;
// options may change from call to call (a session per set-up is kept).
// Used by one thread at a time; sessions of one problem run concurrently.
//
//   odesens::PetabSession session(problem);
//   for (...) r = session.evaluate(x, options);
class PetabSession {
 public:
  explicit PetabSession(std::shared_ptr<const PetabProblem> problem);
  ~PetabSession();
  PetabSession(const PetabSession&) = delete;
  PetabSession& operator=(const PetabSession&) = delete;

  // As PetabProblem::evaluate.
  PetabResult evaluate(const std::vector<double>& x, const PetabOptions& options);
  const PetabProblem& problem() const { return *problem_; }

 private:
  std::shared_ptr<const PetabProblem> problem_;
  std::unique_ptr<petab::ExperimentSolver> solves_;
};

// Values for the estimated parameters from a table with columns
// `parameterId` and `value` (linear scale), on their scales; the ones the
// table does not list keep their nominal values. A PEtab parameter table
// (`nominalValue` and no `value` column, as write_parameter_table writes)
// is read the same way, its rows of parameters the problem does not
// estimate skipped. Error(parse_error) names
// the row of an unknown id or a bad value, a column named twice, or a
// table that gives no estimated parameter's value; Error(unsupported)
// UTF-16 or UTF-32 text; Error(invalid_argument) a file that is missing or
// not a regular file.
std::vector<double> read_petab_parameter_values(const PetabProblem& problem,
                                                const std::string& path);

}  // namespace odesens
