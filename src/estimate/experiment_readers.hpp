// Which experiments of a PEtab problem read which estimated parameters: a
// parameter that only some experiments read (a switch time or scaling per
// condition) changes only their terms of the likelihood (fit/hop_blocks.hpp
// groups the parameters by it).
#pragma once

#include <vector>

#include "sources/petab/petab_problem.hpp"

namespace odesens::petab {

// reads[i][e] = 1 where experiment e reads estimated parameter i: through a
// setting of its simulation condition of a model parameter its dynamics
// (right-hand side, initial values, events) or its observables' formulas
// read, of its pre-equilibration condition of one the dynamics read, or
// through the placeholders of its measurements. The formulas are traced
// through the models' expression graphs (under their locks: a solve on
// another thread may grow them).
std::vector<std::vector<char>> experiments_reading(const Definition& def);

// Definition::dynamics_reads: 1 for each of the first n_sbml_params model
// parameters that f, the initial values or the events (triggers, delays,
// priorities, assigned values) read.
std::vector<char> parameters_the_dynamics_read(const Definition& def);

}  // namespace odesens::petab
