// Common data of the compiled built-in models: names, nominal values and
// time span. Each built-in is a subclass that adds f and its derivatives.
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::builtin {

class BuiltinModel : public Model {
 public:
  BuiltinModel(std::string name, std::vector<std::string> states,
               std::vector<std::string> params, std::vector<double> nominal, double t_end)
      : name_(std::move(name)),
        states_(std::move(states)),
        params_(std::move(params)),
        nominal_(std::move(nominal)),
        t_end_(t_end) {}

  std::size_t nx() const override { return states_.size(); }
  std::size_t np() const override { return params_.size(); }
  const std::vector<std::string>& state_names() const override { return states_; }
  const std::vector<std::string>& param_names() const override { return params_; }
  std::vector<double> nominal_params() const override { return nominal_; }
  std::string name() const override { return name_; }
  double default_t_end() const override { return t_end_; }
  bool has_analytic_jacobians() const override { return true; }
  // x0 is data unless a model overrides initial_sensitivity (vanderpol).
  bool initial_state_depends_on_params() const override { return false; }

 private:
  std::string name_;
  std::vector<std::string> states_, params_;
  std::vector<double> nominal_;
  double t_end_;
};

std::vector<std::string> numbered_names(const std::string& prefix, std::size_t n);

// A value of a model computed once, on first use, by whichever thread asks
// first (std::call_once): large constant second-derivative data (the pattern
// and values of L^2 or A^2) that a model not used with odeSD never pays for.
// The model stays immutable from the outside.
template <class T>
class OnceBuilt {
 public:
  template <class Build>
  const T& get(Build&& build) const {
    std::call_once(once_, [&] { value_ = build(); });
    return value_;
  }

 private:
  mutable std::once_flag once_;
  mutable T value_{};
};

}  // namespace odesens::builtin
