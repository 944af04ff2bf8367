// A small HDF5 document written whole (h5_document.hpp).
#include "io/h5_document.hpp"

#include "io/valid_utf8.hpp"
#include "odesens/status.hpp"

namespace odesens::io {

H5Document::H5Document(const std::string& file) : name_(file) {
  Hid access(check(H5Pcreate(H5P_FILE_ACCESS), "creating the file"), H5Pclose);
  check(H5Pset_file_locking(access.get(), false, true), "creating the file");
  file_ = Hid(check(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                    "creating the file"),
              H5Fclose);
  strings_ = Hid(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
  check(H5Tset_size(strings_.get(), H5T_VARIABLE), "string type");
  check(H5Tset_cset(strings_.get(), H5T_CSET_UTF8), "string type");
}

void H5Document::numbers(const char* name, hid_t file_type, hid_t memory_type, std::size_t rows,
                         std::size_t columns, const void* data) {
  const hsize_t dims[2] = {rows, columns};
  Hid space(check(H5Screate_simple(columns ? 2 : 1, dims, nullptr), name), H5Sclose);
  Hid set(check(H5Dcreate2(file_.get(), name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT),
                name),
          H5Dclose);
  if (rows > 0 && (columns > 0 || dims[1] == 0) && data)
    check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), name);
}

void H5Document::doubles(const char* name, const std::vector<double>& v, std::size_t columns) {
  numbers(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, columns ? v.size() / columns : v.size(),
          columns, v.data());
}

void H5Document::int64s(const char* name, const std::vector<std::int64_t>& v) {
  numbers(name, H5T_STD_I64LE, H5T_NATIVE_INT64, v.size(), 0, v.data());
}

void H5Document::int32s(const char* name, const std::vector<std::int32_t>& v) {
  numbers(name, H5T_STD_I32LE, H5T_NATIVE_INT32, v.size(), 0, v.data());
}

void H5Document::texts(const char* name, const std::vector<std::string>& v) {
  std::vector<std::string> clean;
  std::vector<const char*> pointers;
  for (const auto& t : v) clean.push_back(valid_utf8(t));
  for (const auto& t : clean) pointers.push_back(t.c_str());
  numbers(name, strings_.get(), strings_.get(), v.size(), 0, pointers.data());
}

void H5Document::scalar_attribute(const char* name, hid_t file_type, hid_t memory_type,
                                  const void* value) {
  Hid space(check(H5Screate(H5S_SCALAR), name), H5Sclose);
  Hid a(check(H5Acreate2(file_.get(), name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              name),
        H5Aclose);
  check(H5Awrite(a.get(), memory_type, value), name);
}

void H5Document::attribute(const char* name, const std::string& value) {
  const std::string clean = valid_utf8(value);
  const char* pointer = clean.c_str();
  scalar_attribute(name, strings_.get(), strings_.get(), &pointer);
}

void H5Document::attribute(const char* name, std::int64_t value) {
  scalar_attribute(name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

void H5Document::attribute(const char* name, double value) {
  scalar_attribute(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void H5Document::close() {
  strings_.release();
  if (file_.release() < 0) fail("closing the file");
}

void H5Document::fail(const std::string& what) {
  throw Error(Status::io_error, "writing '" + name_ + "' failed: " + what + ": " + hdf5_reason());
}

hid_t H5Document::check(hid_t r, const std::string& what) {
  if (r < 0) fail(what);
  return r;
}

}  // namespace odesens::io
