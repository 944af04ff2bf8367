// Automatic stiffness detection for the explicit Runge–Kutta engine, the
// test of Hairer's DOPRI5 and DOP853 (HNW II §IV.2, "Automatic stiffness
// detection"; dopri5.f and dop853.f).
//
// After an accepted step, two stages of the step are evaluated at t + h:
// the last explicit stage Y_j (c_j = 1) and the FSAL stage at x_{n+1}. Their
// difference estimates the dominant eigenvalue of J along the direction in
// which the step's error lies:
//
//   h|λ| ≈ |h| ‖f(t+h, x_{n+1}) − f(t+h, Y_j)‖ / ‖x_{n+1} − Y_j‖.
//
// When the step size is held by the stability region rather than by
// accuracy, h|λ| sits at the region's boundary on the negative real axis.
// As in Hairer's codes, the test runs every `period` accepted steps, and on
// every step once it has fired; `run` firings before `release` steps in a row
// below the threshold declare the problem stiff (DOPRI5: 15 and 6).
//
// The quotient sees λ only along the direction of the step's error. Where an
// engine also has h·ρ(J) from a power iteration (StepLimit, stability_limit.hpp),
// either one above its threshold is a firing: on Lang_PLOSComputBiol2024 and
// Zheng_PNAS2012 dop853's steps sat at the stability limit for thousands of
// steps while the quotient stayed far below it.
#pragma once

#include <cstddef>

#include "integrate/erk/tableau.hpp"

namespace odesens::integrate::erk {

// The real stability boundary of an explicit tableau: the largest r with
// |R(z)| <= 1 on [−r, 0], R the stability polynomial of its weights b
// (dopri5 3.307, dop853 6.394). 0 when there is none to speak of.
double real_stability_boundary(const Tableau& tableau);
// The same, computed once per tableau for the process (thread-safe).
double cached_stability_boundary(const Tableau& tableau);

// |h| sqrt(Σ (f_new − f_stage)²) / sqrt(Σ (x_new − y_stage)²) over `count`
// values; 0 when the two points coincide (a solution at rest tells nothing).
double stiffness_quotient(std::size_t count, double h, const double* x_new, const double* y_stage,
                          const double* f_new, const double* f_stage);

class StiffnessTest {
 public:
  static constexpr long period = 1000;  // accepted steps between tests while calm (default)
  static constexpr int run = 15;        // firings that declare stiffness
  static constexpr int release = 6;     // calm tests in a row that forget firings

  // `every`: accepted steps between tests while calm (1: every step, for a
  // probe that has only a few hundred steps to decide in).
  explicit StiffnessTest(const Tableau& tableau, long every = period);

  // The tableau has a stage with c = 1 computed right before its FSAL stage
  // (dopri5, dop853); the others are not tested.
  bool available() const { return stage_ >= 0; }
  // The stage j whose value Y_j the engine still holds after the step.
  int stage() const { return stage_; }
  // h|λ| above this counts as a firing: 0.8 of the real stability boundary
  // (dopri5 2.65, dop853 5.11). Hairer's codes use 3.25 and 6.1, but our PI
  // controller holds h|λ| lower: on Van der Pol (mu = 1000) dopri5's
  // estimate has a median of 0.76 of the boundary and seldom passes 0.95,
  // while on stiff SBML models (Boehm, Bachmann, Brannmark, Elowitz) it sits
  // at 1.0; non-stiff models stay below 0.25.
  double threshold() const { return 0.8 * boundary_; }
  // h·ρ(J) from a power iteration (stability_limit.hpp) above this counts as
  // a firing: 0.6 of the boundary. ρ is |λ| of the largest eigenvalue, which
  // may be complex, where the region ends short of the real boundary: on
  // Zheng_PNAS2012 dop853's steps stay constant at h·ρ 4.0–4.7 for 28 000
  // steps. Steps held by accuracy keep h·ρ below 3.4 on every shared model
  // that is not stiff (dop853 at dopri8s' defaults; most below 2).
  double measured_threshold() const { return 0.6 * boundary_; }
  // The tableau's real stability boundary.
  double boundary() const { return boundary_; }
  // Whether the `accepted`-th accepted step is to be tested.
  bool due(long accepted) const { return available() && (accepted % every_ == 0 || fired_ > 0); }
  // Records one test from the stages' quotient and, when there is one, h·ρ
  // measured by a power iteration (0: none); true once the problem is
  // declared stiff.
  bool record(double quotient, double measured = 0);
  void reset();
  double last_h_lambda() const { return last_h_lambda_; }
  double last_quotient() const { return last_quotient_; }

 private:
  int stage_ = -1;
  long every_ = period;
  double boundary_ = 0;
  int fired_ = 0, calm_ = 0;
  double last_h_lambda_ = 0;
  double last_quotient_ = 0;
};

}  // namespace odesens::integrate::erk
