// The directions R of S·R (Franz & Kiehl, (2)–(4) with the parameters as
// states, w = (x, p)): (nx + np) x n_s, column-major, rows 0..nx-1 the
// perturbation of x(t0), rows nx.. that of p. Parameter rows are never
// integrated or differenced (§2.6): they only move the parameters of the
// perturbed trajectory.
//
//   params  R = [dx0/dp; I]       S·R = dx/dp, the total derivative (Result::s)
//   states  R = [I; 0]            S·R = dx/dx0 (Result::sr)
//   all     R = [I, dx0/dp; 0, I] both: dx/dx0, then dx/dp (Result::sr; the
//                                 last np columns also in Result::s)
//   given   Problem::sens_directions (Result::sr)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace odesens::internal_diff {

enum class DirectionSet { params, states, all, given };

// "params", "states" or "all"; anything else is Error(option_type).
DirectionSet parse_direction_set(const std::string& name);

class SensitivityDirections {
 public:
  // The set's R for nx states and np parameters; dx0_dp (nx x np) may be
  // empty, meaning zero (x0 independent of p).
  SensitivityDirections(DirectionSet set, std::size_t nx, std::size_t np,
                        const std::vector<double>& dx0_dp);
  // A caller's R, (nx + np) x n_s (validated by validate_problem).
  SensitivityDirections(std::vector<double> r, std::size_t nx, std::size_t np);

  DirectionSet set() const { return set_; }
  std::size_t nx() const { return nx_; }
  std::size_t np() const { return np_; }
  std::size_t count() const { return ns_; }  // n_s
  // R_x,j (nx values) and R_p,j (np values) of direction j.
  const double* state_part(std::size_t j) const { return r_.data() + j * (nx_ + np_); }
  const double* param_part(std::size_t j) const { return state_part(j) + nx_; }
  // The parameter parts of all directions, np x n_s column-major.
  std::vector<double> param_parts() const;

  // Where S·R goes in the Result: columns [s_first(), s_first() + np) are
  // dx/dp (Result::s) when gives_s(); all columns go to Result::sr when
  // gives_sr().
  bool gives_s() const { return set_ == DirectionSet::params || set_ == DirectionSet::all; }
  std::size_t s_first() const { return set_ == DirectionSet::all ? nx_ : 0; }
  bool gives_sr() const { return set_ != DirectionSet::params; }

 private:
  DirectionSet set_;
  std::size_t nx_, np_, ns_;
  std::vector<double> r_;
};

}  // namespace odesens::internal_diff
