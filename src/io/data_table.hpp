// Measurements of a model's states (`odesens run --data FILE`): a table
// (table_file.hpp) with a header row `t,STATE,...` (any of the states, in
// any order) and one row per output time; an empty or NaN cell is a state
// not observed at that time.
//
//   t,x,y
//   0.5,,1.2                 <- x not observed at t = 0.5
//   1,0.37,nan               <- y not observed at t = 1
#pragma once

#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::io {

struct Measurements {
  std::vector<double> times;   // the output times, one a row
  std::vector<double> values;  // d[i + k*nx]: state i at times[k]; NaN where not observed
};

struct DataTableOptions {
  std::string flag;  // what names the file in messages: "--data"
  // The output times the rows must have, in order; empty: the file's t
  // column gives them.
  std::vector<double> times;
  std::string times_flag;  // what gave `times`, in messages: "--tout"
};

// Reads PATH as read_table does, then checks, in this order: a column t;
// as many rows as `options.times` has (when it has any); row by row a t,
// equal to options.times' within 1e-12 relative, and no infinite value.
// Error(invalid_argument) naming the file, the row and what is wrong.
Measurements read_measurements(const std::string& path, const Model& model,
                               const DataTableOptions& options);

}  // namespace odesens::io
