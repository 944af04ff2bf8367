// HDF5 identifiers that close themselves, and HDF5's errors as one reason.
#pragma once

#include <hdf5.h>

#include <string>

namespace odesens::io {

// An HDF5 identifier closed by its own close function.
class Hid {
 public:
  Hid() = default;
  Hid(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Hid(Hid&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Hid& operator=(Hid&& other) noexcept {
    if (this != &other) {
      release();
      id_ = other.id_;
      close_ = other.close_;
      other.id_ = -1;
    }
    return *this;
  }
  ~Hid() { release(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; the close function's result.
  herr_t release() {
    if (id_ < 0) return 0;
    const herr_t r = close_(id_);
    id_ = -1;
    return r;
  }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// While it exists, HDF5 prints no error trace on the calling thread (its
// failures are reported as one message, hdf5_reason()); the printing there
// was is restored after, so that a program that uses HDF5 itself keeps its
// own setting.
class QuietHdf5Errors {
 public:
  QuietHdf5Errors();
  ~QuietHdf5Errors();
  QuietHdf5Errors(const QuietHdf5Errors&) = delete;
  QuietHdf5Errors& operator=(const QuietHdf5Errors&) = delete;

 private:
  H5E_auto2_t print_ = nullptr;
  void* data_ = nullptr;
  bool saved_ = false;
};

// The innermost message on the calling thread's HDF5 error stack (what
// actually failed; for a failed system call, its error text), and the stack
// cleared.
std::string hdf5_reason();

}  // namespace odesens::io
