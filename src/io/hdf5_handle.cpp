#include "io/hdf5_handle.hpp"

namespace odesens::io {

QuietHdf5Errors::QuietHdf5Errors() {
  saved_ = H5Eget_auto2(H5E_DEFAULT, &print_, &data_) >= 0;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietHdf5Errors::~QuietHdf5Errors() {
  if (saved_) H5Eset_auto2(H5E_DEFAULT, print_, data_);
}

std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        if (n == 0 && e->desc) *static_cast<std::string*>(data) = e->desc;
        return 0;
      },
      &reason);
  H5Eclear2(H5E_DEFAULT);
  if (reason.empty()) return "the HDF5 library reported an error";
  // A failed system call: HDF5 writes a record of it ("file write failed:
  // time = ..., errno = 27, error message = 'File too large', ..."); its
  // message is the reason.
  const std::string tag = "error message = '";
  const auto at = reason.find(tag);
  if (at != std::string::npos) {
    const auto end = reason.find('\'', at + tag.size());
    if (end != std::string::npos) return reason.substr(at + tag.size(), end - at - tag.size());
  }
  return reason;
}

}  // namespace odesens::io
