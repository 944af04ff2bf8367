// The side of every root function of the model's event system, which the
// triggers (event_schedule.hpp) and the switches of f read, and the cells
// of its floor and ceil roots.
//
// At each instant the side of every root function is updated: the
// direction of the crossing for the roots the integrator reported, else
// the sign of g. A floor or ceil root's g is the distance of its argument
// u into its cell of integers (EventSystem::Root::Kind), which moves on
// when u left it.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "integrate/events/event_context.hpp"

namespace odesens::integrate {

class RootSides {
 public:
  explicit RootSides(const EventContext& context);

  // g at (t, x): what integrators locate the roots of (a floor or ceil
  // root: the distance of u into its current cell).
  void root_values(double t, const double* x, double* g);
  // The side of every root function as of the last instant (or t0), and
  // as of before the current one (remember_sides()).
  const std::vector<int>& sides() const { return sides_; }
  const std::vector<int>& sides_before() const { return sides_before_; }

  // At t0: the cells, and the sides from the signs of g.
  void start(double t0, const double* x);
  // The cells of the floor and ceil roots: the one u is in at (t, x), or
  // on an integer moves into (place); the next one for those whose u left
  // theirs at an instant (move).
  void place_cells(double t, const double* x);
  void move_cells(double t, const double* x);

  // At an instant: the sides before it are kept, then updated from the
  // roots the integrator found (n_roots, CVODES' convention: +1 / -1 for a
  // root crossed upward / downward, 0 else; or null).
  void remember_sides() { sides_before_ = sides_; }
  void update_sides(double t, const double* x, const int* found);
  // Switches of t alone a few ulps apart are one instant, their roots read
  // at the last of them, t_read: until then an instant (a delayed execution
  // between them, an output) does not read them again, where the later
  // ones are still on their old side and would cross a second time.
  void read_time_roots_until(double t_read) { time_roots_read_until_ = t_read; }
  // An == or != root was found: such a comparison changes just after its
  // crossing too.
  bool equality_located(const int* found) const;
  // The found == and != roots left at side 0 take the side they crossed
  // to; true when there was one.
  bool cross_located_equalities(const int* found);
  // The root that caused the instant (n_roots: none, a scheduled time).
  std::size_t cause_root(const int* found) const;
  // A comparison in f changed its truth since remember_sides().
  bool rhs_switched() const;

  // g at (t, x), for settle_zero_sides.
  void refresh(double t, const double* x) { root_values(t, x, g_.data()); }
  // After an assignment at (t, x): the roots whose g it moved take their
  // new sides.
  void take_moved_sides(double t, const double* x);
  // After an instant: a comparison root left at exactly g = 0 (an
  // assignment put the state on the threshold, or the integrator located
  // the root there) takes the side g moves to along f, which no integrator
  // reports as a crossing (CVODES starts a restart at g = 0 without a side);
  // a floor or ceil root on its cell's end that u leaves along f switches.
  // True when a comparison changed its truth (the triggers are evaluated
  // again at the same instant).
  bool settle_zero_sides(double t, const double* x);

  // f at (t, x) with every switch of f on its branch for `sides`, a floor
  // or ceil on the value of its current cell, or of the next where its side
  // says u left the cell (f itself where the model has no switches or
  // cannot evaluate f on given branches).
  void rhs_on_sides(double t, const double* x, const std::vector<int>& sides, double* out);
  // The truth of every switch of f (EventSystem::branch_roots, as
  // rhs_points_on_branches reads it) for `sides`, as rhs_on_sides takes it.
  void branch_truth(double t, const double* x, const std::vector<int>& sides, double* out);

  // out (nx) = x, moved within rounding onto the current sides of the
  // switches of f that compare states (< <= > >=) where x is on the other:
  // a state at a located crossing, for the Jacobians of the step that
  // ends there, which hold the branches before it. True when moved.
  bool onto_sides(double t, const double* x, double* out);
  // The first t' >= t, within 64 ulps, at which every switch of f of t
  // alone (< <= > >=) holds its current side; t where there is none.
  double time_onto_sides(double t, const double* x);
  // Whether x is on another side than the current one of such a switch.
  bool off_sides(double t, const double* x);

  // How a located crossing of root i (a comparison of the states) at
  // (t, x) moves: its rate g_t + g_x f with f on the current sides (the
  // ones before the instant), and the tolerance of g, sum_j |g_x_j| tol_j
  // for the states' tolerances tol (nx). False where root i is no such
  // comparison.
  bool crossing_motion(std::size_t i, double t, const double* x, const double* tol, double& rate,
                       double& g_tolerance);

  // EventRunner::sliding_switch.
  std::string sliding_switch(double t, const double* x,
                             double reach_within = std::numeric_limits<double>::infinity());

 private:
  void set_cell(std::size_t i, double k);  // and g_[i] from u_[i]
  double cell_value(std::size_t i) const;  // floor or ceil root i's value on its cell
  static double next_cell(double u, double k);
  double stepped_value(std::size_t r, double t, const double* x, const std::vector<int>& sides);
  bool leaves_its_cell(std::size_t i, double t, const double* x, bool& have_rate);
  // The side root i's g moves to along f (on the current sides) at (t, x):
  // +1, -1, or 0 where it stays or is NaN. have_rate: f is computed once.
  // Whether root i's g, on the side opposite to the one it holds, reaches
  // 0 into it along f within the rounding of t (time_rounding).
  bool arriving_within_rounding(std::size_t i, double t, const double* x, bool& have_rate);
  int motion_side(std::size_t i, double t, const double* x, bool& have_rate);
  // g_t + g_x f of root i at (t, x), f on the current sides (NaN stays NaN).
  double motion_rate(std::size_t i, double t, const double* x, bool& have_rate);
  // The switches of f that onto_sides and off_sides read: comparisons
  // (< <= > >=) of states (time_onto_sides: of t alone), with a side.
  bool compares_on_a_side(std::size_t r, bool of_states) const;

  EventContext ctx_;
  std::vector<double> g_, g_before_;
  std::vector<int> sides_, sides_before_;
  std::vector<int> sides_scratch_;  // sliding_switch's sides of one root flipped
  double time_roots_read_until_ = -std::numeric_limits<double>::infinity();
  std::vector<std::size_t> stepped_;  // the floor and ceil roots
  // By root: the lower integer k of a floor or ceil root's cell [k, k + 1],
  // and u (scratch).
  std::vector<double> cell_, u_;
  // Scratch: f where a root's motion along it is taken, a root's gradient,
  // the branches of f.
  std::vector<double> f_, gx_, gp_, branch_truth_, nudge_g_, nudge_x_;
};

}  // namespace odesens::integrate
