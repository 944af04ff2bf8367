// The HDF5 document of a fit (fit_h5.hpp), written at once when the fit
// ends: its rows are few (one a start) and are all known then.
#include "fit/fit_h5.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <cstdint>

#include "io/hdf5_handle.hpp"
#include "io/partial_file.hpp"
#include "io/valid_utf8.hpp"
#include "odesens/version.hpp"

namespace odesens::fitting {
namespace {

using io::Hid;

class Document {
 public:
  explicit Document(const std::string& file) : name_(file) {
    Hid access(check(H5Pcreate(H5P_FILE_ACCESS), "creating the file"), H5Pclose);
    check(H5Pset_file_locking(access.get(), false, true), "creating the file");
    file_ = Hid(check(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                      "creating the file"),
                H5Fclose);
    strings_ = Hid(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
    check(H5Tset_size(strings_.get(), H5T_VARIABLE), "string type");
    check(H5Tset_cset(strings_.get(), H5T_CSET_UTF8), "string type");
  }

  // A dataset of `dims` (rows, columns; columns 0: one-dimensional).
  void numbers(const char* name, hid_t file_type, hid_t memory_type, std::size_t rows,
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
  void doubles(const char* name, const std::vector<double>& v, std::size_t columns = 0) {
    numbers(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, columns ? v.size() / columns : v.size(),
            columns, v.data());
  }
  void int64s(const char* name, const std::vector<std::int64_t>& v) {
    numbers(name, H5T_STD_I64LE, H5T_NATIVE_INT64, v.size(), 0, v.data());
  }
  void int32s(const char* name, const std::vector<std::int32_t>& v) {
    numbers(name, H5T_STD_I32LE, H5T_NATIVE_INT32, v.size(), 0, v.data());
  }
  void texts(const char* name, const std::vector<std::string>& v) {
    std::vector<std::string> clean;
    std::vector<const char*> pointers;
    for (const auto& t : v) clean.push_back(io::valid_utf8(t));
    for (const auto& t : clean) pointers.push_back(t.c_str());
    numbers(name, strings_.get(), strings_.get(), v.size(), 0, pointers.data());
  }
  void attribute(const char* name, const std::string& value) {
    Hid space(check(H5Screate(H5S_SCALAR), name), H5Sclose);
    Hid a(check(H5Acreate2(file_.get(), name, strings_.get(), space.get(), H5P_DEFAULT,
                           H5P_DEFAULT),
                name),
          H5Aclose);
    const std::string clean = io::valid_utf8(value);
    const char* pointer = clean.c_str();
    check(H5Awrite(a.get(), strings_.get(), &pointer), name);
  }
  void attribute(const char* name, std::int64_t value) {
    Hid space(check(H5Screate(H5S_SCALAR), name), H5Sclose);
    Hid a(check(H5Acreate2(file_.get(), name, H5T_STD_I64LE, space.get(), H5P_DEFAULT,
                           H5P_DEFAULT),
                name),
          H5Aclose);
    check(H5Awrite(a.get(), H5T_NATIVE_INT64, &value), name);
  }
  void close() {
    strings_.release();
    if (file_.release() < 0) fail("closing the file");
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw Error(Status::io_error, "writing '" + name_ + "' failed: " + what + ": " + io::hdf5_reason());
  }
  template <typename T>
  T check(T r, const std::string& what) {
    if (r < 0) fail(what);
    return r;
  }

  std::string name_;
  io::Hid file_, strings_;
};

void write_rows(Document& d, const FitResult& fit, std::size_t n) {
  std::vector<double> start, end, nllh, nlpost, gradient, seconds;
  std::vector<std::int64_t> iterations, evaluations, index;
  std::vector<std::int32_t> status;
  std::vector<std::string> reasons;
  for (const StartResult& s : fit.starts) {
    start.insert(start.end(), s.start.begin(), s.start.end());
    end.insert(end.end(), s.end.begin(), s.end.end());
    nllh.push_back(s.nllh);
    nlpost.push_back(s.nlpost);
    gradient.push_back(s.gradient_norm);
    seconds.push_back(s.seconds);
    iterations.push_back(s.iterations);
    evaluations.push_back(s.evaluations);
    index.push_back(static_cast<std::int64_t>(s.index));
    status.push_back(static_cast<std::int32_t>(s.status));
    reasons.push_back(s.exit_reason);
  }
  const std::size_t k = fit.starts.size();
  d.numbers("start", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, k, n, start.data());
  d.numbers("end", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, k, n, end.data());
  d.doubles("nllh", nllh);
  d.doubles("nlpost", nlpost);
  d.doubles("gradient_norm", gradient);
  d.doubles("seconds", seconds);
  d.int64s("iterations", iterations);
  d.int64s("evaluations", evaluations);
  d.int64s("start_index", index);
  d.int32s("status", status);
  d.texts("exit_reason", reasons);
}

}  // namespace

void write_fit_h5(const std::string& path, const PetabProblem& problem, const FitResult& fit,
                  const std::string& path_label) {
  io::PartialFile target(path, path_label);
  io::QuietHdf5Errors quiet;
  try {
    Document d(target.partial());
    d.attribute("problem", problem.file());
    d.attribute("optimizer", fit.optimizer);
    d.attribute("odesens_version", std::string(ODESENS_VERSION_STRING));
    d.attribute("seed", static_cast<std::int64_t>(fit.seed));
    d.attribute("starts_planned", static_cast<std::int64_t>(fit.starts_planned));
    d.attribute("starts_at_best", static_cast<std::int64_t>(fit.starts_at_best));
    d.attribute("stopped", static_cast<std::int64_t>(fit.stopped));
    write_rows(d, fit, problem.parameter_ids().size());
    d.texts("parameter_ids", problem.parameter_ids());
    d.texts("parameter_scales", problem.parameter_scales());
    d.doubles("lower", problem.lower_scaled());
    d.doubles("upper", problem.upper_scaled());
    d.close();
    target.rename_over_path();
  } catch (...) {
    ::unlink(target.partial().c_str());
    throw;
  }
}

}  // namespace odesens::fitting
