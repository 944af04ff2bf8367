// Loading SBML text and files into ExprModels.
#include <cctype>

#include "expr/expr_model_impl.hpp"
#include "sources/sbml/sbml_import.hpp"
#include "sources/model_file.hpp"
#include "odesens/status.hpp"

namespace odesens {

bool looks_like_xml(const std::string& text) {
  std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i < text.size() && text[i] == '<';
}

std::shared_ptr<ExprModel> load_sbml_text(const std::string& xml,
                                          const std::string& name_for_messages,
                                          const SbmlOptions& options) {
  // A model without state variables (only rules, parameters and time) is
  // valid: a solve advances time and evaluates its values.
  return make_expr_model(expr::import_sbml(xml, name_for_messages, options));
}

std::shared_ptr<ExprModel> load_sbml_file(const std::string& path, const SbmlOptions& options) {
  return load_sbml_text(read_model_file(path), path, options);
}

}  // namespace odesens
