#include "sources/model_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "odesens/status.hpp"

namespace odesens {

std::string read_model_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw Error(Status::unknown_model,
                "cannot load model file '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw Error(Status::io_error, "cannot read model file '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || in.bad()) throw Error(Status::io_error, "cannot read model file '" + path + "'");
  return text.str();
}

}  // namespace odesens
