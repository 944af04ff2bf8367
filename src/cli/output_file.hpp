// The tool's --out FILE, replaced whole or not at all.
//
// The document is written to a temporary file with a unique name in FILE's
// folder, synced, and renamed over FILE only when all of it was written. A
// failure while writing (disk full, file-size limit, ...) or an interrupt
// removes the temporary and leaves an existing FILE as it was; two runs
// writing the same FILE leave one of the two documents whole, never a mixture.
// A FILE that exists and is not a regular file (/dev/stdout, a pipe) is
// written directly: there is nothing to replace.
#pragma once

#include <memory>
#include <ostream>
#include <string>

namespace odesens::cli {

class OutputFile {
 public:
  // Creates the temporary (Error(io_error) naming FILE and the reason when
  // its folder does not exist or cannot be written).
  explicit OutputFile(const std::string& path);
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

}  // namespace odesens::cli
