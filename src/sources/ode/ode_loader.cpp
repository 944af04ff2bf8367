// Loading .ode text and files into ExprModels.
#include "expr/expr_model_impl.hpp"
#include "sources/ode/ode_parser.hpp"
#include "sources/model_file.hpp"
#include "core/text_encoding.hpp"

namespace odesens {

std::shared_ptr<ExprModel> load_ode_text(const std::string& text,
                                         const std::string& filename_for_messages) {
  const std::string_view utf8 = model_text_as_utf8(text, filename_for_messages);
  // A copy only without the byte-order mark.
  return make_expr_model(expr::parse_ode(utf8.size() == text.size() ? text : std::string(utf8),
                                         filename_for_messages));
}

std::shared_ptr<ExprModel> load_ode_file(const std::string& path) {
  return load_ode_text(read_model_file(path), path);
}

}  // namespace odesens
