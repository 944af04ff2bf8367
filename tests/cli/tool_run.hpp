// Running the odesens tool as a user would (ODESENS_CLI_PATH): its exit
// status, standard output and standard error, for the CLI tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace odesens::test {

struct ToolRun {
  int status;
  std::string out, err;
};

// The bytes of a file (empty when it cannot be read).
inline std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs a shell command line; its standard error is collected too.
inline ToolRun run_shell(const std::string& command) {
  char err_path[] = "/tmp/odesens_cli_err_XXXXXX";
  const int fd = mkstemp(err_path);
  close(fd);
  const std::string cmd = command + " 2>" + err_path;
  ToolRun r{};
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = read_text_file(err_path);
  std::remove(err_path);
  return r;
}

// `args` go through the shell: quote paths with spaces.
inline ToolRun run_tool(const std::string& args) {
  return run_shell(std::string(ODESENS_CLI_PATH) + " " + args);
}

}  // namespace odesens::test
