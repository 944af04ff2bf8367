// Where an HDF5 document grows until it is whole: PATH.partial, next to
// PATH (next to the file a symbolic link PATH leads to), locked while it is
// written and renamed over PATH at the end (docs/hdf5-output.md).
#pragma once

#include <string>

namespace odesens::io {

// What PartialFile refuses of PATH before creating anything: standard
// output, a directory, a file that is not regular, a broken link, a
// PATH.partial another run writes or an earlier one left (the same
// errors). Outputs written after hours of work are checked with it first.
void check_hdf5_path(const std::string& path, const std::string& path_label);

class PartialFile {
 public:
  // Creates PATH.partial and takes its lock (an open-file-description lock:
  // closing other descriptors of the file keeps it), which keeps a second
  // writer of the same PATH out. Error(invalid_argument), PATH introduced by
  // `path_label` ("--out", "path"), when PATH is standard output or exists
  // and is not a regular file, or is a symbolic link that leads nowhere;
  // Error(io_error) naming PATH and the reason when PATH.partial cannot be
  // created, is being written by another, or holds what an earlier writer
  // left (never replaced without being asked).
  PartialFile(const std::string& path, const std::string& path_label);
  // Closes the descriptor; the file stays.
  ~PartialFile();
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  const std::string& partial() const { return partial_; }
  // The open, locked PATH.partial; -1 once closed.
  int fd() const { return fd_; }
  // Syncs PATH.partial, renames it over PATH, closes it and syncs the
  // folder (Error(io_error) on failure; PATH.partial then stays).
  void rename_over_path();
  void close();

 private:
  std::string path_;     // the file replaced (symbolic links resolved)
  std::string partial_;  // PATH.partial
  int fd_ = -1;
};

}  // namespace odesens::io
