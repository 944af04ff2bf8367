// The session of "auto": the chosen method's session, and a fallback to the
// CVODES baseline when the chosen method fails in a way the baseline does
// not (too much work, stiffness, a step size that collapses, non-finite
// values of an explicit solve).
#include <utility>

#include "methods/choice/method_choice.hpp"
#include "methods/registry.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"

namespace odesens::methods {
namespace {

bool falls_back_on(Status status) {
  return status == Status::too_much_work || status == Status::stiff ||
         status == Status::solver_failed || status == Status::not_finite;
}

// What runs when the chosen method fails: cvodes_asa for a gradient with
// many parameters, cvodes_fsa otherwise; none ("") for what only the chosen
// kind of method computes (S*R, several objectives, running costs,
// enclosures) or when the baseline itself failed.
std::string baseline_of(const MethodChoice& choice, const Problem& p) {
  if (!p.sens_directions.empty() || p.integrand || p.n_objectives > 1 ||
      !p.param_lower.empty() || !p.objective_data.empty())
    return "";
  const bool adjoint = choice.goal == "gradient" && p.model->np() > kPetabAdjointThreshold;
  const std::string baseline = adjoint ? "cvodes_asa" : "cvodes_fsa";
  return baseline == choice.method ? "" : baseline;
}

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

  Result run(const RunInputs& inputs) override {
    try {
      return with_choice(inner_->run(inputs));
    } catch (const Error& e) {
      if (!fallback_ || !falls_back_on(e.status()) || baseline_of(choice_, given_).empty())
        throw;
      switch_to_baseline(e);
    }
    return with_choice(inner_->run(inputs));
  }

 private:
  Result with_choice(Result result) const {
    result.method_choice = choice_.reason;
    return result;
  }

  // From here on the session runs the baseline: a method that failed once
  // on this problem is not tried again on every run.
  void switch_to_baseline(const Error& e) {
    const std::string failed = choice_.method;
    choice_.method = baseline_of(choice_, given_);
    choice_.reason += ". " + failed + " failed (" + e.what() + "), so " + choice_.method +
                      " ran instead";
    inner_ = prepare(problem_for_choice(given_, choice_), choice_.method);
  }

  const Problem given_;
  MethodChoice choice_;
  bool fallback_ = true;
  std::unique_ptr<MethodSession> inner_;
};

}  // namespace

std::unique_ptr<MethodSession> prepare_automatic(const Problem& problem) {
  return std::make_unique<AutomaticSession>(problem);
}

}  // namespace odesens::methods
