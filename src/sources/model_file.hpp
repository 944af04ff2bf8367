// Reading a model file whole, with the errors every model source reports.
#pragma once

#include <string>

namespace odesens {

// The file's bytes. Error(unknown_model) when it does not exist,
// Error(io_error) when it is a directory or cannot be read.
std::string read_model_file(const std::string& path);

}  // namespace odesens
