// Running gnuplot (gnuplot_run.hpp).
#include "fit/gnuplot_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "odesens/status.hpp"

extern char** environ;

namespace odesens::fitting {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_failure(const std::string& what) { throw Error(Status::io_error, what); }

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.size() > 2000 ? text.substr(0, 2000) + " ..." : text;
}

}  // namespace

ScratchFolder::ScratchFolder(const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec || !fs::is_directory(folder))
    io_failure("plots: the folder '" + folder + "' cannot be created" +
               (ec ? ": " + ec.message() : std::string(" (a file of that name exists)")));
  std::string pattern = (fs::absolute(folder) / ".odesens-plot-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    io_failure("plots: cannot write in '" + folder + "': " + std::strerror(errno));
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string ScratchFolder::write(const std::string& name, const std::string& text) const {
  const std::string file = (fs::path(path_) / name).string();
  std::ofstream out(file, std::ios::binary);
  out << text;
  out.close();
  if (!out) io_failure("plots: cannot write '" + file + "'");
  return file;
}

void run_gnuplot(const ScratchFolder& scratch, const std::string& script) {
  const std::string errors = (fs::path(scratch.path()) / "gnuplot.err").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = "gnuplot", argument = script;
  char* argv[] = {program.data(), argument.data(), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw Error(Status::unsupported, std::string("plots need gnuplot (Debian package gnuplot-nox), "
                                                 "which cannot be started: ") +
                                         std::strerror(spawned));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) io_failure(std::string("plots: waiting for gnuplot: ") + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw Error(Status::unsupported, "plots need gnuplot (Debian package gnuplot-nox), which is "
                                     "not installed");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    io_failure("plots: gnuplot failed: " + read_all(errors));
}

std::string gnuplot_quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) {
    if (c == '\'') q += "''";
    else if (c == '\n' || c == '\r') q += ' ';
    else q += c;
  }
  return q + "'";
}

void publish_pictures(const std::string& folder, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    const fs::path target = fs::path(folder) / name;
    std::error_code ec;
    fs::rename(fs::path(target.string() + ".partial"), target, ec);
    if (ec) io_failure("plots: cannot write '" + target.string() + "': " + ec.message());
  }
}

void draw_pictures(const ScratchFolder& scratch, const std::string& script,
                   const std::string& folder, const std::vector<std::string>& names) {
  // A picture's rename over a device or a pipe of that name would put the
  // picture in its place: refused before gnuplot runs.
  for (const std::string& name : names) {
    const fs::path target = fs::path(folder) / name;
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    if (!ec && fs::exists(st) && !fs::is_regular_file(st))
      throw Error(Status::invalid_argument, "plots: '" + target.string() +
                                                "' exists and is not a regular file (a device, "
                                                "a pipe or a folder): a picture goes to a "
                                                "regular file");
  }
  try {
    run_gnuplot(scratch, script);
    publish_pictures(folder, names);
  } catch (...) {
    std::error_code ignored;
    for (const std::string& name : names) fs::remove(fs::path(folder) / (name + ".partial"), ignored);
    throw;
  }
}

}  // namespace odesens::fitting
