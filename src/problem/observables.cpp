#include "odesens/observables.hpp"

#include <algorithm>

#include "odesens/status.hpp"

namespace odesens {
namespace {

// Where an observable's values come from: a state, or an entry of the
// model's ObservableSet.
struct Source {
  bool is_state;
  std::size_t index;
};

std::size_t position(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

std::string unknown_message(const Model& model, const std::vector<std::string>& known,
                            const std::string& name) {
  for (const char* suffix : {":amount", ":concentration"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      const std::string base = name.substr(0, name.size() - s.size());
      if (position(known, base) < known.size())
        return "observable '" + name + "': '" + base + "' is not a species, and only species " +
               "have " + s + " (observe '" + base + "')";
    }
  }
  return "model " + model.name() + " has no observable '" + name + "'" +
         (model.observable_set()
              ? std::string(" (observables: states, lets and outputs; for SBML, ids with a value)")
              : std::string(" (observables of this model: its states)"));
}

Source find_source(const Model& model, const std::string& name) {
  if (const ObservableSet* set = model.observable_set()) {
    const auto& names = set->observable_names();
    const std::size_t k = position(names, name);
    if (k < names.size()) return {false, k};
    throw Error(Status::invalid_argument, unknown_message(model, names, name));
  }
  const auto& states = model.state_names();
  const std::size_t i = position(states, name);
  if (i < states.size()) return {true, i};
  throw Error(Status::invalid_argument, unknown_message(model, states, name));
}

}  // namespace

void check_observables(const Model& model, const std::vector<std::string>& names) {
  for (const auto& name : names) find_source(model, name);
}

std::vector<std::vector<double>> evaluate_observables(const Problem& problem,
                                                      const Result& result,
                                                      const std::vector<std::string>& names) {
  if (!problem.model) throw Error(Status::invalid_argument, "problem has no model");
  const Model& model = *problem.model;
  std::vector<Source> sources;
  for (const auto& name : names) sources.push_back(find_source(model, name));
  const std::size_t nt = result.times.size(), nx = model.nx();
  if (result.nx != nx || result.x.size() != nt * nx)
    throw Error(Status::invalid_argument, "the result does not hold the states of this model");
  std::vector<std::vector<double>> values(names.size(), std::vector<double>(nt));
  const ObservableSet* set = model.observable_set();
  const bool needs_set = std::any_of(sources.begin(), sources.end(),
                                     [](const Source& s) { return !s.is_state; });
  std::vector<double> all(needs_set ? set->observable_names().size() : 0);
  const std::vector<double> p = effective_params(problem);
  const auto workspace = model.make_workspace();
  for (std::size_t k = 0; k < nt; ++k) {
    const double* x = result.x.data() + k * nx;
    if (needs_set) set->observables(result.times[k], x, p.data(), all.data(), workspace.get());
    for (std::size_t n = 0; n < names.size(); ++n)
      values[n][k] = sources[n].is_state ? x[sources[n].index] : all[sources[n].index];
  }
  return values;
}

}  // namespace odesens
