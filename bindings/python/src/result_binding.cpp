#include "result_binding.hpp"

#include <cstdint>
#include <utility>

#include <pybind11/stl.h>

#include "numpy_arrays.hpp"
#include "odesens/result_arrays.hpp"

namespace py = pybind11;
using py::ssize_t;

namespace odesens::python {

namespace {

// Every array of the result's table, moved into numpy arrays shaped in the
// documents' order (ResultArraySpec::layout) over the library's own layout.
py::dict arrays_to_dict(Result& r) {
  std::vector<ResultArrayView> views = result_arrays(r);  // extents before the moves
  py::dict d;
  for (const ResultArrayView& view : views) {
    std::vector<ssize_t> shape, strides;
    for (const auto& axis : view.layout()) {
      shape.push_back(static_cast<ssize_t>(axis.extent));
      strides.push_back(static_cast<ssize_t>(axis.stride));
    }
    d[view.spec->name] = owned_array(std::move(view.spec->storage(r)), shape, strides);
  }
  return d;
}

// The set-valued methods' enclosures: their arrays and what describes them.
py::dict bounds_to_dict(const BoundsResult& b, const py::dict& arrays) {
  py::dict d;
  d["basis"] = b.basis;
  d["remainder"] = b.remainder;
  d["order"] = b.order;
  d["n_monomials"] = b.n_monomials;
  for (const ResultArraySpec& spec : result_array_specs())
    if (std::string(spec.group) == "bounds") d[spec.name] = arrays[spec.name];
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
  d["method"] = r.method;
  d["method_choice"] = r.method_choice;
  d["stats"] = stats_to_dict(r.stats);
  d["warnings"] = py::cast(r.warnings);
  const bool has_bounds = !r.bounds.basis.empty();
  const std::size_t ns = r.ns;
  const py::dict arrays = arrays_to_dict(r);
  d["arrays"] = arrays;
  d["bounds"] = has_bounds ? py::object(bounds_to_dict(r.bounds, arrays)) : py::none();
  d["sr"] = ns ? arrays["SR"] : py::object(py::none());
  return d;
}

}  // namespace odesens::python
