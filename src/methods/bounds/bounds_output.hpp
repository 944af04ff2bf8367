// Collects the models of x (and of S, bounds_fsa) at the output times into
// the Result, with the objective's gradient: bounds_fsa's by (8), dF/dp_j =
// sum_k w_k^T s_j(t_k) for F = sum_k w_k^T x(t_k), or sum_k -2 (d_k -
// x(t_k))^T s_j(t_k) for the least-squares objective of
// Problem::objective_data, in model arithmetic; bounds_asa's given
// (adjoint, (12)). Call record() and finish() inside an UpwardRounding
// scope.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/parameter_box.hpp"
#include "methods/bounds/system_bounder.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::bounds {

class BoundsOutput {
 public:
  // `sens`: the sensitivity systems (bounds_fsa), or null when the method
  // keeps no S (bounds_asa).
  BoundsOutput(const Problem& problem, const ParameterBox& box, const PolyArithmetic& arith,
               const BoundsSettings& settings, const SystemBounder& state,
               const std::vector<std::unique_ptr<SystemBounder>>* sens);

  // The state vector y and the sensitivity vectors at output time k.
  void record(std::size_t k, const double* y, const std::vector<const double*>& sens);
  // The gradient by (8) from S, or `gradient` (np models) when S is not
  // kept.
  Result finish(const std::vector<PolyModel>* gradient = nullptr);

 private:
  // Adds m's arrays; Error(unbounded) naming `what` when its hull is wider
  // than max_width.
  void append(const PolyModel& m, std::vector<double>& coef, std::vector<double>& rem,
              std::vector<double>& hull, const std::string& what) const;
  double centre(const PolyModel& m) const;
  void describe_box(BoundsResult& b) const;
  void add_models(Result& r) const;
  void gradient_by_8(std::size_t j, const std::vector<double>& w, PolyModel& g, PolyModel& term,
                     PolyModel& residual) const;
  void warn_if_loose(Result& r) const;

  const Problem* problem_;
  const ParameterBox* box_;
  const PolyArithmetic* arith_;
  BoundsSettings settings_;
  const SystemBounder* state_;
  const std::vector<std::unique_ptr<SystemBounder>>* sens_;
  std::size_t nx_, np_, n_t_;
  bool with_s_;
  std::vector<PolyModel> x_, s_;  // n_t * nx, n_t * nx * np
  std::vector<double> shapes_;
  std::vector<PolyModel> scratch_;
};

}  // namespace odesens::bounds
