#include "problem_settings.hpp"

#include <string>
#include <utility>

#include "numpy_arrays.hpp"
#include "odesens/status.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

// The value under `key`, or None when absent.
py::object get(const py::dict& settings, const char* key) {
  return settings.contains(key) ? py::reinterpret_borrow<py::object>(settings[key])
                                : py::none();
}

// atol: one number for every state, or one per state.
std::vector<double> absolute_tolerances(const py::object& atol) {
  if (py::isinstance<py::float_>(atol) || py::isinstance<py::int_>(atol))
    return {atol.cast<double>()};
  return to_vector(atol, "atol");
}

void set_box(Problem& problem, const py::object& box) {
  if (!py::isinstance<py::sequence>(box) || py::isinstance<py::str>(box) ||
      py::len(box) != 2)
    throw Error(Status::invalid_argument, "box must be a pair (lower, upper) of arrays, got " +
                                              py::str(py::type::of(box)).cast<std::string>());
  const auto bounds = box.cast<py::sequence>();
  problem.param_lower = to_vector(bounds[0], "box lower bounds");
  problem.param_upper = to_vector(bounds[1], "box upper bounds");
}

}  // namespace

void set_option(Options& options, const std::string& key, const py::handle& value) {
  // bool before int: True is an int in Python, and a flag is an integer here.
  if (py::isinstance<py::bool_>(value) || py::isinstance<py::int_>(value))
    options.set(key, value.cast<std::int64_t>());
  else if (py::isinstance<py::float_>(value))
    options.set(key, value.cast<double>());
  else if (py::isinstance<py::str>(value))
    options.set(key, value.cast<std::string>());
  else
    throw Error(Status::option_type, "option " + key + ": a number or text is needed, got " +
                                         py::str(py::type::of(value)).cast<std::string>());
}

Problem make_problem(const std::shared_ptr<Model>& model, const py::dict& settings) {
  Problem problem;
  problem.model = model;
  problem.output_times = to_vector(get(settings, "t"), "t");
  const py::object t0 = get(settings, "t0");
  problem.t0 = t0.is_none() ? model->default_t0() : t0.cast<double>();
  if (auto p = get(settings, "p"); !p.is_none()) problem.params = to_vector(p, "p");
  if (auto x0 = get(settings, "x0"); !x0.is_none()) problem.initial_state = to_vector(x0, "x0");
  if (auto rtol = get(settings, "rtol"); !rtol.is_none()) problem.rtol = rtol.cast<double>();
  if (auto atol = get(settings, "atol"); !atol.is_none()) problem.atol = absolute_tolerances(atol);
  if (auto steps = get(settings, "max_steps"); !steps.is_none())
    problem.max_steps = steps.cast<std::int64_t>();
  if (auto w = get(settings, "weights"); !w.is_none()) {
    // Rows are output times: row-major n_t x nx is the library's w[i + k*nx].
    // A row per state is checked here: only the count of all of them
    // reaches the library, and the transpose (nx x n_t) passed it.
    const auto rows = to_rows(w, "weights");
    if (rows.empty() || rows.front().size() != model->nx())
      throw Error(Status::invalid_argument,
                  "weights must have one row per output time (and objective) and one column "
                  "per state (" + std::to_string(model->nx()) + "), got " +
                  std::to_string(rows.size()) + " x " +
                  std::to_string(rows.empty() ? 0 : rows.front().size()));
    for (auto& row : rows)
      problem.adjoint_weights.insert(problem.adjoint_weights.end(), row.begin(), row.end());
  }
  if (auto box = get(settings, "box"); !box.is_none()) set_box(problem, box);
  if (auto options = get(settings, "options"); !options.is_none())
    for (const auto& [key, value] : options.cast<py::dict>())
      set_option(problem.options, key.cast<std::string>(), value);
  return problem;
}

}  // namespace odesens::python
