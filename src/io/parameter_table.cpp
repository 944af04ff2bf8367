#include "io/parameter_table.hpp"

namespace odesens::io {

NumberTable read_parameter_table(const std::string& path,
                                 const std::vector<std::string>& model_names,
                                 const std::string& model_name, const std::string& flag) {
  TableSchema schema;
  schema.flag = flag;
  schema.column = "parameter";
  schema.names = model_names;
  schema.owner = "model " + model_name;
  schema.row = "member";
  schema.max_rows = max_members;
  schema.too_many = "parameter sets (members); at most " + std::to_string(max_members) +
                    " per run: split the file";
  return read_table(path, schema);
}

std::vector<std::vector<double>> parameter_sets(const NumberTable& table,
                                                const std::vector<double>& nominal,
                                                std::size_t first, std::size_t count) {
  const std::size_t columns = table.columns.size();
  std::vector<std::vector<double>> sets(count, nominal);
  for (std::size_t k = 0; k < count; ++k)
    for (std::size_t c = 0; c < columns; ++c)
      sets[k][table.columns[c]] = table.values[(first + k) * columns + c];
  return sets;
}

}  // namespace odesens::io
