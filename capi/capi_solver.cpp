// odesens_solver_* (and the aliases odesens_set_option_*), odesens_solve: a problem under
// construction and the method that will solve it.
//
// Setters check what they can see on their own (lengths, finiteness,
// ordering, option keys and types) so that the error names the call that
// caused it; what depends on several settings (output times against t0,
// adjoint weights against the number of times and objectives, running
// costs against the number of objectives) is checked by the solve.
#include <cmath>
#include <variant>

#include "capi_guard.hpp"
#include "core/number_text.hpp"
#include "capi_handles.hpp"
#include "odesens.h"
#include "odesens/integrand.hpp"
#include "odesens/methods.hpp"
#include "odesens/observables.hpp"
#include "odesens/session.hpp"

namespace {

using namespace odesens;
using namespace odesens::capi;

template <class Change>
int change_problem(odesens_solver* solver, const char* function, Change&& change) {
  return guarded(solver, function, [&] { change(idle_solver(solver).problem); });
}

std::size_t nx_of(const Problem& problem) { return problem.model->nx(); }

// odesens_solve's result: the solver's session run with the problem's
// parameters, initial state and output times, prepared anew when anything
// else has changed since it was prepared (or its preparation failed).
Result run_session(SolverState& s) {
  if (!s.session || !same_set_up(s.prepared_from, s.problem)) {
    s.session.reset();
    s.session = prepare(s.problem, s.method);
    s.prepared_from = s.problem;
  }
  RunInputs inputs;
  inputs.params = s.problem.params;
  inputs.initial_state = s.problem.initial_state;
  inputs.initial_sensitivity = s.problem.initial_sensitivity;
  inputs.output_times = s.problem.output_times;
  return s.session->run(inputs);
}

// Checks one option against the method's specification (the same check the
// solve makes), then keeps it.
void store_option(SolverState& s, const char* key, const OptionValue& value) {
  const std::string name = require_string(key, "key");
  Options single;
  std::visit([&](const auto& v) { single.set(name, v); }, value);
  MethodOptions(s.method, s.info->options, single);
  std::visit([&](const auto& v) { s.problem.options.set(name, v); }, value);
}

// The body of odesens_solver_set_option_* and of their aliases, which differ
// only in the name a failure's message gives.
int set_option(odesens_solver* solver, const char* function, const char* key,
               const OptionValue& value) {
  return guarded(solver, function, [&] { store_option(idle_solver(solver), key, value); });
}

int set_string_option(odesens_solver* solver, const char* function, const char* key,
                      const char* value) {
  return guarded(solver, function, [&] {
    SolverState& s = idle_solver(solver);
    store_option(s, key, OptionValue{require_string(value, "value")});
  });
}

// Several objectives and running costs are refused as soon as they are set
// when the solver's method cannot take them, with the message the solve
// would give.
void require_integrands(const SolverState& s, const Problem& wanted) {
  MethodCapabilities needs;
  needs.gradient = s.info->capabilities.gradient;
  needs.integrands = s.info->capabilities.integrands;
  check_method_needs(s.method, needs, wanted);
}

// The inputs of the set-valued methods are refused as soon as they are set
// by a method that would not use them.
void require_set_valued(const SolverState& s, bool takes_it, const std::string& what) {
  if (!takes_it)
    throw Error(Status::unsupported,
                "method '" + s.method + "' takes no " + what + " (bounds_fsa does)");
}

// A length of an optional input: negative is an error; 0 removes it
// (clears `v`) and returns true.
bool removed(int64_t len, const char* name, std::vector<double>& v) {
  if (len < 0)
    throw Error(Status::invalid_argument,
                "length of " + std::string(name) + " is negative (" + std::to_string(len) + ")");
  if (len == 0) v.clear();
  return len == 0;
}

// A box bound: np values, all finite.
void require_bound(const double* v, int64_t np, std::size_t model_np, const char* name) {
  require_array(v, np, name);
  require_length(np, model_np, name);
  require_finite(v, np, name);
}

}  // namespace

namespace odesens::capi {

std::unique_ptr<ResultState> make_result_state(const SolverState& solver, const Problem& problem,
                                               Result result) {
  auto state = std::make_unique<ResultState>();
  state->result = std::move(result);
  state->model = problem.model;
  state->params = effective_params(problem);
  for (const auto& [name, value] : state->result.stats.all()) state->stat_names.push_back(name);
  // Every method that gives S or a gradient gives the objective's gradient.
  state->n_objectives = state->result.gradient.empty() ? 0 : problem.n_objectives;
  state->observable_names = solver.observables;
  if (!solver.observables.empty())
    state->observable_values = evaluate_observables(problem, state->result, solver.observables);
  return state;
}

}  // namespace odesens::capi

extern "C" {

int odesens_solver_create(const odesens_model* model, const char* method, odesens_solver** out) {
  // No handle exists yet: failures are reported by odesens_errmsg(NULL).
  return guarded(nullptr, __func__, [&] {
    require_pointer(out, "out");
    *out = nullptr;
    const ModelState& m = model_state(model);
    const MethodInfo& info = method_info(require_string(method, "method"));
    auto state = std::make_unique<SolverState>();
    state->method = info.id;
    state->info = &info;
    state->problem.model = m.model();
    state->problem.t0 = state->problem.model->default_t0();
    *out = new odesens_solver{HandleHeader{HandleKind::solver, {}}, std::move(state)};
  });
}

void odesens_solver_free(odesens_solver* solver) { free_handle(solver, HandleKind::solver); }

int odesens_solver_set_params(odesens_solver* solver, const double* p, int64_t len) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    require_array(p, len, "p");
    require_length(len, pr.model->np(), "parameter vector");
    require_finite(p, len, "p");
    pr.params.assign(p, p + len);
  });
}

int odesens_solver_set_initial_state(odesens_solver* solver, const double* x0, int64_t len) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    require_array(x0, len, "x0");
    if (len != 0) {
      require_length(len, nx_of(pr), "initial state");
      require_finite(x0, len, "x0");
    }
    pr.initial_state.assign(x0, x0 + len);
  });
}

int odesens_solver_set_t0(odesens_solver* solver, double t0) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    if (!std::isfinite(t0)) throw Error(Status::not_finite, "t0 is NaN or Inf");
    pr.t0 = t0;
  });
}

int odesens_solver_set_output_times(odesens_solver* solver, const double* times, int64_t len) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    require_count(len, 1, static_cast<std::int64_t>(max_output_times), "the number of output times");
    require_array(times, len, "times");
    require_finite(times, len, "times");
    for (int64_t k = 1; k < len; ++k)
      if (!(times[k] > times[k - 1]))
        throw Error(Status::invalid_argument,
                    "output times must be strictly increasing: times[" + std::to_string(k) +
                        "] = " + number_text(times[k]) + " <= times[" + std::to_string(k - 1) +
                        "] = " + number_text(times[k - 1]));
    pr.output_times.assign(times, times + len);
  });
}

int odesens_solver_set_tolerances(odesens_solver* solver, double rtol, double atol) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    validate_solver_settings(rtol, {atol}, pr.max_steps);  // the rules the solve applies
    pr.rtol = rtol;
    pr.atol = {atol};
  });
}

int odesens_solver_set_atol_vector(odesens_solver* solver, const double* atol, int64_t len) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    require_array(atol, len, "atol");
    if (len != 1 && len != static_cast<int64_t>(nx_of(pr)))
      throw Error(Status::invalid_argument, "atol has " + std::to_string(len) +
                                                " entries, expected 1 or nx = " +
                                                std::to_string(nx_of(pr)));
    std::vector<double> given(atol, atol + len);
    validate_solver_settings(std::nullopt, given, pr.max_steps);
    pr.atol = std::move(given);
  });
}

int odesens_solver_set_max_steps(odesens_solver* solver, int64_t max_steps) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    validate_solver_settings(std::nullopt, {}, max_steps);
    pr.max_steps = max_steps;
  });
}

int odesens_solver_set_objectives(odesens_solver* solver, int64_t n_objectives) {
  return guarded(solver, __func__, [&] {
    SolverState& s = idle_solver(solver);
    const std::size_t m = require_count(n_objectives, 1, static_cast<int64_t>(max_objectives),
                                        "n_objectives");
    Problem wanted;
    wanted.model = s.problem.model;
    wanted.n_objectives = m;
    require_integrands(s, wanted);
    s.problem.n_objectives = m;
  });
}

int odesens_solver_set_adjoint_weights(odesens_solver* solver, const double* w, int64_t len) {
  return change_problem(solver, __func__, [&](Problem& pr) {
    const auto nx = static_cast<int64_t>(nx_of(pr));
    const auto nt = static_cast<int64_t>(pr.output_times.size());
    // Both at most 1e8 and 1e6: the products below cannot overflow.
    const auto m = static_cast<int64_t>(pr.n_objectives);
    if (len < 0)
      throw Error(Status::invalid_argument,
                  "length of w is negative (" + std::to_string(len) + ")");
    if (len != 0 && nt > 0 && len != nx * nt * m)
      throw Error(Status::invalid_argument,
                  "adjoint weights: " + std::to_string(len) + " given, expected " +
                      (m == 1 ? "nx x n_times = " + std::to_string(nx) + " x " +
                                    std::to_string(nt)
                              : "nx x n_times x n_objectives = " + std::to_string(nx) + " x " +
                                    std::to_string(nt) + " x " + std::to_string(m)) +
                      " = " + std::to_string(nx * nt * m));
    // Before any output times: whole blocks of nx, no more blocks than there
    // can be times (for each objective); the solve checks the count against
    // the times set by then.
    if (nt == 0 &&
        (len % nx != 0 || len / nx > static_cast<int64_t>(max_output_times) * m))
      throw Error(Status::invalid_argument,
                  "adjoint weights: " + std::to_string(len) +
                      " given, not a whole number of blocks of nx = " + std::to_string(nx) +
                      " (at most " + std::to_string(max_output_times) +
                      (m == 1 ? ""
                              : " x n_objectives = " +
                                    std::to_string(static_cast<int64_t>(max_output_times) * m)) +
                      " blocks)");
    require_array(w, len, "w");
    require_finite(w, len, "w");
    pr.adjoint_weights.assign(w, w + len);
  });
}

int odesens_solver_set_integrand_observables(odesens_solver* solver, const char* const* names,
                                             int64_t count) {
  return guarded(solver, __func__, [&] {
    SolverState& s = idle_solver(solver);
    const std::size_t n =
        require_count(count, 0, static_cast<int64_t>(max_objectives), "the number of names");
    require_array(names, count, "names");
    if (n == 0) {
      s.problem.integrand = nullptr;
      return;
    }
    std::vector<std::string> observables;
    observables.reserve(n);
    for (std::size_t k = 0; k < n; ++k)
      observables.push_back(
          require_string(names[k], ("names[" + std::to_string(k) + "]").c_str()));
    Problem wanted;
    wanted.model = s.problem.model;
    wanted.n_objectives = n;
    wanted.integrand = observable_integrand(s.problem.model, observables);
    require_integrands(s, wanted);
    s.problem.integrand = std::move(wanted.integrand);
  });
}

int odesens_solver_set_sens_directions(odesens_solver* solver, const double* r, int64_t len) {
  return guarded(solver, __func__, [&] {
    SolverState& s = idle_solver(solver);
    Problem& pr = s.problem;
    if (removed(len, "r", pr.sens_directions)) return;
    if (!s.info->capabilities.directions)
      throw Error(Status::unsupported,
                  "method '" + s.method +
                      "' computes S = dx/dp and takes no sensitivity directions (dopri8s and "
                      "grk4as do)");
    const auto rows = static_cast<int64_t>(pr.model->nx() + pr.model->np());
    if (len % rows != 0)
      throw Error(Status::invalid_argument,
                  "sensitivity directions: " + std::to_string(len) +
                      " entries given, not a whole number of columns of nx + np = " +
                      std::to_string(rows) + " (one (x0, p) perturbation per direction)");
    require_array(r, len, "r");
    require_finite(r, len, "r");
    pr.sens_directions.assign(r, r + len);
  });
}

int odesens_solver_set_param_box(odesens_solver* solver, const double* lower,
                                 const double* upper, int64_t np) {
  return guarded(solver, __func__, [&] {
    SolverState& s = idle_solver(solver);
    Problem& pr = s.problem;
    if (np == 0) {
      pr.param_lower.clear();
      pr.param_upper.clear();
      return;
    }
    require_set_valued(s, s.info->capabilities.parameter_box, "parameter box");
    const std::size_t model_np = pr.model->np();
    require_bound(lower, np, model_np, "lower");
    require_bound(upper, np, model_np, "upper");
    for (std::size_t j = 0; j < model_np; ++j)
      if (lower[j] > upper[j])
        throw Error(Status::invalid_argument,
                    "parameter box of '" + pr.model->param_names()[j] + "': lower[" +
                        std::to_string(j) + "] = " + number_text(lower[j]) +
                        " is above upper[" + std::to_string(j) + "] = " +
                        number_text(upper[j]));
    pr.param_lower.assign(lower, lower + np);
    pr.param_upper.assign(upper, upper + np);
  });
}

int odesens_solver_set_objective_data(odesens_solver* solver, const double* data, int64_t n) {
  return guarded(solver, __func__, [&] {
    SolverState& s = idle_solver(solver);
    Problem& pr = s.problem;
    if (removed(n, "data", pr.objective_data)) return;
    require_set_valued(s, s.info->capabilities.bounds, "objective data");
    const auto nx = static_cast<int64_t>(nx_of(pr));
    const auto nt = static_cast<int64_t>(pr.output_times.size());
    // Before any output times: whole blocks of nx, checked against the
    // times at solve.
    if (nt > 0 ? n != nx * nt : n % nx != 0 || n / nx > static_cast<int64_t>(max_output_times))
      throw Error(Status::invalid_argument,
                  "objective data: " + std::to_string(n) + " values given, expected n_times x nx" +
                      (nt > 0 ? " = " + std::to_string(nt) + " x " + std::to_string(nx)
                              : " for nx = " + std::to_string(nx)) +
                      " (time slowest, NaN where a state is not observed)");
    require_array(data, n, "data");
    for (int64_t i = 0; i < n; ++i)
      if (std::isinf(data[i]))
        throw Error(Status::not_finite, "data[" + std::to_string(i) +
                                            "] is infinite (NaN marks an unobserved state)");
    pr.objective_data.assign(data, data + n);
  });
}

int odesens_solver_set_option_double(odesens_solver* solver, const char* key, double value) {
  return set_option(solver, __func__, key, OptionValue{value});
}

int odesens_solver_set_option_int(odesens_solver* solver, const char* key, int64_t value) {
  return set_option(solver, __func__, key, OptionValue{static_cast<std::int64_t>(value)});
}

int odesens_solver_set_option_string(odesens_solver* solver, const char* key, const char* value) {
  return set_string_option(solver, __func__, key, value);
}

// The first names of the three setters, kept as aliases.
int odesens_set_option_double(odesens_solver* solver, const char* key, double value) {
  return set_option(solver, __func__, key, OptionValue{value});
}

int odesens_set_option_int(odesens_solver* solver, const char* key, int64_t value) {
  return set_option(solver, __func__, key, OptionValue{static_cast<std::int64_t>(value)});
}

int odesens_set_option_string(odesens_solver* solver, const char* key, const char* value) {
  return set_string_option(solver, __func__, key, value);
}

int odesens_solve(odesens_solver* solver, odesens_result** result) {
  return guarded(solver, __func__, [&] {
    if (result) *result = nullptr;
    SolverState& s = idle_solver(solver);
    require_pointer(result, "result");
    s.solving = true;
    struct Clear {
      bool& flag;
      ~Clear() { flag = false; }
    } clear{s.solving};
    *result = new odesens_result{HandleHeader{HandleKind::result, {}},
                                 make_result_state(s, s.problem, run_session(s))};
  });
}

}  // extern "C"
