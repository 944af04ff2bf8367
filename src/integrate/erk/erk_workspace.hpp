// Memory of one ERK solve, sized once for a tableau, n states and L lanes, so
// that the step loop allocates nothing. Owned by the caller (one per solve or
// per worker); the engine only points into it.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/erk/dense_output.hpp"
#include "integrate/erk/tableau.hpp"

namespace odesens::integrate::erk {

class ErkWorkspace {
 public:
  ErkWorkspace(const Tableau& tableau, std::size_t n, int lanes);

  const Tableau& tableau() const { return *tableau_; }
  std::size_t n() const { return n_; }
  int lanes() const { return lanes_; }
  std::size_t size() const { return n_ * static_cast<std::size_t>(lanes_); }

  // Stage derivatives k_0 .. k_{dense_stages-1}, each size() values. The
  // engine swaps these pointers (FSAL reuse), never the data.
  double** stages() { return stages_.data(); }
  // State at the start of the step, after it, the candidate x_{n+1}.
  double*& x_previous() { return x_previous_; }
  double*& x() { return x_; }
  double*& x_candidate() { return x_candidate_; }
  // Their low parts, when the engine accumulates x compensated
  // (ErkSettings::compensated): rounding errors, rotated with the states.
  double*& x_low_previous() { return x_low_previous_; }
  double*& x_low() { return x_low_; }
  double*& x_low_candidate() { return x_low_candidate_; }
  double* stage_value() { return block(0); }   // Y_i
  double* error() { return block(1); }         // error vector e
  double* error3() { return block(2); }        // dop853's second estimate
  double* weights() { return block(3); }       // error weights
  double* coefficients() { return coefficients_.data(); }  // dense_stages scratch
  const DenseWeights& dense_weights() const { return dense_weights_; }
  double* lane_sums() { return lane_sums_.data(); }        // 2 * lanes scratch

 private:
  double* block(std::size_t k) { return scratch_.data() + k * size(); }

  const Tableau* tableau_;
  std::size_t n_;
  int lanes_;
  DenseWeights dense_weights_;
  std::vector<double> stage_storage_, state_storage_, scratch_, coefficients_, lane_sums_;
  std::vector<double*> stages_;
  double* x_previous_;
  double* x_;
  double* x_candidate_;
  double* x_low_previous_;
  double* x_low_;
  double* x_low_candidate_;
};

}  // namespace odesens::integrate::erk
