#include "numpy_arrays.hpp"

#include <string>
#include <utility>

#include "odesens/status.hpp"

namespace py = pybind11;

namespace odesens::python {

py::array_t<double> owned_array(std::vector<double>&& values,
                                const std::vector<py::ssize_t>& shape,
                                const std::vector<py::ssize_t>& element_strides) {
  std::vector<py::ssize_t> strides;
  for (auto s : element_strides) strides.push_back(s * static_cast<py::ssize_t>(sizeof(double)));
  // numpy allocates for a null pointer; an empty vector may have one.
  if (values.empty()) return py::array_t<double>(shape, strides);
  auto* owner = new std::vector<double>(std::move(values));
  py::capsule base(owner, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(shape, strides, owner->data(), base);
}

py::array_t<double> owned_vector(std::vector<double>&& values) {
  const auto n = static_cast<py::ssize_t>(values.size());
  return owned_array(std::move(values), {n}, {1});
}

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// float64, C order; Error(invalid_argument) for what numpy cannot convert,
// and for complex values, whose imaginary part numpy's cast would drop with
// no more than a ComplexWarning.
bool is_complex(const py::handle& values) {
  try {
    return py::module_::import("numpy").attr("iscomplexobj")(values).cast<bool>();
  } catch (const py::error_already_set&) {
    return false;  // not an array numpy can make (ragged): ensure() says so
  }
}

Array as_float_array(const py::handle& values, const char* what) {
  if (is_complex(values))
    throw Error(Status::invalid_argument,
                std::string(what) + " must be real numbers, not complex (pass .real if only "
                                    "the real part is meant)");
  Array array = Array::ensure(values);
  if (!array) {
    PyErr_Clear();
    throw Error(Status::invalid_argument,
                std::string(what) + " must be an array of numbers");
  }
  return array;
}

}  // namespace

std::vector<double> to_vector(const py::handle& values, const char* what) {
  Array array = as_float_array(values, what);
  if (array.ndim() != 1)
    throw Error(Status::invalid_argument, std::string(what) + " must be 1-D, got " +
                                              std::to_string(array.ndim()) + " dimensions");
  return std::vector<double>(array.data(), array.data() + array.size());
}

std::vector<std::vector<double>> to_rows(const py::handle& values, const char* what) {
  Array array = as_float_array(values, what);
  if (array.ndim() != 2)
    throw Error(Status::invalid_argument, std::string(what) + " must be 2-D, got " +
                                              std::to_string(array.ndim()) + " dimensions");
  std::vector<std::vector<double>> rows;
  const auto n = static_cast<std::size_t>(array.shape(1));
  for (py::ssize_t k = 0; k < array.shape(0); ++k) {
    if (n == 0) {  // no element to point at: data(k, 0) would be out of bounds
      rows.emplace_back();
      continue;
    }
    const double* row = array.data(k, 0);
    rows.emplace_back(row, row + n);
  }
  return rows;
}

}  // namespace odesens::python
