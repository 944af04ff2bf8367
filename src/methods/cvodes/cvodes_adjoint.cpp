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
// nx problems at once would need O(nx^2) memory. Events and switches of f
// run through the same driver (integrate/cvodes/adjoint_driver.hpp): the
// forward pass in segments between instants, the adjoint crossing each by
// the transposed jump.
#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <string>

#include "core/number_text.hpp"
#include "core/usable_memory.hpp"
#include "integrate/cvodes/adjoint_driver.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/events/event_runner.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/common/cvodes_options.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/cvodes/adjoint_tolerances.hpp"
#include "methods/cvodes/cvodes_methods.hpp"
#include "odesens/status.hpp"
#include "problem/objective_terms.hpp"

namespace odesens::cvodes {

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
                           "data); 0: as many as fit in 1 GiB of backward work space (a quarter of the "
                           "memory this process may use where that is less)",
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
  specs.push_back(methods::state_check_option(
      false, "off by default, as CVODES: with a gradient alone 0.94 to 1.57 times the time on "
             "the shared models, median 1.30; on with method auto"));
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
  bool state_check;
};

AdjointSettings read_adjoint_settings(const MethodOptions& options) {
  return {read_session_settings(options),
          options.get_string("interpolation") == "polynomial",
          options.get_int("checkpoint_steps"),
          options.get_int("final_sensitivity") != 0,
          options.get_int("backward_batch"),
          {options.get_double("rtol_adjoint"), options.get_double("atol_adjoint"),
           options.get_double("rtol_quadrature"), options.get_double("atol_quadrature")},
          options.get_int("state_check") != 0};
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

// G's adjoint (vector 0: lambda(T) = w_K, jumps by w_k at earlier outputs)
// and, with final_sensitivity, one per row i of S(T) (lambda(T) = e_i).
class ObjectiveAndRows final : public AdjointSeeds {
 public:
  ObjectiveAndRows(const std::vector<double>& weights, std::size_t nx, bool rows,
                   std::vector<BackwardTolerances> tolerances)
      : weights_(weights), nx_(nx), rows_(rows), tolerances_(std::move(tolerances)) {}
  std::size_t count() const override { return 1 + (rows_ ? nx_ : 0); }
  void add_output_jump(std::size_t v, std::size_t k, const double*, double* lambda) const override {
    if (nx_ == 0) return;
    const std::size_t last = weights_.size() / nx_ - 1;
    if (v == 0) {
      const double* w = weights_.data() + k * nx_;
      for (std::size_t i = 0; i < nx_; ++i) lambda[i] += w[i];
    } else if (k == last) {
      lambda[v - 1] += 1.0;
    }
  }
  const BackwardTolerances& tolerances(std::size_t v) const override {
    return tolerances_[std::min(v, tolerances_.size() - 1)];
  }

 private:
  const std::vector<double>& weights_;
  std::size_t nx_;
  bool rows_;
  std::vector<BackwardTolerances> tolerances_;
};

void check_checkpoint_steps(const AdjointSettings& settings) {
  // CVODES' polynomial interpolation reads up to (maximum order + 1) stored
  // steps and crashes with fewer between two checkpoints (seen with
  // SUNDIALS 6.4); 13 covers Adams' order 12.
  const bool polynomial = settings.polynomial_interpolation;
  const std::int64_t min_steps = polynomial ? 13 : 1;
  if (settings.checkpoint_steps < min_steps)
    throw Error(Status::option_type, "option 'checkpoint_steps' must be at least " +
                                         std::to_string(min_steps) +
                                         (polynomial ? " with interpolation=polynomial" : ""));
}

// Backward problems per sweep: the objective's and the rows that fit the
// memory budget (1 GiB, or a quarter of what this process may use when
// that is less), or backward_batch rows. Problems beyond half the memory
// at hand are refused before CVODES asks for them: it does not check
// every allocation of CVodeInitB and CVodeQuadInitB (a segmentation fault
// under ulimit -v).
std::size_t problems_per_sweep(const AdjointSettings& settings, const Session& session) {
  const std::size_t n = session.nx();
  const double per_problem = backward_problem_bytes(
      n, session.np(), session.klu_nnz(), session.linear_solver_kind() == LinearSolverKind::dense,
      settings.session.lmm == CV_ADAMS);
  const double usable = usable_memory_bytes();
  const double budget = usable > 0.0 ? std::min(kBackwardMemoryBudget, 0.25 * usable)
                                     : kBackwardMemoryBudget;
  std::size_t rows = 0;
  if (settings.final_sensitivity)
    rows = std::min<std::size_t>(
        n, settings.backward_batch > 0
               ? static_cast<std::size_t>(settings.backward_batch)
               : static_cast<std::size_t>(std::max(1.0, std::floor(budget / std::max(per_problem, 1.0)))));
  // The driver also runs every vector through one problem, sweep by sweep:
  // where two problems do not fit but one does, that is what runs.
  if (rows > 0 && settings.backward_batch == 0 && !fits_in_memory(2.0 * per_problem) &&
      fits_in_memory(per_problem))
    return 1;
  require_fits_in_memory(static_cast<double>(1 + rows) * per_problem,
                         std::to_string(1 + rows) + " backward problem" + (rows > 0 ? "s" : "") +
                             " of " + std::to_string(n) + " states",
                         settings.backward_batch > 0 ? "lower backward_batch"
                                                     : "final_sensitivity=0 needs one");
  return 1 + rows;
}

// The forward solution at t0 (unless an output is there) and at the output
// times, with the objective's weights, for the backward tolerances.
TrajectorySample trajectory_sample(const Problem& problem, const Session& session,
                                   const std::vector<double>& x, const std::vector<double>& w) {
  const std::size_t n = session.nx();
  const auto& times = problem.output_times;
  TrajectorySample sample;
  if (times.empty() || times[0] > problem.t0) {
    sample.times.push_back(problem.t0);
    sample.states = session.initial_state();
    sample.weights.assign(n, 0.0);
  }
  sample.times.insert(sample.times.end(), times.begin(), times.end());
  sample.states.insert(sample.states.end(), x.begin(), x.end());
  sample.weights.insert(sample.weights.end(), w.begin(), w.begin() + static_cast<std::ptrdiff_t>(
                                                                         times.size() * n));
  return sample;
}

void write_adjoint_stats(const Session& session, const AdjointDriver& driver,
                         const integrate::EventRunner& events, methods::ResultBuilder& out) {
  Stats& stats = out.stats();
  add_counters(session.counters(), stats, false);
  add_backward_counters(driver.backward_counters(), stats);
  const double problems = static_cast<double>(driver.backward_problems());
  stats.extra["backward_problems"] = problems;
  stats.extra["backward_sweeps"] = static_cast<double>(driver.sweeps());
  stats.extra["checkpoints"] = driver.checkpoints();
  // 1 where a recomputation from a checkpoint outran the forward pass and
  // the backward pass ran again with whole segments held (replay_guard.hpp).
  if (driver.widened() > 0) stats.extra["whole_segments"] = static_cast<double>(driver.widened());
  stats.extra["workspace_bytes"] =
      session.workspace_bytes() + driver.checkpoint_bytes() + driver.segment_bytes() +
      8.0 * (2.0 * static_cast<double>(session.nx()) + static_cast<double>(session.np())) *
          problems;
  if (!events.active()) return;
  stats.extra["segments"] = static_cast<double>(driver.segments());
  stats.extra["recomputed_segments"] = static_cast<double>(driver.recomputed_segments());
  stats.extra["events_executed"] = static_cast<double>(events.events_executed());
  for (const auto& w : events.warnings()) out.warn(w);
}

// What to say when the forward pass cannot allocate: with events, the
// records of its segments are what grows (AdjointDriver::segment_bytes).
void forward_or_say_what_grows(AdjointDriver& driver, const integrate::EventRunner& events,
                               const std::vector<double>& times, double* x) {
  try {
    driver.forward(times, x);
  } catch (const std::bad_alloc&) {
    if (!events.active() || driver.segments() == 0) throw;
    const double each = driver.segment_bytes() / static_cast<double>(driver.segments());
    throw Error(Status::out_of_memory,
                "out of memory in method 'cvodes_asa' after " +
                    std::to_string(driver.segments()) +
                    " segments between events in the forward pass: the backward pass needs "
                    "each one's start state and the instant that ends it (the state and f on "
                    "both sides, the assignments executed), about " +
                    rounded_number_text(each) +
                    " bytes each here; fewer events in [t0, T], a shorter time span or a "
                    "forward method (cvodes_fsa) need less");
  }
}

}  // namespace

Result solve_adjoint(const Problem& problem, const MethodOptions& options) {
  const AdjointSettings settings = read_adjoint_settings(options);
  check_checkpoint_steps(settings);
  Session session(initial_value_problem(problem), settings.session);
  session.set_interrupt(&problem.interrupt);
  session.create_integrator();
  const std::size_t n = session.nx(), np = session.np();
  const bool rows = settings.final_sensitivity;
  methods::ResultBuilder out(problem, n, np,
                             rows ? methods::SensitivityLayout::final_time_only
                                  : methods::SensitivityLayout::none);
  integrate::EventRunner events(session.model(), session.params().data(), 0,
                                session.workspace());
  AdjointDriver driver(session, events,
                       {settings.session.lmm,
                        settings.polynomial_interpolation ? CV_POLYNOMIAL : CV_HERMITE,
                        static_cast<long>(settings.checkpoint_steps), problem.max_steps,
                        problems_per_sweep(settings, session)});
  const auto& times = problem.output_times;
  std::vector<double> x(times.size() * n);
  forward_or_say_what_grows(driver, events, times, x.data());
  for (std::size_t k = 0; k < times.size(); ++k) out.set_x(k, x.data() + k * n);

  // The backward problems' weights dphi_k/dx from the forward states.
  const ObjectiveTerms terms =
      objective_terms(problem, x.data(), session.params().data(), session.workspace());
  const std::vector<double>& weights = terms.weights;
  // With no row of S(T) and every weight 0 (the states alone, as a PEtab
  // evaluation without a gradient asks) lambda stays 0: no backward sweep,
  // and the gradient is the objective's explicit dphi/dp.
  const bool backward = rows || terms.any_weight();
  std::vector<double> gradients(np, 0.0);
  if (backward) {
    const ObjectiveAndRows seeds(
        weights, n, rows,
        derive_backward_tolerances(settings.tolerances, *problem.rtol, problem.atol,
                                   session.model(), session.params().data(),
                                   session.workspace(),
                                   trajectory_sample(problem, session, x, weights), rows));
    gradients.resize(seeds.count() * np);
    driver.backward(seeds, gradients.data());
  }
  out.gradient().assign(gradients.begin(), gradients.begin() + static_cast<std::ptrdiff_t>(np));
  for (std::size_t j = 0; j < np; ++j) out.gradient()[j] += terms.gradient_p[j];
  out.objective_values() = terms.values;
  if (rows)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < np; ++j) out.s(0)[i + j * n] = gradients[(1 + i) * np + j];
  write_adjoint_stats(session, driver, events, out);
  Result r = out.take();
  if (settings.state_check)
    methods::check_state_error(problem, settings.session,
                               rows ? "the gradient and S(T)" : "the gradient", r);
  return r;
}

}  // namespace odesens::cvodes
