// The session of "auto": the chosen method's session, and a fallback to the
// CVODES baseline when the chosen method fails in a way the baseline does
// not (too much work, stiffness, a step size that collapses, non-finite
// values of an explicit solve).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "methods/choice/method_choice.hpp"
#include "methods/common/failure_translation.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/registry.hpp"
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
  explicit AutomaticSession(const Problem& problem)
      : given_(problem), choice_(choose_method(problem)) {
    const MethodOptions options(kAutomaticMethod, automatic_method_info().options,
                                problem.options);
    fallback_ = options.get_int("fallback") != 0;
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
    for (std::size_t k = 0;; ++k) {
      const std::string method = sessions_[k].method;  // a copy: sessions_ may change
      try {
        Result result = sessions_[k].session->run(inputs);
        if (!kept_despite_warnings(result, method))
          throw Error(Status::solver_failed,
                      "its result carried a warning: " + result.warnings.front());
        if (k == 0) {
          failures_in_a_row_ = 0;
          bound_odesd(result);
        }
        if (k > 0 && failures_in_a_row_ >= kFailuresToLeave) {
          leave_for(k, why);  // choice_.reason now says why
          why.clear();
        }
        result.method_choice = choice_.reason + why;
        return result;
      } catch (const Error& e) {
        const std::string next = fallback_ ? fallback_after(method) : "";
        if (!falls_back_on(e.status()) || next.empty()) {
          if (tried.empty()) throw;
          throw Error(e.status(), "method 'auto' tried " + tried + " and " + method + "; " +
                                      method + ": " + e.what());
        }
        if (k == 0) ++failures_in_a_row_;
        tried += (tried.empty() ? "" : ", ") + method;
        why += ". " + method + " failed (" + e.what() + "), so " + next + " ran instead";
        if (k + 1 == sessions_.size()) sessions_.push_back({next, prepare_for(next)});
      }
    }
  }

  // The method after `failed` in the fallback order of the session's choice.
  std::string fallback_after(const std::string& failed) const {
    MethodChoice c = choice_;
    c.method = failed;
    return fallback_method(given_, c);
  }

  std::unique_ptr<MethodSession> prepare_for(const std::string& method) const {
    MethodChoice c = choice_;
    c.method = method;
    return prepare(problem_for_choice(given_, c), method);
  }

  // odesd's steps multiply where its stiff components are large
  // (odesd_step_allowance): the session's later runs of odesd are bounded
  // by the allowance or 20 times the steps of its first run, whichever is
  // more, and a run beyond the bound goes to the fallback. The first run is
  // not bounded: a long solve that suits odesd (a damped oscillation over 1 600
  // periods: 143 328 steps, 3.2 times faster than cvodes_fsa) keeps it.
  void bound_odesd(const Result& first) {
    if (odesd_bounded_ || sessions_.front().method != "odesd") return;
    odesd_bounded_ = true;
    const std::int64_t steps = static_cast<std::int64_t>(first.stats.steps);
    const std::int64_t bound =
        std::max(odesd_step_allowance(given_.output_times.size()), 20 * steps);
    Problem p = problem_for_choice(given_, choice_);
    p.options.set("max_total_steps", bound);
    sessions_.front().session = prepare(p, "odesd");
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
    choice_.reason += why + "; after " + std::to_string(kFailuresToLeave) +
                      " runs in a row that way the session runs " + choice_.method;
    sessions_.erase(sessions_.begin(), sessions_.begin() + static_cast<std::ptrdiff_t>(k));
    failures_in_a_row_ = 0;
  }

  const Problem given_;
  MethodChoice choice_;
  bool fallback_ = true;
  int failures_in_a_row_ = 0;      // runs on which sessions_.front() failed
  bool odesd_bounded_ = false;     // bound_odesd has run
  std::vector<Prepared> sessions_;  // the session's method, then its fallbacks as needed
};

}  // namespace

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem) {
  return std::make_unique<AutomaticSession>(problem);
}

}  // namespace odesens::methods
