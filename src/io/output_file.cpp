#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <streambuf>

#include "io/folder_sync.hpp"
#include "odesens/status.hpp"

namespace odesens::io {

// An output buffer over a file descriptor that keeps the errno of the first
// failed write, so that the message can say why (ENOSPC, EFBIG, ...). Not in
// the anonymous namespace: OutputFile::Impl, declared in the header, holds
// one.
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd) { reset(); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  bool drain() {
    if (error_ != 0) return false;
    for (const char* p = pbase(); p < pptr();) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        return false;
      }
      p += n;
    }
    reset();
    return true;
  }

  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_;
};

namespace {

// The temporary of an OutputFile with remove_on_signal, removed by the
// handler of the signals that end the process (Ctrl-C, kill, a closed
// terminal) before the signal takes its default course. A fixed buffer: the
// handler may only read it.
char pending_temp[PATH_MAX];
volatile std::sig_atomic_t has_pending_temp = 0;
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temp_and_reraise(int sig) {
  if (has_pending_temp) ::unlink(pending_temp);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::string reason(int err) { return std::strerror(err); }

}  // namespace

struct OutputFile::Impl {
  std::string path;    // as given, for messages
  std::string target;  // the file replaced (symbolic links resolved)
  std::string temp;    // empty: FILE is written directly
  bool existed = false;
  int fd = -1;
  std::unique_ptr<FdBuffer> buffer;
  std::unique_ptr<std::ostream> out;
  bool guarding = false;  // this file's temporary is the one the handler removes
  struct sigaction previous[std::size(kCleanupSignals)];

  [[noreturn]] void fail(const std::string& why) {
    discard();
    throw Error(Status::io_error, "writing '" + path + "' failed: " + why +
                                      (existed && !temp.empty() ? " (the file is unchanged)" : ""));
  }

  // Closes and removes the temporary; restores the signal handlers.
  void discard() {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (!temp.empty()) {
      ::unlink(temp.c_str());
      release_signals();
    }
  }

  void guard_signals() {
    if (temp.size() >= sizeof pending_temp) return;  // mkstemp would have refused it
    std::memcpy(pending_temp, temp.c_str(), temp.size() + 1);
    has_pending_temp = 1;
    guarding = true;
    struct sigaction action {};
    action.sa_handler = remove_temp_and_reraise;
    sigemptyset(&action.sa_mask);
    for (std::size_t k = 0; k < std::size(kCleanupSignals); ++k) {
      sigaction(kCleanupSignals[k], nullptr, &previous[k]);
      // An ignored signal (nohup: SIGHUP) does not end the process: nothing
      // to clean up, and re-raising it at its default would end it.
      if (previous[k].sa_handler == SIG_IGN) continue;
      sigaction(kCleanupSignals[k], &action, nullptr);
    }
  }

  void release_signals() {
    if (!guarding) return;
    for (std::size_t k = 0; k < std::size(kCleanupSignals); ++k)
      sigaction(kCleanupSignals[k], &previous[k], nullptr);
    has_pending_temp = 0;
    guarding = false;
  }
};

OutputFile::OutputFile(const std::string& path, const OutputFileOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& f = *impl_;
  f.path = f.target = path;
  struct stat st {};
  f.existed = ::stat(path.c_str(), &st) == 0;
  if (f.existed && !S_ISREG(st.st_mode)) {
    f.fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (f.fd < 0)
      throw Error(Status::io_error, "cannot open '" + path + "' for writing: " + reason(errno));
  } else {
    mode_t mode;
    if (f.existed) {
      // Replace the file a symbolic link names, not the link.
      if (char* real = ::realpath(path.c_str(), nullptr)) {
        f.target = real;
        std::free(real);
      }
      mode = st.st_mode & 07777;
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    const auto slash = f.target.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : f.target.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? f.target : f.target.substr(slash + 1);
    std::string temp = (slash == std::string::npos ? "" : folder) + "." + base + ".XXXXXX";
    f.fd = ::mkstemp(temp.data());
    if (f.fd < 0)
      throw Error(Status::io_error, "cannot write '" + path + "': cannot create a file in '" +
                                        folder + "': " + reason(errno));
    f.temp = temp;
    if (options.remove_on_signal) f.guard_signals();
    ::fchmod(f.fd, mode);  // mkstemp's 0600 otherwise; a failure leaves it private
  }
  f.buffer = std::make_unique<FdBuffer>(f.fd);
  f.out = std::make_unique<std::ostream>(f.buffer.get());
}

OutputFile::~OutputFile() { impl_->discard(); }

std::ostream& OutputFile::stream() { return *impl_->out; }

void OutputFile::commit() {
  Impl& f = *impl_;
  f.out->flush();
  if (!*f.out) f.fail(f.buffer->error() ? reason(f.buffer->error()) : "the output stream failed");
  if (!f.temp.empty() && ::fsync(f.fd) != 0) f.fail(reason(errno));
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) f.fail(reason(errno));
  if (f.temp.empty()) return;
  if (::rename(f.temp.c_str(), f.target.c_str()) != 0) f.fail(reason(errno));
  f.release_signals();
  f.temp.clear();
  sync_folder_of(f.target);
}

}  // namespace odesens::io
