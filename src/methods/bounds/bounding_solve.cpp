#include "methods/bounds/bounding_solve.hpp"

#include <cvodes/cvodes.h>

#include <sstream>

#include "core/number_text.hpp"
#include "methods/bounds/verified_arithmetic.hpp"

namespace odesens::bounds {

std::string time_text(double t) {
  std::ostringstream os;
  os.precision(10);
  os << t;
  return os.str();
}

namespace {

// The bounding system's states are the coefficients of polynomial models,
// all but the constant terms 0 at t0 (and the remainders' too), weighed by
// CVODES with 1 / (rtol |c| + atol): infinite at atol 0, which CVODES
// refuses as CV_ILL_INPUT, read before as an enclosure growing too fast.
void check_bounding_tolerances(const Problem& problem) {
  if (problem.atol.empty() || problem.atol[0] > 0.0) return;
  throw Error(Status::invalid_argument,
              "atol is 0: the set-valued methods integrate the coefficients of polynomial "
              "models, which start at 0 (all but the constant terms), and CVODES weighs them "
              "by 1/(rtol |c| + atol), infinite there; give atol > 0");
}

}  // namespace

BoundingArithmetic make_bounding_arithmetic(const Problem& problem,
                                            const BoundsSettings& settings) {
  check_bounding_tolerances(problem);
  BoundingArithmetic a{make_parameter_box(problem.param_lower, problem.param_upper), {}, {}, {}};
  a.arith = std::make_unique<PolyArithmetic>(a.box.n_variables, settings.order, settings.basis,
                                             settings.bounder, settings.max_width);
  a.jac_arith = std::make_unique<PolyArithmetic>(a.box.n_variables, settings.jac_order,
                                                 settings.basis, settings.bounder,
                                                 settings.max_width);
  a.params.order_q = parameter_models(a.box, *a.arith);
  a.params.order_jac = parameter_models(a.box, *a.jac_arith);
  return a;
}

FunctionSelection functions_for(const BoundsSettings& settings) {
  FunctionSelection which;
  which.each_output = settings.remainder == RemainderKind::interval;
  which.jacobians = settings.remainder == RemainderKind::ellipsoid;
  return which;
}

StateBounding make_state_bounding(const BoundingFunctions& tapes, const BoundingArithmetic& a,
                                  const BoundsSettings& settings) {
  StateBounding b;
  if (settings.remainder == RemainderKind::ellipsoid)
    b.jacobian = std::make_unique<StateJacobian>(
        tapes.jac_x,
        tapes.hess_entries.empty() && tapes.mixed_entries.empty() ? nullptr : &tapes.hess_x,
        *a.arith,
        *a.jac_arith, a.params.order_jac, tapes.nx);
  b.state = std::make_unique<SystemBounder>(tapes.state(), nullptr, *a.arith, *a.jac_arith,
                                            settings, a.params, b.jacobian.get());
  return b;
}

void initial_models(const Problem& problem, const BoundingFunctions& tapes,
                    const BoundingArithmetic& a, std::vector<PolyModel>& x0,
                    std::vector<PolyModel>& dx0) {
  const std::size_t nx = tapes.nx, np = tapes.np;
  x0.assign(nx, a.arith->make());
  dx0.assign(nx * np, a.arith->make());
  if (!problem.initial_state.empty()) {
    for (std::size_t i = 0; i < nx; ++i) a.arith->set_constant(x0[i], problem.initial_state[i]);
    for (auto& m : dx0) a.arith->set_constant(m, 0.0);
    return;
  }
  // Functions of the parameters alone: their whole value is the parameter part.
  PolyEvaluation e0(tapes.x0, *a.arith), e1(tapes.dx0_dp, *a.arith);
  e0.set_params(a.params.order_q);
  e1.set_params(a.params.order_q);
  e0.evaluate_parameter_part(x0.data());
  e0.evaluate(x0.data());
  e1.evaluate_parameter_part(dx0.data());
  e1.evaluate(dx0.data());
}

namespace {

std::size_t box_parameters(const Problem& problem) {
  std::size_t n_var = 0;
  for (std::size_t j = 0; j < problem.param_lower.size(); ++j)
    if (problem.param_lower[j] < problem.param_upper[j]) ++n_var;
  return n_var;
}

// C(n_var + q, q): the coefficients of one model.
double monomials(std::size_t n_var, int order) {
  double n_mon = 1.0;
  for (int k = 1; k <= order; ++k)
    n_mon = n_mon * static_cast<double>(n_var + static_cast<std::size_t>(k)) / k;
  return n_mon;
}

}  // namespace

void check_bounding_size(const Problem& problem, int order, double components,
                         const std::string& method) {
  constexpr double kMaxCoefficients = 1e8;
  const std::size_t n_var = box_parameters(problem);
  const double n_mon = monomials(n_var, order);
  const double total = n_mon * components;
  if (total > kMaxCoefficients)
    throw Error(Status::invalid_argument,
                method + ": " + std::to_string(n_var) + " box parameters at order " +
                    std::to_string(order) + " give " + number_text(n_mon) +
                    " coefficients per model, " + number_text(total) +
                    " in the bounding systems (at most 1e8): a lower order or fewer "
                    "parameters with lower < upper");
}

double check_bounding_work(const Problem& problem, const BoundsSettings& settings,
                           const std::vector<const Function*>& evaluated,
                           const std::string& method) {
  const auto work_at = [&](int order) {
    double products = 0.0;
    for (const Function* f : evaluated) products += f->polynomial_products(order);
    const double n_mon = monomials(box_parameters(problem), order);
    return products * n_mon * n_mon;
  };
  const double work = work_at(settings.order);
  if (work <= settings.max_work) return work;
  int lower = settings.order - 1;
  while (lower > 0 && work_at(lower) > settings.max_work) --lower;
  throw Error(Status::invalid_argument,
              method + ": " + std::to_string(box_parameters(problem)) +
                  " box parameters at order " + std::to_string(settings.order) +
                  " make one evaluation of the bounding system about " +
                  rounded_number_text(work, 2) +
                  " products of coefficients (option max_work: " +
                  rounded_number_text(settings.max_work) +
                  "; a core does a few 1e9 a second, and a solve takes tens to hundreds of "
                  "evaluations): order " + std::to_string(lower) + " makes " +
                  rounded_number_text(work_at(lower), 2) +
                  "; or fewer parameters with lower < upper, or a larger max_work");
}

void fill_tolerances(const SystemLayout& layout, double atol, double shape_atol, double* v) {
  for (std::size_t k = 0; k < layout.size(); ++k) v[k] = atol;
  for (std::size_t k = 0; k < layout.shape_size(); ++k) v[layout.shape_offset() + k] = shape_atol;
}

int bounding_state_rhs(double t, N_Vector y, N_Vector ydot, void* data) {
  auto* s = static_cast<StateSolve*>(data);
  double* out = N_VGetArrayPointer(ydot);
  return s->guard.run(t, out, s->state->layout().size(), [&] {
    if (s->replay) {
      try {
        s->replay->check(s->replay_mem);
      } catch (const cvodes::ReplayOverflow& overflow) {
        throw Error(Status::solver_failed,
                    std::string(overflow.what()) +
                        "; a larger checkpoint_steps holds a stage's steps without "
                        "checkpoints to recompute from");
      }
    }
    s->state->rhs(t, N_VGetArrayPointer(y), nullptr, out);
  });
}

}  // namespace odesens::bounds
