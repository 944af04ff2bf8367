// Conservation laws of a model: w^T f(t, x, p) = 0 for every x, so that
// w^T x keeps its initial value and J_x is singular everywhere (A <-> B:
// w = (1, 1)). Newton's method and S* = -J_x^{-1} J_p need them: the rows
// of J_x of k chosen states are replaced by the k laws, whose right-hand
// sides are w^T (x0 - x) = 0 for Newton steps from x0 (the steps keep
// w^T x) and w^T S0 for S* (w^T S stays at w^T S0 where w^T J_p = 0).
// Without them a model with a conservation law reached its steady state by
// integration only (Brannmark_JBC2010: four solves of x and one of x and
// S at each evaluation).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::estimate {

struct ConservationLaws {
  std::size_t nx = 0;
  std::vector<double> w;          // count() x nx, row-major: law l is w[l * nx ...]
  std::vector<std::size_t> rows;  // the states whose rows of J_x the laws replace
  std::size_t count() const { return rows.size(); }
  // W m for the nx x ncols column-major m: count() x ncols, column-major.
  std::vector<double> times(std::size_t ncols, const double* m) const;
  // Sets rows `rows` of b (nx x ncols, column-major) to values
  // (count() x ncols, column-major; null: zero).
  void set_rows(std::size_t ncols, const double* values, double* b) const;
  // "2 conservation laws", for the attempts' lines.
  std::string describe() const;
};

// The laws found numerically where J_x is singular: the left null space
// of J_x at two points near x0 beside J_p there (rows scaled to their
// largest entry; singular values below 1e-10 of the largest), each law
// checked against J_x, J_p and f at a third point (to 1e-8 of the magnitudes
// summed; where f or J_p reads t at p, `reads_time`, also at t + 1, 10,
// ... 1e9: Model::time_reading_at). None (count() 0)
// where the check fails: J_x singular for another reason (a species at 0),
// which the callers refuse as before. Not for models with events (an event
// may change a conserved total): the caller's to rule out.
// Dense: models of at most max_conservation_states states.
inline constexpr std::size_t max_conservation_states = 400;
ConservationLaws find_conservation_laws(const Model& model, double t, const double* x0,
                                        const double* p, bool reads_time, Workspace* ws);

}  // namespace odesens::estimate
