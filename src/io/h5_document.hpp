// A small HDF5 document written whole: datasets of numbers and UTF-8
// strings, and scalar attributes of the root group. For results whose
// values are all known when they are written (a fit's starts, a PEtab
// evaluation); PartialFile (partial_file.hpp) makes the write atomic.
// Every failure throws Error(io_error) naming the file, what was being
// written, and HDF5's innermost reason.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/hdf5_handle.hpp"

namespace odesens::io {

class H5Document {
 public:
  // Creates (truncates) `file`.
  explicit H5Document(const std::string& file);

  // A dataset of rows x columns (columns 0: one-dimensional) from data.
  void numbers(const char* name, hid_t file_type, hid_t memory_type, std::size_t rows,
               std::size_t columns, const void* data);
  // One-dimensional, or rows of `columns` values.
  void doubles(const char* name, const std::vector<double>& v, std::size_t columns = 0);
  void int64s(const char* name, const std::vector<std::int64_t>& v);
  void int32s(const char* name, const std::vector<std::int32_t>& v);
  // Invalid UTF-8 is replaced (valid_utf8.hpp).
  void texts(const char* name, const std::vector<std::string>& v);

  void attribute(const char* name, const std::string& value);
  void attribute(const char* name, std::int64_t value);
  void attribute(const char* name, double value);

  // Closes the file; a failure to flush it throws.
  void close();

 private:
  [[noreturn]] void fail(const std::string& what);
  hid_t check(hid_t r, const std::string& what);
  void scalar_attribute(const char* name, hid_t file_type, hid_t memory_type, const void* value);

  std::string name_;
  Hid file_, strings_;
};

}  // namespace odesens::io
