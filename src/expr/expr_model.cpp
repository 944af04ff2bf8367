// ExprModel's services: each is one tape evaluation (plus a scatter into a
// dense matrix where Model asks for one).
#include "expr/expr_model_impl.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_set>

#include "expr/lane_kernels.hpp"
#include "expr/model_expressions.hpp"
#include "expr/moving_switch.hpp"
#include "expr/tape_evaluate.hpp"
#include "expr/time_dependence.hpp"
#include "odesens/status.hpp"

namespace odesens {

using expr::Slot;
using expr::Tape;
using expr::TapeKind;

namespace {

Tape values_tape(const expr::SymbolicModel& m, const std::vector<expr::NodeId>& roots) {
  return expr::compile_tape(m.graph, roots, m.state_names.size(), m.param_names.size(),
                            TapeKind::values);
}

// Dense rows x cols (column-major, zeroed first) from pattern-ordered values.
void scatter(const SparsityPattern& pattern, const double* values, double* dense) {
  std::fill(dense, dense + pattern.rows * pattern.cols, 0.0);
  for (std::size_t j = 0; j < pattern.cols; ++j)
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
      dense[static_cast<std::size_t>(pattern.row_idx[q]) + j * pattern.rows] = values[q];
}

void check_names(const std::vector<std::string>& names, std::size_t n, const char* what) {
  if (names.size() != n)
    throw Error(Status::invalid_argument, std::string("expected ") + std::to_string(n) + " " +
                                              what + " names, got " + std::to_string(names.size()));
  std::unordered_set<std::string> seen;
  for (const auto& s : names)
    if (!seen.insert(s).second)
      throw Error(Status::invalid_argument, std::string("duplicate ") + what + " name '" + s + "'");
}

const expr::LaneKernels& kernels(int width) {
  const expr::LaneKernels* k = expr::lane_kernels(width);
  return k ? *k : expr::isa::scalar_kernels;
}

// A Workspace of an ExprModel: the register files of its tapes.
class ExprWorkspace final : public Workspace {
 public:
  ExprWorkspace(int lane_width, const void* owner) : Workspace(lane_width, owner) {}
  expr::Registers registers;
  // RetainedValues: the adjoint tape's registers of one evaluation per slot.
  std::vector<expr::AlignedBuffer> retained;
  // root_range_over_time: the enclosures of one root's nodes.
  std::vector<expr::Range> ranges;
};

// The caller's workspace, checked to belong to `owner`.
ExprWorkspace& expr_workspace(const void* owner, Workspace& ws) {
  if (ws.owner() != owner)
    throw Error(Status::invalid_argument,
                "a workspace made by another model was passed to an expression model");
  return static_cast<ExprWorkspace&>(ws);
}

// A dense matrix from a tape of its structurally non-zero entries: the
// values into the workspace, then scattered (zeros elsewhere).
void evaluate_dense(const Tape& tape, const expr::SparseNodes& entries, Slot slot,
                    ExprWorkspace& w, double t, const double* x, const double* p, double* dense) {
  double* values = w.registers.buffer(Slot::dense_values).ensure(entries.values.size());
  expr::evaluate(tape, w.registers, slot, t, x, p, values);
  scatter(entries.pattern, values, dense);
}

}  // namespace

ExprModel::Impl::Impl(expr::SymbolicModel model) : sym(std::move(model)) {
  const std::size_t nx = sym.state_names.size(), np = sym.param_names.size();
  check_names(sym.state_names, nx, "state");
  check_names(sym.param_names, np, "parameter");
  check_names(sym.output_names, sym.outputs.size(), "output");
  if (sym.rhs.size() != nx || sym.x0.size() != nx || sym.nominal_params.size() != np)
    throw Error(Status::invalid_argument, "symbolic model sizes disagree");
  for (expr::NodeId id : sym.x0)
    if (sym.graph.node(id).depends & (expr::kOnTime | expr::kOnState))
      throw Error(Status::invalid_argument, "x0 may depend on parameters only");
  first = expr::first_derivatives(sym);
  constant_jacobians = true;
  for (const auto* entries : {&first.jac_x.values, &first.jac_p.values})
    for (expr::NodeId id : *entries)
      if (sym.graph.node(id).depends & (expr::kOnTime | expr::kOnState)) constant_jacobians = false;
  rhs_reads_time = std::any_of(sym.rhs.begin(), sym.rhs.end(), [&](expr::NodeId id) {
    return (sym.graph.node(id).depends & expr::kOnTime) != 0;
  });
  rhs = values_tape(sym, sym.rhs);
  rhs_adjoint = expr::compile_tape(sym.graph, sym.rhs, nx, np, TapeKind::adjoint);
  jac_x = values_tape(sym, first.jac_x.values);
  jac_p = values_tape(sym, first.jac_p.values);
  x0 = values_tape(sym, sym.x0);
  dx0_dp = values_tape(sym, first.dx0_dp.values);
  dfdt = values_tape(sym, first.dfdt);
  outputs = values_tape(sym, sym.outputs);
  output_adjoint_once_ = std::make_unique<std::once_flag[]>(sym.outputs.size());
  output_adjoint_tapes_.resize(sym.outputs.size());
  auto event_functions = std::make_unique<expr::EventFunctions>(sym);
  if (!event_functions->empty() || event_functions->parameter_branch_count() > 0)
    events = std::move(event_functions);
  collect_observables();
}

void ExprModel::Impl::collect_observables() {
  check_names(sym.observable_names, sym.observables.size(), "observable");
  observable_names = sym.observable_names;
  observables = sym.observables;
  std::unordered_set<std::string> named(observable_names.begin(), observable_names.end());
  auto add = [&](const std::string& name, expr::NodeId value) {
    if (!named.insert(name).second) return;
    observable_names.push_back(name);
    observables.push_back(value);
  };
  for (std::size_t i = 0; i < sym.state_names.size(); ++i)
    add(sym.state_names[i], sym.graph.state(static_cast<int>(i)));
  for (std::size_t k = 0; k < sym.outputs.size(); ++k) add(sym.output_names[k], sym.outputs[k]);
}

std::string ExprModel::Impl::observable_switch(std::size_t i) const {
  if (i >= observables.size()) return {};
  std::lock_guard<std::mutex> lock(graph_mutex_);  // second_order() may grow the graph
  return expr::moving_switch_text(sym.graph, observables[i], sym.state_names, sym.param_names);
}

const expr::Tape& ExprModel::Impl::observables_tape() const {
  std::call_once(observables_once_, [this] {
    std::lock_guard<std::mutex> lock(graph_mutex_);
    observables_tape_ = std::make_unique<expr::Tape>(values_tape(sym, observables));
  });
  return *observables_tape_;
}

const expr::Tape& ExprModel::Impl::observables_adjoint_tape() const {
  std::call_once(observables_adjoint_once_, [this] {
    std::lock_guard<std::mutex> lock(graph_mutex_);
    observables_adjoint_tape_ = std::make_unique<expr::Tape>(
        expr::compile_tape(sym.graph, observables, sym.state_names.size(),
                           sym.param_names.size(), TapeKind::adjoint));
  });
  return *observables_adjoint_tape_;
}

const expr::Tape& ExprModel::Impl::output_adjoint_tape(std::size_t k) const {
  std::call_once(output_adjoint_once_[k], [this, k] {
    std::lock_guard<std::mutex> lock(graph_mutex_);
    output_adjoint_tapes_[k] = std::make_unique<expr::Tape>(
        expr::compile_tape(sym.graph, {sym.outputs[k]}, sym.state_names.size(),
                           sym.param_names.size(), TapeKind::adjoint));
  });
  return *output_adjoint_tapes_[k];
}

const ExprModel::Impl::SecondOrder& ExprModel::Impl::second_order() const {
  std::call_once(second_once_, [this] {
    // The graph only grows here (under the once-flag and the graph mutex);
    // tapes never read it.
    std::lock_guard<std::mutex> lock(graph_mutex_);
    auto& self = const_cast<Impl&>(*this);
    auto s = std::make_unique<SecondOrder>();
    s->d = expr::second_derivatives(self.sym, first);
    s->xddot = values_tape(sym, s->d.xddot);
    s->xddot_jac_x = values_tape(sym, s->d.xddot_jac_x.values);
    s->xddot_jac_p = values_tape(sym, s->d.xddot_jac_p.values);
    s->xddot_dt = values_tape(sym, s->d.xddot_dt);
    second_ = std::move(s);
  });
  return *second_;
}

Model::TimeReading ExprModel::Impl::time_reading_at(const double* p,
                                                    const std::vector<std::size_t>* columns) const {
  const auto& pattern = first.jac_p.pattern;
  std::vector<expr::NodeId> jac_p_roots;
  for (std::size_t k = 0; k < (columns ? columns->size() : pattern.cols); ++k) {
    const std::size_t j = columns ? (*columns)[k] : k;
    if (j >= pattern.cols)
      throw Error(Status::invalid_argument, "time_reading_at: column " + std::to_string(j) +
                                                " of " + std::to_string(pattern.cols));
    jac_p_roots.insert(jac_p_roots.end(), first.jac_p.values.begin() + pattern.col_ptr[j],
                       first.jac_p.values.begin() + pattern.col_ptr[j + 1]);
  }
  if (!rhs_reads_time) return {false, false, false};  // nor do its derivatives
  std::vector<expr::NodeId> rhs_and_jac_x = sym.rhs;
  rhs_and_jac_x.insert(rhs_and_jac_x.end(), first.jac_x.values.begin(),
                       first.jac_x.values.end());
  expr::NodeId last = 0;
  for (const auto* roots : {&rhs_and_jac_x, &jac_p_roots})
    for (expr::NodeId id : *roots) last = std::max(last, id);
  std::lock_guard<std::mutex> lock(graph_mutex_);
  const expr::TimeDependence known(sym.graph, last, p);
  return {known.reads_time(rhs_and_jac_x), known.reads_time(jac_p_roots),
          known.reads_time_between_switches(jac_p_roots)};
}

std::shared_ptr<ExprModel> make_expr_model(expr::SymbolicModel model) {
  return std::make_shared<ExprModel>(std::make_unique<ExprModel::Impl>(std::move(model)));
}

const ExprModel::Impl& expr_model_internals(const ExprModel& model) { return *model.impl_; }

const expr::SymbolicModel* expr::symbolic_model_of(const Model& model) {
  const auto* e = dynamic_cast<const ExprModel*>(&model);
  return e ? &expr_model_internals(*e).sym : nullptr;
}

ExprModel::ExprModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ExprModel::~ExprModel() = default;

bool ExprModel::has_constant_jacobians() const { return impl_->constant_jacobians; }
bool ExprModel::rhs_depends_on_time() const { return impl_->rhs_reads_time; }

std::string ExprModel::rhs_kink() const {
  return expr::moving_kink_text(impl_->sym.graph, impl_->sym.rhs, impl_->sym.state_names,
                                impl_->sym.param_names);
}

Model::TimeReading ExprModel::time_reading_at(const double* p,
                                              const std::vector<std::size_t>* columns) const {
  return impl_->time_reading_at(p, columns);
}

std::size_t ExprModel::nx() const { return impl_->sym.state_names.size(); }
std::size_t ExprModel::np() const { return impl_->sym.param_names.size(); }
const std::vector<std::string>& ExprModel::state_names() const { return impl_->sym.state_names; }
const std::vector<std::string>& ExprModel::param_names() const { return impl_->sym.param_names; }
std::vector<double> ExprModel::nominal_params() const { return impl_->sym.nominal_params; }
std::string ExprModel::name() const { return impl_->sym.name; }
double ExprModel::default_t0() const { return impl_->sym.t0; }
double ExprModel::default_t_end() const { return impl_->sym.t_end; }

std::unique_ptr<Workspace> ExprModel::make_workspace(int lane_width) const {
  const int width = lane_width == 0 ? expr::widest_lane_width() : lane_width;
  if (!expr::lane_kernels(width))
    throw Error(Status::unsupported, "lane width " + std::to_string(width) +
                                         " is not available on this CPU (use 1, 4 or 8; widest: " +
                                         std::to_string(expr::widest_lane_width()) + ")");
  return std::make_unique<ExprWorkspace>(width, impl_.get());
}

// Each service: the caller's registers, one tape evaluation, and a scatter
// where Model asks for a dense matrix. Without a workspace, the service
// calls itself once more with a temporary one (kept off the hot path: the
// call with a workspace only checks its owner).
#define ODESENS_REGISTERS(...)                    \
  if (!ws) {                                      \
    const auto temporary = make_workspace();      \
    Workspace* ws_given = temporary.get();        \
    return __VA_ARGS__;                           \
  }                                               \
  ExprWorkspace& w = expr_workspace(impl_.get(), *ws)

void ExprModel::initial_state(const double* p, double* x0, Workspace* ws) const {
  ODESENS_REGISTERS(initial_state(p, x0, ws_given));
  expr::evaluate(impl_->x0, w.registers, Slot::x0, 0.0, nullptr, p, x0);
}

bool ExprModel::initial_state_depends_on_params() const {
  return impl_->first.dx0_dp.pattern.nnz() > 0;
}

void ExprModel::initial_sensitivity(const double* p, double* dx0_dp, Workspace* ws) const {
  ODESENS_REGISTERS(initial_sensitivity(p, dx0_dp, ws_given));
  evaluate_dense(impl_->dx0_dp, impl_->first.dx0_dp, Slot::dx0_dp, w, 0.0, nullptr, p, dx0_dp);
}

void ExprModel::rhs(double t, const double* x, const double* p, double* xdot,
                    Workspace* ws) const {
  ODESENS_REGISTERS(rhs(t, x, p, xdot, ws_given));
  expr::evaluate(impl_->rhs, w.registers, Slot::rhs, t, x, p, xdot);
}

void ExprModel::jac_x(double t, const double* x, const double* p, double* J,
                      Workspace* ws) const {
  ODESENS_REGISTERS(jac_x(t, x, p, J, ws_given));
  evaluate_dense(impl_->jac_x, impl_->first.jac_x, Slot::jac_x, w, t, x, p, J);
}

const SparsityPattern* ExprModel::jac_x_pattern() const { return &impl_->first.jac_x.pattern; }

void ExprModel::jac_x_values(double t, const double* x, const double* p, double* values,
                             Workspace* ws) const {
  ODESENS_REGISTERS(jac_x_values(t, x, p, values, ws_given));
  expr::evaluate(impl_->jac_x, w.registers, Slot::jac_x, t, x, p, values);
}

void ExprModel::jac_p(double t, const double* x, const double* p, double* Jp,
                      Workspace* ws) const {
  ODESENS_REGISTERS(jac_p(t, x, p, Jp, ws_given));
  evaluate_dense(impl_->jac_p, impl_->first.jac_p, Slot::jac_p, w, t, x, p, Jp);
}

const SparsityPattern* ExprModel::jac_p_pattern() const { return &impl_->first.jac_p.pattern; }

void ExprModel::jac_p_values(double t, const double* x, const double* p, double* values,
                             Workspace* ws) const {
  ODESENS_REGISTERS(jac_p_values(t, x, p, values, ws_given));
  expr::evaluate(impl_->jac_p, w.registers, Slot::jac_p, t, x, p, values);
}

void ExprModel::dfdt(double t, const double* x, const double* p, double* out,
                     Workspace* ws) const {
  ODESENS_REGISTERS(dfdt(t, x, p, out, ws_given));
  expr::evaluate(impl_->dfdt, w.registers, Slot::dfdt, t, x, p, out);
}

void ExprModel::jvp(double t, const double* x, const double* p, std::size_t nv, const double* V,
                    double* out, Workspace* ws) const {
  ODESENS_REGISTERS(jvp(t, x, p, nv, V, out, ws_given));
  expr::evaluate_tangents(impl_->rhs_adjoint, kernels(w.lane_width()), w.registers, t, x, p, nv,
                          V, nullptr, out);
}

void ExprModel::vjp(double t, const double* x, const double* p, std::size_t nw, const double* W,
                    double* out_x, double* out_p, Workspace* ws) const {
  ODESENS_REGISTERS(vjp(t, x, p, nw, W, out_x, out_p, ws_given));
  expr::evaluate_adjoints(impl_->rhs_adjoint, kernels(w.lane_width()), w.registers, t, x, p, nw,
                          W, out_x, out_p);
}

void ExprModel::vjp_accumulate(double t, const double* x, const double* p, std::size_t nw,
                               const double* W, double* out_x, double* out_p,
                               Workspace* ws) const {
  ODESENS_REGISTERS(vjp_accumulate(t, x, p, nw, W, out_x, out_p, ws_given));
  expr::evaluate_adjoints(impl_->rhs_adjoint, kernels(w.lane_width()), w.registers, t, x, p, nw,
                          W, out_x, out_p, expr::ParamAdjoints::add);
}

void ExprModel::vjp_x(double t, const double* x, const double* p, std::size_t nw,
                      const double* W, double* out, Workspace* ws) const {
  vjp(t, x, p, nw, W, out, nullptr, ws);
}

void ExprModel::vjp_p(double t, const double* x, const double* p, std::size_t nw,
                      const double* W, double* out, Workspace* ws) const {
  vjp(t, x, p, nw, W, nullptr, out, ws);
}

void ExprModel::xddot(double t, const double* x, const double* p, double* out,
                      Workspace* ws) const {
  ODESENS_REGISTERS(xddot(t, x, p, out, ws_given));
  expr::evaluate(impl_->second_order().xddot, w.registers, Slot::xddot, t, x, p, out);
}

const SparsityPattern& ExprModel::xddot_jac_x_pattern() const {
  return impl_->second_order().d.xddot_jac_x.pattern;
}

void ExprModel::xddot_jac_x_values(double t, const double* x, const double* p, double* values,
                                   Workspace* ws) const {
  ODESENS_REGISTERS(xddot_jac_x_values(t, x, p, values, ws_given));
  expr::evaluate(impl_->second_order().xddot_jac_x, w.registers, Slot::xddot_jac_x, t, x, p,
                 values);
}

void ExprModel::xddot_jac_x(double t, const double* x, const double* p, double* J,
                            Workspace* ws) const {
  ODESENS_REGISTERS(xddot_jac_x(t, x, p, J, ws_given));
  const auto& second = impl_->second_order();
  evaluate_dense(second.xddot_jac_x, second.d.xddot_jac_x, Slot::xddot_jac_x, w, t, x, p, J);
}

void ExprModel::xddot_jac_p(double t, const double* x, const double* p, double* Jp,
                            Workspace* ws) const {
  ODESENS_REGISTERS(xddot_jac_p(t, x, p, Jp, ws_given));
  const auto& second = impl_->second_order();
  evaluate_dense(second.xddot_jac_p, second.d.xddot_jac_p, Slot::xddot_jac_p, w, t, x, p, Jp);
}

const SparsityPattern* ExprModel::xddot_jac_p_pattern() const {
  return &impl_->second_order().d.xddot_jac_p.pattern;
}

void ExprModel::xddot_jac_p_values(double t, const double* x, const double* p, double* values,
                                   Workspace* ws) const {
  ODESENS_REGISTERS(xddot_jac_p_values(t, x, p, values, ws_given));
  expr::evaluate(impl_->second_order().xddot_jac_p, w.registers, Slot::xddot_jac_p, t, x, p,
                 values);
}

void ExprModel::xddot_dt(double t, const double* x, const double* p, double* out,
                         Workspace* ws) const {
  ODESENS_REGISTERS(xddot_dt(t, x, p, out, ws_given));
  expr::evaluate(impl_->second_order().xddot_dt, w.registers, Slot::xddot_dt, t, x, p, out);
}

std::size_t ExprModel::n_outputs() const { return impl_->sym.outputs.size(); }
const std::vector<std::string>& ExprModel::output_names() const {
  return impl_->sym.output_names;
}

void ExprModel::outputs(double t, const double* x, const double* p, double* out,
                        Workspace* ws) const {
  ODESENS_REGISTERS(outputs(t, x, p, out, ws_given));
  expr::evaluate(impl_->outputs, w.registers, Slot::outputs, t, x, p, out);
}

const std::vector<std::string>& ExprModel::observable_names() const {
  return impl_->observable_names;
}

void ExprModel::observables(double t, const double* x, const double* p, double* out,
                            Workspace* ws) const {
  ODESENS_REGISTERS(observables(t, x, p, out, ws_given));
  expr::evaluate(impl_->observables_tape(), w.registers, Slot::observables, t, x, p, out);
}

std::string ExprModel::observable_switch(std::size_t i) const {
  return impl_->observable_switch(i);
}

void ExprModel::observable_gradients(double t, const double* x, const double* p, std::size_t n,
                                     const std::size_t* which, double* out_x, double* out_p,
                                     Workspace* ws) const {
  ODESENS_REGISTERS(observable_gradients(t, x, p, n, which, out_x, out_p, ws_given));
  const expr::Tape& tape = impl_->observables_adjoint_tape();
  const std::size_t count = impl_->observables.size();
  for (std::size_t m = 0; m < n; ++m)
    if (which[m] >= count)
      throw Error(Status::invalid_argument,
                  "observable index " + std::to_string(which[m]) + " out of range (model has " +
                      std::to_string(count) + ")");
  // Unit seeds, one column per wanted observable.
  double* seeds = w.registers.buffer(Slot::observable_seeds).ensure(count * n);
  std::fill(seeds, seeds + count * n, 0.0);
  for (std::size_t m = 0; m < n; ++m) seeds[which[m] + m * count] = 1.0;
  expr::evaluate_adjoints(tape, kernels(w.lane_width()), w.registers, t, x, p, n, seeds, out_x,
                          out_p);
}

void ExprModel::output_gradients(double t, const double* x, const double* p, std::size_t n,
                                 const std::size_t* which, double* out_x, double* out_p,
                                 Workspace* ws) const {
  ODESENS_REGISTERS(output_gradients(t, x, p, n, which, out_x, out_p, ws_given));
  const std::size_t count = impl_->sym.outputs.size();
  const std::size_t nx = impl_->sym.state_names.size(), np = impl_->sym.param_names.size();
  for (std::size_t m = 0; m < n; ++m)
    if (which[m] >= count)
      throw Error(Status::invalid_argument,
                  "output index " + std::to_string(which[m]) + " out of range (model has " +
                      std::to_string(count) + ")");
  const double seed = 1.0;
  for (std::size_t m = 0; m < n; ++m)
    expr::evaluate_adjoints(impl_->output_adjoint_tape(which[m]), kernels(w.lane_width()),
                            w.registers, t, x, p, 1, &seed, out_x ? out_x + m * nx : nullptr,
                            out_p ? out_p + m * np : nullptr);
}

const std::vector<std::pair<std::string, std::string>>& ExprModel::source_details() const {
  return impl_->sym.details;
}

void ExprModel::rhs_retained(std::size_t slot, double t, const double* x, const double* p,
                             double* f, Workspace* ws) const {
  if (!ws) throw Error(Status::invalid_argument, "rhs_retained needs the caller's workspace");
  ExprWorkspace& w = expr_workspace(impl_.get(), *ws);
  if (slot >= w.retained.size()) w.retained.resize(slot + 1);
  const expr::Tape& tape = impl_->rhs_adjoint;
  expr::evaluate_values(tape, w.registers, t, x, p, w.retained[slot].ensure(tape.n_registers), f);
}

void ExprModel::vjp_accumulate_retained(std::size_t slot, std::size_t nw, const double* W,
                                        double* out_x, double* out_p, Workspace* ws) const {
  if (!ws) throw Error(Status::invalid_argument, "vjp_accumulate_retained needs the caller's workspace");
  ExprWorkspace& w = expr_workspace(impl_.get(), *ws);
  if (slot >= w.retained.size())
    throw Error(Status::internal_error, "vjp_accumulate_retained: slot " + std::to_string(slot) +
                                            " holds no evaluation");
  const expr::Tape& tape = impl_->rhs_adjoint;
  expr::evaluate_adjoints_from(tape, kernels(w.lane_width()), w.registers,
                               w.retained[slot].ensure(tape.n_registers), nw, W, out_x, out_p,
                               expr::ParamAdjoints::add);
}

void ExprModel::rhs_points(std::size_t n, const double* t, const double* X, const double* P,
                           double* F, Workspace* ws) const {
  ODESENS_REGISTERS(rhs_points(n, t, X, P, F, ws_given));
  expr::evaluate_points(impl_->rhs, kernels(w.lane_width()), w.registers, n, t, X, P, F);
}

const EventSystem* ExprModel::event_system() const {
  return impl_->events && !impl_->events->empty() ? this : nullptr;
}

namespace {

const expr::EventFunctions& event_functions(const ExprModel::Impl& impl) {
  if (!impl.events) throw Error(Status::invalid_argument, "the model has no events");
  return *impl.events;
}

// f on branches: the switches of t and x as `truth` gives them (none when
// the model has no events), the comparisons of parameters alone as point 0
// evaluates them, which are parameters np.. of the tape of f on branches.
// The parameters of the tapes of f on branches for n points: p, the
// switches as `truth` gives them, the comparisons of parameters alone as
// point 0 evaluates them (P: np x n; the result width x n).
const double* parameters_on_branches(const ExprModel::Impl& impl, ExprWorkspace& w,
                                     std::size_t n, const double* t, const double* X,
                                     const double* P, const double* truth) {
  const expr::EventFunctions& events = event_functions(impl);
  const std::size_t np = impl.sym.param_names.size(), nb = events.branch_roots().size();
  const std::size_t nq = events.parameter_branch_count(), width = np + nb + nq;
  double* P_branches = w.registers.buffer(Slot::branch_params).ensure(width * n);
  if (nq > 0) events.parameter_branch_values(w.registers, t[0], X, P, P_branches + np + nb);
  for (std::size_t l = 0; l < n; ++l) {
    double* column = P_branches + l * width;
    std::copy(P + l * np, P + (l + 1) * np, column);
    if (nb > 0) std::copy(truth, truth + nb, column + np);
    if (l > 0 && nq > 0) std::copy(P_branches + np + nb, P_branches + width, column + np + nb);
  }
  return P_branches;
}

void evaluate_on_branches(const ExprModel::Impl& impl, ExprWorkspace& w, std::size_t n,
                          const double* t, const double* X, const double* P, const double* truth,
                          double* F) {
  const double* P_branches = parameters_on_branches(impl, w, n, t, X, P, truth);
  expr::evaluate_points(event_functions(impl).rhs_on_branches(), kernels(w.lane_width()),
                        w.registers, n, t, X, P_branches, F);
}

}  // namespace

const std::vector<EventSystem::Event>& ExprModel::events() const {
  return event_functions(*impl_).events();
}

const std::vector<EventSystem::Root>& ExprModel::roots() const {
  return event_functions(*impl_).roots();
}

void ExprModel::root_values(double t, const double* x, const double* p, double* g,
                            Workspace* ws) const {
  ODESENS_REGISTERS(root_values(t, x, p, g, ws_given));
  event_functions(*impl_).root_values(w.registers, t, x, p, g);
}

void ExprModel::root_gradient(std::size_t i, double t, const double* x, const double* p,
                              double* g_t, double* g_x, double* g_p, Workspace* ws) const {
  ODESENS_REGISTERS(root_gradient(i, t, x, p, g_t, g_x, g_p, ws_given));
  event_functions(*impl_).root_gradient(w.registers, i, t, x, p, g_t, g_x, g_p);
}

bool ExprModel::root_range_over_time(std::size_t i, double ta, double tb, const double* p,
                                     double* lo, double* hi, Workspace* ws) const {
  ODESENS_REGISTERS(root_range_over_time(i, ta, tb, p, lo, hi, ws_given));
  return event_functions(*impl_).root_range_over_time(i, ta, tb, p, lo, hi, w.ranges);
}

void ExprModel::triggers(const int* sides, bool* out) const {
  event_functions(*impl_).triggers(sides, out);
}

const std::vector<std::size_t>& ExprModel::trigger_roots(std::size_t k) const {
  return event_functions(*impl_).trigger_roots(k);
}

double ExprModel::delay(std::size_t k, double t, const double* x, const double* p,
                        Workspace* ws) const {
  ODESENS_REGISTERS(delay(k, t, x, p, ws_given));
  return event_functions(*impl_).delay(w.registers, k, t, x, p);
}

void ExprModel::delay_gradient(std::size_t k, double t, const double* x, const double* p,
                               double* d_t, double* d_x, double* d_p, Workspace* ws) const {
  ODESENS_REGISTERS(delay_gradient(k, t, x, p, d_t, d_x, d_p, ws_given));
  event_functions(*impl_).delay_gradient(w.registers, k, t, x, p, d_t, d_x, d_p);
}

double ExprModel::priority(std::size_t k, double t, const double* x, const double* p,
                           Workspace* ws) const {
  ODESENS_REGISTERS(priority(k, t, x, p, ws_given));
  return event_functions(*impl_).priority(w.registers, k, t, x, p);
}

void ExprModel::assignment_values(std::size_t k, double t, const double* x, const double* p,
                                  double* values, Workspace* ws) const {
  ODESENS_REGISTERS(assignment_values(k, t, x, p, values, ws_given));
  event_functions(*impl_).assignment_values(w.registers, k, t, x, p, values);
}

void ExprModel::assignment_jacobians(std::size_t k, double t, const double* x, const double* p,
                                     double* h_t, double* h_x, double* h_p,
                                     Workspace* ws) const {
  ODESENS_REGISTERS(assignment_jacobians(k, t, x, p, h_t, h_x, h_p, ws_given));
  event_functions(*impl_).assignment_jacobians(w.registers, k, t, x, p, h_t, h_x, h_p);
}

const std::vector<std::size_t>& ExprModel::branch_roots() const {
  return event_functions(*impl_).branch_roots();
}

void ExprModel::rhs_points_on_branches(std::size_t n, const double* t, const double* X,
                                       const double* P, const double* truth, double* F,
                                       Workspace* ws) const {
  ODESENS_REGISTERS(rhs_points_on_branches(n, t, X, P, truth, F, ws_given));
  evaluate_on_branches(*impl_, w, n, t, X, P, truth, F);
}

void ExprModel::vjp_on_branches(double t, const double* x, const double* p, const double* truth,
                                std::size_t nw, const double* W, double* out_x, double* out_p,
                                Workspace* ws) const {
  ODESENS_REGISTERS(vjp_on_branches(t, x, p, truth, nw, W, out_x, out_p, ws_given));
  const expr::EventFunctions& events = event_functions(*impl_);
  const std::size_t np = impl_->sym.param_names.size();
  const std::size_t width = np + events.branch_roots().size() + events.parameter_branch_count();
  const double* P_branches = parameters_on_branches(*impl_, w, 1, &t, x, p, truth);
  // The adjoints of the branches' parameters come out too: kept apart and
  // dropped, p's added to out_p.
  double* all_p = out_p ? w.registers.buffer(Slot::branch_adjoints).ensure(width * nw) : nullptr;
  expr::evaluate_adjoints(events.rhs_on_branches_adjoint(), kernels(w.lane_width()), w.registers,
                          t, x, P_branches, nw, W, out_x, all_p);
  if (!out_p) return;
  for (std::size_t c = 0; c < nw; ++c)
    for (std::size_t j = 0; j < np; ++j) out_p[j + c * np] += all_p[j + c * width];
}

void ExprModel::jvp_on_first_parameters(double t, const double* x, const double* p,
                                        const double* p_first, std::size_t nv, const double* V,
                                        double* out, Workspace* ws) const {
  if (parameter_branch_count() == 0) return jvp(t, x, p, nv, V, out, ws);
  ODESENS_REGISTERS(jvp_on_first_parameters(t, x, p, p_first, nv, V, out, ws_given));
  const expr::EventFunctions& events = event_functions(*impl_);
  const std::size_t np = impl_->sym.param_names.size(), nq = events.parameter_branch_count();
  double* extended = w.registers.buffer(Slot::branch_params).ensure(np + nq);
  std::copy(p, p + np, extended);
  events.parameter_branch_values(w.registers, t, x, p_first, extended + np);
  expr::evaluate_tangents(events.rhs_on_parameter_branches(), kernels(w.lane_width()),
                          w.registers, t, x, extended, nv, V, nullptr, out);
}

std::size_t ExprModel::parameter_branch_count() const {
  return impl_->events ? impl_->events->parameter_branch_count() : 0;
}

void ExprModel::rhs_points_on_first_parameters(std::size_t n, const double* t, const double* X,
                                               const double* P, double* F, Workspace* ws) const {
  if (parameter_branch_count() == 0 || n == 0) return rhs_points(n, t, X, P, F, ws);
  ODESENS_REGISTERS(rhs_points_on_first_parameters(n, t, X, P, F, ws_given));
  evaluate_on_branches(*impl_, w, n, t, X, P, nullptr, F);
}

#undef ODESENS_REGISTERS

int widest_expr_lane_width() { return expr::widest_lane_width(); }

}  // namespace odesens
