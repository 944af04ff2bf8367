#include "integrate/events/coincident_switches.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"
#include "integrate/events/time_switches.hpp"

namespace odesens::integrate {

namespace {
constexpr std::size_t kMaxParting = 16;  // masks of the f cache fit 32 bits
}  // namespace

CoincidentSwitches::CoincidentSwitches(const EventContext& context) : ctx_(context) {
  if (!ctx_.system) return;
  f0_.assign(ctx_.nx, 0.0);
  g_.assign(ctx_.n_roots, 0.0);
  x_ahead_.assign(ctx_.nx, 0.0);
  gx_.assign(ctx_.nx, 0.0);
  gp_.assign(ctx_.np, 0.0);
  const std::size_t ne = ctx_.system->events().size();
  triggers_before_.reset(new bool[ne + 1]);
  triggers_after_.reset(new bool[ne + 1]);
}

std::size_t CoincidentSwitches::begin(double t, const double* x, const double* S,
                                      std::size_t cause, RootSides& roots,
                                      EventWarnings& warnings) {
  active_ = false;
  changed_.clear();
  near_.clear();
  parting_.clear();
  if (!ctx_.system || cause >= ctx_.n_roots) return cause;
  const auto& list = ctx_.system->roots();
  const std::vector<int>& before = roots.sides_before();
  const std::vector<int>& after = roots.sides();
  for (std::size_t i = 0; i < ctx_.n_roots; ++i)
    if (EventSystem::holds(list[i].comparison, before[i]) !=
        EventSystem::holds(list[i].comparison, after[i]))
      changed_.push_back(i);
  near_.assign(changed_.size(), 0);
  sides_before_ = before;
  sides_after_ = after;
  if (!changed_.empty()) add_arriving(t, x, roots);
  if (changed_.size() < 2) return cause;
  time_rows(t, x, S, roots);
  const auto at = std::find(changed_.begin(), changed_.end(), cause);
  if (at == changed_.end()) return cause;
  const auto located_cause = static_cast<std::size_t>(at - changed_.begin());
  cause_k_ = located_cause;
  std::string why = cause_from_events();
  for (std::size_t k = 0; k < changed_.size(); ++k)
    if (!moves_alike(k, cause_k_)) parting_.push_back(k);
  if (parting_.empty() && why.empty()) return changed_[cause_k_];
  if (why.empty()) why = unorderable();
  if (why.empty()) {
    active_ = true;
    return changed_[cause_k_];
  }
  // Moved as one: with the cause the integrator located, as where nothing
  // parts (an event's root as the cause took a state switch's dtau away).
  cause_k_ = located_cause;
  std::size_t other_k = (cause_k_ + 1) % changed_.size();
  for (std::size_t k = 0; k < changed_.size(); ++k)
    if (k != cause_k_ && !moves_alike(k, cause_k_)) {
      other_k = k;
      break;
    }
  const std::size_t other = changed_[other_k];
  warnings.warn("at t = " + number_text(t) + " the " + list[changed_[cause_k_]].text +
                " and the " + list[other].text + " are crossed at once, and their times move "
                "differently with p (" + why + "): the sensitivities across this instant move "
                "them together, with the time derivative of " + list[changed_[cause_k_]].text +
                " (one of the one-sided derivatives, or neither)");
  return changed_[cause_k_];
}

// Each changed root's crossing time moves by dtau = -(g_x S + g_p) / rate,
// rate = g_t + g_x f-. With S (a forward solve): the rows are dtau along
// each column; without (an adjoint's forward pass): (g_x, g_p) / rate,
// equal rows meaning equal dtau whatever S.
void CoincidentSwitches::time_rows(double t, const double* x, const double* S,
                                   RootSides& roots) {
  const std::size_t n = changed_.size(), nx = ctx_.nx, np = ctx_.np;
  const bool with_s = S && ctx_.ns > 0;
  row_width_ = with_s ? ctx_.ns : nx + np;
  g_t_.assign(n, 0.0);
  g_p_.assign(n * np, 0.0);
  rows_.assign(n * row_width_, 0.0);
  bool have_f0 = false;
  for (std::size_t k = 0; k < n; ++k) {
    double g_t = 0.0;
    ctx_.system->root_gradient(changed_[k], t, x, ctx_.p, &g_t, gx_.data(), gp_.data(), ctx_.ws);
    double rate = g_t;
    for (std::size_t i = 0; i < nx; ++i) {
      if (gx_[i] == 0.0) continue;
      if (!have_f0) roots.rhs_on_sides(t, x, sides_before_, f0_.data());
      have_f0 = true;
      rate += gx_[i] * f0_[i];
    }
    g_t_[k] = g_t;
    std::copy(gp_.begin(), gp_.end(), g_p_.begin() + static_cast<std::ptrdiff_t>(k * np));
    double* row = rows_.data() + k * row_width_;
    if (with_s) {
      for (std::size_t j = 0; j < ctx_.ns; ++j) {
        double num = ctx_.along(gp_.data(), 1, j);
        for (std::size_t i = 0; i < nx; ++i) num += gx_[i] * S[i + j * nx];
        row[j] = num;
      }
    } else {
      std::copy(gx_.begin(), gx_.end(), row);
      std::copy(gp_.begin(), gp_.end(), row + nx);
    }
    const bool still = std::all_of(row, row + row_width_, [](double v) { return v == 0.0; });
    const bool orderable = std::fabs(rate) > 0.0 && std::isfinite(rate);
    for (std::size_t i = 0; i < row_width_ && !still; ++i)
      row[i] = orderable ? -row[i] / rate : NAN;
  }
}

// A comparison the state arrives at exactly here (g = 0, x = t = c in x' = 1
// at t = T = c) is crossed at this instant too, though no root finder
// reported it (RootSides::settle_zero_sides takes its side after the
// jump): where g is across 0 64 ulps of t later along f before the
// instant, it joins the roots that changed, on that side. A g resting at 0
// that the instant sets moving is not one: it moves with the cause. A
// switch a few ulps of t short of its crossing (a clock state c = t meets c > 10 as
// t > 10 fires, with the state one ulp before; t > a b with a b =
// 0.06999999999999999 and t > 0.07) joins them as near: it crosses at an
// instant of its own, and their order is rounding's, which a warning says
// where their times part.
void CoincidentSwitches::add_arriving(double t, const double* x, RootSides& roots) {
  const auto& list = ctx_.system->roots();
  const double window = time_rounding(t);
  bool ahead = false;  // g_ at (t + window, x + window f-): where each root is then
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) {
    const int before = sides_before_[i];
    const bool on_zero = sides_after_[i] == 0;
    const bool unchanged = sides_after_[i] == before;
    if (!(on_zero || unchanged) || (before != 1 && before != -1) ||
        list[i].kind != EventSystem::Root::Kind::comparison)
      continue;
    if (!ahead) {
      roots.rhs_on_sides(t, x, sides_before_, f0_.data());
      for (std::size_t k = 0; k < ctx_.nx; ++k) x_ahead_[k] = x[k] + window * f0_[k];
      ctx_.system->root_values(t + window, x_ahead_.data(), ctx_.p, g_.data(), ctx_.ws);
      ahead = true;
    }
    const int side = EventSystem::side_of(g_[i]);
    if (side != -before || EventSystem::holds(list[i].comparison, side) ==
                               EventSystem::holds(list[i].comparison, before))
      continue;
    sides_after_[i] = side;
    changed_.push_back(i);
    near_.push_back(unchanged ? 1 : 0);
  }
}

// An event executes at the time of its trigger's roots. The cause becomes
// one read by an event that turns true here; the reason the instant cannot
// be ordered where a trigger reads roots that part (`t > T1 && t < T2`
// fires along one side only), or events that turn true here read roots
// that part (their executions would change order).
std::string CoincidentSwitches::cause_from_events() {
  const std::size_t ne = ctx_.system->events().size();
  if (ne == 0) return {};
  ctx_.system->triggers(sides_before_.data(), triggers_before_.get());
  ctx_.system->triggers(sides_after_.data(), triggers_after_.get());
  std::size_t turning = changed_.size();
  for (std::size_t e = 0; e < ne; ++e) {
    std::size_t first = changed_.size();
    const bool turns = !triggers_before_[e] && triggers_after_[e];
    for (std::size_t r : ctx_.system->trigger_roots(e)) {
      const auto at = std::find(changed_.begin(), changed_.end(), r);
      if (at == changed_.end()) continue;
      const auto k = static_cast<std::size_t>(at - changed_.begin());
      if (first == changed_.size()) first = k;
      if (!moves_alike(k, first)) return "an event's trigger reads both";
      if (!turns) continue;
      if (turning == changed_.size()) turning = k;
      if (!moves_alike(k, turning)) return "events execute at both";
    }
  }
  if (turning < changed_.size()) cause_k_ = turning;
  return {};
}

std::string CoincidentSwitches::unorderable() const {
  const auto& list = ctx_.system->roots();
  if (list[changed_[cause_k_]].reads_state) return "one reads the states";
  if (near_[cause_k_]) return "one is a few ulps of t from its crossing";
  bool switches_f = false;
  for (std::size_t k : parting_) {
    if (near_[k]) return "one is a few ulps of t from its crossing";
    if (list[changed_[k]].reads_state) return "one reads the states";
    if (std::isnan(rows_[k * row_width_])) return "one is touched, not crossed";
    switches_f = switches_f || list[changed_[k]].switches_rhs;
  }
  if (switches_f && ctx_.system->branch_roots().empty())
    return "the model cannot evaluate f on given branches";
  if (parting_.size() > kMaxParting) return "more than 16 of them";
  return {};
}

bool CoincidentSwitches::moves_alike(std::size_t a, std::size_t b) const {
  const std::size_t width = row_width_;
  const double* ra = rows_.data() + a * width;
  const double* rb = rows_.data() + b * width;
  double scale = 0.0;
  for (std::size_t i = 0; i < width; ++i)
    scale = std::max({scale, std::fabs(ra[i]), std::fabs(rb[i])});
  for (std::size_t i = 0; i < width; ++i)
    if (!(std::fabs(ra[i] - rb[i]) <= 1e-9 * scale)) return false;
  return true;
}

double CoincidentSwitches::dtau(std::size_t k, std::size_t j, bool unit) const {
  const double* gp = g_p_.data() + k * ctx_.np;
  const double num = unit ? gp[j] : ctx_.along(gp, 1, j);
  return num == 0.0 ? 0.0 : -num / g_t_[k];  // roots of t and p alone: g_x = 0
}

std::uint32_t CoincidentSwitches::parting_bit(std::size_t k) const {
  const auto at = std::find(parting_.begin(), parting_.end(), k);
  return std::uint32_t{1} << static_cast<unsigned>(at - parting_.begin());
}

void CoincidentSwitches::order_column(std::size_t j, bool unit, bool below,
                                      std::vector<std::size_t>& out) const {
  out.clear();
  const double c = dtau(cause_k_, j, unit);
  for (std::size_t k : parting_) {
    const double d = dtau(k, j, unit);
    if (below ? d < c : d > c) out.push_back(k);
  }
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    return dtau(a, j, unit) < dtau(b, j, unit);
  });
}

std::size_t CoincidentSwitches::f_with(std::uint32_t mask, bool before, double t,
                                       const double* x, RootSides& roots) {
  const std::size_t nx = ctx_.nx;
  for (std::size_t m = 0; m < cache_masks_.size(); ++m)
    if (cache_masks_[m] == mask) return m * nx;
  sides_scratch_ = before ? sides_before_ : roots.sides();
  for (std::size_t b = 0; b < parting_.size(); ++b) {
    if (!(mask & (std::uint32_t{1} << b))) continue;
    const std::size_t r = changed_[parting_[b]];
    sides_scratch_[r] = before ? sides_after_[r] : sides_before_[r];
  }
  cache_masks_.push_back(mask);
  cache_f_.resize(cache_masks_.size() * nx);
  roots.rhs_on_sides(t, x, sides_scratch_, cache_f_.data() + (cache_masks_.size() - 1) * nx);
  return (cache_masks_.size() - 1) * nx;
}

// col += (f_a - f_b) dtau, f_a and f_b cached at offsets a and b.
void CoincidentSwitches::add_jump(double* col, std::size_t a, std::size_t b, double dtau) const {
  for (std::size_t i = 0; i < ctx_.nx; ++i) col[i] += (cache_f_[a + i] - cache_f_[b + i]) * dtau;
}

// Eq. (1) for the switches crossed before the cause, and the cause's T
// taken with f after them: dT_j = sum (f_{r-1} - f_r) dtau_r + (f_B - f_0) dtau_c.
void CoincidentSwitches::before_cause(double t, const double* x, RootSides& roots, bool unit,
                                      double* dT) {
  const std::size_t nx = ctx_.nx, columns = unit ? ctx_.np : ctx_.ns;
  cache_masks_.clear();
  const std::size_t f0 = f_with(0, true, t, x, roots);
  for (std::size_t j = 0; j < columns; ++j) {
    double* col = dT + j * nx;
    std::fill(col, col + nx, 0.0);
    order_column(j, unit, true, order_);
    if (order_.empty()) continue;
    std::uint32_t mask = 0;
    std::size_t prev = f0;
    for (std::size_t k : order_) {
      mask |= parting_bit(k);
      const std::size_t next = f_with(mask, true, t, x, roots);
      add_jump(col, prev, next, dtau(k, j, unit));
      prev = next;
    }
    add_jump(col, prev, f0, dtau(cause_k_, j, unit));
  }
}

// The cause's S+ = T - f_A dtau_c with the switches after it not yet
// crossed, then eq. (1) for them: dS_j = (f+ - f_A) dtau_c + sum ...
void CoincidentSwitches::after_cause(double t, const double* x, RootSides& roots, bool unit,
                                     double* dS) {
  const std::size_t nx = ctx_.nx, columns = unit ? ctx_.np : ctx_.ns;
  cache_masks_.clear();
  const std::size_t f_plus = f_with(0, false, t, x, roots);
  for (std::size_t j = 0; j < columns; ++j) {
    double* col = dS + j * nx;
    std::fill(col, col + nx, 0.0);
    order_column(j, unit, false, order_);
    if (order_.empty()) continue;
    std::uint32_t mask = 0;
    for (std::size_t k : order_) mask |= parting_bit(k);
    std::size_t prev = f_with(mask, false, t, x, roots);
    add_jump(col, f_plus, prev, dtau(cause_k_, j, unit));
    for (std::size_t k : order_) {
      mask &= ~parting_bit(k);
      const std::size_t next = f_with(mask, false, t, x, roots);
      add_jump(col, prev, next, dtau(k, j, unit));
      prev = next;
    }
  }
}

}  // namespace odesens::integrate
