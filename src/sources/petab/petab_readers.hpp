// One reader per PEtab table, each appending the rows of one file to what
// the files before it gave (a problem may list several files of a kind).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "sources/petab/petab_tables.hpp"
#include "sources/petab/petab_tsv.hpp"

namespace odesens::petab {

void read_parameter_table(const std::string& file, std::vector<ParameterRow>& into);
void read_condition_table(const std::string& file, ConditionTable& into);
void read_measurement_table(const std::string& file, std::vector<MeasurementRow>& into);
void read_observable_table(const std::string& file, std::vector<ObservableRow>& into);

// The ids of one table seen so far, to refuse a second row with the same
// id (in the same file or another of its kind).
class IdSet {
 public:
  explicit IdSet(std::string column) : column_(std::move(column)) {}
  void add(const std::string& id, const Place& place);

 private:
  std::string column_;
  std::unordered_map<std::string, Place> first_;
};

// The number in a cell that must hold one: Error(parse_error) naming the
// column when it is empty, not a number, or NaN.
double required_number(const Tsv& t, std::size_t r, std::size_t c);

}  // namespace odesens::petab
