// Switches crossed at one instant whose times move differently with p.
//
// Two switches that fall on the same time at p (t > T1 and t > T2 with
// T1 = T2, or a fixed t > 10 and t > T at T = 10) part under a perturbation
// of p: along column j the one with the smaller dtau_r/dp_j comes first,
// and S takes each jump of f in that order, with the time derivative of
// its own switch,
//   S+ = S- + sum_r (f_{r-1} - f_r) dtau_r,                            (1)
// f_r on the branches with the first r switches crossed. The instant's own
// chain (forward_jump.hpp) executes its events at the time of its cause;
// the switches that part from the cause are crossed before it where their
// dtau is below the cause's (a term dT added to T, at x-), after it where
// above (a term dS added to S+, at x+). This is the directional derivative
// along +column j, as a forward difference sees it.
//
// Where every root crossed here reads t and p alone, dtau_r does not
// depend on S-, and the map S- -> S+ keeps the linear part of the single
// instant: the adjoint adds lambda- . dT_j + lambda+ . dS_j to gradient_j
// (adjoint_jump.cpp). Elsewhere (a switch of the states parts from the
// others, an event's trigger reads switches that part, the model cannot
// evaluate f on given branches) the instant moves as one, with a warning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "integrate/events/event_context.hpp"
#include "integrate/events/root_sides.hpp"

namespace odesens::integrate {

class CoincidentSwitches {
 public:
  explicit CoincidentSwitches(const EventContext& context);

  // At an instant at (t, x just before it), after the sides were located:
  // finds the roots whose truth changed and whether some part from
  // `cause`. Returns the cause to take (a root read by the trigger of an
  // event that turns true here, where there is one). active() after it:
  // the instant needs the terms dT and dS.
  // S: S just before it (nx x ns), or null (an adjoint's forward pass).
  std::size_t begin(double t, const double* x, const double* S, std::size_t cause,
                    RootSides& roots, EventWarnings& warnings);
  bool active() const { return active_; }
  // Not active, at an instant begin() was not called for.
  void clear() { active_ = false; }

  // dT (nx x columns) at x just before the instant: the switches crossed
  // before the cause along each column. unit: the columns are the np
  // parameters (for the adjoint's record); else the context's columns.
  void before_cause(double t, const double* x, RootSides& roots, bool unit, double* dT);
  // dS (nx x columns) at x after the instant, before the cells of floor
  // and ceil roots move on: the switches crossed after the cause.
  void after_cause(double t, const double* x, RootSides& roots, bool unit, double* dS);

 private:
  // The crossing time's derivative of changed root k along column j.
  double dtau(std::size_t k, std::size_t j, bool unit) const;
  // The parting roots (indices into changed_) crossed before (below) or
  // after the cause along column j, in the order they are crossed.
  void order_column(std::size_t j, bool unit, bool below, std::vector<std::size_t>& out) const;
  // f at x, as an offset into cache_f_ (cached by mask): before: on the
  // sides before the instant with the parting roots of `mask` crossed;
  // else on the sides after it with those of `mask` not crossed.
  std::size_t f_with(std::uint32_t mask, bool before, double t, const double* x,
                       RootSides& roots);
  // Comparisons the state arrives at exactly at the instant (g = 0, f
  // before it moving g through 0) into changed_.
  void add_arriving(double t, const double* x, RootSides& roots);
  bool moves_alike(std::size_t a, std::size_t b) const;
  // col (nx) += (f_a - f_b) dtau, f at offsets a and b of cache_f_.
  void add_jump(double* col, std::size_t a, std::size_t b, double dtau) const;
  std::uint32_t parting_bit(std::size_t k) const;
  // The cause's index in changed_, from the events that turn true here;
  // why the instant cannot be ordered ("" where it can).
  std::string cause_from_events();
  // rows_ of the changed roots, and their g_t and g_p.
  void time_rows(double t, const double* x, const double* S, RootSides& roots);
  // Why the parting roots cannot be ordered ("" where they can).
  std::string unorderable() const;

  EventContext ctx_;
  bool active_ = false;
  std::vector<std::size_t> changed_;  // roots whose truth changed here
  std::vector<int> sides_before_, sides_after_;
  // Per changed root: g_t, g_p and its row of time derivatives (time_rows),
  // and whether it is near its crossing rather than on it (add_arriving).
  std::vector<double> g_t_, rows_, g_p_;
  std::size_t row_width_ = 0;
  std::vector<char> near_;
  std::size_t cause_k_ = 0;            // the cause's index in changed_
  std::vector<std::size_t> parting_;   // indices into changed_ of roots that part
  std::vector<int> sides_scratch_;
  std::vector<std::uint32_t> cache_masks_;
  std::vector<double> cache_f_, f0_, g_, x_ahead_, gx_, gp_;
  std::vector<std::size_t> order_;
  std::unique_ptr<bool[]> triggers_before_, triggers_after_;
};

}  // namespace odesens::integrate
