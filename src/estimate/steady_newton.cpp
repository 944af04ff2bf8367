#include "estimate/steady_newton.hpp"

#include <cmath>

#include "core/number_text.hpp"

namespace odesens::estimate {
namespace {

// The most halvings of a Newton step before the attempt gives up: a step
// of 2^-10 that still does not reduce |f| points nowhere useful.
constexpr int max_halvings = 10;

std::string iterations_text(int k) {
  return std::to_string(k) + (k == 1 ? " iteration" : " iterations");
}

// x + lambda dx, halving lambda until the weighted norm of f decreases.
// Returns false (x unchanged) when no step length does.
bool damped_step(const Model& model, double t, const double* p, NormTolerances tol,
                 const std::vector<double>& dx, std::vector<double>& x, double& norm,
                 std::vector<double>& f, Workspace* ws) {
  std::vector<double> trial(x.size());
  double lambda = 1.0;
  for (int h = 0; h <= max_halvings; ++h, lambda *= 0.5) {
    for (std::size_t i = 0; i < x.size(); ++i) trial[i] = x[i] + lambda * dx[i];
    const double trial_norm = residual_norm(model, t, trial.data(), p, tol, f, ws);
    if (trial_norm < norm) {
      x.swap(trial);
      norm = trial_norm;
      return true;
    }
  }
  return false;
}

// Converged at out.x after k iterations, J_x factored there: S* =
// -J_x^{-1} J_p when asked for.
NewtonOutcome& converged(const Model& model, double t, const double* p, int k, double norm,
                         const NewtonSettings& settings, JacobianFactors& factors,
                         const std::string& head, NewtonOutcome& out, Workspace* ws) {
  if (settings.sensitivities)
    out.S = steady_sensitivities(model, t, out.x.data(), p, factors, ws, settings.conserved);
  out.converged = true;
  out.residual = norm;
  out.attempt = head + "converged in " + iterations_text(k) + " (weighted norm of f " +
                number_text(norm) + ")";
  return out;
}

// J_x singular at out.x: a failure, unless f is within the tolerances there
// and S is not asked for (a steady state on a conservation law's manifold).
NewtonOutcome& singular(int k, double norm, bool sensitivities, JacobianFactors& factors,
                        const std::string& head, NewtonOutcome& out) {
  if (norm <= 1.0 && !sensitivities) {
    out.converged = true;
    out.residual = norm;
    out.attempt = head + "converged in " + iterations_text(k) + " (weighted norm of f " +
                  number_text(norm) + "; " + factors.why_not() + ")";
  } else if (norm <= 1.0) {
    out.attempt = head + "converged in " + iterations_text(k) + ", but at x* " +
                  factors.why_not() + ": S* = -J_x^{-1} J_p does not exist";
  } else {
    out.attempt = head + factors.why_not() + " after " + iterations_text(k);
  }
  return out;
}

}  // namespace

std::vector<double> steady_sensitivities(const Model& model, double t, const double* x,
                                         const double* p, JacobianFactors& factors, Workspace* ws,
                                         const ConservedRows& conserved) {
  const std::size_t np = model.np();
  std::vector<double> S(model.nx() * np, 0.0);
  if (np == 0) return S;
  model.jac_p(t, x, p, S.data(), ws);
  for (double& v : S) v = -v;
  if (conserved.laws) conserved.laws->set_rows(np, conserved.s0.data(), S.data());
  factors.solve(np, S.data());
  return S;
}

std::string root_too_far(const std::vector<double>& x, std::vector<double> f, NormTolerances tol,
                         JacobianFactors& factors, const ConservedRows& conserved) {
  if (conserved.laws) conserved.laws->set_rows(1, nullptr, f.data());  // on the laws' manifold
  factors.solve(1, f.data());  // -(the Newton step to the root)
  const double distance = weighted_norm(x.size(), f.data(), x.data(), tol);
  if (distance <= 1.0) return "";
  return "the root of f is " + number_text(distance) + " tolerances from x* (a slow mode)";
}

// Converged where f and the Newton step to the root are both within the
// tolerances (weighted norms at most 1): f alone is small along a slow mode
// far from the root (a rate of 1e-4 makes the step 1e4 times f), and the
// formula's S is the root's, not x's. So Newton goes on to the root.
NewtonOutcome newton_steady_state(const Model& model, double t, const std::vector<double>& x0,
                                  const double* p, const NewtonSettings& settings,
                                  JacobianFactors& factors, Workspace* ws) {
  NewtonOutcome out;
  out.x = x0;
  std::vector<double> f, dx(x0.size());
  double norm = residual_norm(model, t, out.x.data(), p, settings.tol, f, ws);
  const ConservationLaws* laws = settings.conserved.laws;
  const std::string head = std::string("newton (") + factors.kind() +
                           (laws ? ", " + laws->describe() : std::string()) + "): ";
  for (int k = 0;; ++k) {
    if (!std::isfinite(norm)) {
      out.attempt = head + "f is NaN or Inf after " + iterations_text(k);
      return out;
    }
    if (!factors.factor(t, out.x.data(), p))
      return singular(k, norm, settings.sensitivities, factors, head, out);
    for (std::size_t i = 0; i < f.size(); ++i) dx[i] = -f[i];
    // The laws' rows: w^T (x0 - x) = 0, which every step from x0 keeps.
    if (laws) laws->set_rows(1, nullptr, dx.data());
    factors.solve(1, dx.data());
    const double step = weighted_norm(dx.size(), dx.data(), out.x.data(), settings.tol);
    if (norm <= 1.0 && step <= 1.0)
      return converged(model, t, p, k, norm, settings, factors, head, out, ws);
    const std::string where = " (weighted norm of f " + number_text(norm) +
                              ", of the step to the root " + number_text(step) + ")";
    if (k == settings.max_iterations) {
      out.attempt = head + "no convergence in " + iterations_text(k) + where;
      return out;
    }
    if (!damped_step(model, t, p, settings.tol, dx, out.x, norm, f, ws)) {
      out.attempt = head + "no step length reduces |f| after " + iterations_text(k) + where;
      return out;
    }
  }
}

}  // namespace odesens::estimate
