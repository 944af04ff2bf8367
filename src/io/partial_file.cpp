#include "io/partial_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "io/folder_sync.hpp"
#include "odesens/status.hpp"

namespace odesens::io {
namespace {

std::string partial_path_of(const std::string& path) { return path + ".partial"; }

// The file PATH names: PATH, or the file a symbolic link PATH leads to
// (replaced in its folder, the link kept).
std::string replaced_file(const std::string& path, const std::string& label) {
  const std::string named = label + " '" + path + "'";
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    struct stat out {};
    if (::fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == info.st_dev &&
        out.st_ino == info.st_ino)
      throw Error(Status::invalid_argument,
                  named + " is standard output: HDF5 is written to a file");
    // A directory is io_error, as for every output format (the tool's
    // status 1); other files that are not regular cannot hold HDF5.
    if (S_ISDIR(info.st_mode))
      throw Error(Status::io_error, "cannot write " + named + ": it is a directory");
    if (!S_ISREG(info.st_mode))
      throw Error(Status::invalid_argument,
                  named + " is not a regular file: HDF5 output is written next to it as '" +
                      partial_path_of(path) + "' and renamed over it");
  }
  if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real)
    throw Error(Status::invalid_argument, named + " is a symbolic link that leads nowhere (" +
                                              std::strerror(errno) + ")");
  const std::string target = real;
  std::free(real);
  return target;
}

}  // namespace

void check_hdf5_path(const std::string& path, const std::string& path_label) {
  static_cast<void>(replaced_file(path, path_label));
}

PartialFile::PartialFile(const std::string& path, const std::string& path_label)
    : path_(replaced_file(path, path_label)), partial_(partial_path_of(path_)) {
  fd_ = ::open(partial_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd_ < 0)
    throw Error(Status::io_error, "cannot write '" + path + "': cannot create '" + partial_ +
                                      "': " + std::strerror(errno));
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (::fcntl(fd_, F_OFD_SETLK, &lock) != 0 && (errno == EACCES || errno == EAGAIN)) {
    close();
    throw Error(Status::io_error,
                "cannot write '" + path + "': '" + partial_ + "' is being written by another run");
  }
  // A .partial nobody writes is what a killed run left: the members it
  // finished (docs/hdf5-output.md).
  struct stat existing {};
  if (::fstat(fd_, &existing) == 0 && existing.st_size > 0) {
    close();
    throw Error(Status::io_error,
                "cannot write '" + path + "': '" + partial_ +
                    "' is left from an earlier run that did not finish and may hold the "
                    "members it solved; move or remove it, then run again");
  }
}

PartialFile::~PartialFile() { close(); }

void PartialFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void PartialFile::rename_over_path() {
  if (::fsync(fd_) != 0)
    throw Error(Status::io_error, "writing '" + partial_ + "' failed: " + std::strerror(errno));
  if (::rename(partial_.c_str(), path_.c_str()) != 0)
    throw Error(Status::io_error, "renaming '" + partial_ + "' to '" + path_ +
                                      "' failed: " + std::strerror(errno));
  close();
  sync_folder_of(path_);
}

}  // namespace odesens::io
