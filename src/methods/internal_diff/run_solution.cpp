#include "methods/internal_diff/run_solution.hpp"

namespace odesens::internal_diff {

RunSolution::RunSolution(BundleIntegrator& bundle, BundleRhs& rhs, Perturbations* perturbations,
                         bool rescale, const std::vector<double>& output_times,
                         const double* p, const std::vector<double>& param_directions,
                         const integrate::Tolerances& state_tolerances)
    : bundle_solution_(bundle, rhs, perturbations, rescale, output_times.back()),
      param_directions_(param_directions) {
  bundle_solution_.set_state_tolerances(state_tolerances);
  const std::size_t ns = rhs.shape().ns;
  runner_ = std::make_unique<integrate::EventRunner>(
      rhs.model(), p, ns, &rhs.workspace(), ns > 0 ? param_directions_.data() : nullptr);
  if (!runner_->active()) {
    runner_.reset();
    return;
  }
  evented_ = std::make_unique<integrate::EventedSolution>(bundle_solution_, *runner_,
                                                          rhs.shape().nx, ns);
  evented_->set_output_times(output_times.data(), output_times.size());
}

std::vector<std::string> RunSolution::warnings() const {
  std::vector<std::string> all;
  if (runner_) all = runner_->warnings();
  for (const auto& w : bundle_solution_.warnings()) all.push_back(w);
  return all;
}

}  // namespace odesens::internal_diff
