#include "result_binding.hpp"

#include <cstdint>
#include <utility>

#include <pybind11/stl.h>

#include "numpy_arrays.hpp"

namespace py = pybind11;
using py::ssize_t;

namespace odesens::python {

namespace {

// n_blocks blocks of rows x cols, each column-major, block slowest:
// element (k, i, j) at i + j*rows + k*rows*cols.
py::array_t<double> column_major_blocks(std::vector<double>&& v, std::size_t rows,
                                        std::size_t cols) {
  const auto r = static_cast<ssize_t>(rows), c = static_cast<ssize_t>(cols);
  const ssize_t n = r * c == 0 ? 0 : static_cast<ssize_t>(v.size()) / (r * c);
  return owned_array(std::move(v), {n, r, c}, {r * c, 1, r});
}

// np values for one objective, np x M (column-major) for M.
py::array_t<double> gradient_array(std::vector<double>&& g, std::size_t np, std::size_t m) {
  if (m <= 1) return owned_vector(std::move(g));
  const auto n = static_cast<ssize_t>(np);
  return owned_array(std::move(g), {n, static_cast<ssize_t>(m)}, {1, n});
}

py::dict bounds_to_dict(BoundsResult&& b) {
  py::dict d;
  d["basis"] = b.basis;
  d["remainder"] = b.remainder;
  d["order"] = b.order;
  d["n_monomials"] = b.n_monomials;
  d["box_lower"] = owned_vector(std::move(b.box_lower));
  d["box_upper"] = owned_vector(std::move(b.box_upper));
  d["x_hull"] = owned_vector(std::move(b.x_hull));
  d["s_hull"] = owned_vector(std::move(b.s_hull));
  d["gradient_hull"] = owned_vector(std::move(b.gradient_hull));
  return d;
}

}  // namespace

py::dict stats_to_dict(const Stats& stats) {
  py::dict d;
  for (const auto& [name, value] : stats.all()) {
    // The counters are integers; wall time and the methods' own are floats.
    if (name == "wall_seconds" || stats.extra.count(name))
      d[py::str(name)] = value;
    else
      d[py::str(name)] = static_cast<std::int64_t>(value);
  }
  return d;
}

py::dict result_to_dict(Result&& r) {
  py::dict d;
  const std::size_t n_objectives =
      r.np == 0 || r.gradient.empty() ? 1 : r.gradient.size() / r.np;
  d["method"] = r.method;
  d["method_choice"] = r.method_choice;
  d["t"] = owned_vector(std::move(r.times));
  const auto nx = static_cast<ssize_t>(r.nx);
  const ssize_t nt = nx == 0 ? 0 : static_cast<ssize_t>(r.x.size()) / nx;
  d["x"] = owned_array(std::move(r.x), {nt, nx}, {nx, 1});
  d["s_times"] = owned_vector(std::move(r.s_times));
  d["S"] = column_major_blocks(std::move(r.s), r.nx, r.np);
  d["sr"] = r.ns ? py::object(column_major_blocks(std::move(r.sr), r.nx, r.ns)) : py::none();
  d["gradient"] = gradient_array(std::move(r.gradient), r.np, n_objectives);
  d["gradient_x0"] = owned_vector(std::move(r.gradient_x0));
  d["objective_values"] = owned_vector(std::move(r.objective_values));
  d["stats"] = stats_to_dict(r.stats);
  d["warnings"] = py::cast(r.warnings);
  d["bounds"] = r.bounds.basis.empty() ? py::object(py::none())
                                       : py::object(bounds_to_dict(std::move(r.bounds)));
  return d;
}

}  // namespace odesens::python
