// Loading .ode text and files into ExprModels.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "expr/expr_model_impl.hpp"
#include "expr/ode_parser.hpp"
#include "odesens/status.hpp"

namespace odesens {

std::shared_ptr<ExprModel> load_ode_text(const std::string& text,
                                         const std::string& filename_for_messages) {
  return make_expr_model(expr::parse_ode(text, filename_for_messages));
}

std::shared_ptr<ExprModel> load_ode_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw Error(Status::unknown_model,
                "cannot load model file '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw Error(Status::io_error, "cannot read model file '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || in.bad())
    throw Error(Status::io_error, "cannot read model file '" + path + "'");
  return load_ode_text(text.str(), path);
}

}  // namespace odesens
