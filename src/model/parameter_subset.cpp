// The parameter-subset model (parameter_subset.hpp).
#include "model/parameter_subset.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "odesens/model_capabilities.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

// The full model's workspace and the buffers of the translation: the full
// parameter vector and outputs in all of the full model's parameters.
class SubsetWorkspace final : public Workspace {
 public:
  SubsetWorkspace(std::unique_ptr<Workspace> full_ws, std::vector<double> held, const void* owner)
      : Workspace(full_ws->lane_width(), owner), inner(std::move(full_ws)), p(std::move(held)) {}
  std::unique_ptr<Workspace> inner;
  std::vector<double> p;            // the full model's parameters
  std::vector<double> full_out;     // an output in all parameters
  std::vector<double> full_points;  // P of rhs_points_on_branches
  double* out(std::size_t n) {
    if (full_out.size() < n) full_out.resize(n);
    return full_out.data();
  }
};

class SubsetModel;

// The full model's second derivatives (odeSD's a = df/dt along x' = f and
// its partial derivatives), with da/dp restricted to the free columns as
// J_p is.
class SubsetSecondDerivatives final : public SecondDerivatives {
 public:
  SubsetSecondDerivatives(const SubsetModel& owner, const SecondDerivatives& full);
  void xddot(double t, const double* x, const double* p, double* out,
             Workspace* ws) const override;
  const SparsityPattern& xddot_jac_x_pattern() const override {
    return full_.xddot_jac_x_pattern();
  }
  void xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws) const override;
  void xddot_jac_x(double t, const double* x, const double* p, double* J,
                   Workspace* ws) const override;
  void xddot_jac_p(double t, const double* x, const double* p, double* Jp,
                   Workspace* ws) const override;
  const SparsityPattern* xddot_jac_p_pattern() const override {
    return full_.xddot_jac_p_pattern() ? &pattern_ : nullptr;
  }
  void xddot_jac_p_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws) const override;
  void xddot_dt(double t, const double* x, const double* p, double* out,
                Workspace* ws) const override;

 private:
  const SubsetModel& owner_;
  const SecondDerivatives& full_;
  SparsityPattern pattern_;                   // da/dp's pattern in the free columns
  std::vector<std::size_t> pattern_entries_;  // their entries' positions in the full pattern
};

class SubsetModel final : public Model,
                          public EventSystem,
                          public ObservableSet,
                          public BatchedRhs {
  friend class SubsetSecondDerivatives;

 public:
  SubsetModel(std::shared_ptr<const Model> full, std::vector<std::size_t> free,
              std::vector<double> values)
      : full_(std::move(full)), free_(std::move(free)), values_(std::move(values)) {
    const auto& names = full_->param_names();
    const std::vector<double> nominal = full_->nominal_params();
    for (std::size_t j : free_) {
      names_.push_back(names[j]);
      nominal_.push_back(nominal[j]);
    }
    if (const SparsityPattern* jp = full_->jac_p_pattern())
      subset_pattern(*jp, pattern_, pattern_entries_);
    if (const SecondDerivatives* sd = full_->second_derivatives())
      second_ = std::make_unique<SubsetSecondDerivatives>(*this, *sd);
  }
  const SecondDerivatives* second_derivatives() const override { return second_.get(); }

  std::size_t nx() const override { return full_->nx(); }
  std::size_t np() const override { return free_.size(); }
  const std::vector<std::string>& state_names() const override { return full_->state_names(); }
  const std::vector<std::string>& param_names() const override { return names_; }
  std::vector<double> nominal_params() const override { return nominal_; }
  std::string name() const override { return full_->name(); }
  double default_t0() const override { return full_->default_t0(); }
  double default_t_end() const override { return full_->default_t_end(); }

  void initial_state(const double* p, double* x0, Workspace* ws) const override {
    Full f = full(p, ws);
    full_->initial_state(f.p, x0, f.ws);
  }
  void initial_sensitivity(const double* p, double* dx0_dp, Workspace* ws) const override {
    Full f = full(p, ws);
    double* all = f.sub.out(nx() * full_->np());
    full_->initial_sensitivity(f.p, all, f.ws);
    gather_columns(all, nx(), dx0_dp);
  }
  bool initial_state_depends_on_params() const override {
    return full_->initial_state_depends_on_params();
  }

  void rhs(double t, const double* x, const double* p, double* xdot, Workspace* ws) const override {
    Full f = full(p, ws);
    full_->rhs(t, x, f.p, xdot, f.ws);
  }
  bool has_analytic_jacobians() const override { return full_->has_analytic_jacobians(); }
  bool has_constant_jacobians() const override { return full_->has_constant_jacobians(); }
  bool rhs_depends_on_time() const override { return full_->rhs_depends_on_time(); }
  std::string rhs_kink() const override { return full_->rhs_kink(); }
  // The full model's answer at the full parameters, for the free columns
  // that `columns` selects.
  TimeReading time_reading_at(const double* p,
                              const std::vector<std::size_t>* columns) const override {
    std::vector<double> all = values_;
    for (std::size_t k = 0; k < free_.size(); ++k) all[free_[k]] = p[k];
    std::vector<std::size_t> chosen;
    for (std::size_t k = 0; k < (columns ? columns->size() : free_.size()); ++k) {
      const std::size_t j = columns ? (*columns)[k] : k;
      if (j >= free_.size())
        throw Error(Status::invalid_argument, "time_reading_at: column " +
                                                  std::to_string(j) + " of " +
                                                  std::to_string(free_.size()));
      chosen.push_back(free_[j]);
    }
    return full_->time_reading_at(all.data(), &chosen);
  }

  void jac_x(double t, const double* x, const double* p, double* J, Workspace* ws) const override {
    Full f = full(p, ws);
    full_->jac_x(t, x, f.p, J, f.ws);
  }
  const SparsityPattern* jac_x_pattern() const override { return full_->jac_x_pattern(); }
  void jac_x_values(double t, const double* x, const double* p, double* values,
                    Workspace* ws) const override {
    Full f = full(p, ws);
    full_->jac_x_values(t, x, f.p, values, f.ws);
  }
  void dfdt(double t, const double* x, const double* p, double* out, Workspace* ws) const override {
    Full f = full(p, ws);
    full_->dfdt(t, x, f.p, out, f.ws);
  }

  void jac_p(double t, const double* x, const double* p, double* Jp, Workspace* ws) const override {
    Full f = full(p, ws);
    double* all = f.sub.out(nx() * full_->np());
    full_->jac_p(t, x, f.p, all, f.ws);
    gather_columns(all, nx(), Jp);
  }
  const SparsityPattern* jac_p_pattern() const override {
    return full_->jac_p_pattern() ? &pattern_ : nullptr;
  }
  void jac_p_values(double t, const double* x, const double* p, double* values,
                    Workspace* ws) const override {
    if (!full_->jac_p_pattern()) return jac_p(t, x, p, values, ws);
    Full f = full(p, ws);
    double* all = f.sub.out(full_->jac_p_pattern()->nnz());
    full_->jac_p_values(t, x, f.p, all, f.ws);
    for (std::size_t q = 0; q < pattern_entries_.size(); ++q) values[q] = all[pattern_entries_[q]];
  }

  void jvp(double t, const double* x, const double* p, std::size_t nv, const double* V, double* out,
           Workspace* ws) const override {
    Full f = full(p, ws);
    full_->jvp(t, x, f.p, nv, V, out, f.ws);
  }
  void vjp_x(double t, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws) const override {
    Full f = full(p, ws);
    full_->vjp_x(t, x, f.p, nw, W, out, f.ws);
  }
  void vjp_p(double t, const double* x, const double* p, std::size_t nw, const double* W,
             double* out, Workspace* ws) const override {
    Full f = full(p, ws);
    double* all = f.sub.out(full_->np() * nw);
    full_->vjp_p(t, x, f.p, nw, W, all, f.ws);
    gather_rows(all, nw, out, false);
  }
  void vjp_accumulate(double t, const double* x, const double* p, std::size_t nw, const double* W,
                      double* out_x, double* out_p, Workspace* ws) const override {
    Full f = full(p, ws);
    if (!out_p) return full_->vjp_accumulate(t, x, f.p, nw, W, out_x, nullptr, f.ws);
    double* all = zeroed(f.sub, full_->np() * nw);
    full_->vjp_accumulate(t, x, f.p, nw, W, out_x, all, f.ws);
    gather_rows(all, nw, out_p, true);
  }
  void vjp_p_accumulate_points(std::size_t n, const double* t, const double* X, const double* p,
                               std::size_t nw, const double* W, double* out_p,
                               Workspace* ws) const override {
    Full f = full(p, ws);
    double* all = zeroed(f.sub, full_->np() * nw);
    full_->vjp_p_accumulate_points(n, t, X, f.p, nw, W, all, f.ws);
    gather_rows(all, nw, out_p, true);
  }
  bool batches_parameter_products() const override { return full_->batches_parameter_products(); }

  std::unique_ptr<Workspace> make_workspace(int lane_width) const override {
    return std::make_unique<SubsetWorkspace>(full_->make_workspace(lane_width), values_, this);
  }

  const ObservableSet* observable_set() const override {
    return full_->observable_set() ? this : nullptr;
  }
  const EventSystem* event_system() const override {
    return full_->event_system() ? this : nullptr;
  }
  const std::vector<std::pair<std::string, std::string>>& source_details() const override {
    return full_->source_details();
  }

  // ObservableSet
  const std::vector<std::string>& observable_names() const override {
    return full_->observable_set()->observable_names();
  }
  void observables(double t, const double* x, const double* p, double* out,
                   Workspace* ws) const override {
    Full f = full(p, ws);
    full_->observable_set()->observables(t, x, f.p, out, f.ws);
  }
  void observable_gradients(double t, const double* x, const double* p, std::size_t n,
                            const std::size_t* which, double* out_x, double* out_p,
                            Workspace* ws) const override {
    Full f = full(p, ws);
    double* all = out_p ? f.sub.out(full_->np() * n) : nullptr;
    full_->observable_set()->observable_gradients(t, x, f.p, n, which, out_x, all, f.ws);
    if (out_p) gather_rows(all, n, out_p, false);
  }
  std::string observable_switch(std::size_t i) const override {
    return full_->observable_set()->observable_switch(i);
  }

  // EventSystem
  const std::vector<Event>& events() const override { return events_of().events(); }
  const std::vector<Root>& roots() const override { return events_of().roots(); }
  void root_values(double t, const double* x, const double* p, double* g,
                   Workspace* ws) const override {
    Full f = full(p, ws);
    events_of().root_values(t, x, f.p, g, f.ws);
  }
  void root_gradient(std::size_t i, double t, const double* x, const double* p, double* g_t,
                     double* g_x, double* g_p, Workspace* ws) const override {
    Full f = full(p, ws);
    // The full model's dg/dp always: callers of a model without parameters
    // pass no buffer, which the full model's parameters would need.
    double* all = f.sub.out(full_->np());
    events_of().root_gradient(i, t, x, f.p, g_t, g_x, all, f.ws);
    if (g_p) gather_rows(all, 1, g_p, false);
  }
  bool root_range_over_time(std::size_t i, double ta, double tb, const double* p, double* lo,
                            double* hi, Workspace* ws) const override {
    Full f = full(p, ws);
    return events_of().root_range_over_time(i, ta, tb, f.p, lo, hi, f.ws);
  }
  void triggers(const int* sides, bool* out) const override { events_of().triggers(sides, out); }
  const std::vector<std::size_t>& trigger_roots(std::size_t k) const override {
    return events_of().trigger_roots(k);
  }
  double delay(std::size_t k, double t, const double* x, const double* p,
               Workspace* ws) const override {
    Full f = full(p, ws);
    return events_of().delay(k, t, x, f.p, f.ws);
  }
  void delay_gradient(std::size_t k, double t, const double* x, const double* p, double* d_t,
                      double* d_x, double* d_p, Workspace* ws) const override {
    Full f = full(p, ws);
    double* all = f.sub.out(full_->np());
    events_of().delay_gradient(k, t, x, f.p, d_t, d_x, all, f.ws);
    if (d_p) gather_rows(all, 1, d_p, false);
  }
  double priority(std::size_t k, double t, const double* x, const double* p,
                  Workspace* ws) const override {
    Full f = full(p, ws);
    return events_of().priority(k, t, x, f.p, f.ws);
  }
  void assignment_values(std::size_t k, double t, const double* x, const double* p, double* values,
                         Workspace* ws) const override {
    Full f = full(p, ws);
    events_of().assignment_values(k, t, x, f.p, values, f.ws);
  }
  void assignment_jacobians(std::size_t k, double t, const double* x, const double* p, double* h_t,
                            double* h_x, double* h_p, Workspace* ws) const override {
    Full f = full(p, ws);
    const std::size_t m = events_of().events()[k].targets.size();
    double* all = f.sub.out(m * full_->np());
    events_of().assignment_jacobians(k, t, x, f.p, h_t, h_x, all, f.ws);
    if (h_p) gather_columns(all, m, h_p);
  }
  const std::vector<std::size_t>& branch_roots() const override {
    return events_of().branch_roots();
  }
  void rhs_points_on_branches(std::size_t n, const double* t, const double* X, const double* P,
                              const double* truth, double* F, Workspace* ws) const override {
    std::unique_ptr<Workspace> local;
    SubsetWorkspace& w = own(ws, local);
    events_of().rhs_points_on_branches(n, t, X, full_points(w, n, P), truth, F, w.inner.get());
  }
  void vjp_on_branches(double t, const double* x, const double* p, const double* truth,
                       std::size_t nw, const double* W, double* out_x, double* out_p,
                       Workspace* ws) const override {
    Full f = full(p, ws);
    if (!out_p) return events_of().vjp_on_branches(t, x, f.p, truth, nw, W, out_x, nullptr, f.ws);
    double* all = zeroed(f.sub, full_->np() * nw);
    events_of().vjp_on_branches(t, x, f.p, truth, nw, W, out_x, all, f.ws);
    gather_rows(all, nw, out_p, true);
  }

  // BatchedRhs, only where the full model has comparisons of parameters
  // alone (internal differences need them on the nominal's branch).
  const BatchedRhs* batched_rhs() const override {
    const BatchedRhs* b = full_->batched_rhs();
    return b && b->parameter_branch_count() > 0 ? this : nullptr;
  }
  void rhs_points(std::size_t n, const double* t, const double* X, const double* P, double* F,
                  Workspace* ws) const override {
    std::unique_ptr<Workspace> local;
    SubsetWorkspace& w = own(ws, local);
    full_->batched_rhs()->rhs_points(n, t, X, full_points(w, n, P), F, w.inner.get());
  }
  std::size_t parameter_branch_count() const override {
    const BatchedRhs* b = full_->batched_rhs();
    return b ? b->parameter_branch_count() : 0;
  }
  void rhs_points_on_first_parameters(std::size_t n, const double* t, const double* X,
                                      const double* P, double* F, Workspace* ws) const override {
    std::unique_ptr<Workspace> local;
    SubsetWorkspace& w = own(ws, local);
    full_->batched_rhs()->rhs_points_on_first_parameters(n, t, X, full_points(w, n, P), F,
                                                         w.inner.get());
  }
  void jvp_on_first_parameters(double t, const double* x, const double* p, const double* p_first,
                               std::size_t nv, const double* V, double* out,
                               Workspace* ws) const override {
    Full f = full(p, ws);
    const double* first = full_points(f.sub, 1, p_first);
    full_->batched_rhs()->jvp_on_first_parameters(t, x, f.p, first, nv, V, out, f.ws);
  }

 private:
  // The full model's parameters and workspace for one evaluation.
  struct Full {
    const double* p;
    Workspace* ws;
    SubsetWorkspace& sub;
    std::unique_ptr<Workspace> local;  // a one-off call's workspace
  };

  SubsetWorkspace& own(Workspace* ws, std::unique_ptr<Workspace>& local) const {
    Workspace& w = workspace_or_local(*this, ws, local);
    if (w.owner() != this)
      throw Error(Status::invalid_argument,
                  "a workspace made by another model was passed to a parameter-subset model");
    return static_cast<SubsetWorkspace&>(w);
  }

  Full full(const double* p, Workspace* ws) const {
    std::unique_ptr<Workspace> local;
    SubsetWorkspace& w = own(ws, local);
    for (std::size_t k = 0; k < free_.size(); ++k) w.p[free_[k]] = p[k];
    return Full{w.p.data(), w.inner.get(), w, std::move(local)};
  }

  // n points' full parameters (npf x n, in w.full_points) from P (free x n).
  const double* full_points(SubsetWorkspace& w, std::size_t n, const double* P) const {
    const std::size_t npf = full_->np(), nps = free_.size();
    if (w.full_points.size() < npf * n) w.full_points.resize(npf * n);
    for (std::size_t q = 0; q < n; ++q) {
      double* column = w.full_points.data() + q * npf;
      std::copy(values_.begin(), values_.end(), column);
      for (std::size_t k = 0; k < nps; ++k) column[free_[k]] = P[k + q * nps];
    }
    return w.full_points.data();
  }

  double* zeroed(SubsetWorkspace& w, std::size_t n) const {
    double* all = w.out(n);
    std::fill(all, all + n, 0.0);
    return all;
  }

  // out (rows x free) = the free columns of all (rows x full np).
  void gather_columns(const double* all, std::size_t rows, double* out) const {
    for (std::size_t k = 0; k < free_.size(); ++k)
      std::copy(all + free_[k] * rows, all + (free_[k] + 1) * rows, out + k * rows);
  }

  // out (free x cols) = (or +=) the free rows of all (full np x cols).
  void gather_rows(const double* all, std::size_t cols, double* out, bool add) const {
    const std::size_t npf = full_->np(), nps = free_.size();
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t k = 0; k < nps; ++k) {
        const double v = all[free_[k] + c * npf];
        out[k + c * nps] = add ? out[k + c * nps] + v : v;
      }
  }

  // The free columns of a pattern in all parameters, and the positions of
  // their entries in it.
  void subset_pattern(const SparsityPattern& full, SparsityPattern& pattern,
                      std::vector<std::size_t>& entries) const {
    pattern.rows = full.rows;
    pattern.cols = free_.size();
    pattern.col_ptr.push_back(0);
    for (std::size_t j : free_) {
      for (auto q = full.col_ptr[j]; q < full.col_ptr[j + 1]; ++q) {
        pattern.row_idx.push_back(full.row_idx[static_cast<std::size_t>(q)]);
        entries.push_back(static_cast<std::size_t>(q));
      }
      pattern.col_ptr.push_back(static_cast<std::int64_t>(pattern.row_idx.size()));
    }
  }

  const EventSystem& events_of() const { return *full_->event_system(); }

  std::shared_ptr<const Model> full_;
  std::vector<std::size_t> free_;
  std::vector<double> values_;
  std::vector<std::string> names_;
  std::vector<double> nominal_;
  SparsityPattern pattern_;                   // J_p's pattern in the free columns
  std::vector<std::size_t> pattern_entries_;  // their entries' positions in the full pattern
  std::unique_ptr<SubsetSecondDerivatives> second_;  // null: the full model has none
};

SubsetSecondDerivatives::SubsetSecondDerivatives(const SubsetModel& owner,
                                                 const SecondDerivatives& full)
    : owner_(owner), full_(full) {
  if (const SparsityPattern* ap = full.xddot_jac_p_pattern())
    owner.subset_pattern(*ap, pattern_, pattern_entries_);
}

void SubsetSecondDerivatives::xddot(double t, const double* x, const double* p, double* out,
                                    Workspace* ws) const {
  auto f = owner_.full(p, ws);
  full_.xddot(t, x, f.p, out, f.ws);
}

void SubsetSecondDerivatives::xddot_jac_x_values(double t, const double* x, const double* p,
                                                 double* values, Workspace* ws) const {
  auto f = owner_.full(p, ws);
  full_.xddot_jac_x_values(t, x, f.p, values, f.ws);
}

void SubsetSecondDerivatives::xddot_jac_x(double t, const double* x, const double* p, double* J,
                                          Workspace* ws) const {
  auto f = owner_.full(p, ws);
  full_.xddot_jac_x(t, x, f.p, J, f.ws);
}

void SubsetSecondDerivatives::xddot_jac_p(double t, const double* x, const double* p,
                                          double* Jp, Workspace* ws) const {
  auto f = owner_.full(p, ws);
  double* all = f.sub.out(owner_.nx() * owner_.full_->np());
  full_.xddot_jac_p(t, x, f.p, all, f.ws);
  owner_.gather_columns(all, owner_.nx(), Jp);
}

void SubsetSecondDerivatives::xddot_jac_p_values(double t, const double* x, const double* p,
                                                 double* values, Workspace* ws) const {
  if (!full_.xddot_jac_p_pattern()) return xddot_jac_p(t, x, p, values, ws);
  auto f = owner_.full(p, ws);
  double* all = f.sub.out(full_.xddot_jac_p_pattern()->nnz());
  full_.xddot_jac_p_values(t, x, f.p, all, f.ws);
  for (std::size_t q = 0; q < pattern_entries_.size(); ++q) values[q] = all[pattern_entries_[q]];
}

void SubsetSecondDerivatives::xddot_dt(double t, const double* x, const double* p, double* out,
                                       Workspace* ws) const {
  auto f = owner_.full(p, ws);
  full_.xddot_dt(t, x, f.p, out, f.ws);
}

}  // namespace

std::shared_ptr<const Model> parameter_subset(std::shared_ptr<const Model> full,
                                              std::vector<std::size_t> free,
                                              std::vector<double> values) {
  if (!full) throw Error(Status::invalid_argument, "parameter_subset: no model");
  const std::size_t np = full->np();
  if (values.size() != np)
    throw Error(Status::invalid_argument, "parameter_subset: " + std::to_string(values.size()) +
                                              " parameter values for a model of " +
                                              std::to_string(np) + " parameters");
  std::vector<bool> seen(np, false);
  for (std::size_t j : free) {
    if (j >= np || seen[j])
      throw Error(Status::invalid_argument, "parameter_subset: parameter index " +
                                                std::to_string(j) +
                                                (j >= np ? " is out of range" : " is given twice"));
    seen[j] = true;
  }
  return std::make_shared<SubsetModel>(std::move(full), std::move(free), std::move(values));
}

}  // namespace odesens
