#include "cli/petab_outputs.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/exit_status.hpp"
#include "io/output_file.hpp"
#include "io/partial_file.hpp"
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

// A folder made later where absent: the path itself, or else the nearest
// part of it that exists, must be a folder that can be written, and the
// pictures it has already files that can be replaced.
void check_folder(const std::string& flag, const std::string& path,
                  const std::vector<std::string>& pictures) {
  std::error_code ec;
  fs::path existing = fs::absolute(path, ec);
  while (!fs::exists(fs::symlink_status(existing, ec)) && existing.has_relative_path())
    existing = existing.parent_path();
  const fs::file_type type = fs::status(existing, ec).type();
  const std::string named = flag + " '" + path + "'";
  if (existing == fs::absolute(path, ec) && type != fs::file_type::directory)
    throw Error(Status::io_error, named + " is a file, not a folder for the pictures");
  if (type != fs::file_type::directory)
    throw Error(Status::io_error, named + " cannot be made: '" + existing.string() +
                                      "' is a file, not a folder");
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    throw Error(Status::io_error, named + ": '" + existing.string() +
                                      "' cannot be written (" + std::strerror(errno) + ")");
  if (existing != fs::absolute(path, ec)) {
    // access() grants root everything, and says nothing of /proc or /sys:
    // a folder made and removed at once does.
    std::string probe = (existing / ".odesens-probe-XXXXXX").string();
    if (::mkdtemp(probe.data()) == nullptr)
      throw Error(Status::io_error, named + " cannot be made in '" + existing.string() + "' (" +
                                        std::strerror(errno) + ")");
    ::rmdir(probe.c_str());
    return;
  }
  for (const std::string& picture : pictures)
    probe_writable(flag, (fs::path(path) / picture).string());
}

}  // namespace

void refuse_output_over_inputs(const std::string& flag, const std::string& out,
                               const std::vector<std::string>& inputs) {
  if (out.empty()) return;
  for (const std::string& input : inputs)
    if (!input.empty() && same_file(out, input))
      throw UsageError{flag + " '" + out + "' is a file this command reads ('" + input +
                       "'); write it elsewhere"};
}

void check_petab_outputs(const PetabProblem& problem, const PetabOutputs& outputs) {
  std::vector<std::string> read = problem.input_files();
  for (const std::string& f : outputs.inputs)
    if (!f.empty()) read.push_back(f);
  std::vector<OutputFlag> asked;
  for (const auto* list : {&outputs.files, &outputs.hdf5, &outputs.folders})
    for (const OutputFlag& f : *list)
      if (!f.second.empty()) asked.push_back(f);
  for (std::size_t k = 0; k < asked.size(); ++k) {
    const auto& [flag, path] = asked[k];
    for (const std::string& input : read)
      if (same_file(path, input))
        throw UsageError{flag + " '" + path + "' is a file of the problem or one this "
                         "command reads ('" + input + "'); write it elsewhere"};
    for (std::size_t m = 0; m < k; ++m)
      if (same_file(path, asked[m].second))
        throw UsageError{flag + " and " + asked[m].first + " name the same file '" + path + "'"};
  }
  for (const OutputFlag& f : outputs.hdf5)
    if (!f.second.empty()) io::check_hdf5_path(f.second, f.first);
  for (const auto* list : {&outputs.files, &outputs.hdf5})
    for (const OutputFlag& f : *list)
      if (!f.second.empty()) probe_writable(f.first, f.second);
  for (const OutputFlag& f : outputs.folders)
    if (!f.second.empty()) check_folder(f.first, f.second, outputs.pictures);
}

void OutputWrites::run(const std::string& flag, const std::function<void()>& write) {
  try {
    write();
  } catch (const Error& e) {
    said(flag, e.what(), exit_status(e.status()));
  } catch (const std::exception& e) {  // memory, the file system's own errors
    said(flag, e.what(), 1);
  }
}

void OutputWrites::said(const std::string& flag, const char* what, int status) {
  std::cerr << tool_name() << ": error: " << command_ << ": " << flag
            << " was not written: " << what << '\n';
  if (status_ == 0) status_ = status;
}

}  // namespace odesens::cli
