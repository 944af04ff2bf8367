// Building a Result the same way in every method: sizes from the problem,
// states at every output time, S at every output time (forward methods) or
// at the final time (adjoint methods), the gradient, and statistics.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::methods {

enum class SensitivityLayout {
  none,            // no S
  every_output,    // S at every output time
  final_time_only  // S at the last output time (adjoint-type methods)
};

class ResultBuilder {
 public:
  ResultBuilder(const Problem& problem, std::size_t nx, std::size_t np, SensitivityLayout s) {
    const auto& times = problem.output_times;
    result_.nx = nx;
    result_.np = np;
    result_.times = times;
    result_.x.assign(nx * times.size(), 0.0);
    if (s == SensitivityLayout::every_output) result_.s_times = times;
    if (s == SensitivityLayout::final_time_only) result_.s_times = {times.back()};
    result_.s.assign(nx * np * result_.s_times.size(), 0.0);
  }

  std::size_t n_times() const { return result_.times.size(); }
  // Where the states (nx) and S (nx x np) of output k go.
  double* x(std::size_t k) { return result_.x.data() + k * result_.nx; }
  double* s(std::size_t k) { return result_.s.data() + k * result_.nx * result_.np; }
  void set_x(std::size_t k, const double* x_k) { std::copy(x_k, x_k + result_.nx, x(k)); }
  void set_s(std::size_t k, const double* s_k) {
    std::copy(s_k, s_k + result_.nx * result_.np, s(k));
  }
  // S·R for ns directions at every output time (Result::sr), zero until set.
  void allocate_directions(std::size_t ns) {
    result_.ns = ns;
    result_.sr.assign(result_.nx * ns * result_.times.size(), 0.0);
  }
  double* sr(std::size_t k) { return result_.sr.data() + k * result_.nx * result_.ns; }
  std::vector<double>& gradient() { return result_.gradient; }
  std::vector<double>& gradient_x0() { return result_.gradient_x0; }
  std::vector<double>& objective_values() { return result_.objective_values; }
  Stats& stats() { return result_.stats; }
  // Something the method distrusts in this result (Result::warnings).
  void warn(std::string text) { result_.warnings.push_back(std::move(text)); }

  Result take() { return std::move(result_); }

 private:
  Result result_;
};

}  // namespace odesens::methods
