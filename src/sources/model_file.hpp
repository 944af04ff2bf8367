// Reading a model file whole, with the errors every model source reports
// and the size limit every model file is held to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace odesens {

// The default size limit of model files: 64 MiB, far above the real models
// odesens is tested with (the largest, Lang_PLOSComputBiol2024, is under
// 1 MiB) and small enough that reading a wrong file (a disk image, a log)
// fails at once instead of taking the memory of the machine.
constexpr std::uint64_t kDefaultModelFileSizeLimit = std::uint64_t{64} << 20;
// The environment variable that changes it: bytes, or a number with a K, M
// or G suffix (KiB, MiB, GiB).
constexpr const char* kModelFileSizeLimitVariable = "ODESENS_MAX_MODEL_FILE_SIZE";

// `requested` when set, else the environment variable when set, else the
// default. Error(invalid_argument) for a value of the variable that is not
// a positive size, or a requested limit of 0.
std::uint64_t model_file_size_limit(std::optional<std::uint64_t> requested = std::nullopt);

// The file's bytes. Error(unknown_model) when it does not exist,
// Error(io_error) naming the file and the reason when it is not a regular
// file (a directory, a FIFO, a device, a socket: none is opened in a way
// that could block), when it is larger than `size_limit` bytes, or when it
// cannot be read. `noun` names the file in messages ("model file", or
// "file" where the caller names its role).
std::string read_model_file(const std::string& path, std::uint64_t size_limit,
                            const std::string& noun = "model file");
// With the limit model_file_size_limit() gives.
std::string read_model_file(const std::string& path);

}  // namespace odesens
