// A Butcher tableau as data (HNW I §II.1, Table 1.1), with its embedded
// error estimate and dense output. Every method's numbers live in
// erk/tableaux.def; one engine (erk_engine.hpp) runs them all.
//
// Stages are numbered from 0. The first `stages` stages make one step; the
// stages after them, up to `dense_stages`, are only needed by dense output
// and are computed lazily (dop853's three extra stages; for methods that are
// not FSAL, the stage f(t_n + h, x_{n+1}) used by Hermite interpolation).
#pragma once

#include <string_view>

namespace odesens::integrate::erk {

enum class TableauId {
#define ERK_TABLEAU(id, ...) id,
#define ERK_C(...)
#define ERK_A(...)
#define ERK_B(...)
#define ERK_E(...)
#define ERK_E3(...)
#define ERK_D(...)
#include "integrate/erk/tableaux.def"
#undef ERK_TABLEAU
#undef ERK_C
#undef ERK_A
#undef ERK_B
#undef ERK_E
#undef ERK_E3
#undef ERK_D
};

// How a step's local error is estimated.
enum class ErrorEstimator {
  none,      // fixed-step methods (euler, rk4)
  embedded,  // e = h Σ e_j k_j with e = b - b_hat, norm = weighted RMS
  dop853     // HNW I §II.10 / Hairer's dop853.f: err5^2 / sqrt(err5^2 + 0.01 err3^2)
};

struct Tableau {
  TableauId id;
  const char* name;
  int stages;          // s: stages of one step, the FSAL stage included
  int dense_stages;    // s plus the stages only dense output needs
  int order;           // p
  int embedded_order;  // p_hat (0 without an embedded formula)
  int error_order;     // q with err = O(h^(q+1)); drives the PI controller
  bool fsal;           // last stage k_{s-1} = f(t_n + h, x_{n+1}) is the next k_0
  bool fixed_step_only;
  ErrorEstimator estimator;
  int new_f_stage;     // index of the stage f(t_n + h, x_{n+1})
  int dense_order;     // order of the continuous extension
  int dense_rows;      // rows of `dense` beyond the cubic Hermite part
  const double* c;     // dense_stages nodes
  const double* a;     // strictly lower triangle, row i holds a_i0..a_i,i-1 at i(i-1)/2
  const double* b;     // stages weights (order p)
  const double* e;     // stages error coefficients b - b_hat (or null)
  const double* e3;    // stages: dop853's 3rd-order estimate b - bhh (or null)
  const double* dense; // dense_rows x dense_stages, row-major (or null)

  double a_at(int i, int j) const { return j < i ? a[i * (i - 1) / 2 + j] : 0.0; }
};

const Tableau& tableau(TableauId id);
// The tableau with this name ("dopri5", ...), or null.
const Tableau* find_tableau(std::string_view name);
// All tableaux, in the order of tableaux.def.
const Tableau* all_tableaux(int* count);

}  // namespace odesens::integrate::erk
