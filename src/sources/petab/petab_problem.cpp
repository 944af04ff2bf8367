// Building a PEtab problem's model and settings (petab_problem.hpp).
#include "sources/petab/petab_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/number_text.hpp"
#include "expr/expr_model_impl.hpp"
#include "sources/model_file.hpp"
#include "sources/petab/petab_cells.hpp"
#include "sources/petab/petab_formula.hpp"
#include "sources/petab/petab_tsv.hpp"
#include "sources/sbml/sbml_import.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

using expr::NodeId;
using expr::SbmlIdUse;



// observableParameterN_OBS / noiseParameterN_OBS: the kind, N and OBS.
struct Placeholder {
  bool noise = false;
  int n = 0;
  std::string observable;
};

// What a name is: a placeholder, not one, or one whose number PEtab does
// not write (0, a leading zero, more than 9 digits), which would never be
// matched to its value (noiseParameter01_obs is not noiseParameter1_obs).
enum class PlaceholderName { none, placeholder, misnumbered };

// Only names whose suffix is an observable's id are placeholders
// (noiseParameter2_x is an ordinary parameter when no observable is x).
// Read by hand: std::regex recurses once per character, and a name of
// 50 000 characters overflowed the stack.
PlaceholderName parse_placeholder(const std::string& name,
                                  const std::set<std::string>& observables, Placeholder& out) {
  static const std::string kinds[] = {"observableParameter", "noiseParameter"};
  for (const std::string& kind : kinds) {
    if (name.compare(0, kind.size(), kind) != 0) continue;
    std::size_t end = kind.size();
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
    const std::size_t digits = end - kind.size();
    if (digits == 0 || end >= name.size() || name[end] != '_') return PlaceholderName::none;
    std::string observable = name.substr(end + 1);
    if (!observables.count(observable)) return PlaceholderName::none;
    out.noise = kind == "noiseParameter";
    out.observable = std::move(observable);
    if (name[kind.size()] == '0' || digits > 9) return PlaceholderName::misnumbered;
    out.n = std::stoi(name.substr(kind.size(), digits));
    return PlaceholderName::placeholder;
  }
  return PlaceholderName::none;
}

// Why a misnumbered placeholder is refused.
std::string misnumbered_text(const std::string& name, const Placeholder& ph) {
  return shown(name) + " has the form of a placeholder of observable '" + ph.observable +
         "' but not its numbering: PEtab numbers them " +
         (ph.noise ? "noiseParameter1_" : "observableParameter1_") + ph.observable +
         ", 2, ... (no leading zeros), so no value of the measurement table would reach it";
}

class Builder {
 public:
  explicit Builder(Tables tables) { def_.tables = std::move(tables); }

  Definition run() {
    for (const ObservableRow& o : t().observables) observable_ids_.insert(o.id);
    index_parameters();
    const std::string xml = read_model_file(t().sbml_file);
    uses_ = expr::sbml_id_uses(xml, t().sbml_file, &compartments_);
    classify_condition_columns();
    choose_model_parameters();
    choose_carriers();
    collect_placeholders();
    SbmlOptions options;
    options.sensitivity_params = sbml_params_;
    options.initial_value_params = initial_value_ids_;
    expr::SymbolicModel model = expr::import_sbml(xml, t().sbml_file, options);
    add_carriers(model);
    def_.n_sbml_params = model.param_names.size();
    def_.dynamics = make_expr_model(model);
    add_extra_parameters(model);
    add_observables(model);
    def_.model = make_expr_model(std::move(model));
    locate_observables();
    build_conditions();
    build_measurements();
    refuse_unused_parameters();
    for (std::size_t i = 0; i < t().parameters.size(); ++i)
      if (t().parameters[i].estimate) def_.estimated.push_back(i);
    return std::move(def_);
  }

 private:
  Tables& t() { return def_.tables; }

  void index_parameters() {
    for (std::size_t i = 0; i < t().parameters.size(); ++i)
      theta_[t().parameters[i].id] = static_cast<int>(i);
  }

  int theta_of(const std::string& id) const {
    auto it = theta_.find(id);
    return it == theta_.end() ? -1 : it->second;
  }

  // Condition columns are model ids: parameters set per condition, or
  // initial values. The specification forbids listing them in the
  // parameter table as well (the condition table would override it).
  void classify_condition_columns() {
    const auto& columns = t().conditions.columns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string& id = columns[c];
      const Place& place = t().conditions.column_places[c];
      auto use = uses_.find(id);
      if (use == uses_.end())
        fail(place, "condition table column " + shown(id) +
                        " is not an id of the model (a parameter, species or compartment)");
      if (theta_.count(id))
        fail(place, shown(id) + " is a column of the condition table and a row of the "
                    "parameter table; the specification allows one of the two");
      switch (use->second) {
        case SbmlIdUse::parameter: sbml_params_.push_back(id); break;
        case SbmlIdUse::initial_value: initial_value_ids_.push_back(id); break;
        case SbmlIdUse::assigned:
          fail(place, "condition table column " + shown(id) +
                          ": an assignment rule of the model sets it at every time");
        case SbmlIdUse::other:
          fail(place, "condition table column " + shown(id) +
                          " is not a parameter, species or compartment of the model");
      }
    }
  }

  // Parameter-table rows that are model ids become sensitivity parameters;
  // the rest are parameters of the observable and noise formulas.
  void choose_model_parameters() {
    std::set<std::string> chosen(sbml_params_.begin(), sbml_params_.end());
    for (const ParameterRow& row : t().parameters) {
      Placeholder ph;
      const PlaceholderName kind = parse_placeholder(row.id, observable_ids_, ph);
      if (kind == PlaceholderName::misnumbered) fail(row.place, misnumbered_text(row.id, ph));
      if (kind == PlaceholderName::placeholder)
        fail(row.place, shown(row.id) + " is a placeholder of the observable table; the "
                        "measurement table sets it, the parameter table must not list it");
      auto use = uses_.find(row.id);
      if (use == uses_.end()) {
        extra_params_.push_back(row.id);
        continue;
      }
      if (use->second != SbmlIdUse::parameter)
        fail(row.place, "parameter " + shown(row.id) + " is a model id that " +
                            (use->second == SbmlIdUse::assigned
                                 ? "an assignment rule sets"
                                 : "is not a constant parameter (a species, or set by a rule, "
                                   "event or initial assignment)") +
                            "; the parameter table may list only the model's constant "
                            "parameters and parameters of the observable table");
      if (chosen.insert(row.id).second) sbml_params_.push_back(row.id);
    }
  }

  // Estimated parameter-table ids, not model ids, that a pre-equilibration
  // condition gives a model parameter while its simulation condition gives
  // them to none. The steady state depends on such a parameter; its
  // sensitivity is carried into the simulation in a column of its own
  // (estimate/petab_experiment.cpp, carriers): a parameter of the dynamics
  // of that id, which f does not read and every condition sets to it.
  void choose_carriers() {
    std::unordered_map<std::string, const ConditionTable::Row*> rows;
    for (const ConditionTable::Row& row : t().conditions.rows) rows.emplace(row.id, &row);
    auto named = [&](const std::string& condition) {
      std::set<std::string> ids;
      auto it = rows.find(condition);
      if (it != rows.end())
        for (const Value& v : it->second->values)
          if (v.kind == Value::Kind::id) ids.insert(v.id);
      return ids;
    };
    std::set<std::pair<std::string, std::string>> pairs;
    for (const MeasurementRow& m : t().measurements)
      if (!m.preequilibration_condition.empty())
        pairs.emplace(m.preequilibration_condition, m.simulation_condition);
    std::set<std::string> chosen;
    for (const auto& [pre, sim] : pairs) {
      const std::set<std::string> after = named(sim);
      for (const std::string& id : named(pre)) {
        const int theta = theta_of(id);
        if (theta >= 0 && t().parameters[static_cast<std::size_t>(theta)].estimate &&
            !uses_.count(id) && !after.count(id))
          chosen.insert(id);
      }
    }
    for (const std::string& id : extra_params_)  // in the parameter table's order
      if (chosen.count(id)) carriers_.push_back(id);
  }

  void add_carriers(expr::SymbolicModel& model) {
    for (const std::string& id : carriers_) def_.carriers.push_back(add_table_parameter(model, id));
  }

  // A parameter-table row the model lacks, as a parameter of the model at
  // its nominal value: its index.
  std::size_t add_table_parameter(expr::SymbolicModel& model, const std::string& id) {
    const std::size_t j = model.param_names.size();
    model_param_[id] = j;
    model.param_names.push_back(id);
    model.nominal_params.push_back(t().parameters[static_cast<std::size_t>(theta_.at(id))].nominal);
    return j;
  }

  void collect_placeholders() {
    std::set<std::string> seen;
    for (const ObservableRow& o : t().observables) {
      for (const auto& [text, column] : {std::pair{&o.formula, " (observableFormula)"},
                                         std::pair{&o.noise_formula, " (noiseFormula)"}})
        for (const std::string& name : expr::petab::formula_names(*text, o.place.text() + column)) {
          referenced_.insert(name);
          Placeholder ph;
          const PlaceholderName kind = parse_placeholder(name, observable_ids_, ph);
          if (kind == PlaceholderName::none) continue;
          if (kind == PlaceholderName::misnumbered) fail(o.place, misnumbered_text(name, ph));
          if (ph.observable != o.id)
            fail(o.place, "placeholder " + shown(name) + " belongs to observable '" +
                              ph.observable + "', not to '" + o.id + "'");
          if (seen.insert(name).second) placeholders_.push_back(name);
          int& count = ph.noise ? noise_count_[o.id] : observable_count_[o.id];
          count = std::max(count, ph.n);
        }
    }
  }

  void add_extra_parameters(expr::SymbolicModel& model) {
    for (const std::string& id : extra_params_) {
      if (!model_param_.count(id)) add_table_parameter(model, id);  // not a carrier already
    }
    for (const std::string& id : placeholders_) {
      model_param_[id] = model.param_names.size();
      model.param_names.push_back(id);
      model.nominal_params.push_back(0.0);  // set per measurement
    }
  }

  // OBS and OBS@sigma as outputs; names resolve to the model's values
  // (SBML ids as the model declares them), the extra parameters and the
  // observable's own placeholders.
  void add_observables(expr::SymbolicModel& model) {
    std::unordered_map<std::string, NodeId> values;
    for (std::size_t i = 0; i < model.observable_names.size(); ++i)
      values.emplace(model.observable_names[i], model.observables[i]);
    std::set<std::string> ids;
    for (const ObservableRow& o : t().observables) {
      if (uses_.count(o.id) || theta_.count(o.id))
        fail(o.place, "observable id '" + o.id + "' is also an id of the model or the "
                      "parameter table");
      expr::petab::FormulaScope scope;
      scope.time = model.graph.time();
      scope.resolve = [&](const std::string& name) -> NodeId {
        auto p = model_param_.find(name);
        if (p != model_param_.end()) return model.graph.param(static_cast<int>(p->second));
        auto v = values.find(name);
        if (v != values.end()) return v->second;
        throw Error(Status::parse_error,
                    shown(name) + " is neither an id of the model nor a parameter of the "
                    "parameter table");
      };
      const std::string where = o.place.text();
      model.output_names.push_back(o.id);
      model.outputs.push_back(expr::petab::parse_formula(model.graph, o.formula, scope,
                                                         where + " (observableFormula)"));
      model.output_names.push_back(o.id + "@sigma");
      model.outputs.push_back(expr::petab::parse_formula(model.graph, o.noise_formula, scope,
                                                         where + " (noiseFormula)"));
    }
  }

  void locate_observables() {
    const auto& outputs = def_.model->output_names();
    auto find = [](const std::vector<std::string>& list, const std::string& name) {
      for (std::size_t i = list.size(); i-- > 0;)
        if (list[i] == name) return i;
      throw Error(Status::internal_error, "PEtab output " + shown(name) + " not in the model");
    };
    for (const ObservableRow& o : t().observables) {
      Observable ob;
      ob.id = o.id;
      ob.output = find(outputs, o.id);
      ob.sigma_output = find(outputs, o.id + "@sigma");
      ob.transformation = o.transformation;
      ob.distribution = o.distribution;
      observable_index_[o.id] = def_.observables.size();
      def_.observables.push_back(ob);
    }
  }

  // A cell that names a parameter must name a row of the parameter table.
  Setting setting_of(const Value& v, const std::string& what) {
    Setting s;
    if (v.kind == Value::Kind::number) {
      s.number = v.number;
      return s;
    }
    s.theta = theta_of(v.id);
    if (s.theta < 0)
      fail(v.place, what + " '" + v.id + "' is not a parameter of the parameter table");
    referenced_.insert(v.id);
    return s;
  }

  // A row that is no model id must be named by a formula or a cell (PEtab's
  // "extraneous parameter", which its linter refuses): estimated, it would
  // move nothing, and its profile would be flat for no reason.
  // A row with an objective prior is used by nlpost.
  void refuse_unused_parameters() {
    for (const std::string& id : extra_params_) {
      const ParameterRow& row = t().parameters[static_cast<std::size_t>(theta_.at(id))];
      if (!referenced_.count(id) && row.prior.type == PriorType::none)
        fail(row.place,
             "parameter " + shown(id) + " is used nowhere: it is not an id of the model, and no "
             "observable or noise formula, condition or measurement names it, and it has no "
             "objective prior");
    }
  }

  Setting default_setting(std::size_t j) const {
    const std::string& id = def_.model->param_names()[j];
    Setting s;
    s.theta = theta_of(id);
    if (s.theta < 0) s.number = def_.model->nominal_params()[j];
    return s;
  }

  void build_conditions() {
    const auto& table = t().conditions;
    const auto& names = def_.model->param_names();
    const auto& states = def_.model->state_names();
    for (const ConditionTable::Row& row : table.rows) {
      Condition c;
      c.id = row.id;
      for (std::size_t j = 0; j < names.size(); ++j) c.params.push_back(default_setting(j));
      for (std::size_t k = 0; k < table.columns.size(); ++k) {
        const Value& v = row.values[k];
        const bool unset = v.kind == Value::Kind::empty ||
                           (v.kind == Value::Kind::number && std::isnan(v.number));
        const std::string& id = table.columns[k];
        auto initial = std::find(names.begin(), names.end(), id + "@initial");
        if (initial == names.end()) {  // a parameter
          const std::size_t j = index_of(names, id);
          if (!unset) {
            refuse_infinite_cell(v, id);
            c.params[j] = setting_of(v, "condition value");
            c.set_cells.push_back(j);
          } else if (compartments_.count(id)) {
            c.unset_sizes.push_back(j);
          }
          continue;
        }
        const auto j = static_cast<std::size_t>(initial - names.begin());
        if (!unset) refuse_infinite_cell(v, id);
        c.params[j] = unset ? Setting{} : setting_of(v, "condition value");
        c.params[j + 1] = Setting{-1, unset ? 0.0 : 1.0};
        auto state = std::find(states.begin(), states.end(), id);
        if (!unset && state != states.end()) {
          c.reinitialized_states.push_back(static_cast<std::size_t>(state - states.begin()));
          c.reinitialized_values.push_back(j);
        }
        if (!unset) c.set_cells.push_back(j);
        else c.unset_initial_values.push_back(j);
      }
      condition_index_[row.id] = def_.conditions.size();
      def_.conditions.push_back(std::move(c));
    }
  }

  // A cell of inf would reach the model as a parameter, an initial value or
  // a size, where no solve takes it (NaN, in PEtab, keeps the model's value).
  void refuse_infinite_cell(const Value& v, const std::string& id) const {
    if (v.kind == Value::Kind::number && std::isinf(v.number))
      fail(v.place, "condition value " + number_text(v.number) + " for " + shown(id) +
                        ": a model parameter, initial value or size must be finite");
  }

  static std::size_t index_of(const std::vector<std::string>& list, const std::string& id) {
    return static_cast<std::size_t>(std::find(list.begin(), list.end(), id) - list.begin());
  }

  std::size_t condition(const std::string& id, const Place& place, const char* column) {
    auto it = condition_index_.find(id);
    if (it == condition_index_.end())
      fail(place, std::string(column) + " " + shown(id) + " is not in the condition table");
    return it->second;
  }

  std::size_t experiment(const MeasurementRow& row) {
    const int pre = row.preequilibration_condition.empty()
                        ? -1
                        : static_cast<int>(condition(row.preequilibration_condition, row.place,
                                                     "preequilibrationConditionId"));
    const std::size_t sim =
        condition(row.simulation_condition, row.place, "simulationConditionId");
    const auto key = std::make_pair(pre, sim);
    auto it = experiment_index_.find(key);
    if (it != experiment_index_.end()) return it->second;
    Experiment e;
    e.preequilibration = pre;
    e.simulation = pre < 0 ? sim : after_preequilibration(static_cast<std::size_t>(pre), sim);
    experiment_index_[key] = def_.experiments.size();
    def_.experiments.push_back(e);
    return def_.experiments.size() - 1;
  }

  // The simulation condition of an experiment with a pre-equilibration:
  // the condition itself, or, where it leaves a compartment's size or an
  // initial value NaN and the pre-equilibration condition sets it, a copy
  // with that setting: the size is the pre-equilibrated one, as a species'
  // amount is (the copy keeps the condition's id, for messages). A
  // species' ID@initial then acts through the steady state alone (the
  // simulation starts there), and its S column maps to the parameter the
  // pre-equilibration condition set, as S after pre-equilibration is
  // dx*/dp of that condition's settings (an estimated initial amount
  // before a stimulus).
  std::size_t after_preequilibration(std::size_t pre, std::size_t sim) {
    const Condition& p = def_.conditions[pre];
    const auto set_by_pre = [&](std::size_t j) {
      return std::find(p.set_cells.begin(), p.set_cells.end(), j) != p.set_cells.end();
    };
    Condition merged = def_.conditions[sim];
    bool changed = false;
    for (std::size_t j : merged.unset_sizes)
      if (set_by_pre(j)) {
        merged.params[j] = p.params[j];
        changed = true;
      }
    for (std::size_t j : merged.unset_initial_values)
      if (set_by_pre(j)) {
        merged.params[j] = p.params[j];
        merged.params[j + 1] = p.params[j + 1];
        changed = true;
      }
    if (!changed) return sim;
    def_.conditions.push_back(std::move(merged));
    return def_.conditions.size() - 1;
  }

  void add_placeholders(Measurement& m, const std::vector<Value>& values, const MeasurementRow& row,
                        const std::string& observable, bool noise) {
    const auto& counts = noise ? noise_count_ : observable_count_;
    auto it = counts.find(observable);
    const std::size_t expected = it == counts.end() ? 0 : static_cast<std::size_t>(it->second);
    const char* column = noise ? "noiseParameters" : "observableParameters";
    if (values.size() != expected)
      fail(row.place, std::string(column) + ": observable '" + observable + "' has " +
                          std::to_string(expected) + " placeholder(s) " +
                          (noise ? "noiseParameterN_" : "observableParameterN_") + observable +
                          " and this row gives " + std::to_string(values.size()) + " value(s)");
    for (std::size_t n = 0; n < values.size(); ++n) {
      const std::string name = std::string(noise ? "noiseParameter" : "observableParameter") +
                               std::to_string(n + 1) + "_" + observable;
      if (values[n].kind == Value::Kind::empty)
        fail(values[n].place, std::string(column) + ": value " + std::to_string(n + 1) +
                                  " is empty");
      if (values[n].kind == Value::Kind::id) referenced_.insert(values[n].id);
      auto param = model_param_.find(name);
      if (param == model_param_.end()) continue;  // numbered but unused in the formulas
      m.placeholders.emplace_back(param->second, setting_of(values[n], column));
    }
  }

  void build_measurements() {
    for (const MeasurementRow& row : t().measurements) {
      auto ob = observable_index_.find(row.observable_id);
      if (ob == observable_index_.end())
        fail(row.place, "observableId '" + row.observable_id + "' is not in the observable table");
      if (def_.observables[ob->second].transformation != Transformation::lin &&
          !(row.measurement > 0.0))
        fail(row.place, "measurement " + number_text(row.measurement) + " of observable '" +
                            row.observable_id + "' is not positive, and the observable is "
                            "log-transformed (observableTransformation): its logarithm, and "
                            "with it the likelihood, is not defined");
      Measurement m;
      m.observable = ob->second;
      m.experiment = experiment(row);
      m.time = row.time;
      m.value = row.measurement;
      m.place = row.place;
      add_placeholders(m, row.observable_parameters, row, row.observable_id, false);
      add_placeholders(m, row.noise_parameters, row, row.observable_id, true);
      Experiment& e = def_.experiments[m.experiment];
      e.measurements.push_back(def_.measurements.size());
      if (std::isinf(m.time)) e.steady_state_measured = true;
      else e.times.push_back(m.time);
      def_.measurements.push_back(std::move(m));
    }
    for (Experiment& e : def_.experiments) {
      std::sort(e.times.begin(), e.times.end());
      e.times.erase(std::unique(e.times.begin(), e.times.end()), e.times.end());
    }
  }

  Definition def_;
  std::set<std::string> observable_ids_;
  std::unordered_map<std::string, SbmlIdUse> uses_;
  std::unordered_set<std::string> compartments_;  // the model's compartment ids
  std::unordered_map<std::string, int> theta_;  // parameter-table id -> row
  std::vector<std::string> sbml_params_;         // the model's sensitivity parameters
  std::vector<std::string> initial_value_ids_;   // condition columns that set initial values
  std::vector<std::string> extra_params_;        // parameter-table ids the model lacks
  std::vector<std::string> carriers_;            // of them, those choose_carriers chose
  std::set<std::string> referenced_;  // ids named by formulas and table cells
  std::vector<std::string> placeholders_;
  std::map<std::string, int> observable_count_, noise_count_;  // placeholders per observable
  std::unordered_map<std::string, std::size_t> model_param_;   // extra params, placeholders
  std::unordered_map<std::string, std::size_t> observable_index_, condition_index_;
  std::map<std::pair<int, std::size_t>, std::size_t> experiment_index_;
};

}  // namespace

Definition build_definition(Tables tables) { return Builder(std::move(tables)).run(); }

double unscale(double scaled, Scale scale) {
  switch (scale) {
    case Scale::log: return std::exp(scaled);
    case Scale::log10: return std::pow(10.0, scaled);
    case Scale::lin: break;
  }
  return scaled;
}

double scale_value(double linear, Scale scale) {
  switch (scale) {
    case Scale::log: return std::log(linear);
    case Scale::log10: return std::log10(linear);
    case Scale::lin: break;
  }
  return linear;
}

double unscale_derivative(double scaled, Scale scale) {
  switch (scale) {
    case Scale::log: return std::exp(scaled);
    case Scale::log10: return std::pow(10.0, scaled) * std::log(10.0);
    case Scale::lin: break;
  }
  return 1.0;
}

}  // namespace odesens::petab
