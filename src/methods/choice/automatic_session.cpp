// The session of "auto": the chosen method's session, and a fallback to the
// CVODES baseline when the chosen method fails in a way the baseline does
// not (too much work, stiffness, a step size that collapses, non-finite
// values of an explicit solve).
#include <algorithm>
#include <utility>

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

class AutomaticSession final : public MethodSession {
 public:
  explicit AutomaticSession(const Problem& problem)
      : given_(problem), choice_(choose_method(problem)) {
    const MethodOptions options(kAutomaticMethod, automatic_method_info().options,
                                problem.options);
    fallback_ = options.get_int("fallback") != 0;
    inner_ = prepare(problem_for_choice(given_, choice_), choice_.method);
  }

  const MethodInfo& method() const override { return inner_->method(); }
  const Problem& problem() const override { return inner_->problem(); }

  // Falls back until a method succeeds or none is left (at most three:
  // explicit, implicit, cvodes_fsa).
  Result run(const RunInputs& inputs) override {
    return translating_failures(kAutomaticMethod, [&] { return run_with_fallback(inputs); });
  }

 private:
  Result run_with_fallback(const RunInputs& inputs) {
    for (;;) {
      try {
        Result result = inner_->run(inputs);
        if (!kept_despite_warnings(result))
          throw Error(Status::solver_failed,
                      "its result carried a warning: " + result.warnings.front());
        return with_choice(std::move(result));
      } catch (const Error& e) {
        const std::string next = fallback_ ? fallback_method(given_, choice_) : "";
        if (falls_back_on(e.status()) && !next.empty()) {
          switch_to(next, e);
          continue;
        }
        if (tried_.empty()) throw;
        throw Error(e.status(), "method 'auto' tried " + tried_ + " and " + choice_.method +
                                    "; " + choice_.method + ": " + e.what());
      }
    }
  }

  // dopri8s is chosen for speed where it is expected to be right; a result
  // it warns about goes to the next method, unless only it computes what
  // is asked (directions). The state check's warning is about the problem
  // at these tolerances: every method would give it.
  bool kept_despite_warnings(const Result& r) const {
    const bool only_state_check = std::all_of(r.warnings.begin(), r.warnings.end(),
                                              methods::is_state_check_warning);
    return only_state_check || choice_.method != "dopri8s" || !given_.sens_directions.empty() ||
           !fallback_;
  }

  Result with_choice(Result result) const {
    result.method_choice = choice_.reason;
    return result;
  }

  // From here on the session runs `next`: a method that failed once on
  // this problem is not tried again on every run.
  void switch_to(const std::string& next, const Error& e) {
    const std::string failed = choice_.method;
    tried_ += (tried_.empty() ? "" : ", ") + failed;
    choice_.method = next;
    choice_.reason += ". " + failed + " failed (" + e.what() + "), so " + next + " ran instead";
    inner_ = prepare(problem_for_choice(given_, choice_), choice_.method);
  }

  const Problem given_;
  MethodChoice choice_;
  bool fallback_ = true;
  std::string tried_;  // the methods that failed, in order
  std::unique_ptr<MethodSession> inner_;
};

}  // namespace

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem) {
  return std::make_unique<AutomaticSession>(problem);
}

}  // namespace odesens::methods
