// Newton's method on f(t0, x, p) = 0 with the model's J_x, damped by step
// halving, converged where f and the step to the root are both within the
// tolerances, and the sensitivities of its answer, S* = -J_x^{-1} J_p.
#pragma once

#include <string>
#include <vector>

#include "estimate/jacobian_factors.hpp"
#include "estimate/steady_residual.hpp"

namespace odesens::estimate {

// Where J_x is singular by conservation laws, `laws` (the factors
// constrained to them) and laws_s0 = W S0 (conservation_laws.hpp): Newton
// steps keep w^T x at its value at x0, S* keeps w^T S0.
struct ConservedRows {
  const ConservationLaws* laws = nullptr;
  std::vector<double> s0;  // count() x np, column-major
};

struct NewtonSettings {
  NormTolerances tol;
  int max_iterations;
  bool sensitivities;
  ConservedRows conserved = {};
};

struct NewtonOutcome {
  bool converged = false;
  std::vector<double> x;
  std::vector<double> S;  // with sensitivities, when converged
  double residual = 0.0;
  std::string attempt;    // one line: what happened
};

// "" when the Newton step from x to the root of f is within the tolerances
// (weighted norm at most 1), else why not; `factors` hold J_x at x, `f` is
// f(x). A slow mode leaves f within its tolerances far from the root, where
// S* = -J_x^{-1} J_p is the root's S, not x's.
std::string root_too_far(const std::vector<double>& x, std::vector<double> f, NormTolerances tol,
                         JacobianFactors& factors, const ConservedRows& conserved = {});

// S* = -J_x^{-1} J_p (nx x np, column-major) at x; `factors` hold J_x at x
// (with the laws' rows where `conserved` has laws).
std::vector<double> steady_sensitivities(const Model& model, double t, const double* x,
                                         const double* p, JacobianFactors& factors, Workspace* ws,
                                         const ConservedRows& conserved = {});

NewtonOutcome newton_steady_state(const Model& model, double t, const std::vector<double>& x0,
                                  const double* p, const NewtonSettings& settings,
                                  JacobianFactors& factors, Workspace* ws);

}  // namespace odesens::estimate
