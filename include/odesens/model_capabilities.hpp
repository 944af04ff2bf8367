// Optional capabilities of a Model: services that only some models offer
// and only some methods need. Model's accessors (second_derivatives(),
// batched_rhs(), observable_set()) return null when a model lacks one; a
// method declares what it needs in its MethodCapabilities and the registry
// refuses a model without it, with one message naming what is missing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "odesens/sparsity.hpp"
#include "odesens/workspace.hpp"

namespace odesens {

// The second time derivative along solutions, a = xddot = J_x f + df/dt,
// and its derivatives (the odeSD method's J_a = da/dx, A_p = da/dp, and
// da/dt for its first-step estimate).
class SecondDerivatives {
 public:
  virtual ~SecondDerivatives() = default;
  virtual void xddot(double t, const double* x, const double* p, double* out,
                     Workspace* ws = nullptr) const = 0;
  // da/dx: sparse pattern (nx x nx), values in pattern order, dense.
  virtual const SparsityPattern& xddot_jac_x_pattern() const = 0;
  virtual void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                                  Workspace* ws = nullptr) const = 0;
  virtual void xddot_jac_x(double t, const double* x, const double* p, double* J,
                           Workspace* ws = nullptr) const = 0;
  // da/dp, dense nx x np.
  virtual void xddot_jac_p(double t, const double* x, const double* p, double* Jp,
                           Workspace* ws = nullptr) const = 0;
  // da/dp on a sparse pattern (nx x np), so that storage and work scale with
  // its non-zeros; null when the model gives only the dense form.
  virtual const SparsityPattern* xddot_jac_p_pattern() const { return nullptr; }
  // Values in the order of xddot_jac_p_pattern(). The default serves models
  // without a pattern (all nx*np values, the dense form); a model that gives
  // a pattern overrides it.
  virtual void xddot_jac_p_values(double t, const double* x, const double* p, double* values,
                                  Workspace* ws = nullptr) const;
  // da/dt (partial derivative in t at fixed x), nx.
  virtual void xddot_dt(double t, const double* x, const double* p, double* out,
                        Workspace* ws = nullptr) const = 0;
};

// f at several points at once: F (nx x n) = f(t[k], X[:,k], P[:,k]), in
// passes of the workspace's lane width.
class BatchedRhs {
 public:
  virtual ~BatchedRhs() = default;
  virtual void rhs_points(std::size_t n, const double* t, const double* X, const double* P,
                          double* F, Workspace* ws = nullptr) const = 0;

  // The comparisons, floors and ceils of f that read parameters but neither
  // t nor x (SBML's piecewise(1, k > 0, 0)): f is discontinuous in p there
  // but never switches during a solve.
  virtual std::size_t parameter_branch_count() const { return 0; }
  // rhs_points with each of them taken as point 0 evaluates it, for every
  // point: perturbed trajectories of internal differences follow the
  // nominal's branch where a perturbed parameter would cross to the other.
  virtual void rhs_points_on_first_parameters(std::size_t n, const double* t, const double* X,
                                              const double* P, double* F,
                                              Workspace* ws = nullptr) const {
    rhs_points(n, t, X, P, F, ws);
  }
  // J_x(t, x, p) V (nv columns, as Model::jvp) with those comparisons taken
  // as they are at p_first; only where parameter_branch_count() > 0.
  virtual void jvp_on_first_parameters(double t, const double* x, const double* p,
                                       const double* p_first, std::size_t nv, const double* V,
                                       double* out, Workspace* ws = nullptr) const;
};

// Adjoint products that reuse the value sweep of a right-hand-side
// evaluation, for reverse sweeps over recomputed stages (erk_adjoint): an
// evaluation keeps its intermediate values in one of the workspace's
// numbered slots, and the products at that point later start from them.
class RetainedValues {
 public:
  virtual ~RetainedValues() = default;
  // f at (t, x, p), keeping what vjp_accumulate_retained(slot) needs in
  // the workspace. The same f whichever slot; a slot's earlier values are
  // replaced.
  virtual void rhs_retained(std::size_t slot, double t, const double* x, const double* p,
                            double* f, Workspace* ws) const = 0;
  // Model::vjp_accumulate at the point of slot's last rhs_retained, without
  // evaluating f's intermediate values again: bitwise the same products.
  virtual void vjp_accumulate_retained(std::size_t slot, std::size_t nw, const double* W,
                                       double* out_x, double* out_p, Workspace* ws) const = 0;
};

// Discrete events and discontinuities of f: what a method needs to stop
// the integration where something switches and to carry sensitivities
// across (docs/events.md).
//
// Root functions g_i(t, x, p) are the differences a - b of the comparisons
// `a < b`, `a >= b`, ... that appear in the events' triggers and in f (a
// piecewise f switches where one of them changes sign), and the arguments
// u of floor(u) and ceil(u) in f (Root::Kind). The "side" of a
// root function is the sign of g_i (-1, 0, +1); a comparison holds or not
// on each side (on side 0, exactly at the root, as the comparison says).
// A trigger is a logical combination of comparisons and is evaluated from
// the sides alone, so that an integrator that has just located a root can
// say on which side it now is without relying on the sign of a g_i that
// is zero to rounding.
//
// An event fires when its trigger turns from false to true, executes after
// its delay (0 when it has none), and then assigns new values to some
// states (in state units: a species' amount). SBML Level 3's semantics:
// initial trigger value, persistence, priority, values from the trigger or
// the execution time.
class EventSystem {
 public:
  enum class Comparison { lt, le, gt, ge, eq, ne };
  struct Event {
    std::string id;                       // for messages
    bool initial_value = true;            // the trigger's value just before t0
    bool persistent = true;               // a pending execution survives the trigger turning false
    bool values_from_trigger_time = true; // assignments evaluated when it fires, not when it executes
    bool has_delay = false;
    bool has_priority = false;
    std::vector<std::size_t> targets;     // the states it assigns, in order
  };
  struct Root {
    // comparison: g = a - b of a comparison. floor, ceil: f reads floor(u)
    // or ceil(u) of a u that depends on t or x, so f switches wherever u
    // crosses an integer; g is u itself. A method reads such a root as the
    // distance of u into the cell [k, k + 1] of integers it is in,
    // min(u - k, k + 1 - u), under `comparison` ge (the EventRunner of
    // integrate/events/ keeps the cell): the comparison fails as soon as u
    // has left the cell, however many integers one step crossed, and holds
    // on the cell's ends.
    enum class Kind { comparison, floor, ceil };
    Comparison comparison;
    bool switches_rhs = false;  // f depends on this comparison (a discontinuity of f)
    bool moves = false;         // g depends on the states or the parameters (not on t alone)
    bool reads_state = false;   // g depends on the states
    std::string text;           // the comparison, for messages
    Kind kind = Kind::comparison;
  };

  // The side of a root function with value g: its sign, or kUnordered for
  // NaN, where every comparison but != fails (as on NaN operands).
  static constexpr int kUnordered = 2;
  static int side_of(double g) { return g > 0.0 ? 1 : g < 0.0 ? -1 : g == 0.0 ? 0 : kUnordered; }
  // Whether a comparison holds on a side.
  static bool holds(Comparison c, int side) {
    if (side == kUnordered) return c == Comparison::ne;
    switch (c) {
      case Comparison::lt: return side < 0;
      case Comparison::le: return side <= 0;
      case Comparison::gt: return side > 0;
      case Comparison::ge: return side >= 0;
      case Comparison::eq: return side == 0;
      case Comparison::ne: return side != 0;
    }
    return false;
  }

  virtual ~EventSystem() = default;
  virtual const std::vector<Event>& events() const = 0;
  virtual const std::vector<Root>& roots() const = 0;
  // g (roots().size()) at (t, x, p).
  virtual void root_values(double t, const double* x, const double* p, double* g,
                           Workspace* ws = nullptr) const = 0;
  // dg_i/dt, dg_i/dx (nx), dg_i/dp (np) of root i.
  virtual void root_gradient(std::size_t i, double t, const double* x, const double* p,
                             double* g_t, double* g_x, double* g_p,
                             Workspace* ws = nullptr) const = 0;
  // An enclosure [lo, hi] of g_i over every t in [ta, tb] at p, for a root
  // of t alone (reads_state false): it lets a solver find every switch of
  // t alone before it steps, pulses narrower than its steps too
  // (integrate/events/time_switches.hpp). lo and hi both NaN: g_i is NaN
  // at every t there. False where the model cannot enclose g_i (the
  // default).
  virtual bool root_range_over_time(std::size_t i, double ta, double tb, const double* p,
                                    double* lo, double* hi, Workspace* ws = nullptr) const {
    (void)i, (void)ta, (void)tb, (void)p, (void)lo, (void)hi, (void)ws;
    return false;
  }
  // Each event's trigger (events().size() flags) from the sides of the roots.
  virtual void triggers(const int* sides, bool* out) const = 0;
  // The roots event k's trigger reads.
  virtual const std::vector<std::size_t>& trigger_roots(std::size_t k) const = 0;
  // Delay (0 without one) and priority (0 without one) of event k at (t, x, p).
  virtual double delay(std::size_t k, double t, const double* x, const double* p,
                       Workspace* ws = nullptr) const = 0;
  virtual void delay_gradient(std::size_t k, double t, const double* x, const double* p,
                              double* d_t, double* d_x, double* d_p,
                              Workspace* ws = nullptr) const = 0;
  virtual double priority(std::size_t k, double t, const double* x, const double* p,
                          Workspace* ws = nullptr) const = 0;
  // The values event k assigns to its targets (targets.size()), from (t, x, p).
  virtual void assignment_values(std::size_t k, double t, const double* x, const double* p,
                                 double* values, Workspace* ws = nullptr) const = 0;
  // Their derivatives: h_t (m), h_x (m x nx), h_p (m x np), column-major, m = targets.size().
  virtual void assignment_jacobians(std::size_t k, double t, const double* x, const double* p,
                                    double* h_t, double* h_x, double* h_p,
                                    Workspace* ws = nullptr) const = 0;

  // The comparisons, floors and ceils of f that switch it (roots with
  // switches_rhs, by root index), in the order rhs_points_on_branches reads
  // their truth.
  virtual const std::vector<std::size_t>& branch_roots() const = 0;
  // f at n points as BatchedRhs::rhs_points gives it (X nx x n, P np x n,
  // F nx x n, column-major), with comparison i of branch_roots() taken as
  // truth[i] (0 or 1, for every point) instead of evaluated at each point,
  // and a floor or ceil i as the integer truth[i], and those that read
  // parameters alone (BatchedRhs::parameter_branch_count) as point 0
  // evaluates them: for points that must follow the branches of one
  // trajectory (the perturbed trajectories of internal differences follow
  // the nominal's).
  virtual void rhs_points_on_branches(std::size_t n, const double* t, const double* X,
                                      const double* P, const double* truth, double* F,
                                      Workspace* ws = nullptr) const = 0;
  // The products of f on the branches `truth` gives (as
  // rhs_points_on_branches takes them, at one point): out_x (nx x nw) =
  // J_x^T W stored, out_p (np x nw) += J_p^T W (either may be null). For
  // a discrete adjoint whose steps were taken on held branches.
  // Default: Error(unsupported).
  virtual void vjp_on_branches(double t, const double* x, const double* p, const double* truth,
                               std::size_t nw, const double* W, double* out_x, double* out_p,
                               Workspace* ws = nullptr) const;
};

// Named values of a model beyond its states (.ode lets and outputs, SBML
// ids with a value), as functions of (t, x, p). Models without it observe
// their states only.
class ObservableSet {
 public:
  virtual ~ObservableSet() = default;
  virtual const std::vector<std::string>& observable_names() const = 0;
  // out (observable_names().size()) at (t, x, p).
  virtual void observables(double t, const double* x, const double* p, double* out,
                           Workspace* ws = nullptr) const = 0;
  // Exact gradients of the observables which[0..n) (indices into
  // observable_names()): out_x (nx x n) and out_p (np x n), column m for
  // which[m]; either may be null. For integrands (integrand.hpp). Default:
  // Error(unsupported).
  virtual void observable_gradients(double t, const double* x, const double* p, std::size_t n,
                                    const std::size_t* which, double* out_x, double* out_p,
                                    Workspace* ws = nullptr) const;
  // A switch of observable i that moves with t or the states (a comparison,
  // floor or ceil reading them), as text for messages; empty where it has
  // none. Default: empty (the model does not tell).
  virtual std::string observable_switch(std::size_t i) const;
};

}  // namespace odesens
