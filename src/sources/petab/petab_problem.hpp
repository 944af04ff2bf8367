// A PEtab problem as odesens solves it: one ExprModel for every condition,
// and for each condition and measurement the model parameters it sets.
//
// The model: the SBML model with as sensitivity parameters every model
// parameter the parameter or condition tables name; initial-value
// parameters (SbmlOptions::initial_value_params) for the species,
// compartments and parameters condition tables set; then the parameters of
// the parameter table that the model lacks and the placeholders of the
// observable table (observableParameterN_OBS, noiseParameterN_OBS). Each
// observable's formula and noise formula are outputs of the model
// (`OBS` and `OBS@sigma`), so their derivatives in x and p are exact.
//
// Every model parameter, per condition or measurement, is either a number
// or a parameter of the parameter table (a "setting"); the table's
// parameters are the problem's parameters theta, whose estimated ones a
// fit varies on their scales.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "odesens/expr_model.hpp"
#include "sources/petab/petab_tables.hpp"

namespace odesens::petab {

// A model parameter's value: `number`, or the value of parameter-table row
// `theta` when theta >= 0.
struct Setting {
  int theta = -1;
  double number = 0.0;
};

struct Condition {
  std::string id;
  std::vector<Setting> params;  // one per model parameter
  // States whose initial value the condition sets (its ID@initial_set is
  // 1): after pre-equilibration they are re-initialized, the others keep
  // their pre-equilibrated value.
  std::vector<std::size_t> reinitialized_states;
  std::vector<std::size_t> reinitialized_values;  // their ID@initial parameters, in that order
  // Model parameters of compartment sizes, and ID@initial parameters (of
  // species, compartments, parameters set by initial assignments), whose
  // cells the condition leaves NaN or empty, and those whose cells it sets:
  // after a pre-equilibration the former keep the setting of the
  // pre-equilibration condition, as species keep their pre-equilibrated
  // amounts (Builder::after_preequilibration).
  std::vector<std::size_t> unset_sizes, unset_initial_values;
  std::vector<std::size_t> set_cells;
};

struct Observable {
  std::string id;
  std::size_t output = 0;        // index of OBS in the model's outputs
  std::size_t sigma_output = 0;  // index of OBS@sigma
  Transformation transformation = Transformation::lin;
  NoiseDistribution distribution = NoiseDistribution::normal;
};

struct Measurement {
  std::size_t observable = 0;   // into Definition::observables
  std::size_t experiment = 0;   // into Definition::experiments
  double time = 0.0;            // +inf: at steady state
  double value = 0.0;
  // The placeholders' model parameters and their settings for this row.
  std::vector<std::pair<std::size_t, Setting>> placeholders;
  Place place;
};

// One simulation: a simulation condition, after an optional
// pre-equilibration condition.
struct Experiment {
  int preequilibration = -1;   // into Definition::conditions, -1: none
  std::size_t simulation = 0;  // into Definition::conditions
  std::vector<double> times;   // finite measurement times, increasing, unique
  bool steady_state_measured = false;  // some measurement at time inf
  std::vector<std::size_t> measurements;  // into Definition::measurements
};

struct Definition {
  Tables tables;
  // Every parameter, with the observables as outputs: what the likelihood
  // evaluates.
  std::shared_ptr<const ExprModel> model;
  // The same ODE with the first n_sbml_params parameters alone (the SBML
  // parameters and initial values, which the dynamics depend on): what is
  // solved, so that S has no columns for the parameters of the observable
  // table and the placeholders, which f does not depend on.
  std::shared_ptr<const ExprModel> dynamics;
  std::size_t n_sbml_params = 0;
  std::vector<Condition> conditions;
  std::vector<Observable> observables;
  std::vector<Measurement> measurements;  // in the measurement table's order
  std::vector<Experiment> experiments;    // in order of first appearance
  std::vector<std::size_t> estimated;     // rows of tables.parameters with estimate = 1
  // 1 for each of the first n_sbml_params model parameters that the
  // dynamics (f, the initial values, the events) read, traced through the
  // model's expressions by PetabProblem::load (estimate/experiment_readers).
  // Empty (a Definition not loaded so): the solves count every one as read,
  // for S columns and pre-equilibrations; experiments_reading traces them.
  std::vector<char> dynamics_reads;
  // Parameters of the dynamics (below n_sbml_params) that only carry a
  // pre-equilibration's dx/dtheta into its simulation, of theta's id: f
  // reads none of them (the load's choose_carriers, docs/petab.md).
  std::vector<std::size_t> carriers;
};

// Builds the model and the settings; throws Error(parse_error) naming the
// file, row, column and the rule broken for an inconsistent problem
// (unknown ids, placeholders not overridden or overridden by the wrong
// count, parameters listed that must not be, conditions that do not
// exist), and Error as load_sbml_text for the model.
Definition build_definition(Tables tables);

// Parameter value on the linear scale from its value on `scale`, and the
// derivative of the linear value with respect to the scaled one.
double unscale(double scaled, Scale scale);
double scale_value(double linear, Scale scale);
double unscale_derivative(double scaled, Scale scale);

}  // namespace odesens::petab
