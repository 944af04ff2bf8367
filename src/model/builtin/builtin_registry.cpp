// Resolves "NAME[:ARG]" to a built-in model.
#include <cstdlib>
#include <string>

#include "model/builtin/builtin_models_internal.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace builtin {

std::vector<std::string> numbered_names(const std::string& prefix, std::size_t n) {
  std::vector<std::string> names;
  names.reserve(n);
  for (std::size_t i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i + 1));
  return names;
}

}  // namespace builtin

namespace {

// Parses the size argument of "name:N" within [lo, hi].
std::size_t size_argument(const std::string& spec, const std::string& arg, std::size_t lo,
                          std::size_t hi) {
  if (arg.empty() || arg.find_first_not_of("0123456789") != std::string::npos)
    throw Error(Status::unknown_model, "built-in model '" + spec + "': size '" + arg +
                                           "' is not a positive integer");
  // Nine digits are far above every built-in's largest size: longer ones
  // are out of range without being read (they could overflow).
  const auto n =
      arg.size() > 9 ? hi + 1 : static_cast<std::size_t>(std::strtoull(arg.c_str(), nullptr, 10));
  if (n < lo || n > hi)
    throw Error(Status::unknown_model, "built-in model '" + spec + "': size must be in [" +
                                           std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return n;
}

}  // namespace

std::vector<std::string> builtin_model_names() {
  return {"chua", "vanderpol", "glv:N", "linear:N", "heat2d:Np", "network:N"};
}

std::shared_ptr<Model> make_builtin_model(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const bool has_arg = colon != std::string::npos;
  auto no_arg = [&] {
    if (has_arg)
      throw Error(Status::unknown_model, "built-in model '" + name + "' takes no argument");
  };
  if (name == "chua") { no_arg(); return builtin::make_chua(); }
  if (name == "vanderpol") { no_arg(); return builtin::make_vanderpol(); }
  if (name == "glv") return builtin::make_glv(size_argument(spec, arg, 1, 1000));
  if (name == "linear") return builtin::make_linear(size_argument(spec, arg, 1, 5000));
  if (name == "heat2d") return builtin::make_heat2d(size_argument(spec, arg, 3, 1000));
  if (name == "network") return builtin::make_network(size_argument(spec, arg, 2, 1000000));
  std::string known;
  for (const auto& n : builtin_model_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error(Status::unknown_model,
              "unknown built-in model '" + spec + "' (known: " + known + ")");
}

}  // namespace odesens
