// One local optimization (fit.hpp): checks, the optimizer's run, and the
// final evaluation at the point it ends on.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "fit/hops.hpp"
#include "fit/start_objective.hpp"
#include "io/format_double.hpp"

namespace odesens {
namespace {

[[noreturn]] void refuse_fit(const std::string& what) {
  throw Error(Status::invalid_argument, "fit: " + what);
}

}  // namespace

void fitting::check_start(const PetabProblem& problem, const std::vector<double>& x0,
                      const std::vector<bool>& fixed) {
  const std::size_t n = problem.parameter_ids().size();
  if (x0.size() != n)
    refuse_fit("a start of " + std::to_string(x0.size()) + " values, the problem estimates " +
               std::to_string(n));
  if (!fixed.empty() && fixed.size() != n)
    refuse_fit("a fixed mask of " + std::to_string(fixed.size()) +
               " entries, the problem estimates " + std::to_string(n));
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x0[i]) || x0[i] < problem.lower_scaled()[i] ||
        x0[i] > problem.upper_scaled()[i])
      refuse_fit("start value " + io::format_double(x0[i]) + " of '" + problem.parameter_ids()[i] +
                 "' is outside its bounds [" + io::format_double(problem.lower_scaled()[i]) +
                 ", " + io::format_double(problem.upper_scaled()[i]) + "] (on its scale)");
}

namespace {

// nllh, nlpost and the projected gradient's norm at the optimizer's end
// point; a failure there makes the start a failed one.
void finish(fitting::StartObjective& objective, const std::vector<double>& free,
            const PetabOptions& evaluation, StartResult& s) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.end = objective.full_point(free.data());
  // The start's time up before any evaluation returned: the start point's
  // value would take one more whole evaluation past the limit (a start of
  // Chen_MSB2009 with 40 s ran 62 s so), and nothing moved. (A stop asked
  // for still gets it: a second Ctrl-C ends the tool at once.)
  if (objective.completed() == 0 && objective.out_of_time() && !objective.stop_requested() &&
      s.status == Status::ok) {
    s.nllh = s.nlpost = s.gradient_norm = nan;
    s.status = Status::too_much_work;
    s.exit_reason = objective.interruption_reason() + "; " + fitting::kNoValueInTime;
    return;
  }
  try {
    const PetabResult* known = objective.known_with_gradient(free.data());
    // Where the start's time is up or a stop was asked for, nlpost alone:
    // the sensitivities can take several times the states' time (at a
    // start point of Chen_MSB2009, 20 s against 3.4 s, after a limit of 5 s).
    const bool gradient = !(objective.out_of_time() || objective.stop_requested());
    const PetabResult r =
        known ? *known : objective.evaluate(free.data(), false, false, gradient, false);
    s.end = r.point;  // with a hierarchical fit's inner parameters at their optimum
    s.nllh = r.nllh;
    s.nlpost = r.nlpost;
    s.gradient_norm = nan;  // not evaluated
    if (!r.gradient.empty()) {
      std::vector<double> g(free.size());
      objective.free_entries(r.gradient, 1, g.data());
      s.gradient_norm = fitting::projected_gradient_norm(g, free, objective.free_lower(),
                                                     objective.free_upper());
      s.flat = fitting::flat_entries(objective.problem(), evaluation, s.end, r.gradient);
      s.flat_known = true;
    }
    // An objective that is not finite there (a sigma of 0 or below, a
    // simulation that failed at every measurement) ends the start as failed,
    // whatever the optimizer said of its run.
    if (!std::isfinite(s.nlpost) && s.status == Status::ok) {
      s.status = Status::not_finite;
      s.exit_reason = "the objective is not finite at the end point (nlpost " +
                      io::format_double(s.nlpost) + ")" +
                      (r.warnings.empty() ? std::string() : ": " + r.warnings.front());
    }
    // A failed start has no values (docs/fit.md): an infinite nlpost beside
    // a finite nllh, or a gradient projected onto the box from infinite
    // entries, would read as numbers of a point.
    if (s.status != Status::ok) s.nllh = s.nlpost = s.gradient_norm = nan;
  } catch (const Error& e) {
    s.nllh = s.nlpost = s.gradient_norm = nan;
    s.status = e.status();
    s.exit_reason = std::string(s.end == s.start ? "the start point" : "the end point") +
                    fitting::point_failure(e.status()) + e.what();
  }
}

}  // namespace

const std::vector<std::string>& optimizer_ids() {
  static const std::vector<std::string> ids = {"auto", "ceres_lm", "ceres_lm_lbfgs",
                                               "nlopt_lbfgs", "lbfgsb"};
  return ids;
}

std::string optimizer_id_list() {
  const std::vector<std::string>& ids = optimizer_ids();
  std::string list;
  for (std::size_t i = 0; i < ids.size(); ++i)
    list += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
  return list;
}

void check_optimizer_options(const OptimizerOptions& o) {
  const std::vector<std::string>& ids = optimizer_ids();
  if (std::find(ids.begin(), ids.end(), o.optimizer) == ids.end())
    refuse_fit("unknown optimizer '" + o.optimizer + "' (" + optimizer_id_list() + ")");
  if (o.max_iterations < 1) refuse_fit("max_iterations must be at least 1");
  if (!(o.max_seconds >= 0) || !std::isfinite(o.max_seconds))
    refuse_fit("max_seconds must be finite and >= 0 (0: no limit)");
  if (!(o.gradient_tolerance >= 0) || !(o.step_tolerance >= 0) || !(o.function_tolerance >= 0))
    refuse_fit("the tolerances must be >= 0");
  // Said once before the starts, not by each failing start: an unknown
  // method, or a set-valued one (no likelihood).
  check_petab_method(o.evaluation.method);
  check_petab_tolerances(o.evaluation);
}

void require_optimizer_suits(const PetabProblem& problem, const std::string& optimizer,
                             const char* command) {
  if ((optimizer == "ceres_lm" || optimizer == "ceres_lm_lbfgs") &&
      !problem.has_least_squares_form())
    throw Error(Status::unsupported,
                std::string(command) + ": " + optimizer +
                    " needs the least-squares form, which this problem lacks (Laplace noise); "
                    "nlopt_lbfgs, lbfgsb or auto takes it");
}

// L-BFGS alone where the least-squares form is missing, or where the
// gradient goes by the adjoint: Levenberg-Marquardt's residual Jacobian
// then takes forward sensitivities, many times the gradient's cost
// (Lang_PLOSComputBiol2024: 598 s against 12-28 s; Chen_MSB2009, outside
// ../shared: 149 s against 15 s, and 200 s starts of ceres_lm_lbfgs made no
// iteration where nlopt_lbfgs made 14, from nlpost 4e10 to 31221).
std::string resolve_optimizer(const PetabProblem& problem, const OptimizerOptions& options) {
  if (options.optimizer != "auto") return options.optimizer;
  if (!problem.has_least_squares_form() || problem.gradient_by_adjoint(options.evaluation))
    return "nlopt_lbfgs";
  return "ceres_lm_lbfgs";
}

StartResult optimize(const PetabProblem& problem, const std::vector<double>& x0,
                     const std::vector<bool>& fixed, const OptimizerOptions& options,
                     const std::atomic<bool>* stop) {
  check_optimizer_options(options);
  fitting::check_start(problem, x0, fixed);
  const std::string optimizer = resolve_optimizer(problem, options);
  require_optimizer_suits(problem, optimizer, "fit");
  fitting::StartObjective objective(problem, x0, fixed, options, stop);
  StartResult s;
  s.start = x0;
  std::vector<double> free = objective.free_start();
  fitting::LocalRun run;
  if (free.empty()) run.exit_reason = "no free parameters";
  else if (optimizer == "ceres_lm") run = fitting::run_ceres_lm(objective, options, free);
  else if (optimizer == "ceres_lm_lbfgs")
    run = fitting::run_ceres_lm_lbfgs(objective, options, free);
  else if (optimizer == "lbfgsb") run = fitting::run_lbfgsb(objective, options, free);
  else run = fitting::run_nlopt_lbfgs(objective, options, free);
  s.iterations = run.iterations;
  s.exit_reason = run.exit_reason;
  s.status = run.status;
  finish(objective, free, options.evaluation, s);
  s.evaluations = objective.evaluations();
  s.seconds = objective.seconds();
  return s;
}

}  // namespace odesens
