// prepare() and run(): MethodSession over the registry's prepare functions,
// and solve() as the two in one.
#include <algorithm>
#include <chrono>
#include <utility>

#include "methods/choice/method_choice.hpp"
#include "methods/common/failure_translation.hpp"
#include "methods/common/finite_result.hpp"
#include "methods/common/objective_from_sensitivities.hpp"
#include "methods/registry.hpp"
#include "odesens/session.hpp"
#include "odesens/status.hpp"
#include "problem/initial_values.hpp"

namespace odesens {
namespace {

using methods::translating_failures;

// A model without states (SBML rules of t and p only): nothing to
// integrate, every method's result is its shape with no state rows: the
// output times, S and gradients of nothing (a gradient of zeros).
Result solve_without_states(const Problem& problem, const MethodInfo& info) {
  const MethodCapabilities& c = info.capabilities;
  if (c.bounds)
    throw Error(Status::unsupported, "method '" + info.id +
                                         "' encloses states, and the model has none (its "
                                         "values depend on t and p only)");
  Result r;
  r.nx = 0;
  r.np = problem.model->np();
  r.times = problem.output_times;
  if (c.s_trajectory) r.s_times = r.times;
  if (c.final_s && !r.times.empty()) r.s_times = {r.times.back()};
  if (c.gradient) r.gradient.assign(r.np * problem.n_objectives, 0.0);
  return r;
}

// A method that steps over the switches of f (piecewise, floor or ceil in t
// or x) may miss the jumps of S there.
void warn_of_switches(const Problem& problem, const std::string& method_id, Result& result) {
  const EventSystem* events = problem.model->event_system();
  if (!events) return;
  for (const auto& root : events->roots())
    if (root.switches_rhs) {
      result.warnings.push_back(
          "the model's right-hand side switches (piecewise, floor or ceil in t or the states), "
          "and method '" +
          method_id +
          "' steps over switches without locating them: its S may miss the jumps there "
          "(cvodes_fsa stops at each switch and carries S across)");
      return;
    }
}

// An absolute tolerance of 0 for a state that starts at 0 makes its error
// weight 1/(rtol |x| + atol) infinite: every method would fail at its first
// error test, each naming a different symptom (CVODES' ewt, NaN in an
// error estimate, a collapsed step). Refused here, naming the state.
void check_error_weights(const Problem& problem) {
  const Model& model = *problem.model;
  const std::vector<double>& atol = problem.atol;
  if (std::find(atol.begin(), atol.end(), 0.0) == atol.end()) return;
  const std::vector<double> x0 = initial_state_of(problem, effective_params(problem));
  for (std::size_t i = 0; i < x0.size(); ++i)
    if (x0[i] == 0.0 && atol[atol.size() == 1 ? 0 : i] == 0.0)
      throw Error(Status::invalid_argument,
                  "atol is 0 for state '" + model.state_names()[i] +
                      "', which is 0 at t0: its error weight 1/(rtol |x| + atol) is infinite; "
                      "give atol > 0 for states that can be 0");
}


// The prepared problem: the method's default tolerances where the problem
// leaves them unset, validated, and the method's needs checked.
Problem prepared_problem(const Problem& given, const MethodInfo& info) {
  Problem problem = given;
  if (!problem.rtol) problem.rtol = info.default_rtol;
  if (problem.atol.empty()) problem.atol = {info.default_atol};
  validate_problem(problem);
  check_method_needs(info.id, info.capabilities, problem);
  check_error_weights(problem);
  return problem;
}

class PreparedSession final : public MethodSession {
 public:
  PreparedSession(const MethodEntry& entry, const Problem& problem)
      : entry_(entry),
        prepared_(prepared_problem(problem, entry.info)),
        current_(prepared_),
        options_(entry.info.id, entry.info.options, prepared_.options) {
    // A model without states has nothing to set up.
    if (prepared_.model->nx() > 0)
      method_ = translating_failures(entry.info.id,
                                     [&] { return entry.prepare(prepared_, options_); });
  }

  const MethodInfo& method() const override { return entry_.info; }
  const Problem& problem() const override { return prepared_; }

  // Whatever fails, the caller gets an Error (a failed allocation anywhere
  // in the run: out_of_memory).
  Result run(const RunInputs& inputs) override {
    return translating_failures(entry_.info.id, [&] { return run_checked(inputs); });
  }

 private:
  Result run_checked(const RunInputs& inputs) {
    const auto start = std::chrono::steady_clock::now();
    // Assigning keeps the working copy's buffers: no allocation for inputs
    // of the prepared sizes.
    current_.params = inputs.params ? *inputs.params : prepared_.params;
    current_.initial_state = inputs.initial_state ? *inputs.initial_state : prepared_.initial_state;
    current_.initial_sensitivity =
        inputs.initial_sensitivity ? *inputs.initial_sensitivity : prepared_.initial_sensitivity;
    current_.output_times = inputs.output_times ? *inputs.output_times : prepared_.output_times;
    current_.interrupt = inputs.interrupt ? inputs.interrupt : prepared_.interrupt;
    validate_problem(current_);
    check_error_weights(current_);
    const std::string& id = entry_.info.id;
    check_run_inputs(id, entry_.info.capabilities, current_);
    Result result = translating_failures(id, [&] {
      return method_ ? method_->run(current_) : solve_without_states(current_, entry_.info);
    });
    result.method = id;
    if (!entry_.info.capabilities.events) warn_of_switches(current_, id, result);
    if (!entry_.info.capabilities.bounds && methods::gives_objective_through_s(result))
      add_objective(result);
    methods::check_result_finite(result, *current_.model, id);
    result.stats.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

  void add_objective(Result& result) {
    if (!workspace_) workspace_ = prepared_.model->make_workspace();
    translating_failures(entry_.info.id, [&] {
      methods::add_objective_from_sensitivities(current_, result, workspace_.get());
    });
  }

  const MethodEntry& entry_;
  const Problem prepared_;
  Problem current_;
  const MethodOptions options_;
  std::unique_ptr<methods::PreparedMethod> method_;
  std::unique_ptr<Workspace> workspace_;  // the objective's evaluations
};

}  // namespace

std::unique_ptr<MethodSession> prepare(const Problem& problem, const std::string& method_id) {
  return translating_failures(method_id, [&]() -> std::unique_ptr<MethodSession> {
    if (method_id == kAutomaticMethod) return methods::prepare_automatic(problem);
    return std::make_unique<PreparedSession>(method_entry(method_id), problem);
  });
}

// The wall time is the whole solve's, set-up included.
Result solve(const Problem& problem, const std::string& method_id) {
  const auto start = std::chrono::steady_clock::now();
  return translating_failures(method_id, [&] {
    Result result = prepare(problem, method_id)->run(RunInputs{});
    result.stats.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  });
}

}  // namespace odesens
