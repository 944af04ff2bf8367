// numpy arrays in and out. Out: a result's std::vector is moved into the
// array's owner (a capsule), so x and S reach Python without a copy, in the
// library's own layout described by strides. In: any array-like of numbers,
// converted to float64 once.
#pragma once

#include <cstddef>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace odesens::python {

// An array over `values` (moved) with the shape and the strides given in
// elements (not bytes).
pybind11::array_t<double> owned_array(std::vector<double>&& values,
                                      const std::vector<pybind11::ssize_t>& shape,
                                      const std::vector<pybind11::ssize_t>& element_strides);
// A 1-D array over `values` (moved).
pybind11::array_t<double> owned_vector(std::vector<double>&& values);

// The numbers of a 1-D array-like; Error(invalid_argument) naming `what`
// for anything else.
std::vector<double> to_vector(const pybind11::handle& values, const char* what);
// The rows of a 2-D array-like (K x n), each as a vector.
std::vector<std::vector<double>> to_rows(const pybind11::handle& values, const char* what);

}  // namespace odesens::python
