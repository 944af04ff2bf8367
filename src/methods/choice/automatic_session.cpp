// The session of "auto": the chosen method's session, and a fallback to the
// CVODES baseline when the chosen method fails in a way the baseline does
// not (too much work, stiffness, a step size that collapses, non-finite
// values of an explicit solve).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "methods/choice/method_choice.hpp"
#include "methods/common/failure_translation.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/registry.hpp"
#include "odesens/problem.hpp"
#include "odesens/status.hpp"

namespace odesens::methods {

bool falls_back_on(Status status) {
  return status == Status::too_much_work || status == Status::stiff ||
         status == Status::solver_failed || status == Status::not_finite;
}

namespace {

// Runs in a row on which the session's method failed before the session
// leaves it for good. One failure may belong to the run's inputs (a member
// of an ensemble far from the others, a point a fit visits) and the next
// run may suit the method again; a second in a row says the problem does
// not.
constexpr int kFailuresToLeave = 2;

class AutomaticSession final : public MethodSession {
 public:
  explicit AutomaticSession(const Problem& problem) : given_(problem) {
    ProbedChoice probed = choose_method_with_probe(problem);
    choice_ = std::move(probed.choice);
    const MethodOptions options(kAutomaticMethod, automatic_method_info().options,
                                problem.options);
    fallback_ = options.get_int("fallback") != 0;
    const Problem chosen = problem_for_choice(given_, choice_);
    if (chosen.options.has("state_check") && checks_against_probe(choice_.method) &&
        !probed.probe_states.empty())
      probe_states_ = std::move(probed.probe_states);
    sessions_.push_back({choice_.method, prepare_for(choice_.method)});
  }

  const MethodInfo& method() const override { return sessions_.front().session->method(); }
  const Problem& problem() const override { return sessions_.front().session->problem(); }

  // Falls back until a method succeeds or none is left (at most three:
  // explicit, implicit, cvodes_fsa).
  Result run(const RunInputs& inputs) override {
    return translating_failures(kAutomaticMethod, [&] { return run_with_fallback(inputs); });
  }

 private:
  struct Prepared {
    std::string method;
    std::unique_ptr<MethodSession> session;
  };

  Result run_with_fallback(const RunInputs& inputs) {
    std::string tried, why;  // the methods that failed on this run, and what they said
    leave_probe_unless_as_probed(inputs);
    for (std::size_t k = 0;; ++k) {
      if (k == 0) bound_odesd(inputs);
      const std::string method = sessions_[k].method;  // a copy: sessions_ may change
      std::optional<Result> result;
      std::string next;
      try {
        result = run_kept(k, inputs);
        if (k == 0 && probe_checks()) check_against_probe(inputs, *result);
      } catch (const Error& e) {
        next = fallback_ ? fallback_after(method) : "";
        if (!falls_back_on(e.status()) || next.empty()) {
          if (tried.empty()) throw;
          throw Error(e.status(), "method 'auto' tried " + tried + " and " + method + "; " +
                                      method + ": " + e.what());
        }
        tried += (tried.empty() ? "" : ", ") + method;
        why += ". " + method + " failed (" + e.what() + "), so " + next + " ran instead";
      }
      if (result) return succeeded(k, std::move(*result), why);
      if (k == 0) ++failures_in_a_row_;
      if (k + 1 == sessions_.size()) sessions_.push_back({next, prepare_fallback(next, tried)});
    }
  }

  // The k-th session's result, or an Error when the method failed or its
  // result carries a warning auto does not keep.
  Result run_kept(std::size_t k, const RunInputs& inputs) {
    Result result = sessions_[k].session->run(inputs);
    if (!kept_despite_warnings(result, sessions_[k].method))
      throw Error(Status::solver_failed,
                  "its result carried a warning: " + result.warnings.front());
    return result;
  }

  // What a success of the k-th session tells the session, and the result
  // with the reasons for its method.
  Result succeeded(std::size_t k, Result result, std::string why) {
    if (k == 0) failures_in_a_row_ = 0;
    if (k > 0 && failures_in_a_row_ >= kFailuresToLeave) {
      leave_for(k, why);  // choice_.reason now says why
      why.clear();
      k = 0;
    }
    if (k == 0 && sessions_.front().method == "odesd" && odesd_first_steps_ < 0)
      odesd_first_steps_ = static_cast<std::int64_t>(result.stats.steps);
    result.method_choice = choice_.reason + why;
    return result;
  }

  // A fallback's session; an error in preparing it says what auto tried.
  std::unique_ptr<MethodSession> prepare_fallback(const std::string& method,
                                                  const std::string& tried) const {
    try {
      return prepare_for(method);
    } catch (const Error& e) {
      throw Error(e.status(), "method 'auto' tried " + tried + ", and preparing " + method +
                                  " after it failed: " + e.what());
    }
  }

  // The method after `failed` in the fallback order of the session's choice.
  std::string fallback_after(const std::string& failed) const {
    MethodChoice c = choice_;
    c.method = failed;
    return fallback_method(given_, c);
  }

  std::unique_ptr<MethodSession> prepare_for(const std::string& method) const {
    return prepare(problem_for(method), method);
  }

  // The problem `method` runs in this session: the chosen method's state
  // check is the probe's where the probe checks it (check_against_probe).
  Problem problem_for(const std::string& method) const {
    MethodChoice c = choice_;
    c.method = method;
    Problem p = problem_for_choice(given_, c);
    if (method == choice_.method && probe_checks()) p.options.set("state_check", std::int64_t{0});
    return p;
  }

  // odesd's steps multiply where its stiff components are large
  // (odesd_step_allowance): where odesd is the session's method, its runs
  // after its first successful one are bounded by the allowance for the
  // run's output times or 20 times the steps of that first run, whichever
  // is more, and a run beyond the bound goes to the fallback. The first run
  // is not bounded: a long solve that suits odesd (a damped oscillation over
  // 1 600 periods: 143 328 steps, 3.2 times faster than cvodes_fsa) keeps it.
  void bound_odesd(const RunInputs& inputs) {
    if (odesd_first_steps_ < 0 || sessions_.front().method != "odesd") return;
    const std::size_t outputs =
        inputs.output_times ? inputs.output_times->size() : given_.output_times.size();
    const std::int64_t bound = std::max(odesd_step_allowance(outputs), 20 * odesd_first_steps_);
    if (bound == odesd_bound_) return;
    Problem p = problem_for(choice_.method);
    p.options.set("max_total_steps", bound);
    sessions_.front().session = prepare(p, "odesd");
    odesd_bound_ = bound;
  }

  // The run's inputs are those the probe measured: the problem as given
  // (empty parameters are the nominal ones, as the C solver handle passes
  // them until it is given others).
  bool as_probed(const RunInputs& inputs) const {
    const auto same_params = [&](const std::vector<double>& p) {
      Problem at = given_;
      at.params = p;
      return effective_params(at) == effective_params(given_);
    };
    return (!inputs.params || same_params(*inputs.params)) &&
           (!inputs.initial_state || *inputs.initial_state == given_.initial_state) &&
           (!inputs.initial_sensitivity ||
            *inputs.initial_sensitivity == given_.initial_sensitivity) &&
           (!inputs.output_times || *inputs.output_times == given_.output_times);
  }

  // What the probe gave holds only at the inputs it measured. odesd
  // interpolates its outputs only where the probe found the problem
  // non-stiff (MethodChoice::odesd_interpolates): at other parameters,
  // initial states or times it may be stiff, and the interpolant would
  // carry the stiff components odesd leaves undamped. The probe's states
  // are those of the given inputs. From the first run at other inputs on,
  // odesd ends a step on each output time and the chosen method checks the
  // states itself.
  void leave_probe_unless_as_probed(const RunInputs& inputs) {
    if ((!choice_.odesd_interpolates && !probe_checks()) || as_probed(inputs)) return;
    const bool interpolated = choice_.odesd_interpolates;
    choice_.odesd_interpolates = false;
    probe_states_.clear();
    bool odesd = false;
    for (std::size_t k = 0; k < sessions_.size(); ++k) {
      Prepared& s = sessions_[k];
      if (k == 0 || s.method == "odesd") s.session = prepare_for(s.method);
      odesd = odesd || s.method == "odesd";
    }
    if (interpolated && odesd)
      choice_.reason += "; at inputs other than those the probe measured, odesd ends a step "
                        "on each output time (output=step_end)";
    // bound_odesd bounds the new session again, by the steps of its first
    // run (an interpolated run took fewer).
    odesd_first_steps_ = -1;
    odesd_bound_ = 0;
  }

  // The methods whose states the probe's can check: of another order and
  // other steps than dopri5 (dopri8s, odesd). Not erk_adjoint, whose
  // forward pass is dopri5 at the same tolerances and step limit as the
  // probe: the two would share their errors, and its own check (the same
  // tableau at tolerances 10 times tighter) stays.
  static bool checks_against_probe(const std::string& method) {
    return method == "dopri8s" || method == "odesd";
  }

  // The chosen method's states are checked against the probe's: the run is
  // at the inputs the probe measured, which solved the whole span.
  bool probe_checks() const { return !probe_states_.empty(); }

  // The state check (methods/common/state_error_ratio.hpp) with the probe's
  // solution first: dopri5 at the same tolerances, whose errors are not the
  // chosen method's (another order, other steps). Where the two agree
  // within the check's limit, the states' error is taken to be within it
  // too (the difference is mostly the probe's own error; two such errors
  // cancelling is the case this leaves open); only a larger difference
  // needs the tighter state solve (CVODES' BDF at tolerances 10 times
  // tighter), which gives the ratio and the warning. On chua the probe's
  // 43 steps spare dopri8s' own check, a second solve that cost two thirds
  // of its S (docs/methods/auto.md).
  void check_against_probe(const RunInputs& inputs, Result& r) const {
    Problem p = sessions_.front().session->problem();
    if (inputs.interrupt) p.interrupt = inputs.interrupt;
    const std::string what = choice_.goal == "gradient" ? "the gradient" : "S";
    if (r.x.size() == probe_states_.size() && r.nx > 0) {
      const double difference =
          state_error_ratio(p, r.x.data(), probe_states_.data(), r.x.size(), r.nx);
      if (difference <= kStateErrorRatioLimit) {
        r.stats.extra["state_difference_from_probe"] = difference;
        return;
      }
    }
    check_state_error(p, default_state_solve_settings(), what, r);
  }

  // dopri8s is chosen for speed where it is expected to be right; a result
  // it warns about goes to the next method, unless only it computes what
  // is asked (directions). The state check's warning is about the problem
  // at these tolerances: every method would give it.
  bool kept_despite_warnings(const Result& r, const std::string& method) const {
    const bool only_state_check = std::all_of(r.warnings.begin(), r.warnings.end(),
                                              methods::is_state_check_warning);
    return only_state_check || method != "dopri8s" || !given_.sens_directions.empty() ||
           !fallback_;
  }

  // From here on the session runs the k-th method of its fallbacks, which
  // has just succeeded: the earlier ones failed on kFailuresToLeave runs in
  // a row and are not tried again on every run.
  void leave_for(std::size_t k, const std::string& why) {
    choice_.method = sessions_[k].method;
    probe_states_.clear();  // the probe checked the method left, not this one
    choice_.reason += why + "; after " + std::to_string(kFailuresToLeave) +
                      " runs in a row that way the session runs " + choice_.method;
    sessions_.erase(sessions_.begin(), sessions_.begin() + static_cast<std::ptrdiff_t>(k));
    failures_in_a_row_ = 0;
  }

  const Problem given_;
  MethodChoice choice_;
  bool fallback_ = true;
  int failures_in_a_row_ = 0;      // runs on which sessions_.front() failed
  std::int64_t odesd_first_steps_ = -1;  // of odesd's first success as the session's method
  std::int64_t odesd_bound_ = 0;         // max_total_steps of its session; 0: unbounded
  std::vector<Prepared> sessions_;  // the session's method, then its fallbacks as needed
  // The probe's states at the output times while the session's method
  // checks its states against them (probe_checks); empty otherwise.
  std::vector<double> probe_states_;
};

}  // namespace

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem) {
  return std::make_unique<AutomaticSession>(problem);
}

}  // namespace odesens::methods
