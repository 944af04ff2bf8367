// The perturbed trajectories of a bundle between steps: the state rows of
// σ_j, the sizes ε_j and the parameters p + ε_j R_p,j (np x L, column 0 = p)
// that BundleRhs reads. The parameter rows of σ_j stay R_p,j (§2.6).
//
// After a step: differentiate() forms σ_j by (11); rescale() renews ε_j by
// (12)–(13) at the nominal; seed() builds the bundle the next step starts
// from, η and η + ε_j σ_j (9)–(10). Nothing here allocates after
// construction.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "methods/internal_diff/perturbation_scale.hpp"
#include "methods/internal_diff/sensitivity_directions.hpp"

namespace odesens::internal_diff {

class Perturbations {
 public:
  // σ_j = R_x,j and ε_j by (12), (13), (17) at x0, with δ of (13);
  // read_by_f: parameters_read_by_f (perturbation_scale.hpp).
  Perturbations(const SensitivityDirections& directions, const std::vector<double>& p,
                const std::vector<char>& read_by_f, const double* x0, Scaling scaling,
                double delta);

  const double* epsilon() const { return epsilon_.data(); }
  const double* params() const { return params_.data(); }  // np x L
  const double* sigma(std::size_t j) const { return sigma_.data() + j * nx_; }

  // (11): σ_j = (X_j − X_0)/ε_j from the bundle X + X_low at a step's end
  // (X_low: the integrator's low parts, or null).
  void differentiate(const double* X, const double* X_low);
  // S·R (nx x ns, column-major) by (11) from the bundle X + X_low (X_low
  // null: zeros), without keeping it.
  void directions_of(const double* X, const double* X_low, double* S) const;
  // σ_j from S·R (nx x ns): after an event's jump.
  void set_sigma(const double* S) { std::copy(S, S + nx_ * ns_, sigma_.begin()); }
  // Trajectory 0 of the bundle X into eta (nx values).
  void nominal_of(const double* X, double* eta) const;
  // (12)–(13) at η. A direction takes its new ε when `always`, or when the
  // new ε differs from the one in use by more than a factor 2 (a new ε
  // means a re-perturbed trajectory, which costs an f evaluation; within a
  // factor 2 the error terms O(ε) + O(eps/ε) of (8) change by at most 25%).
  // Returns whether any ε changed.
  bool rescale(const double* eta, bool always);
  // The bundle X + X_low = [η, η + ε_j σ_j] with η = eta + eta_low (nx
  // values each, eta_low null: zeros; X, X_low, current, current_low:
  // bundles): η + ε_j σ_j is split exactly into its rounded value and the
  // rounding error (TwoSum), so that the trajectories start ε_j σ_j apart
  // to the last bit of the perturbation, not of η. With `current` (the
  // bundle at the step's end, current_low its low part or null), directions
  // whose ε did not change in the last rescale() keep their trajectory from
  // it instead (η̂_j = η + ε_j σ_j up to the error of the step, without a
  // new f evaluation); η must then be current's nominal with its low part.
  void seed(const double* eta, const double* eta_low, const double* current,
            const double* current_low, double* X, double* X_low) const;

 private:
  void set_params(std::size_t j);

  const SensitivityDirections& directions_;
  std::size_t nx_, np_, ns_;
  Scaling scaling_;
  double delta_;
  std::vector<double> p_;
  std::vector<double> sigma_;     // nx x ns
  std::vector<double> epsilon_;   // ns
  std::vector<double> v_param_;   // ns: (17), once
  std::vector<double> params_;    // np x (1 + ns)
  std::vector<char> changed_;     // ns: ε renewed by the last rescale()
};

}  // namespace odesens::internal_diff
