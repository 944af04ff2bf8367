// Running the odesens tool as a user would (ODESENS_CLI_PATH): its exit
// status, standard output and standard error, for the CLI tests of the
// PEtab, fit and profile commands.
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

// `args` go through the shell: quote paths with spaces.
inline ToolRun run_tool(const std::string& args) {
  char err_path[] = "/tmp/odesens_cli_err_XXXXXX";
  const int fd = mkstemp(err_path);
  close(fd);
  const std::string cmd = std::string(ODESENS_CLI_PATH) + " " + args + " 2>" + err_path;
  ToolRun r{};
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream e(err_path);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::remove(err_path);
  return r;
}

}  // namespace odesens::test
