#include "sources/model_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/file_kind.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"GiB", "MiB", "KiB"};
  const int shifts[] = {30, 20, 10};
  for (int k = 0; k < 3; ++k)
    if (bytes >= (std::uint64_t{1} << shifts[k]) && bytes % (std::uint64_t{1} << shifts[k]) == 0)
      return std::to_string(bytes >> shifts[k]) + " " + units[k] + " (" + std::to_string(bytes) +
             " bytes)";
  return std::to_string(bytes) + " bytes";
}

// "123", "64K", "64M", "1G" (powers of 1024); 0 when `text` is not a size.
std::uint64_t parse_size(const std::string& text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (value > (~std::uint64_t{0} - 9) / 10) return 0;
    value = value * 10 + static_cast<std::uint64_t>(text[i++] - '0');
  }
  if (i == 0) return 0;
  int shift = 0;
  if (i < text.size()) {
    switch (text[i++]) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: return 0;
    }
  }
  if (i != text.size() || value > (~std::uint64_t{0} >> shift)) return 0;
  return value << shift;
}

[[noreturn]] void cannot_read(const std::string& noun, const std::string& path,
                              const std::string& why) {
  throw Error(Status::io_error, "cannot read " + noun + " '" + path + "': " + why);
}

void require_regular(const std::string& noun, const std::string& path, mode_t mode) {
  if (!S_ISREG(mode))
    cannot_read(noun, path, std::string("it is ") + kind_of_file(mode) + ", not a regular file");
}

[[noreturn]] void too_large(const std::string& noun, const std::string& path,
                            std::uint64_t limit) {
  cannot_read(noun, path,
              std::string("it is larger than the model file size limit of ") + size_text(limit) +
                  "; set " + kModelFileSizeLimitVariable +
                  " (bytes, or with a K, M or G suffix) to allow more");
}

struct FileDescriptor {
  int fd;
  ~FileDescriptor() { ::close(fd); }
};

}  // namespace

std::uint64_t model_file_size_limit(std::optional<std::uint64_t> requested) {
  if (requested) {
    if (*requested == 0)
      throw Error(Status::invalid_argument, "the model file size limit must be positive");
    return *requested;
  }
  const char* env = std::getenv(kModelFileSizeLimitVariable);
  if (!env || !*env) return kDefaultModelFileSizeLimit;
  const std::uint64_t limit = parse_size(env);
  if (limit == 0)
    throw Error(Status::invalid_argument,
                std::string(kModelFileSizeLimitVariable) + "='" + env +
                    "' is not a size: give a positive number of bytes, or one with a K, M or G "
                    "suffix (64M)");
  return limit;
}

std::string read_model_file(const std::string& path) {
  return read_model_file(path, model_file_size_limit());
}

std::string read_model_file(const std::string& path, std::uint64_t size_limit,
                            const std::string& noun) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw Error(Status::unknown_model,
                "cannot load " + noun + " '" + path + "': " + std::strerror(errno));
  require_regular(noun, path, info.st_mode);
  // Without O_NONBLOCK, opening a FIFO waits for a writer: should the path
  // become one after the check above, the open returns and fstat refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) cannot_read(noun, path, std::strerror(errno));
  const FileDescriptor file{fd};
  if (::fstat(fd, &info) != 0) cannot_read(noun, path, std::strerror(errno));
  require_regular(noun, path, info.st_mode);
  if (static_cast<std::uint64_t>(info.st_size) > size_limit) too_large(noun, path, size_limit);
  // The size fstat gives is a hint: the file may grow while it is read.
  std::string text(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t used = 0;
  while (true) {
    if (used == text.size()) {
      if (text.size() > size_limit) too_large(noun, path, size_limit);
      text.resize(text.size() + 65536);
    }
    const ssize_t n = ::read(fd, &text[used], text.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      cannot_read(noun, path, std::strerror(errno));
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > size_limit) too_large(noun, path, size_limit);
  text.resize(used);
  return text;
}

}  // namespace odesens
