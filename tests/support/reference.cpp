#include "support/reference.hpp"

#include <algorithm>
#include <cmath>

#include "expr/expr_test_support.hpp"

namespace odesens::testing {

std::vector<double> linspace(double a, double b, std::size_t n) {
  std::vector<double> t(n);
  for (std::size_t k = 0; k < n; ++k)
    t[k] = k + 1 == n ? b : a + (b - a) * static_cast<double>(k) / static_cast<double>(n - 1);
  return t;
}

std::vector<ColumnError> column_errors(const Result& r, const Result& ref) {
  std::vector<ColumnError> out(ref.np);
  for (std::size_t k = 0; k < ref.times.size(); ++k)
    for (std::size_t j = 0; j < ref.np; ++j)
      for (std::size_t i = 0; i < ref.nx; ++i) {
        out[j].scale = std::max(out[j].scale, std::fabs(ref.s_at(k, i, j)));
        out[j].error = std::max(out[j].error, std::fabs(r.s_at(k, i, j) - ref.s_at(k, i, j)));
      }
  return out;
}

Result tight_reference(const Problem& problem) {
  Problem tight = problem;
  tight.rtol = 1e-10;
  tight.atol = {1e-12};
  return solve(tight, "cvodes_fsa");
}

Problem sbml_problem(const std::string& name, std::size_t n_outputs) {
  Problem p;
  p.model = load_model_file(expr_testing::sbml_model_path(name));
  p.output_times = linspace(p.model->default_t0(), p.model->default_t_end(), n_outputs);
  return p;
}

Problem builtin_problem(const std::string& spec, std::vector<double> times) {
  Problem p;
  p.model = make_builtin_model(spec);
  p.t0 = p.model->default_t0();
  p.output_times = std::move(times);
  return p;
}

Problem ode_text_problem(const std::string& text, std::vector<double> times, double rtol,
                         double atol) {
  Problem p;
  p.model = load_ode_text(text, "test.ode");
  p.output_times = std::move(times);
  p.rtol = rtol;
  p.atol = {atol};
  return p;
}

namespace {

std::vector<double> trajectory(const Problem& base, const std::vector<double>& p) {
  // The trajectory alone (events included), at parameters p.
  Problem pr;
  pr.model = base.model;
  pr.params = p;
  pr.options.set("sensitivities", 0);
  pr.t0 = base.t0;
  pr.output_times = base.output_times;
  pr.rtol = 1e-12;
  pr.atol = {1e-14};
  pr.max_steps = 1000000;
  if (!base.initial_state.empty()) pr.initial_state = base.initial_state;
  return solve(pr, "cvodes_fsa").x;
}

}  // namespace

std::vector<double> central_difference_sensitivities(const Problem& problem, double rel_step) {
  const std::size_t nx = problem.model->nx(), np = problem.model->np();
  const std::size_t nt = problem.output_times.size();
  const std::vector<double> p = effective_params(problem);
  std::vector<double> s(nx * np * nt);
  for (std::size_t j = 0; j < np; ++j) {
    const double h = rel_step * std::max(std::fabs(p[j]), 1e-3);
    auto plus = p, minus = p;
    plus[j] += h;
    minus[j] -= h;
    const auto xp = trajectory(problem, plus), xm = trajectory(problem, minus);
    const double width = plus[j] - minus[j];
    for (std::size_t k = 0; k < nt; ++k)
      for (std::size_t i = 0; i < nx; ++i)
        s[i + j * nx + k * nx * np] = (xp[i + k * nx] - xm[i + k * nx]) / width;
  }
  return s;
}

double relative_max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  if (a.size() != b.size()) return INFINITY;
  return scale > 0.0 ? diff / scale : diff;
}

bool warns(const Result& r, const std::string& text) {
  return std::any_of(r.warnings.begin(), r.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

double matrix_error(const Result& r, const Result& ref) {
  const std::size_t nx = ref.nx, np = ref.np, n_ref = ref.times.size();
  const std::size_t n = r.s_times.size(), first = n_ref - n;
  std::vector<double> column(np, 0.0), row(nx, 0.0);
  double largest = 0.0;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        const double v = std::fabs(ref.s_at(first + k, i, j));
        column[j] = std::max(column[j], v);
        row[i] = std::max(row[i], v);
        largest = std::max(largest, v);
      }
  double worst = 0.0;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        const double scale = std::max({column[j], row[i], 1e-6 * largest});
        const double e = std::fabs(r.s_at(k, i, j) - ref.s_at(first + k, i, j));
        worst = std::max(worst, scale > 0 ? e / scale : e);
      }
  return worst;
}

}  // namespace odesens::testing
