// ceres_lm: Ceres Solver's Levenberg-Marquardt on the residuals of the
// least-squares form, with the box of the estimated parameters as Ceres'
// parameter bounds.
#include <ceres/ceres.h>
#include <glog/logging.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>

#include "core/finite_values.hpp"
#include "fit/start_objective.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {
namespace {

// Ceres' message up to its first line break (its failures list a line per
// parameter block, with addresses).
std::string first_line(const std::string& message) {
  return message.substr(0, message.find('\n'));
}

// The exit reason of a start that a limit of its own ended in trust-region
// round ROUNDS (Ceres' MESSAGE names the round's share of the limit).
std::string limit_reached(const std::string& message, int iterations, double seconds, int rounds) {
  const std::string over =
      rounds > 1 ? " are used up over " + std::to_string(rounds) + " trust-region rounds"
                 : " are used up";
  if (message.rfind("Maximum number of iterations", 0) == 0)
    return "Maximum number of iterations reached: the start's " + std::to_string(iterations) +
           " iterations" + over;
  if (message.rfind("Maximum solver time", 0) == 0)
    return "Maximum solver time reached: the start's " + io::format_double(seconds) + " s" + over;
  return message;
}

// A point evaluated and what came of it.
struct Evaluated {
  std::vector<double> point;
  bool ok = false;
  bool with_jacobian = false;
  std::vector<double> residuals, jacobian;  // jacobian: Ceres' row-major block

  bool answers(const double* x, std::size_t n, bool jacobian_needed) const {
    return point.size() == n && std::equal(point.begin(), point.end(), x) &&
           (!ok || with_jacobian || !jacobian_needed);
  }
};

// The residuals of the free parameters (one parameter block). A failed
// simulation or a non-finite residual is Ceres' failed evaluation: the step
// is rejected and a shorter one tried. So is an evaluation interrupted by
// the stop flag or the start's time limit (StartObjective::evaluate).
//
// Ceres asks for the same point more than once: with bounds it searches
// along each step first (its projected line search, whose first trial is
// the candidate point itself), then takes the candidate's cost, then its
// Jacobian once the step is accepted; a new trust-region round (below)
// starts with the point where the last one ended. Each evaluation is a
// simulation of every experiment, so the last two points are kept: a
// repeated one costs nothing, and a Jacobian asked where only the
// residuals are known costs one solve with sensitivities. On
// Boehm_JProteomeRes2014 the starts took 3.5 evaluations an iteration
// before, 1.7 since (docs/fit.md, "Evaluations").
class LeastSquaresCost final : public ceres::CostFunction {
 public:
  explicit LeastSquaresCost(StartObjective& objective) : objective_(objective) {
    set_num_residuals(static_cast<int>(objective.problem().n_residuals()));
    mutable_parameter_block_sizes()->push_back(static_cast<std::int32_t>(objective.n_free()));
  }

  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    const bool jacobian = jacobians && jacobians[0];
    const Evaluated& e = at(parameters[0], jacobian);
    if (!e.ok) return false;
    std::copy(e.residuals.begin(), e.residuals.end(), residuals);
    if (jacobian) std::copy(e.jacobian.begin(), e.jacobian.end(), jacobians[0]);
    return true;
  }

  // The start point's evaluation with its Jacobian, kept for Ceres' first
  // (throws Error as StartObjective::evaluate).
  PetabResult evaluate_start(const double* x) {
    // With nlpost's gradient, which costs nothing more with S (the final
    // evaluation at the end point takes it: StartObjective::known_with_gradient).
    PetabResult r = objective_.evaluate(x, true, true, true);
    keep(x, true, &r);
    return r;
  }

  // The point of the lowest cost evaluated with its Jacobian (empty: none).
  const std::vector<double>& best_point() const { return best_; }
  // Points whose residuals were finite and whose Jacobian was not, so far.
  std::size_t jacobian_failures() const { return jacobian_failures_; }
  // An evaluation was interrupted (StartObjective::evaluate): whatever
  // Ceres made of it (a rejected step, a failure, or a step or function
  // tolerance met by the rejected steps that followed), the start ends.
  bool interrupted() const { return interrupted_; }

 private:
  const Evaluated& at(const double* x, bool asked_jacobian) const {
    const std::size_t n = objective_.n_free();
    const bool jacobian = asked_jacobian || !without_jacobian_.empty();
    static const Evaluated failed;
    for (const auto& point : without_jacobian_)
      if (std::equal(point.begin(), point.end(), x)) return failed;
    for (std::size_t age = 0; age < kept_.size(); ++age) {  // the newest first
      const Evaluated& e = kept_[(newest_ + age) % kept_.size()];
      if (e.answers(x, n, jacobian)) return e;
    }
    try {
      // Ceres asks for residuals alone to judge a step: no sensitivities then.
      const PetabResult r = objective_.evaluate(x, true, jacobian, jacobian);
      keep(x, jacobian, &r);
    } catch (const Error& e) {
      // An interrupted evaluation did not judge the point: not kept.
      if (e.status() == Status::interrupted) interrupted_ = true;
      else keep(x, jacobian, nullptr);
      return e.status() == Status::interrupted ? failed : kept_[newest_];
    }
    return kept_[newest_];
  }

  // Keeps x's evaluation (null: it failed) in place of the older one. A
  // point that failed fails whatever is asked of it again: where the
  // states cannot be solved, neither can the sensitivities, and a point
  // whose sensitivities could not be solved is no point to step to.
  // A point known (say with residuals alone) is replaced where it is, so
  // that the other point stays.
  void keep(const double* x, bool jacobian, const PetabResult* r) const {
    const std::size_t n = objective_.n_free();
    // x in the newest slot: written there; in the older one, or in
    // neither: the older slot becomes the newest and is written.
    const Evaluated& newest = kept_[newest_];
    const bool in_newest =
        newest.point.size() == n && std::equal(newest.point.begin(), newest.point.end(), x);
    if (!in_newest) newest_ = 1 - newest_;
    Evaluated& e = kept_[newest_];
    e.ok = false;  // until every part is written
    e.point.assign(x, x + n);
    e.with_jacobian = jacobian;
    if (!r && jacobian) return remember_without_jacobian(x);
    if (!r) return;
    const std::vector<double>& residuals = r->least_squares_residuals;
    if (!all_finite(residuals.size(), residuals.data())) return;
    e.residuals = residuals;
    if (jacobian) {
      e.jacobian.resize(e.residuals.size() * n);
      objective_.free_entries(r->residual_jacobian, e.residuals.size(), e.jacobian.data());
      // Ceres would refuse it; nor is it a point to end on.
      if (!all_finite(e.jacobian.size(), e.jacobian.data())) return remember_without_jacobian(x);
    }
    e.ok = true;
    double cost = 0.0;
    for (double v : e.residuals) cost += 0.5 * v * v;
    // With its Jacobian: a point whose sensitivities solve (the final
    // evaluation needs them), as every point Ceres accepts is.
    if (jacobian && cost < best_cost_) {
      best_cost_ = cost;
      best_.assign(x, x + n);
    }
  }

  // A point whose residuals are known but whose Jacobian failed: Ceres
  // accepts a step on its cost, then fails on its Jacobian, and the round
  // ends (run_ceres_lm starts another from the last point accepted). Such
  // points are refused from then on, also where asked for residuals alone,
  // however many points came after: the round that follows would step
  // there again. The last few are kept. And once one is seen, every point
  // is evaluated with its Jacobian, so that a step to another such point
  // is rejected as one whose states cannot be solved is: on Borghans every
  // step that Ceres projected onto the bound 0 of an initial state Z, where
  // d(Z^n)/dZ is infinite for n < 1, was such a point, and a round of three
  // iterations ended on each.
  void remember_without_jacobian(const double* x) const {
    ++jacobian_failures_;
    constexpr std::size_t kRemembered = 16;
    if (without_jacobian_.size() == kRemembered) without_jacobian_.erase(without_jacobian_.begin());
    without_jacobian_.emplace_back(x, x + objective_.n_free());
  }

  StartObjective& objective_;
  mutable std::vector<std::vector<double>> without_jacobian_;
  mutable std::size_t jacobian_failures_ = 0;
  mutable std::array<Evaluated, 2> kept_;
  mutable std::size_t newest_ = 0;
  mutable bool interrupted_ = false;
  mutable double best_cost_ = HUGE_VAL;
  mutable std::vector<double> best_;
};

// Ends the solve at the next iteration once the stop flag is set or the
// start's time is up (an evaluation interrupted for it counts as a rejected
// step, after which Ceres, whose own clock began a little later, would try
// shorter ones).
class StopCallback final : public ceres::IterationCallback {
 public:
  explicit StopCallback(const StartObjective& objective) : objective_(objective) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary&) override {
    if (!objective_.interrupted()) return ceres::SOLVER_CONTINUE;
    stopped = true;
    return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
  }
  bool stopped = false;

 private:
  const StartObjective& objective_;
};

// Ceres reports a failed evaluation (a point the model cannot simulate)
// through glog's LOG(ERROR) on standard error, whatever logging_type says;
// the start's exit reason says it already. Unless the host initialized glog
// (it then owns its settings), only fatal messages are written.
void quiet_ceres_logging() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!google::IsGoogleLoggingInitialized()) FLAGS_minloglevel = google::GLOG_FATAL;
  });
}

ceres::Solver::Options solver_options(const OptimizerOptions& o) {
  quiet_ceres_logging();
  ceres::Solver::Options s;
  s.minimizer_type = ceres::TRUST_REGION;
  s.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
  s.linear_solver_type = ceres::DENSE_QR;
  s.num_threads = 1;  // the starts run in parallel
  s.max_num_iterations = static_cast<int>(std::min<std::int64_t>(o.max_iterations, 1 << 30));
  if (o.max_seconds > 0) s.max_solver_time_in_seconds = o.max_seconds;
  s.gradient_tolerance = o.gradient_tolerance;
  s.parameter_tolerance = o.step_tolerance;
  s.function_tolerance = o.function_tolerance;
  s.logging_type = ceres::SILENT;
  s.minimizer_progress_to_stdout = false;
  return s;
}

// Rounds of Ceres' solve a start may take (below): each starts a new trust
// region, and all share the start's iteration budget.
constexpr int kMaxRounds = 16;

// Where a round of the solve ended, seen from the box: the parameters at a
// bound whose gradient (of 1/2 sum r^2, one evaluation) points out of the
// box, and the largest gradient component of the others (the projected
// gradient). With parameters held already (a SubsetManifold), Ceres gives
// the gradient in the tangent space: the free parameters not held, in
// order; the held ones stay held.
struct BoxState {
  std::vector<int> held;
  double projected_gradient = 0.0;
};

BoxState box_state(ceres::Problem& problem, const std::vector<double>& free,
                   const std::vector<double>& lower, const std::vector<double>& upper,
                   const std::vector<int>& already_held) {
  std::vector<double> tangent;
  double cost = 0.0;
  BoxState state{already_held, 0.0};
  if (!problem.Evaluate(ceres::Problem::EvaluateOptions(), &cost, nullptr, &tangent, nullptr))
    return state;
  if (tangent.size() + already_held.size() != free.size()) return state;
  state.held.clear();
  std::size_t k = 0;
  for (std::size_t i = 0; i < free.size(); ++i) {
    const bool was_held =
        std::find(already_held.begin(), already_held.end(), static_cast<int>(i)) != already_held.end();
    const double g = was_held ? 0.0 : tangent[k++];
    if (was_held || (free[i] <= lower[i] && g > 0) || (free[i] >= upper[i] && g < 0))
      state.held.push_back(static_cast<int>(i));
    else
      state.projected_gradient = std::max(state.projected_gradient, std::fabs(g));
  }
  return state;
}

// A start point that cannot be simulated, with its sensitivities as
// Ceres' first evaluation asks, ends the start before Ceres runs (Ceres
// would end it too, with a line on standard error whatever its logging
// option says): the run that says why, else nothing.
std::optional<LocalRun> refused_start(LeastSquaresCost& cost, StartObjective& objective,
                                      const std::vector<double>& free) {
  try {
    const PetabResult r = cost.evaluate_start(free.data());
    // Not finite there (an observable that divides by zero, a log of a
    // negative simulation; or its derivative, sqrt(B) at B = 0): said with
    // the evaluation's reason, not as Ceres' "Residual and Jacobian
    // evaluation failed".
    const bool residuals =
        all_finite(r.least_squares_residuals.size(), r.least_squares_residuals.data());
    if (!residuals || !all_finite(r.residual_jacobian.size(), r.residual_jacobian.data()))
      return LocalRun{0,
                      std::string(residuals ? "the residuals' Jacobian" : "the likelihood") +
                          " at the start point is not finite" +
                          (r.warnings.empty() ? std::string() : ": " + r.warnings.front()),
                      Status::not_finite};
  } catch (const Error& e) {
    if (e.status() == Status::interrupted)
      return LocalRun{0, objective.interruption_reason(), Status::ok};
    return LocalRun{0, std::string("the start point") + point_failure(e.status()) + e.what(),
                    e.status()};
  }
  return std::nullopt;
}

void set_bounds(ceres::Problem& problem, std::vector<double>& free,
                const std::vector<double>& lower, const std::vector<double>& upper) {
  for (std::size_t i = 0; i < free.size(); ++i) {
    const int k = static_cast<int>(i);
    if (std::isfinite(lower[i])) problem.SetParameterLowerBound(free.data(), k, lower[i]);
    if (std::isfinite(upper[i])) problem.SetParameterUpperBound(free.data(), k, upper[i]);
  }
}

// Adds a round's iterations to the run and takes its exit reason. Ceres'
// summary holds iteration 0 (the start point, which num_successful_steps
// counts as a step) and every iteration after it but one that ends the
// solve on the function or step tolerance (its step is computed and
// evaluated, not recorded). Ceres counts a later round's iterations and
// time from that round's own start: the start's limits are what ended it.
void count_round(const ceres::Solver::Summary& summary, int round, int budget,
                 std::int64_t start_iterations, const OptimizerOptions& options, bool stopped,
                 StartObjective& objective, LocalRun& run) {
  const std::size_t recorded = summary.iterations.empty() ? 0 : summary.iterations.size() - 1;
  run.iterations += static_cast<std::int64_t>(recorded) +
                    (summary.termination_type == ceres::CONVERGENCE ? 1 : 0);
  run.exit_reason = stopped ? objective.interruption_reason() : summary.message;
  if (!stopped && (round > 0 || start_iterations > 0) &&
      summary.termination_type == ceres::NO_CONVERGENCE)
    run.exit_reason = limit_reached(
        summary.message, start_iterations > 0 ? static_cast<int>(start_iterations) : budget,
        options.max_seconds, round + 1);
}

// Each round has what is left of the start's wall time; false, with the
// exit reason, when none is.
bool give_round_time(const OptimizerOptions& options, const StartObjective& objective,
                     ceres::Solver::Options& s, LocalRun& run) {
  if (!(options.max_seconds > 0)) return true;
  const double left = options.max_seconds - objective.seconds();
  if (!(left > 0)) {
    run.exit_reason = "Maximum solver time reached: the start's " +
                      io::format_double(options.max_seconds) + " s are used up";
    return false;
  }
  s.max_solver_time_in_seconds = left;
  return true;
}

// After a round that ended in FAILURE: whether a new round goes on, else
// the run's status and exit reason. A step whose states solve and whose
// sensitivities do not (a derivative of f infinite there: x^n with n < 1 at
// x = 0, Borghans_BiophysChem1997 with a start's initial state at its bound
// 0) is accepted by Ceres on its cost and fails on its Jacobian. The point
// stays known as failed, so a step to it is rejected, and a new round goes
// on from the last point accepted (`jacobian_failed`).
bool retry_after_failure(const ceres::Solver::Summary& summary, bool jacobian_failed, int budget,
                         LocalRun& run) {
  if (jacobian_failed && run.iterations < budget) return true;
  // Failed at once, on its problem (a bound it refuses): nothing ran.
  if (run.iterations == 0) run.status = Status::solver_failed;
  run.exit_reason = (run.iterations == 0 ? "Ceres could not run: " : "Ceres failed: ") +
                    first_line(summary.message);
  return false;
}

// After a round that converged: whether another round goes on, and with
// which parameters held (run_ceres_lm's comment). Sets the manifold.
bool set_up_next_round(ceres::Problem& problem, std::vector<double>& free,
                       const std::vector<double>& lower, const std::vector<double>& upper,
                       const ceres::Solver::Summary& summary, const OptimizerOptions& options,
                       std::vector<int>& held) {
  const BoxState state = box_state(problem, free, lower, upper, held);
  if (state.held.size() == free.size()) return false;
  if (!state.held.empty() && state.held != held) {
    held = state.held;
    problem.SetManifold(free.data(),
                        new ceres::SubsetManifold(static_cast<int>(free.size()), held));
    return true;
  }
  const bool progressed = summary.initial_cost - summary.final_cost >
                          options.function_tolerance * std::fabs(summary.final_cost);
  if (!(state.projected_gradient > options.gradient_tolerance) || !progressed) return false;
  // The new trust region spans every free parameter again: a bound that
  // held one may not hold it further along the valley.
  if (!held.empty()) {
    held.clear();
    problem.SetManifold(free.data(), nullptr);
  }
  return true;
}

}  // namespace

LocalRun run_ceres_lm(StartObjective& objective, const OptimizerOptions& options,
                      std::vector<double>& free, std::int64_t start_iterations) {
  auto cost_owner = std::make_unique<LeastSquaresCost>(objective);
  LeastSquaresCost* cost = cost_owner.get();
  if (auto refused = refused_start(*cost, objective, free)) return *refused;
  ceres::Problem problem;
  problem.AddResidualBlock(cost_owner.release(), nullptr, free.data());  // owned by `problem`
  const std::vector<double> lower = objective.free_lower(), upper = objective.free_upper();
  set_bounds(problem, free, lower, upper);
  ceres::Solver::Options s = solver_options(options);
  StopCallback stop(objective);
  s.callbacks.push_back(&stop);
  LocalRun run;
  std::vector<int> held;
  const int budget = s.max_num_iterations;
  // A round ends on a tolerance; where the box or the trust region cut it
  // short of a stationary point, another round goes on from there:
  //  - Ceres projects its steps onto the box, and with a bound active the
  //    projected steps can shrink until the step tolerance ends the solve
  //    short of the optimum along the other parameters. The parameters the
  //    bounds hold (at a bound, the gradient pushing out) are then made
  //    constant.
  //  - On ill-conditioned problems the trust region shrinks until the step
  //    tolerance ends the solve while the projected gradient is far above
  //    its tolerance (Crauste_CellSystems2017: nllh 191.22 with a gradient
  //    of 0.12, 0.26 above the reference; a new trust region from that
  //    point reaches 190.99). A round that still lowered the cost and ends
  //    there is followed by one with a new trust region over every free
  //    parameter.
  for (int round = 0; round < kMaxRounds; ++round) {
    if (!give_round_time(options, objective, s, run)) break;
    ceres::Solver::Summary summary;
    const std::size_t jacobian_failures = cost->jacobian_failures();
    ceres::Solve(s, &problem, &summary);
    count_round(summary, round, budget, start_iterations, options, stop.stopped, objective, run);
    // On FAILURE (a Jacobian's evaluation that failed or was interrupted)
    // Ceres gives back the round's first point, not the steps it had
    // accepted: the start keeps the best point it evaluated with its
    // Jacobian, which is the last one accepted.
    const bool failed = summary.termination_type == ceres::FAILURE;
    if ((failed || stop.stopped || cost->interrupted()) && !cost->best_point().empty())
      free = cost->best_point();
    if (stop.stopped || cost->interrupted()) {
      run.exit_reason = objective.interruption_reason();
      break;
    }
    if (failed) {
      const bool jacobian_failed =
          cost->jacobian_failures() > jacobian_failures && !cost->best_point().empty();
      if (!retry_after_failure(summary, jacobian_failed, budget, run)) break;
      s.max_num_iterations = std::max(1, budget - static_cast<int>(run.iterations));
      continue;
    }
    if (summary.termination_type != ceres::CONVERGENCE || run.iterations >= budget) break;
    const bool again = set_up_next_round(problem, free, lower, upper, summary, options, held);
    if (cost->interrupted()) {  // box_state's evaluation was: the round's end stands
      run.exit_reason = objective.interruption_reason();
      break;
    }
    if (!again) break;
    s.max_num_iterations = std::max(1, budget - static_cast<int>(run.iterations));
  }
  return run;
}

}  // namespace odesens::fitting
