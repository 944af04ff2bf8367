// Resolving a model by name: "builtin:NAME[:ARG]" for the compiled
// built-ins (see builtin_models.hpp), otherwise a model file: SBML when its
// content is XML (sbml_model.hpp), .ode text otherwise (expr_model.hpp).
//
// Limits on model files, so that a wrong or hostile file fails with an
// Error instead of exhausting memory, blocking or crashing:
// - Only regular files are read: a directory, FIFO, device or socket is
//   Error(io_error) naming what it is (and a FIFO is never waited on).
// - Files larger than 64 MiB are Error(io_error). The limit is
//   LoadOptions::max_file_bytes when set, else the environment variable
//   ODESENS_MAX_MODEL_FILE_SIZE (bytes, or a number with a K, M or G
//   suffix: 256M), else 64 MiB. It holds for load_sbml_file and
//   load_ode_file too (through the variable).
// - Text is UTF-8, with or without a byte-order mark; UTF-16 and UTF-32
//   files are Error(unsupported) naming the encoding, NUL bytes
//   Error(parse_error). SBML text that is not valid UTF-8 is
//   Error(parse_error) with the line and column of the first bad byte.
// - SBML documents nested deeper than 256 XML elements, and SBML math whose
//   translation would nest too deeply or inline too much, are
//   Error(unsupported): see sbml_model.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

struct LoadOptions {
  // SBML models only (see SbmlOptions): the ids of the sensitivity
  // parameters; unset means the default set. Set for any other model, it is
  // Error(invalid_argument).
  std::optional<std::vector<std::string>> sbml_sensitivity_params;
  // Files larger than this many bytes are refused (see above); unset: the
  // environment variable ODESENS_MAX_MODEL_FILE_SIZE, else 64 MiB.
  std::optional<std::uint64_t> max_file_bytes;
};

// Throws Error(unknown_model) with a message naming what was not found.
std::shared_ptr<Model> load_model(const std::string& spec);
std::shared_ptr<Model> load_model(const std::string& spec, const LoadOptions& options);

// A model file, whatever its name: SBML when the content is XML, .ode text
// otherwise.
std::shared_ptr<Model> load_model_file(const std::string& path, const LoadOptions& options = {});

}  // namespace odesens
