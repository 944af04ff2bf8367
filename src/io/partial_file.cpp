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

Error being_written(const std::string& path, const std::string& partial) {
  return Error(Status::io_error,
               "cannot write '" + path + "': '" + partial + "' is being written by another run");
}

// A .partial nobody writes is what a killed run left: for an ensemble, the
// members it finished (docs/hdf5-output.md).
Error left_over(const std::string& path, const std::string& partial) {
  return Error(Status::io_error, "cannot write '" + path + "': '" + partial +
                                     "' is left from an earlier run that did not finish and "
                                     "may hold what it wrote (an ensemble: the members it "
                                     "solved); move or remove it, then run again");
}

}  // namespace

void check_hdf5_path(const std::string& path, const std::string& path_label) {
  const std::string partial = partial_path_of(replaced_file(path, path_label));
  // What PartialFile would refuse when the document is written, seen now
  // (without taking the lock): a command that writes at its end (fit,
  // profile) would otherwise lose its output after all its work.
  struct stat named {};
  if (::lstat(partial.c_str(), &named) != 0) return;  // none there
  if (!S_ISREG(named.st_mode))
    throw Error(Status::io_error, "cannot write '" + path + "': '" + partial +
                                      "', where the document is written before it replaces '" +
                                      path + "', exists and is not a regular file");
  const int fd = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return;  // unreadable: creating it will say so
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  const bool locked = ::fcntl(fd, F_OFD_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
  struct stat existing {};
  const bool holds = ::fstat(fd, &existing) == 0 && existing.st_size > 0;
  ::close(fd);
  if (locked) throw being_written(path, partial);
  if (holds) throw left_over(path, partial);
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
    throw being_written(path, partial_);
  }
  struct stat existing {};
  if (::fstat(fd_, &existing) == 0 && existing.st_size > 0) {
    close();
    throw left_over(path, partial_);
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
