// An output file replaced whole or not at all (the tool's --out FILE, the C
// ABI's odesens_result_write).
//
// The document is written to a temporary file with a unique name in FILE's
// folder, synced, and renamed over FILE only when all of it was written. A
// failure while writing (disk full, file-size limit, ...) removes the
// temporary and leaves an existing FILE as it was; two writers of the same
// FILE leave one of the two documents whole, never a mixture. A FILE that
// exists and is not a regular file (/dev/stdout, a pipe) is written
// directly: there is nothing to replace.
#pragma once

#include <memory>
#include <ostream>
#include <string>

namespace odesens::io {

struct OutputFileOptions {
  // Whether SIGINT, SIGTERM and SIGHUP remove the temporary before they end
  // the process (their handlers are replaced while the file is open, and
  // restored after). For a program that owns its signals, as the tool does;
  // a library leaves the host's handlers alone.
  bool remove_on_signal = false;
};

class OutputFile {
 public:
  // Creates the temporary (Error(io_error) naming FILE and the reason when
  // its folder does not exist or cannot be written).
  explicit OutputFile(const std::string& path, const OutputFileOptions& options = {});
  // Removes the temporary unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  // Flushes, syncs and renames the temporary over FILE; Error(io_error)
  // naming FILE and the reason on any failure (the temporary is removed).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace odesens::io
