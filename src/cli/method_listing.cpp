#include "cli/method_listing.hpp"

#include <string>
#include <vector>

#include "cli/text_wrap.hpp"
#include "odesens/method_choice.hpp"

namespace odesens::cli {
namespace {

// One column of the capability table: its heading and what it reads.
struct CapabilityColumn {
  const char* heading;
  bool MethodCapabilities::*flag;
};

const std::vector<CapabilityColumn>& capability_columns() {
  static const std::vector<CapabilityColumn> columns = {
      {"S(t)", &MethodCapabilities::s_trajectory}, {"S(T)", &MethodCapabilities::final_s},
      {"grad", &MethodCapabilities::gradient},     {"events", &MethodCapabilities::events},
      {"dirs", &MethodCapabilities::directions},   {"integr", &MethodCapabilities::integrands},
      {"bounds", &MethodCapabilities::bounds},     {"f-only", &MethodCapabilities::rhs_only},
  };
  return columns;
}

// What a model or problem must give the method, in a few words.
std::string needs_text(const MethodCapabilities& c) {
  std::string needs;
  const auto add = [&needs](const char* what) {
    needs += (needs.empty() ? "" : ",") + std::string(what);
  };
  if (c.exact_jacobians) add("exact-J");
  if (c.second_derivatives) add("2nd-derivs");
  if (c.parameter_box) add("box");
  return needs.empty() ? "-" : needs;
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() < width ? text + std::string(width - text.size(), ' ') : text + ' ';
}

constexpr std::size_t id_width = 13;
constexpr std::size_t needs_width = 12;
constexpr std::size_t tolerance_width = 7;

void write_table_heading(std::ostream& out) {
  std::string line = padded("method", id_width);
  for (const auto& column : capability_columns())
    line += padded(column.heading, std::string(column.heading).size() + 2);
  line += padded("needs", needs_width) + padded("rtol", tolerance_width) + "atol";
  out << line << '\n';
}

void write_table_row(std::ostream& out, const MethodInfo& info) {
  std::string line = padded(info.id, id_width);
  for (const auto& column : capability_columns())
    line += padded(info.capabilities.*column.flag ? "yes" : "-",
                   std::string(column.heading).size() + 2);
  line += padded(needs_text(info.capabilities), needs_width) +
          padded(option_value_text(info.default_rtol), tolerance_width) +
          option_value_text(info.default_atol);
  out << line << '\n';
}

// What the columns say, one line each.
const char* const kLegend[][2] = {
    {"S(t)", "S = dx/dp at every output time"},
    {"S(T)", "S at the final time only"},
    {"grad", "the gradient by an adjoint or an enclosure (methods with S(t) give it through S)"},
    {"events", "runs the model's events and stops where f switches (docs/events.md)"},
    {"dirs", "S*R for directions R (--option directions=...)"},
    {"integr", "several objectives and running costs (--integrand)"},
    {"bounds", "enclosures over a parameter box (--box)"},
    {"f-only", "evaluates f alone: no Jacobians needed"},
    {"needs", "exact-J: exact Jacobians (.ode, SBML, recorded models, callbacks that give them); "
              "2nd-derivs: d2x/dt2 and its Jacobians (.ode, SBML, recorded and built-in "
              "models); box: a parameter box (--box) and a model from .ode, SBML or record()"},
    {"rtol", "the default tolerances (--rtol, --atol)"},
};

// One option's heading: "key (type, range; default value)" or, for text,
// "key (text: a, b; default a)".
std::string option_heading(const OptionSpec& spec) {
  std::string what = option_type_text(spec);
  if (!spec.choices.empty()) {
    what += ":";
    for (std::size_t k = 0; k < spec.choices.size(); ++k)
      what += (k == 0 ? " " : ", ") + spec.choices[k];
  } else if (const std::string range = range_text(spec); !range.empty()) {
    what += ", " + range;
  }
  return spec.key + " (" + what + "; default " + option_value_text(spec.default_value) + ")";
}

// Markdown cell text: a '|' would end the cell, and '*', '~' or '<' could
// start emphasis, strikethrough or a tag.
std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (const char c : text) {
    if (c == '|' || c == '*' || c == '~' || c == '<') cell += '\\';
    cell += c;
  }
  return cell;
}

std::string code_span(const std::string& text) { return "`" + text + "`"; }

std::string allowed_cell(const OptionSpec& spec) {
  if (spec.choices.empty()) return markdown_cell(range_text(spec));
  std::string cell;
  for (const auto& choice : spec.choices) cell += (cell.empty() ? "" : ", ") + code_span(choice);
  return cell;
}

}  // namespace

void write_method_table(std::ostream& out) {
  write_table_heading(out);
  for (const auto& info : method_infos()) write_table_row(out, info);
  out << '\n';
  for (const auto& entry : kLegend) write_wrapped(out, entry[0], entry[1], 8);
  out << '\n';
  for (const auto& info : method_infos()) write_wrapped(out, info.id, info.summary, id_width);
  const MethodInfo& automatic = method_info(kAutomaticMethod);
  write_wrapped(out, automatic.id, automatic.summary, id_width);
  out << '\n';
  write_wrapped(out, "",
                "odesens options ID, or odesens run --method ID --help: the options of "
                "method ID; docs/methods/ID.md: what it computes, when to pick it, its limits.",
                0);
}

void write_method_options(std::ostream& out, const MethodInfo& info) {
  for (const auto& spec : info.options) {
    out << "  " << option_heading(spec) << '\n';
    write_wrapped(out, "", spec.doc, 6);
  }
}

void write_method_description(std::ostream& out, const MethodInfo& info) {
  write_wrapped(out, info.id + ":", info.summary, info.id.size() + 2);
  out << "default tolerances: rtol " << option_value_text(info.default_rtol) << ", atol "
      << option_value_text(info.default_atol) << '\n';
  out << "options (--option KEY=VALUE):\n";
  write_method_options(out, info);
}

void write_option_markdown(std::ostream& out, const MethodInfo& info) {
  out << "Default tolerances: rtol " << option_value_text(info.default_rtol) << ", atol "
      << option_value_text(info.default_atol) << ".\n\n";
  if (info.options.empty()) {
    out << "This method has no options.\n";
    return;
  }
  out << "| option | type | default | allowed | what it sets |\n|---|---|---|---|---|\n";
  for (const auto& spec : info.options)
    out << "| " << code_span(spec.key) << " | " << option_type_text(spec) << " | "
        << code_span(option_value_text(spec.default_value)) << " | " << allowed_cell(spec)
        << " | " << markdown_cell(spec.doc) << " |\n";
}

}  // namespace odesens::cli
