// One experiment of a PEtab problem solved: the simulation condition from
// its initial state, or from the steady state of its pre-equilibration
// condition, at the measurement times, and to a steady state when some
// measurement is at time inf.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "estimate/preequilibrations.hpp"
#include "estimate/prepared_solves.hpp"
#include "odesens/petab.hpp"
#include "sources/petab/petab_problem.hpp"

namespace odesens::petab {

// The values of every parameter-table row on the linear scale, the
// estimated ones from x (on their scales).
std::vector<double> table_values(const Definition& def, const std::vector<double>& x);

// The model parameters a setting list gives, with theta the table values.
std::vector<double> model_params(const std::vector<Setting>& settings,
                                 const std::vector<double>& theta);

// S has n_sbml_params columns (the parameters of Definition::dynamics).
struct ExperimentSolution {
  std::vector<double> params;  // of the simulation condition (all of the full model's)
  std::vector<double> times;   // Experiment::times
  std::vector<double> x;       // n_t x nx
  std::vector<double> S;       // n_t blocks of nx x np (empty without sensitivities)
  std::vector<double> x_steady;  // at time inf, when measured there
  std::vector<double> S_steady;
  // d nllh / dp of the experiment from an adjoint method (np; empty when
  // the gradient comes from S). It lacks the placeholders' partials.
  std::vector<double> model_gradient;
  Stats stats;
  std::vector<std::string> warnings;
};

// The method an evaluation runs: the one asked for, or for "auto" the
// adjoint (cvodes_asa) for a gradient without FIM when at least
// kPetabAdjointMinParameters estimated parameters act on the dynamics and
// outnumber the measurement times per experiment, else forward
// sensitivities by odesd where the library's auto takes it for S (second
// derivatives, S of at most 10 000 entries), by cvodes_fsa otherwise.
// An experiment under "auto" whose odesd solve fails runs cvodes_fsa.
std::string resolve_method(const Definition& def, const PetabOptions& options);

// Whether an evaluation at `options` takes the gradient of some experiment
// by an adjoint method (uses_adjoint: not hierarchically, not after a
// pre-equilibration or with a steady-state measurement).
bool some_gradient_by_adjoint(const Definition& def, const PetabOptions& options);

// Adds the counters of s to into (wall time excluded).
void add_stats(Stats& into, const Stats& s);

// Throws Error as the solves do, the message prefixed with the experiment's
// conditions. The simulation runs on a session of `solves`; its
// pre-equilibration comes from `preequilibrations` where given (the
// experiments of one evaluation share it), else is solved here.
ExperimentSolution solve_experiment(PreparedSolves& solves, const Definition& def,
                                    const Experiment& e, const std::vector<double>& theta,
                                    const PetabOptions& options, bool sensitivities,
                                    Preequilibrations* preequilibrations = nullptr);

}  // namespace odesens::petab
