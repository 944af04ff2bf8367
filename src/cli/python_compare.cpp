#include "cli/python_compare.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "odesens/status.hpp"

#ifndef ODESENS_PYTHON_EXECUTABLE
#define ODESENS_PYTHON_EXECUTABLE "/usr/bin/python3"
#endif
#ifndef ODESENS_PYTHON_DIR
#define ODESENS_PYTHON_DIR ""
#endif

namespace odesens::cli {

namespace {

// The flags of run that the sweep sets itself or does not take.
void refuse_other_flags(const RunArguments& a) {
  if (a.rtol || a.atol || a.t0 || a.max_steps || !a.params.empty() || !a.options.empty())
    throw UsageError{"--plot sweeps the tolerances itself and takes only --tout and "
                     "--sens-params besides --methods (no --rtol, --atol, --t0, --max-steps, "
                     "--param or --option)"};
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

void put_build_package_on_path() {
  const std::string dir = ODESENS_PYTHON_DIR;
  if (dir.empty() || access((dir + "/odesens/__init__.py").c_str(), R_OK) != 0) return;
  const char* old = std::getenv("PYTHONPATH");
  const std::string path = old && *old ? dir + ":" + old : dir;
  setenv("PYTHONPATH", path.c_str(), 1);
}

}  // namespace

int run_python_compare(const RunArguments& a) {
  refuse_other_flags(a);
  const char* chosen = std::getenv("ODESENS_PYTHON");
  const std::string python = chosen && *chosen ? chosen : ODESENS_PYTHON_EXECUTABLE;
  std::vector<std::string> args{python, "-m", "odesens", "compare", a.model,
                                "--methods", joined(a.methods), "--plot", a.plot};
  if (!a.tout.empty()) args.insert(args.end(), {"--tout", a.tout});
  if (a.sens_params) args.insert(args.end(), {"--sens-params", joined(*a.sens_params)});
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  put_build_package_on_path();
  execv(python.c_str(), argv.data());
  throw Error(Status::unsupported, "compare --plot needs the Python module: cannot run " +
                                       python + ": " + std::strerror(errno) +
                                       " (set ODESENS_PYTHON to an interpreter that imports "
                                       "odesens; docs/python.md)");
}

}  // namespace odesens::cli
