// What every internal-difference run reads (the problem prepared once) and
// what it reports back (counts for Result::stats).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "methods/internal_diff/bundle_integrator.hpp"
#include "methods/internal_diff/internal_diff_settings.hpp"
#include "methods/internal_diff/sensitivity_directions.hpp"
#include "odesens/model.hpp"
#include "odesens/problem.hpp"

namespace odesens::internal_diff {

struct SolveSetup {
  const Problem& problem;
  const Model& model;
  const InternalDiffSettings& settings;
  const BundleIntegratorFactory& factory;
  const SensitivityDirections& directions;
  const std::vector<double>& p;   // parameters
  const std::vector<double>& x0;  // x(t0)
  const std::vector<char>& read_by_f;  // parameters f reads, for (17)
  Workspace& workspace;           // of the model, the requested lane width

  double t0() const { return problem.t0; }
  double t_end() const { return problem.output_times.back(); }
};

struct RunTally {
  BundleCounts bundle;   // the bundle's integrator (external: all runs together)
  BundleCounts nominal;  // nominal=accurate: the separate nominal solve
  long rhs_evaluations = 0;       // f at one point
  long rhs_calls = 0;             // BundleRhs::evaluate calls (batched f)
  long reperturbations = 0;       // steps after which trajectories were re-perturbed
  long sensitivity_limited = 0;   // accepted steps whose size Δ (14) decided
  long runs = 0;                  // integrations (external: 1 + n_s)
  std::size_t events_executed = 0;  // by the run that gives the states
  std::string moving_instant;       // of that run: a root whose instant moves with p
  std::vector<std::string> warnings;  // of the runs, once each

  void add(const BundleCounts& c, BundleCounts& into) {
    into.steps += c.steps;
    into.accepted += c.accepted;
    into.rejected += c.rejected;
    into.jacobians += c.jacobians;
    into.factorizations += c.factorizations;
  }
  void add_rhs(const BundleCounts& c, BundleShape shape) {
    rhs_calls += c.rhs_calls;
    rhs_evaluations += c.rhs_calls * static_cast<long>(shape.trajectories());
  }
};

}  // namespace odesens::internal_diff
