// Parameter estimation of PEtab problems: local optimizations of the
// negative log-posterior (nlpost; nllh without priors) from many starts in
// the box of the estimated parameters on their scales (multi-start).
//
//   auto problem = odesens::PetabProblem::load("Boehm_JProteomeRes2014.yaml");
//   odesens::FitOptions options;
//   options.starts = 20;
//   options.threads = 0;  // one per core
//   odesens::FitResult fit = odesens::fit(*problem, options);
//   // fit.starts[0] is the best (sorted by final nlpost: the waterfall)
//
// Optimizers (OptimizerOptions::optimizer):
//   ceres_lm     Ceres Solver's Levenberg-Marquardt on the residuals of the
//                least-squares form (petab.hpp), whose Jacobian gives the
//                Gauss-Newton matrix; box bounds on the parameters.
//   nlopt_lbfgs  NLopt's L-BFGS (LD_LBFGS) on nlpost and its gradient, with
//                box bounds: for objectives with no least-squares form
//                (Laplace noise).
//   lbfgsb       L-BFGS-B 3.0 (liblbfgsb) on nlpost and its gradient: the
//                projected gradient path at the bounds, where NLopt's
//                line search can give up (docs/fit.md).
//   ceres_lm_lbfgs  ceres_lm, then nlopt_lbfgs from its end point where LM
//                stopped short of a stationary point (docs/fit.md).
//   auto         ceres_lm_lbfgs when the problem has the least-squares
//                form, else nlopt_lbfgs.
// A simulation that fails inside a start is a rejected step (the optimizer
// tries a shorter one), never the end of the fit; a start whose first point
// cannot be simulated ends with that error as its exit reason.
#pragma once

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens {

// One local optimization's settings and stopping rules (docs/fit.md). A
// start ends at the first rule met.
struct OptimizerOptions {
  std::string optimizer = "auto";  // optimizer_ids()
  // Iterations: ceres_lm's accepted and rejected steps; nlopt_lbfgs's and
  // lbfgsb's objective evaluations; ceres_lm_lbfgs's
  // L-BFGS has what its LM left.
  std::int64_t max_iterations = 1000;
  // Wall time of one start; 0: no limit. An evaluation under way when it
  // passes ends at once (PetabOptions::interrupt: within the solve with the
  // CVODES methods and odesd, else before the next experiment); the final evaluation
  // at the end point (nllh, gradient) follows the limit.
  double max_seconds = 0.0;
  // The largest component of the projected gradient (the gradient with the
  // components that point out of the box at an active bound left out), on
  // the parameters' scales.
  double gradient_tolerance = 1e-5;
  // A step shorter than step_tolerance * (|x| + step_tolerance).
  double step_tolerance = 1e-8;
  // A relative change of the objective below this (ceres_lm: of the cost
  // 1/2 sum r^2; nlopt_lbfgs, lbfgsb: of nlpost).
  double function_tolerance = 1e-8;
  // The simulations' method, tolerances and steady states (threads is set
  // to 1: the starts run in parallel, not their experiments). Its
  // interrupt, when set, ends the start it says stop in as the stop flag
  // does, at its best point so far, with the exit reason "stopped by the
  // evaluations' interrupt function" (a per-start budget of the caller's
  // own, say); a fit goes on with its other starts (the stop flag ends the
  // fit), a profile ends the side it was tracing. It is asked before each
  // experiment of the optimizer's evaluations, within CVODES' and odesd's solves and at
  // each iteration, from the starts' threads at once when they run in
  // parallel.
  PetabOptions evaluation;
};

// The checks of options: Error(invalid_argument) naming the field.
void check_optimizer_options(const OptimizerOptions& options);

// The optimizer ids, "auto" first, and the same as text ("auto, ceres_lm,
// ... or lbfgsb").
const std::vector<std::string>& optimizer_ids();
std::string optimizer_id_list();

// Error(unsupported) when `optimizer` needs the least-squares form
// (ceres_lm, ceres_lm_lbfgs) and the problem lacks it (Laplace noise);
// the message begins with `command` ("fit", "profile").
void require_optimizer_suits(const PetabProblem& problem, const std::string& optimizer,
                             const char* command = "fit");

// One local optimization. Points are on the parameters' scales, in
// PetabProblem::parameter_ids() order.
struct StartResult {
  // Of the start among all a fit ran: the starts given or drawn from 0,
  // then the hops' in order of their rounds.
  std::size_t index = 0;
  std::size_t round = 0;      // 0: a start given or drawn; r: of hop round r
  std::vector<double> start;  // x0
  std::vector<double> end;    // the best point found
  double nllh = 0.0, nlpost = 0.0;  // at end (NaN when the start failed)
  // The largest projected-gradient component at end; NaN where a start
  // ended by its time limit or a stop at a point not yet evaluated with
  // the gradient (its final evaluation then takes nlpost alone).
  double gradient_norm = 0.0;
  std::int64_t iterations = 0;
  std::int64_t evaluations = 0;  // of the objective (with or without derivatives)
  Status status = Status::ok;    // not ok: the start failed (its point could not be simulated)
  std::string exit_reason;       // the stopping rule met, or the failure, in words
  double seconds = 0.0;
  // Where the gradient was evaluated at end (flat_known): the parameters
  // (indices) strictly inside their finite bounds whose gradient of nlpost
  // is exactly 0 there, a hierarchical fit's inner parameters left out:
  // nothing the problem computes depends on them at end (docs/fit.md, "Hops";
  // parameters held fixed, as in profiles, may be among them).
  std::vector<std::size_t> flat;
  bool flat_known = false;
  // A hop point that redrew one block of parameters from its range, the
  // others held at its round's center but for the flat ones, drawn from
  // their range too (FitOptions::hop_blocks, hop_flat_from_box): the
  // block's parameters (indices, increasing); empty for every other start.
  std::vector<std::size_t> redrawn;
};

// A start that ran and ended at a finite nlpost: the ones the best value,
// the count of starts near it and the written best point are taken from.
// A start that failed (its point could not be simulated, or its optimizer
// could not run there) is not one, whatever nlpost its point has.
inline bool start_succeeded(const StartResult& s) {
  return s.status == Status::ok && std::isfinite(s.nlpost);
}

// A local optimization of problem from x0 (inside the box), with the
// parameters whose `fixed` entry is true held at their x0 values (fixed
// empty: none; profiles fix one at a time). Error(invalid_argument) for a
// wrong size, an x0 outside the box or an unknown optimizer;
// Error(unsupported) for one that needs the least-squares form on a
// problem without it; a failed simulation ends or shapes
// the start, it is not thrown. `stop`, when given and set, ends the start
// within the evaluation under way (OptimizerOptions::max_seconds says how
// soon) at its best point so far (exit reason "stopped by request").
StartResult optimize(const PetabProblem& problem, const std::vector<double>& x0,
                     const std::vector<bool>& fixed, const OptimizerOptions& options,
                     const std::atomic<bool>* stop = nullptr);

// The optimizer "auto" runs on problem with these options (docs/fit.md).
std::string resolve_optimizer(const PetabProblem& problem, const OptimizerOptions& options);

struct FitOptions {
  OptimizerOptions optimizer;
  std::size_t starts = 10;  // drawn when start_points is empty
  std::uint64_t seed = 0;
  unsigned threads = 1;     // starts run at once; 0: one per core
  // Starts given by the caller (scaled, inside the box); empty: a Latin
  // hypercube of `starts` points drawn with `seed`, taken to the
  // parameters' initialization priors where they have them
  // (PetabProblem::start_value).
  std::vector<std::vector<double>> start_points;
  // A start whose point cannot be simulated is replaced by a point drawn
  // uniformly in the scaled box, up to this many times (0: the start fails
  // there). Each start's draws depend on the seed and its index alone, so
  // the same on any thread or rank count; the start's row holds the point
  // it ran from. (pyPESTO's checked start points do the same.) At most
  // kMostResamples: where a thousand draws all fail, more will not help
  // (and 2^62 of them ran without end). A hop's point (below) is drawn
  // again from its round's distribution instead.
  std::size_t resample_failed = 0;
  // Hops (docs/fit.md, "Hops"): after the starts, hop_rounds rounds of
  // hop_starts starts each, drawn around the best end point so far from a
  // normal distribution on the parameters' scales, clipped to the box. Its
  // standard deviation is hop_sigma, doubled after a round that finds no
  // new optimum (none lower by more than 0.1), up to 4 * hop_sigma, and
  // back to hop_sigma after one that does; each round is centred on the
  // best end point when it begins, however little lower than the last.
  // Where the box holds many local optima, the best of a few starts is
  // often a neighbour of a better one that few points drawn in the whole
  // box reach. 0: no hops.
  std::size_t hop_rounds = 0;
  std::size_t hop_starts = 8;
  double hop_sigma = 0.5;
  // A parameter whose gradient of nlpost is exactly 0 at a round's center
  // (nothing computed depends on it there, as on a switch time past its
  // experiment's last measurement) is drawn from its whole range as a start
  // is, not around the center, where it would stay without effect. false:
  // every parameter around the center.
  bool hop_flat_from_box = true;
  // Where some parameters are read by some experiments only (a switch time
  // or scaling per condition: "blocks", grouped by the experiments that
  // read them), every second point of a round (the 2nd, 4th, ...) redraws
  // one block from its range as a start is and holds the other parameters
  // at the center: the worst fitted block first (by the mean square of its
  // experiments' residuals at the center, from one evaluation there), then
  // the next. An experiment stuck in a local optimum of its own is fitted
  // again without unsettling the others. false, or a problem without
  // blocks: every point around the center.
  bool hop_blocks = true;
};

inline constexpr std::size_t kMostResamples = 1000;
inline constexpr std::size_t kMostHopRounds = 10'000;
inline constexpr std::size_t kMostHopStarts = 1'000'000'000;

struct FitResult {
  std::string optimizer;  // what ran ("auto" resolved)
  std::uint64_t seed = 0;
  std::size_t starts_planned = 0;  // the hops' included
  // The starts that ran, sorted by final nlpost, failed ones last (the
  // waterfall); starts[0] is the best.
  std::vector<StartResult> starts;
  // Starts whose final nlpost is within 0.1 of the best one's (the best
  // included): how often the best was found.
  std::size_t starts_at_best = 0;
  bool stopped = false;  // the stop flag ended the fit before every start ran
  // The hop settings it ran with (FitOptions; rounds 0: none).
  std::size_t hop_rounds = 0, hop_starts = 0;
  double hop_sigma = 0.0;
  bool hop_flat_from_box = false;
  bool hop_blocks = false;
  // The problem's blocks for the hops to redraw one at a time
  // (FitOptions::hop_blocks; the inner parameters of a hierarchical fit
  // left out); 0 without hop_blocks, with one hop start a round, or where
  // every experiment reads every parameter.
  std::size_t hop_block_count = 0;
  // The best start's `flat` (StartResult): parameters nothing the problem
  // computes depends on at the best end point (a switch time past its
  // experiment's data), which the data do not determine there and the
  // optimizer could not move. Empty when none is, when no start succeeded,
  // and where the best start's gradient was not evaluated at its end (its
  // time limit or a stop ended it).
  std::vector<std::size_t> flat_at_best;
};

// Called after each start ends (from the thread that ran it, one call at a
// time): starts done, starts planned, best nlpost so far.
using FitProgress = std::function<void(std::size_t done, std::size_t total, double best)>;

// Multi-start: each start is one task of the worker pool. When `stop` is
// set, starts not begun are skipped and those running end at their next
// iteration; what ended is kept, and no hop round begins. Error(invalid_argument)
// for no starts, starts of the wrong size or outside the box, a box with an
// infinite bound when the starts are to be drawn, or hop settings out of
// range (check_hop_options).
FitResult fit(const PetabProblem& problem, const FitOptions& options,
              const FitProgress& progress = {}, const std::atomic<bool>* stop = nullptr);

// n points of a Latin hypercube in the box [lower, upper] (each parameter's
// range cut into n equal strata, each stratum used once, uniform inside
// it): the same points for the same seed on every platform and thread count.
std::vector<std::vector<double>> latin_hypercube(const std::vector<double>& lower,
                                                 const std::vector<double>& upper,
                                                 std::size_t n, std::uint64_t seed);

// The starts fit() draws when none are given: `starts` points of a Latin
// hypercube drawn with `seed` in the box of the scaled parameters, taken
// to the initialization priors where the parameter table has them.
// Error(invalid_argument) for no starts, too many, or a box with an
// infinite bound.
std::vector<std::vector<double>> draw_starts(const PetabProblem& problem, std::size_t starts,
                                             std::uint64_t seed);

// The checks of the hop settings: Error(invalid_argument) naming the field
// (hop_rounds at most kMostHopRounds, hop_starts at most kMostHopStarts
// and from 1 when hop_rounds is not 0, hop_sigma from 1e-6 to 100; each
// checked whatever hop_rounds is).
void check_hop_options(const FitOptions& options);

// How many sorted final values are within `threshold` of the first.
std::size_t count_within(const std::vector<StartResult>& sorted, double threshold);

}  // namespace odesens
