#include "integrate/events/root_sides.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "integrate/events/time_switches.hpp"

namespace odesens::integrate {
namespace {

using Comparison = EventSystem::Comparison;

int sign_of(double v) { return EventSystem::side_of(v); }
bool holds(Comparison c, int side) { return EventSystem::holds(c, side); }
bool is_equality(Comparison c) { return c == Comparison::eq || c == Comparison::ne; }

// A floor or ceil root's g: how far u is inside its cell [k, k + 1],
// negative once u has left it at either end (NaN where u is).
double into_cell(double u, double k) {
  const double above_lower = u - k, below_upper = k + 1.0 - u;
  return above_lower < below_upper ? above_lower : below_upper;
}

}  // namespace

RootSides::RootSides(const EventContext& context) : ctx_(context) {
  if (!ctx_.system) return;
  const std::size_t n = ctx_.n_roots;
  for (std::size_t i = 0; i < n; ++i)
    if (ctx_.system->roots()[i].kind != EventSystem::Root::Kind::comparison) stepped_.push_back(i);
  cell_.assign(n, 0.0);
  u_.assign(n, 0.0);
  g_.assign(n, 0.0);
  g_before_.assign(n, 0.0);
  sides_.assign(n, 0);
  sides_before_.assign(n, 0);
  sides_scratch_.assign(n, 0);
  f_.assign(ctx_.nx, 0.0);
  gx_.assign(ctx_.nx, 0.0);
  gp_.assign(ctx_.np, 0.0);
}

void RootSides::root_values(double t, const double* x, double* g) {
  if (ctx_.n_roots == 0) return;
  ctx_.system->root_values(t, x, ctx_.p, g, ctx_.ws);
  for (std::size_t i : stepped_) g[i] = into_cell(g[i], cell_[i]);
}

void RootSides::set_cell(std::size_t i, double k) {
  cell_[i] = k;
  g_[i] = into_cell(u_[i], k);
}

// The value of floor or ceil root i on its cell (f on the cell's branch):
// k for floor, k + 1 for ceil, whatever u is within rounding of the ends.
double RootSides::cell_value(std::size_t i) const {
  return ctx_.system->roots()[i].kind == EventSystem::Root::Kind::floor ? cell_[i] : cell_[i] + 1.0;
}

// The cell u moves into where it left cell k (move_cells): the next one on
// the side it left at, or the one it is in when an assignment moved it
// further.
double RootSides::next_cell(double u, double k) {
  return u >= k + 0.5 ? std::max(k + 1.0, std::floor(u)) : std::min(k - 1.0, std::ceil(u) - 1.0);
}

void RootSides::start(double t0, const double* x) {
  time_roots_read_until_ = -std::numeric_limits<double>::infinity();
  place_cells(t0, x);
  root_values(t0, x, g_.data());
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) sides_[i] = sign_of(g_[i]);
}

// Each floor or ceil root's cell: the integers u is between. On an
// integer, the cell u moves into along f, where floor(u) and ceil(u) keep
// the value the integrator sees from t on (the value at the integer itself
// holds at t alone); the root is then on its cell's end, where its
// comparison (ge) holds, so nothing switches as u moves in (floor(a t) and
// ceil(a t) from t0 = 0). Where u does not move, floor's value holds above
// the integer and ceil's below.
void RootSides::place_cells(double t, const double* x) {
  if (stepped_.empty()) return;
  ctx_.system->root_values(t, x, ctx_.p, u_.data(), ctx_.ws);
  bool have_rate = false;
  for (std::size_t i : stepped_) {
    const double u = u_[i];
    double k = std::floor(u);
    if (u == k) {
      if (!have_rate) ctx_.model.rhs(t, x, ctx_.p, f_.data(), ctx_.ws);
      have_rate = true;
      double u_t = 0.0;
      ctx_.system->root_gradient(i, t, x, ctx_.p, &u_t, gx_.data(), gp_.data(), ctx_.ws);
      for (std::size_t j = 0; j < ctx_.nx; ++j)
        if (gx_[j] != 0.0) u_t += gx_[j] * f_[j];
      const bool floor = ctx_.system->roots()[i].kind == EventSystem::Root::Kind::floor;
      if (u_t < 0.0 || (u_t == 0.0 && !floor)) k = u - 1.0;
    }
    set_cell(i, k);
    sides_[i] = sign_of(g_[i]);
  }
}

// After an instant, each floor or ceil root whose u left its cell (the
// integrator located the crossing, or an assignment moved u) takes the
// next cell on the side u left at, or the cell u is in when an assignment
// moved it further. u is then on the new cell's end (update_sides took a
// located crossing only where u had left the cell), and keeps the side it
// crossed to: inside.
void RootSides::move_cells(double t, const double* x) {
  if (stepped_.empty()) return;
  ctx_.system->root_values(t, x, ctx_.p, u_.data(), ctx_.ws);
  const auto& roots = ctx_.system->roots();
  for (std::size_t i : stepped_) {
    const double u = u_[i], k = cell_[i];
    if (holds(roots[i].comparison, sides_[i]) || !std::isfinite(u)) continue;
    set_cell(i, next_cell(u, k));
    sides_[i] = 1;
  }
}

void RootSides::update_sides(double t, const double* x, const int* found) {
  root_values(t, x, g_.data());
  const auto& roots = ctx_.system->roots();
  bool have_rate = false;
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) {
    // Read already at a later switch of the same instant (read_time_roots_until).
    if (!roots[i].reads_state && t < time_roots_read_until_ && !(found && found[i] != 0))
      continue;
    // A floor or ceil root reported while u is still inside its cell (a
    // root located a little early on a dense output, with the step taken
    // again to end there) has not switched yet: f and the jump of S wait
    // for u to cross, where it is located again.
    const bool stepped = roots[i].kind != EventSystem::Root::Kind::comparison;
    const bool on_side = sides_[i] == 1 || sides_[i] == -1;
    if (g_[i] == 0.0 && !stepped && on_side && motion_rate(i, t, x, have_rate) == 0.0) {
      // At exactly 0 with g' = 0 along f: g touches 0 here ((t - c)^2 > 0 at
      // t = c, located only where an output falls on it) or crosses with
      // g' = 0 there. The side stays; the next step tells which (where g
      // crosses, an instant an ulp later, whose g' is not 0). Taken as a
      // crossing, the touch's two instants put (f- - f+) dtau into S, dtau
      // of the second from g_p / g_t, both near 0 (dx/dc = 2 where it is 0).
    } else if (found && found[i] != 0 && !(stepped && g_[i] > 0.0)) {
      // Located by the integrator: the side it crossed to, except that an
      // equality holds (and an inequality fails) at the crossing itself.
      sides_[i] = is_equality(roots[i].comparison) ? 0 : (found[i] > 0 ? 1 : -1);
    } else if (g_[i] == 0.0 && !stepped && (sides_[i] == 1 || sides_[i] == -1) &&
               motion_side(i, t, x, have_rate) == sides_[i]) {
      // At exactly 0 but moving on into the side it is on: settled there at
      // an instant just now (an output at the same time), not a crossing.
    } else if (arriving_within_rounding(i, t, x, have_rate)) {
      // Taken across a few ulps of t early (an instant put on an output
      // time where the state rounded short of the threshold) and still
      // coming to it: the side stays, else the root crossed again there and
      // its event fired twice.
    } else {
      sides_[i] = sign_of(g_[i]);
    }
  }
}

bool RootSides::equality_located(const int* found) const {
  const auto& roots = ctx_.system->roots();
  for (std::size_t i = 0; found && i < ctx_.n_roots; ++i)
    if (found[i] != 0 && is_equality(roots[i].comparison)) return true;
  return false;
}

// An == or != located here held (failed) only at the crossing: just after
// it g has the sign it crossed to.
bool RootSides::cross_located_equalities(const int* found) {
  const auto& roots = ctx_.system->roots();
  bool crossed = false;
  for (std::size_t i = 0; i < ctx_.n_roots; ++i)
    if (found && found[i] != 0 && sides_[i] == 0 && is_equality(roots[i].comparison)) {
      sides_[i] = found[i] > 0 ? 1 : -1;
      crossed = true;
    }
  return crossed;
}

// A root whose comparison changed its truth, one the integrator located
// first; a side that changes without changing the comparison (from exactly
// 0 at t0 to the sign g moves to) changes nothing.
std::size_t RootSides::cause_root(const int* found) const {
  const auto& roots = ctx_.system->roots();
  auto changed = [&](std::size_t i) {
    return holds(roots[i].comparison, sides_[i]) != holds(roots[i].comparison, sides_before_[i]);
  };
  for (std::size_t i = 0; i < ctx_.n_roots; ++i)
    if (found && found[i] != 0 && changed(i)) return i;
  for (std::size_t i = 0; i < ctx_.n_roots; ++i)
    if (changed(i)) return i;
  return ctx_.n_roots;
}

bool RootSides::rhs_switched() const {
  const auto& roots = ctx_.system->roots();
  for (std::size_t i = 0; i < ctx_.n_roots; ++i)
    if (roots[i].switches_rhs &&
        holds(roots[i].comparison, sides_before_[i]) != holds(roots[i].comparison, sides_[i]))
      return true;
  return false;
}

// The roots whose g the assignment moved take their new sides; the others
// keep the side the integrator located them on.
void RootSides::take_moved_sides(double t, const double* x) {
  g_before_ = g_;
  root_values(t, x, g_.data());
  for (std::size_t i = 0; i < ctx_.n_roots; ++i)
    if (g_[i] != g_before_[i]) sides_[i] = sign_of(g_[i]);
}

// A comparison of f whose g is within rounding of 0 at (t, x) and whose
// rate g_t + g_x f points back to 0 on both of its sides: f drives the state
// into the switch from either side, and the solution can only slide along
// it (where a solver's steps then shrink until its step limit).
std::string RootSides::sliding_switch(double t, const double* x, double reach_within) {
  const auto& roots = ctx_.system->roots();
  ctx_.system->root_values(t, x, ctx_.p, u_.data(), ctx_.ws);
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) {
    if (!roots[i].switches_rhs || roots[i].kind != EventSystem::Root::Kind::comparison) continue;
    double g_t = 0.0, scale = 1.0;
    ctx_.system->root_gradient(i, t, x, ctx_.p, &g_t, gx_.data(), gp_.data(), ctx_.ws);
    for (std::size_t j = 0; j < ctx_.nx; ++j) scale += std::fabs(gx_[j] * x[j]);
    if (!(std::fabs(u_[i]) <= 1e-6 * scale)) continue;
    // Called every 1000 steps (EventedSolution::watch_for_sliding): the
    // sides in a kept buffer, not a new vector.
    sides_scratch_ = sides_;
    double rate[2] = {0.0, 0.0};
    for (int k = 0; k < 2; ++k) {
      sides_scratch_[i] = k == 0 ? 1 : -1;
      rhs_on_sides(t, x, sides_scratch_, f_.data());
      rate[k] = g_t;
      for (std::size_t j = 0; j < ctx_.nx; ++j) rate[k] += gx_[j] * f_[j];
    }
    // The time g takes to reach 0 along f on its side: a state that comes
    // to the switch only asymptotically (x' = -k (x - a) above it) is no
    // slide, however close it is.
    const double rate_here = u_[i] > 0.0 ? rate[0] : rate[1];
    const bool reaches = !(std::fabs(u_[i]) > reach_within * std::fabs(rate_here));
    if (rate[0] < 0.0 && rate[1] > 0.0 && reaches)
      return "the state is on the " + roots[i].text +
             ", and f points into it from both sides (g' = " + number_text(rate[1]) +
             " below it, " + number_text(rate[0]) +
             " above): the solution slides along the switch, which the solver can only follow "
             "by crossing it at every step. Make the switch smooth (a steep Hill function or "
             "tanh) or model the motion along it";
  }
  return {};
}

// A floor or ceil root's value for `sides`: its cell's, or where the side
// says u left the cell at this instant (before move_cells), the next cell's.
double RootSides::stepped_value(std::size_t r, double t, const double* x,
                                const std::vector<int>& sides) {
  if (holds(ctx_.system->roots()[r].comparison, sides[r])) return cell_value(r);
  ctx_.system->root_values(t, x, ctx_.p, u_.data(), ctx_.ws);
  const double k = next_cell(u_[r], cell_[r]);
  return ctx_.system->roots()[r].kind == EventSystem::Root::Kind::floor ? k : k + 1.0;
}

double RootSides::motion_rate(std::size_t i, double t, const double* x, bool& have_rate) {
  if (!have_rate) rhs_on_sides(t, x, sides_, f_.data());
  have_rate = true;
  double rate = 0.0;
  ctx_.system->root_gradient(i, t, x, ctx_.p, &rate, gx_.data(), gp_.data(), ctx_.ws);
  for (std::size_t j = 0; j < ctx_.nx; ++j)
    if (gx_[j] != 0.0) rate += gx_[j] * f_[j];
  return rate;
}

bool RootSides::crossing_motion(std::size_t i, double t, const double* x, const double* tol,
                                double& rate, double& g_tolerance) {
  const auto& root = ctx_.system->roots()[i];
  if (!root.reads_state || root.kind != EventSystem::Root::Kind::comparison) return false;
  bool have_rate = false;
  rate = motion_rate(i, t, x, have_rate);  // leaves g_x in gx_
  g_tolerance = 0.0;
  for (std::size_t j = 0; j < ctx_.nx; ++j) g_tolerance += std::fabs(gx_[j]) * tol[j];
  return true;
}

bool RootSides::arriving_within_rounding(std::size_t i, double t, const double* x,
                                         bool& have_rate) {
  const auto& root = ctx_.system->roots()[i];
  const int side = sides_[i];
  if (!root.reads_state || root.kind != EventSystem::Root::Kind::comparison ||
      !(side == 1 || side == -1) || sign_of(g_[i]) != -side)
    return false;
  const double rate = motion_rate(i, t, x, have_rate);
  return sign_of(rate) == side && std::fabs(g_[i]) <= time_rounding(t) * std::fabs(rate);
}

int RootSides::motion_side(std::size_t i, double t, const double* x, bool& have_rate) {
  const int side = sign_of(motion_rate(i, t, x, have_rate));
  return side == 1 || side == -1 ? side : 0;
}

bool RootSides::settle_zero_sides(double t, const double* x) {
  const auto& roots = ctx_.system->roots();
  bool have_rate = false, changed = false;
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) {
    if (g_[i] != 0.0) continue;
    if (roots[i].kind != EventSystem::Root::Kind::comparison) {
      changed = leaves_its_cell(i, t, x, have_rate) || changed;
      continue;
    }
    const int side = motion_side(i, t, x, have_rate);
    if (side == 0) continue;  // resting on the threshold, or NaN
    const Comparison c = roots[i].comparison;
    changed = changed || holds(c, side) != holds(c, sides_[i]);
    sides_[i] = side;
  }
  return changed;
}

// A floor or ceil root on an end of its cell (g = 0) whose u moves out of
// it along f: it switches at this instant (ceil(c x) of an x resting on 0
// that a switch of t sets moving), which no integrator reports (CVODES
// starts at g = 0 without a side, and g < 0 just after). Its side marks
// the crossing, and move_cells moves it on. True when it does.
bool RootSides::leaves_its_cell(std::size_t i, double t, const double* x, bool& have_rate) {
  // A floor or ceil of t alone leaves its cell at a switch of t of its own
  // (time_switches.hpp), with its own d(tau)/dp.
  if (!ctx_.system->roots()[i].reads_state) return false;
  if (!holds(ctx_.system->roots()[i].comparison, sides_[i])) return false;  // crossed already
  ctx_.system->root_values(t, x, ctx_.p, u_.data(), ctx_.ws);
  const double u = u_[i];
  const int rate = motion_side(i, t, x, have_rate);
  const bool at_upper = u == cell_[i] + 1.0, at_lower = u == cell_[i];
  if (!((at_upper && rate > 0) || (at_lower && rate < 0))) return false;
  sides_[i] = -1;
  return true;
}

void RootSides::branch_truth(double t, const double* x, const std::vector<int>& sides,
                             double* out) {
  const auto& branches = ctx_.system->branch_roots();
  for (std::size_t i = 0; i < branches.size(); ++i) {
    const std::size_t r = branches[i];
    out[i] = ctx_.system->roots()[r].kind != EventSystem::Root::Kind::comparison
                 ? stepped_value(r, t, x, sides)
                 : holds(ctx_.system->roots()[r].comparison, sides[r]) ? 1.0 : 0.0;
  }
}

// A state found on the other side of a switch of f than the one the
// solution holds lies within rounding of it (a located crossing, read at
// the bracket's new end): moved along g_x until g is on the held side, by
// steps that double from |g|, and kept only where the move stays within
// rounding of x.
bool RootSides::onto_sides(double t, const double* x, double* out) {
  const std::size_t nx = ctx_.model.nx();
  std::copy(x, x + nx, out);
  if (!ctx_.system) return false;
  bool moved = false;
  nudge_g_.resize(ctx_.n_roots);
  gx_.resize(nx);
  gp_.resize(ctx_.model.np());
  for (const std::size_t r : ctx_.system->branch_roots()) {
    if (!compares_on_a_side(r, true)) continue;
    const EventSystem::Root& root = ctx_.system->roots()[r];
    ctx_.system->root_values(t, out, ctx_.p, nudge_g_.data(), ctx_.ws);
    const bool held = holds(root.comparison, sides_[r]);
    double g = nudge_g_[r];
    if (!std::isfinite(g) || holds(root.comparison, sign_of(g)) == held) continue;
    double g_t = 0.0;
    ctx_.system->root_gradient(r, t, out, ctx_.p, &g_t, gx_.data(), gp_.data(), ctx_.ws);
    double norm2 = 0.0;
    for (double v : gx_) norm2 += v * v;
    if (!(norm2 > 0.0) || !std::isfinite(norm2)) continue;
    double scale = std::numeric_limits<double>::min();
    for (std::size_t i = 0; i < nx; ++i) scale = std::max(scale, std::fabs(out[i]));
    nudge_x_.assign(out, out + nx);
    // From |g| or the change of g that one ulp of x makes, whichever is more.
    double eta = std::max(std::fabs(g),
                          std::numeric_limits<double>::epsilon() * scale * std::sqrt(norm2));
    for (int k = 0; k < 8 && holds(root.comparison, sign_of(g)) != held; ++k, eta *= 2.0) {
      const double shift = (static_cast<double>(sides_[r]) * eta - nudge_g_[r]) / norm2;
      for (std::size_t i = 0; i < nx; ++i) nudge_x_[i] = out[i] + shift * gx_[i];
      ctx_.system->root_values(t, nudge_x_.data(), ctx_.p, nudge_g_.data(), ctx_.ws);
      g = nudge_g_[r];
    }
    bool within_rounding = holds(root.comparison, sign_of(g)) == held;
    for (std::size_t i = 0; within_rounding && i < nx; ++i)
      within_rounding = std::fabs(nudge_x_[i] - out[i]) <=
                        64.0 * std::numeric_limits<double>::epsilon() * scale;
    if (!within_rounding) continue;
    std::copy(nudge_x_.begin(), nudge_x_.end(), out);
    moved = true;
  }
  return moved;
}

bool RootSides::compares_on_a_side(std::size_t r, bool of_states) const {
  const EventSystem::Root& root = ctx_.system->roots()[r];
  return root.kind == EventSystem::Root::Kind::comparison && root.reads_state == of_states &&
         !is_equality(root.comparison) && sides_[r] != 0;
}

double RootSides::time_onto_sides(double t, const double* x) {
  if (!ctx_.system) return t;
  nudge_g_.resize(ctx_.n_roots);
  double t_on = t;
  for (int k = 0; k <= 64; ++k, t_on = std::nextafter(t_on, HUGE_VAL)) {
    bool all_hold = true;
    ctx_.system->root_values(t_on, x, ctx_.p, nudge_g_.data(), ctx_.ws);
    for (const std::size_t r : ctx_.system->branch_roots()) {
      if (!compares_on_a_side(r, false)) continue;
      const Comparison c = ctx_.system->roots()[r].comparison;
      all_hold = all_hold && (!std::isfinite(nudge_g_[r]) ||
                              holds(c, sign_of(nudge_g_[r])) == holds(c, sides_[r]));
    }
    if (all_hold) return t_on;
  }
  return t;
}

bool RootSides::off_sides(double t, const double* x) {
  if (!ctx_.system) return false;
  bool evaluated = false;
  for (const std::size_t r : ctx_.system->branch_roots()) {
    if (!compares_on_a_side(r, true)) continue;
    nudge_g_.resize(ctx_.n_roots);
    if (!evaluated) ctx_.system->root_values(t, x, ctx_.p, nudge_g_.data(), ctx_.ws);
    evaluated = true;
    const Comparison c = ctx_.system->roots()[r].comparison;
    if (std::isfinite(nudge_g_[r]) && holds(c, sign_of(nudge_g_[r])) != holds(c, sides_[r]))
      return true;
  }
  return false;
}

void RootSides::rhs_on_sides(double t, const double* x, const std::vector<int>& sides,
                             double* out) {
  const auto& branches = ctx_.system->branch_roots();
  if (branches.empty()) {
    ctx_.model.rhs(t, x, ctx_.p, out, ctx_.ws);
    return;
  }
  branch_truth_.resize(branches.size());
  branch_truth(t, x, sides, branch_truth_.data());
  ctx_.system->rhs_points_on_branches(1, &t, x, ctx_.p, branch_truth_.data(), out, ctx_.ws);
}

}  // namespace odesens::integrate
