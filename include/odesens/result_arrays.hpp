// The arrays of a Result as one table: each has a name, axes with names and
// extents, a line of documentation, and its data. The C ABI
// (odesens_result_array_*), the JSON writer, the MPI codec and the Python
// module iterate this table, so an output added to Result and to the table
// reaches every one of them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "odesens/result.hpp"

namespace odesens {

// The axes along which a result's arrays extend.
enum class ResultAxis {
  time,       // the output times (Result::times)
  s_time,     // the times at which S is given (Result::s_times)
  state,      // nx
  parameter,  // np
  direction,  // ns sensitivity directions
  objective,  // the objectives: whatever the array's length leaves for it
  monomial,   // the basis functions of a set-valued method's models
  bound,      // 2: lower, upper
};
const char* axis_name(ResultAxis axis);

struct ResultArraySpec {
  const char* name;   // as the documents and the C ABI name it ("x", "S", ...)
  const char* group;  // "" for every method's arrays, "bounds" for enclosures
  const char* doc;    // one line: what the array holds
  // Who computes it, said when it is asked of a result without it
  // ("erk_adjoint does"); "" for the arrays every result has.
  const char* who;
  // The storage order, fastest first: the flat data are column-major over
  // these axes (x: state, time, so x[i + k*nx]).
  std::vector<ResultAxis> axes;
  // The documents' order, outermost first, as indices into `axes` (x: time,
  // state): the nesting of JSON lists and the C-order shape of numpy and
  // HDF5 arrays.
  std::vector<std::size_t> layout;
  bool always;  // in the documents even when empty (times, x, S_times, S)
  // Where the data live: a field of Result, or of its BoundsResult (group
  // "bounds"); the other is null.
  std::vector<double> Result::*field;
  std::vector<double> BoundsResult::*bounds_field;

  std::vector<double>& storage(Result& r) const;  // decoders fill the arrays through it
  const std::vector<double>& storage(const Result& r) const;
};

// Every array in one order: the order of the C ABI's odesens_result_array.
const std::vector<ResultArraySpec>& result_array_specs();
// The index of the array `name`; Error(invalid_argument) listing the names
// for an unknown one.
std::size_t result_array_index(const std::string& name);

// One array of one result, with its extents (storage order).
struct ResultArrayView {
  const ResultArraySpec* spec = nullptr;
  const std::vector<double>* data = nullptr;
  std::vector<std::size_t> extents;  // per axis of spec->axes
  std::vector<std::size_t> strides;  // per axis, in elements

  bool empty() const { return data->empty(); }
  // The axes in the documents' order (spec->layout), an objective axis of
  // extent 1 left out: extent, and stride in elements.
  struct Axis {
    std::size_t extent, stride;
  };
  std::vector<Axis> layout() const;
};

// Array `index` of r. Its extents follow from r's sizes (times, nx, np, ns,
// the bounds' monomials; the objective axis from the array's length); an
// empty array has 0 along its slowest axis. A length that disagrees with
// the sizes is Error(internal_error): a method filled it wrongly.
ResultArrayView result_array(const Result& r, std::size_t index);
std::vector<ResultArrayView> result_arrays(const Result& r);

}  // namespace odesens
