#include "io/ensemble_h5.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>

#include "io/hdf5_handle.hpp"
#include "io/partial_file.hpp"
#include "io/valid_utf8.hpp"
#include "odesens/result_arrays.hpp"
#include "odesens/version.hpp"

namespace odesens::io {
namespace {

// Chunks hold at most this much (HDF5 allows 4 GiB).
constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 30;
// Members per chunk of every per-member dataset (x, S, status, message,
// parameters, ...): about this many bytes, at least one member. Chunks of
// one small member each cost a compressor's set-up apiece and made a file
// of many members slow to write and to read.
constexpr std::size_t kTableChunkBytes = std::size_t{1} << 16;
// HDF5's type-conversion buffer for each write (its default is 1 MiB,
// allocated and zeroed by every write that converts, as the messages' strings
// do: with one member a write that was most of an ensemble's time).
constexpr std::size_t kTransferBufferBytes = std::size_t{1} << 16;
// Members written are committed (their rows flushed, then their done flags
// and members_done, flushed) at most this often, and when the file is
// closed: a flush compresses every open chunk again, and one a member made
// an ensemble of small members slower than solving them.
constexpr std::chrono::milliseconds kCommitInterval{500};
// ... and once this much has been given to HDF5 since the last commit,
// which bounds the room a commit claims first (reserve_for_flush).
constexpr std::size_t kCommitBytes = std::size_t{1} << 20;

std::size_t product(const std::vector<hsize_t>& dims, std::size_t from = 0) {
  std::size_t p = 1;
  for (std::size_t d = from; d < dims.size(); ++d) p *= static_cast<std::size_t>(dims[d]);
  return p;
}

// Chunk dimensions: `rows` members, all of the other dimensions, the
// largest of them halved while the chunk holds more than kMaxChunkBytes.
std::vector<hsize_t> chunk_dims(const std::vector<hsize_t>& dims, std::size_t rows,
                                std::size_t element_bytes) {
  std::vector<hsize_t> chunk = dims;
  chunk[0] = std::min<hsize_t>(dims[0], std::max<std::size_t>(rows, 1));
  while (product(chunk) * element_bytes > kMaxChunkBytes) {
    auto largest = std::max_element(chunk.begin() + 1, chunk.end());
    if (largest == chunk.end() || *largest == 1) break;
    *largest = (*largest + 1) / 2;
  }
  return chunk;
}

// Rows of a per-member table per chunk: about kTableChunkBytes.
std::size_t table_rows(std::size_t row_bytes) {
  return std::max<std::size_t>(1, kTableChunkBytes / std::max<std::size_t>(row_bytes, 1));
}

}  // namespace

struct EnsembleH5Writer::Impl {
  // The methods the members' results name (Result::method), for the
  // attribute methods_run; at most a handful (method ids).
  static constexpr std::size_t kMostMethodsNamed = 16;
  std::set<std::string> methods_run;
  std::unique_ptr<PartialFile> target;  // PATH.partial, locked while it is written
  std::string partial;                  // its name, for messages
  std::size_t members = 0, nt = 0, nx = 0, np = 0;
  std::size_t done = 0;       // members written
  std::size_t committed = 0;  // members flagged done on disk
  // A write failed: what is on disk is the last commit, left as it is (a
  // flush now could write half of the metadata and make the file unreadable).
  bool broken = false;
  // The result table's arrays beyond t and x (S, gradient, SR, ...): each a
  // dataset of its own, created by the first member that has it, with the
  // extents it gave (documents' order) that every later member must give.
  struct ArrayDataset {
    Hid set;
    std::vector<ResultArrayView::Axis> layout;  // the documents' order, from the first member
    std::size_t values = 0;                     // per member
  };
  std::vector<ArrayDataset> arrays = std::vector<ArrayDataset>(result_array_specs().size());
  bool s_times_written = false;
  std::vector<double> buffer;  // one member's array in the file's order
  std::vector<std::size_t> at;  // an index into it, per axis
  std::vector<std::size_t> pending;   // members written, not yet committed
  std::size_t unflushed_bytes = 0;    // given to HDF5 since the last commit
  std::chrono::steady_clock::time_point last_commit = std::chrono::steady_clock::now();
  Hid file, transfer, string_type, x, status, message, done_flags, parameters, members_done;

  [[noreturn]] void fail(const std::string& what) {
    broken = true;
    throw Error(Status::io_error,
                "writing '" + partial + "' failed: " + what + ": " + hdf5_reason());
  }
  template <typename T>
  T check(T r, const std::string& what) {
    if (r < 0) fail(what);
    return r;
  }

  // A dataset: chunked with `chunk_rows` members a chunk (contiguous with
  // 0, and its storage allocated and filled at once), filled with `fill`
  // where not written.
  Hid dataset(const char* name, hid_t file_type, const std::vector<hsize_t>& dims,
              std::size_t chunk_rows, std::size_t element_bytes, const void* fill,
              hid_t fill_type, bool compress) {
    Hid space(check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                    name),
              H5Sclose);
    Hid plist(check(H5Pcreate(H5P_DATASET_CREATE), name), H5Pclose);
    if (chunk_rows > 0 && product(dims) > 0) {
      const auto chunk = chunk_dims(dims, chunk_rows, element_bytes);
      check(H5Pset_chunk(plist.get(), static_cast<int>(chunk.size()), chunk.data()), name);
      if (compress && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
        check(H5Pset_shuffle(plist.get()), name);
        check(H5Pset_deflate(plist.get(), 4), name);
      }
    } else {
      check(H5Pset_alloc_time(plist.get(), H5D_ALLOC_TIME_EARLY), name);
    }
    if (fill) check(H5Pset_fill_value(plist.get(), fill_type, fill), name);
    return Hid(check(H5Dcreate2(file.get(), name, file_type, space.get(), H5P_DEFAULT,
                                plist.get(), H5P_DEFAULT),
                     name),
               H5Dclose);
  }

  // Writes `count` members' rows from k on (each `row` values long) of a
  // dataset from `data`.
  void write_rows(const Hid& set, const char* name, hid_t memory_type, std::size_t k,
                  std::size_t count, const void* data) {
    Hid space(check(H5Dget_space(set.get()), name), H5Sclose);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    if (count == 0 || product(dims, 1) == 0) return;
    std::vector<hsize_t> start(dims.size(), 0), extent = dims;
    start[0] = k;
    extent[0] = count;
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, extent.data(),
                              nullptr),
          name);
    const hsize_t n = product(extent);
    unflushed_bytes += static_cast<std::size_t>(n) * H5Tget_size(memory_type);
    Hid memory(check(H5Screate_simple(1, &n, nullptr), name), H5Sclose);
    check(H5Dwrite(set.get(), memory_type, memory.get(), space.get(), transfer.get(), data), name);
  }

  void write_whole(const Hid& set, const char* name, hid_t memory_type, const void* data) {
    check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, transfer.get(), data), name);
  }

  void write_strings(const char* name, const std::vector<std::string>& texts) {
    const Hid set = dataset(name, string_type.get(), {texts.size()}, 0, 0, nullptr, 0, false);
    if (texts.empty()) return;
    std::vector<std::string> clean;
    std::vector<const char*> pointers;
    for (const auto& t : texts) clean.push_back(valid_utf8(t));
    for (const auto& t : clean) pointers.push_back(t.c_str());
    write_whole(set, name, string_type.get(), pointers.data());
  }

  void string_attribute(const char* name, const std::string& value) {
    Hid space(check(H5Screate(H5S_SCALAR), name), H5Sclose);
    Hid attr(check(H5Acreate2(file.get(), name, string_type.get(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT),
                   name),
             H5Aclose);
    const std::string clean = valid_utf8(value);
    const char* pointer = clean.c_str();
    check(H5Awrite(attr.get(), string_type.get(), &pointer), name);
  }

  void write_status(std::size_t k, std::size_t count, const std::int32_t* codes,
                    const char* const* texts) {
    write_rows(status, "status", H5T_NATIVE_INT32, k, count, codes);
    for (std::size_t i = 0; i < count; ++i) unflushed_bytes += std::strlen(texts[i]) + 16;
    write_rows(message, "message", string_type.get(), k, count, texts);
  }

  // The times of S, once, by the first member with an array over them.
  void write_s_times(const Result& r) {
    if (s_times_written) return;
    const Hid times = dataset("S_times", H5T_IEEE_F64LE, {r.s_times.size()}, 0, 0, nullptr, 0,
                              false);
    if (!r.s_times.empty()) write_whole(times, "S_times", H5T_NATIVE_DOUBLE, r.s_times.data());
    s_times_written = true;
  }

  // One array of the result's table for member k: a dataset named as the
  // array, (members, its extents in the documents' order), NaN where not
  // written; S is (members, n_s, n_x, n_p).
  void write_array(std::size_t k, const Result& r, std::size_t index) {
    const ResultArraySpec& spec = result_array_specs()[index];
    const char* name = spec.name;
    // t and S_times are the file's (once), x is allocated with the file, and
    // enclosures are refused before (require_h5_layout).
    const bool own_dataset = std::strcmp(name, "times") && std::strcmp(name, "x") &&
                             std::strcmp(name, "S_times") && *spec.group == '\0';
    const std::vector<double>& data = spec.storage(r);
    if (data.empty() || !own_dataset) return;
    ArrayDataset& a = arrays[index];
    if (!a.set.valid()) {  // the first member with the array: its layout is the file's
      const ResultArrayView view = result_array(r, index);
      a.layout = view.layout();
      std::vector<hsize_t> dims = {members};
      for (const auto& axis : a.layout) dims.push_back(axis.extent);
      a.values = data.size();
      const double nan = std::numeric_limits<double>::quiet_NaN();
      a.set = dataset(name, H5T_IEEE_F64LE, dims, table_rows(a.values * sizeof(double)),
                      sizeof(double), &nan, H5T_NATIVE_DOUBLE, a.values >= 512);
      for (ResultAxis axis : spec.axes)
        if (axis == ResultAxis::s_time) write_s_times(r);
    }
    // Every axis but the objectives' is the file's (times, nx, np, ns), so
    // the same count of values is the same extents.
    if (data.size() != a.values)
      throw Error(Status::internal_error,
                  "member " + std::to_string(k) + ": " + name + " has " +
                      std::to_string(data.size()) + " values where the members before had " +
                      std::to_string(a.values));
    // The array in the documents' order (C order over the layout's extents).
    buffer.resize(a.values);
    at.assign(a.layout.size(), 0);
    for (double& out : buffer) {
      std::size_t offset = 0;
      for (std::size_t d = 0; d < at.size(); ++d) offset += at[d] * a.layout[d].stride;
      out = data[offset];
      for (std::size_t d = at.size(); d-- > 0;) {
        if (++at[d] < a.layout[d].extent) break;
        at[d] = 0;
      }
    }
    write_rows(a.set, name, H5T_NATIVE_DOUBLE, k, 1, buffer.data());
  }

  // Member k's rows (from `r`, when it succeeded), status and message
  // (`failure`, empty when it succeeded); a commit when one is due.
  void write_member(std::size_t k, Status code, const std::string& failure, const Result* r) {
    if (r) {
      if (methods_run.size() < kMostMethodsNamed) methods_run.insert(r->method);
      if (r->x.size() != nt * nx)
        throw Error(Status::internal_error, "member " + std::to_string(k) + ": " +
                                                std::to_string(r->x.size()) +
                                                " state values, expected " +
                                                std::to_string(nt * nx));
      write_rows(x, "x", H5T_NATIVE_DOUBLE, k, 1, r->x.data());
      for (std::size_t a = 0; a < arrays.size(); ++a) write_array(k, *r, a);
    }
    const auto status_code = static_cast<std::int32_t>(code);
    const std::string text = valid_utf8(failure);
    const char* pointer = text.c_str();
    write_status(k, 1, &status_code, &pointer);
    pending.push_back(k);
    ++done;
    if (unflushed_bytes >= kCommitBytes ||
        std::chrono::steady_clock::now() - last_commit >= kCommitInterval)
      commit();
  }

  // Closes every HDF5 object, the datasets before the file; the first
  // failure, if any, is reported.
  // The rows on disk first, then the flags and the count that say they are
  // there: a run killed during a flush leaves at worst members whose rows
  // are written and whose flags are not (or the count behind the flags).
  // Room on disk for everything a flush may write, claimed before it: a
  // flush that fails half-way (a full disk, a file size limit) leaves
  // metadata that points past the end of the file, and the file unreadable;
  // a failure here leaves the file as the last commit made it. A flush
  // writes each touched chunk whole (deflate may add 0.1 %), the metadata
  // and the message heap: the bytes given since the last commit, two
  // chunks a dataset and a margin bound it.
  void reserve_for_flush() {
    const std::size_t bytes =
        unflushed_bytes + unflushed_bytes / 64 + 12 * kTableChunkBytes + (std::size_t{1} << 18);
    struct stat info {};
    if (::fstat(target->fd(), &info) != 0) fail_errno("making room for a flush", errno);
    const int e = ::posix_fallocate(target->fd(), info.st_size, static_cast<off_t>(bytes));
    if (e != 0 && e != EOPNOTSUPP && e != EINVAL) fail_errno("making room for a flush", e);
  }

  // The room reserve_for_flush() claimed beyond what HDF5 allocated (a flush
  // does not shorten the file; only closing it does).
  void release_reserve() {
    haddr_t eoa = 0;
    struct stat info {};
    const int fd = target->fd();
    if (H5Fget_eoa(file.get(), &eoa) < 0 || eoa == 0 || ::fstat(fd, &info) != 0) return;
    if (static_cast<haddr_t>(info.st_size) > eoa) (void)::ftruncate(fd, static_cast<off_t>(eoa));
  }

  [[noreturn]] void fail_errno(const std::string& what, int error) {
    broken = true;
    throw Error(Status::io_error,
                "writing '" + partial + "' failed: " + what + ": " + std::strerror(error));
  }

  void commit() {
    if (pending.empty() || broken) return;
    reserve_for_flush();
    check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flushing");
    release_reserve();
    unflushed_bytes = 0;
    const std::uint8_t one = 1;
    for (const std::size_t k : pending) write_rows(done_flags, "done", H5T_NATIVE_UINT8, k, 1, &one);
    const auto count = static_cast<std::int64_t>(done);
    check(H5Awrite(members_done.get(), H5T_NATIVE_INT64, &count), "members_done");
    check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flushing");
    pending.clear();
    committed = done;
    last_commit = std::chrono::steady_clock::now();
  }

  void close_all() {
    bool failed = false;
    if (file.get() >= 0) {
      try {
        commit();
      } catch (const Error&) {
        failed = true;  // the handles are closed all the same
      }
    }
    for (ArrayDataset& a : arrays) failed = a.set.release() < 0 || failed;
    for (Hid* h : {&x, &status, &message, &done_flags, &parameters, &members_done, &string_type,
                   &transfer})
      failed = h->release() < 0 || failed;
    failed = file.release() < 0 || failed;
    if (failed) fail("closing the file");
  }

  // After a failed write the HDF5 objects are abandoned, not closed
  // (closing flushes): the process's exit releases them (H5dont_atexit).
  void close_quietly() {
    try {
      if (!broken) close_all();
    } catch (const Error&) {
    }
    target->close();
  }
};

const std::string& EnsembleH5Writer::partial_file() const { return impl_->partial; }

EnsembleH5Writer::EnsembleH5Writer(const std::string& path, const EnsembleH5Header& header,
                                   std::size_t members, const std::string& path_label)
    : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.target = std::make_unique<PartialFile>(path, path_label);
  w.partial = w.target->partial();
  w.members = members;
  w.nt = header.times.size();
  w.nx = header.state_names.size();
  w.np = header.parameter_names.size();
  // HDF5's clean-up at exit closes what a failed write left open and
  // crashed doing so (a full disk, a file size limit): the writer closes
  // what it opened itself, and the process's exit closes the rest. Only
  // possible before the library's first call; later it changes nothing.
  H5dont_atexit();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become one message, not a trace
  // HDF5's own lock is off (the PartialFile's keeps other runs out), so that
  // h5py can look at PATH.partial during the run.
  try {
    Hid access(w.check(H5Pcreate(H5P_FILE_ACCESS), "creating the file"), H5Pclose);
    w.check(H5Pset_file_locking(access.get(), false, true), "creating the file");
    w.file = Hid(w.check(H5Fcreate(w.partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                         "creating the file"),
                 H5Fclose);
    w.transfer = Hid(w.check(H5Pcreate(H5P_DATASET_XFER), "transfer properties"), H5Pclose);
    w.check(H5Pset_buffer(w.transfer.get(), kTransferBufferBytes, nullptr, nullptr),
            "transfer properties");
    w.string_type = Hid(w.check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
    w.check(H5Tset_size(w.string_type.get(), H5T_VARIABLE), "string type");
    w.check(H5Tset_cset(w.string_type.get(), H5T_CSET_UTF8), "string type");

    w.string_attribute("model", header.model_spec);
    w.string_attribute("method", header.method);
    w.string_attribute("odesens_version", ODESENS_VERSION_STRING);
    {
      Hid space(w.check(H5Screate(H5S_SCALAR), "members_done"), H5Sclose);
      w.members_done = Hid(w.check(H5Acreate2(w.file.get(), "members_done", H5T_STD_I64LE,
                                              space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                   "members_done"),
                           H5Aclose);
      const std::int64_t zero = 0;
      w.check(H5Awrite(w.members_done.get(), H5T_NATIVE_INT64, &zero), "members_done");
    }

    const Hid t = w.dataset("t", H5T_IEEE_F64LE, {w.nt}, 0, 0, nullptr, 0, false);
    if (w.nt > 0) w.write_whole(t, "t", H5T_NATIVE_DOUBLE, header.times.data());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    w.x = w.dataset("x", H5T_IEEE_F64LE, {w.members, w.nt, w.nx},
                    table_rows(w.nt * w.nx * sizeof(double)), sizeof(double), &nan,
                    H5T_NATIVE_DOUBLE, true);
    const std::int32_t not_run = static_cast<std::int32_t>(Status::unsupported);
    w.status = w.dataset("status", H5T_STD_I32LE, {w.members}, table_rows(4), 4, &not_run,
                         H5T_NATIVE_INT32, false);
    w.message = w.dataset("message", w.string_type.get(), {w.members},
                          table_rows(sizeof(hvl_t)), sizeof(hvl_t), nullptr, 0, false);
    const std::uint8_t zero = 0;
    // Contiguous and allocated now: setting a flag changes no metadata, so
    // that a flush writes it before the members_done attribute.
    w.done_flags =
        w.dataset("done", H5T_STD_U8LE, {w.members}, 0, 1, &zero, H5T_NATIVE_UINT8, false);
    const double nan_parameter = std::numeric_limits<double>::quiet_NaN();
    w.parameters = w.dataset("parameters", H5T_IEEE_F64LE, {w.members, w.np},
                             table_rows(w.np * sizeof(double)), sizeof(double), &nan_parameter,
                             H5T_NATIVE_DOUBLE, false);
    w.write_strings("parameter_names", header.parameter_names);
    w.write_strings("state_names", header.state_names);
    w.check(H5Fflush(w.file.get(), H5F_SCOPE_LOCAL), "flushing");
  } catch (...) {
    discard();
    throw;
  }
}

EnsembleH5Writer::~EnsembleH5Writer() { impl_->close_quietly(); }

void EnsembleH5Writer::write_member(std::size_t k, const EnsembleMember& member) {
  impl_->write_member(k, member.status, member.message,
                      member.status == Status::ok ? &member.result : nullptr);
}

void EnsembleH5Writer::write_result(std::size_t k, const Result& result) {
  impl_->write_member(k, Status::ok, "", &result);
}

std::size_t EnsembleH5Writer::members_done() const { return impl_->done; }

std::size_t EnsembleH5Writer::close_partial() {
  impl_->close_quietly();
  return impl_->committed;
}

void EnsembleH5Writer::write_parameters(std::size_t first,
                                        const std::vector<std::vector<double>>& sets) {
  Impl& w = *impl_;
  std::vector<double> rows;
  rows.reserve(sets.size() * w.np);
  for (std::size_t m = 0; m < sets.size(); ++m) {
    if (sets[m].size() != w.np)
      throw Error(Status::internal_error, "member " + std::to_string(first + m) + " has " +
                                              std::to_string(sets[m].size()) +
                                              " parameters, the model " + std::to_string(w.np));
    rows.insert(rows.end(), sets[m].begin(), sets[m].end());
  }
  w.write_rows(w.parameters, "parameters", H5T_NATIVE_DOUBLE, first, sets.size(), rows.data());
}

void EnsembleH5Writer::finish(const std::string& stopped_by) {
  // The methods that ran (with method "auto" the header could not know them).
  std::string names;
  for (const std::string& m : impl_->methods_run) names += (names.empty() ? "" : ",") + m;
  impl_->string_attribute("methods_run", names);
  if (!stopped_by.empty()) impl_->string_attribute("stopped_by", stopped_by);
  impl_->close_all();
  impl_->target->rename_over_path();
}

void EnsembleH5Writer::discard() {
  impl_->close_quietly();
  ::unlink(impl_->partial.c_str());
}

}  // namespace odesens::io
