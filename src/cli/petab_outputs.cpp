#include "cli/petab_outputs.hpp"

#include <filesystem>

#include "cli/arguments.hpp"
#include "io/output_file.hpp"
#include "odesens/status.hpp"

namespace odesens::cli {
namespace {

namespace fs = std::filesystem;

// Whether a and b name the same file: the same inode where both exist,
// else the same absolute path once links and '.' are resolved.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(fs::absolute(a, ec), ec) ==
         fs::weakly_canonical(fs::absolute(b, ec), ec);
}

// Its temporary made and discarded where the file is absent or regular (a
// FIFO or device is written directly, later: opening one now could block).
void probe_writable(const std::string& flag, const std::string& path) {
  std::error_code ec;
  const fs::file_type type = fs::status(path, ec).type();
  if (type == fs::file_type::directory)
    throw Error(Status::io_error, "cannot write " + flag + " '" + path + "': it is a directory");
  if (type == fs::file_type::not_found || type == fs::file_type::regular)
    io::OutputFile probe(path);
}

}  // namespace

void check_petab_outputs(const PetabProblem& problem, const std::vector<OutputFlag>& files,
                         const std::vector<OutputFlag>& folders,
                         const std::vector<std::string>& inputs) {
  std::vector<std::string> read = problem.input_files();
  for (const std::string& f : inputs)
    if (!f.empty()) read.push_back(f);
  std::vector<OutputFlag> asked;
  for (const auto* list : {&files, &folders})
    for (const OutputFlag& f : *list)
      if (!f.second.empty()) asked.push_back(f);
  for (std::size_t k = 0; k < asked.size(); ++k) {
    const auto& [flag, path] = asked[k];
    for (const std::string& input : read)
      if (same_file(path, input))
        throw UsageError{flag + " '" + path + "' is a file this command reads ('" + input +
                         "'); write it elsewhere"};
    for (std::size_t m = 0; m < k; ++m)
      if (same_file(path, asked[m].second))
        throw UsageError{flag + " and " + asked[m].first + " name the same file '" + path + "'"};
  }
  for (const OutputFlag& f : files)
    if (!f.second.empty()) probe_writable(f.first, f.second);
  for (const OutputFlag& f : folders) {
    std::error_code ec;
    const fs::file_type type = fs::status(f.second, ec).type();
    if (!f.second.empty() && type != fs::file_type::not_found && type != fs::file_type::directory)
      throw Error(Status::io_error,
                  f.first + " '" + f.second + "' is a file, not a folder for the pictures");
  }
}

}  // namespace odesens::cli
