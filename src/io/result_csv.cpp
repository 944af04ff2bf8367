#include "io/result_csv.hpp"

#include <algorithm>
#include <string>

#include "io/format_double.hpp"

namespace odesens::io {
namespace {

// A header field as RFC 4180 writes it: quoted, with its quotes doubled,
// when it holds a comma, a quote or a line break (names from the C API or
// SBML may), else as it is.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void write_header(std::ostream& out, const Model& model, const Result& r,
                  const RunDescription& run) {
  out << "t";
  for (const auto& s : model.state_names()) out << ',' << field(s);
  if (!r.s_times.empty())
    for (const auto& p : model.param_names())
      for (const auto& s : model.state_names()) out << ',' << field("d" + s + "/d" + p);
  for (std::size_t j = 1; j <= r.ns; ++j)
    for (const auto& s : model.state_names())
      out << ',' << field("d" + s + "/dr" + std::to_string(j));
  for (const auto& name : run.observable_names) out << ',' << field(name);
  out << '\n';
}

// Row k; ks: the index in s_times of S at output k, or -1.
void write_row(std::ostream& out, const Result& r, const RunDescription& run, std::size_t k,
               long ks) {
  out << format_double(r.times[k]);
  for (std::size_t i = 0; i < r.nx; ++i) out << ',' << format_double(r.x_at(k, i));
  if (!r.s_times.empty()) {
    for (std::size_t j = 0; j < r.np; ++j)
      for (std::size_t i = 0; i < r.nx; ++i) {
        out << ',';
        if (ks >= 0) out << format_double(r.s_at(static_cast<std::size_t>(ks), i, j));
      }
  }
  for (std::size_t j = 0; j < r.ns; ++j)
    for (std::size_t i = 0; i < r.nx; ++i) out << ',' << format_double(r.sr_at(k, i, j));
  for (const auto& values : run.observable_values) out << ',' << format_double(values[k]);
  out << '\n';
}

void write_gradient(std::ostream& out, const Model& model, const Result& r, std::size_t m) {
  out << "\nparameter";
  if (m == 1) out << ",gradient";
  for (std::size_t k = 1; m > 1 && k <= m; ++k) out << ",gradient_" << k;
  out << '\n';
  for (std::size_t j = 0; j < r.np; ++j) {
    out << field(model.param_names()[j]);
    // A cell the result does not hold stays empty (a caller's description
    // may promise a gradient the method that ran did not give).
    for (std::size_t k = 0; k < m; ++k) {
      out << ',';
      if (j + k * r.np < r.gradient.size()) out << format_double(r.gradient[j + k * r.np]);
    }
    out << '\n';
  }
}

// The hulls of x and S (bounds_fsa) at each output time, then of the
// gradient.
void write_hulls(std::ostream& out, const Model& model, const Result& r) {
  const BoundsResult& b = r.bounds;
  const bool with_s = !b.s_hull.empty();
  out << "\nt";
  for (const auto& s : model.state_names())
    out << ',' << field(s + "_lower") << ',' << field(s + "_upper");
  for (const auto& p : model.param_names())
    for (const auto& s : model.state_names())
      if (with_s)
        out << ',' << field("d" + s + "/d" + p + "_lower") << ','
            << field("d" + s + "/d" + p + "_upper");
  out << '\n';
  const std::size_t per_time = with_s ? r.nx * r.np : 0;
  for (std::size_t k = 0; k < r.times.size(); ++k) {
    out << format_double(r.times[k]);
    for (std::size_t m = k * r.nx; m < (k + 1) * r.nx; ++m)
      out << ',' << format_double(b.x_hull[2 * m]) << ',' << format_double(b.x_hull[2 * m + 1]);
    for (std::size_t m = k * per_time; m < (k + 1) * per_time; ++m)
      out << ',' << format_double(b.s_hull[2 * m]) << ',' << format_double(b.s_hull[2 * m + 1]);
    out << '\n';
  }
  out << "\nparameter,gradient_lower,gradient_upper\n";
  for (std::size_t j = 0; j < r.np; ++j)
    out << field(model.param_names()[j]) << ',' << format_double(b.gradient_hull[2 * j]) << ','
        << format_double(b.gradient_hull[2 * j + 1]) << '\n';
}

}  // namespace

void write_csv(std::ostream& out, const Model& model, const Result& r,
               const RunDescription& run) {
  write_header(out, model, r, run);
  // S's times are some of the output times, in their order: one pass
  // pairs them (a search per row was quadratic in the outputs).
  std::size_t next_s = 0;
  for (std::size_t k = 0; k < r.times.size(); ++k) {
    while (next_s < r.s_times.size() && r.s_times[next_s] < r.times[k]) ++next_s;
    const bool has_s = next_s < r.s_times.size() && r.s_times[next_s] == r.times[k];
    write_row(out, r, run, k, has_s ? static_cast<long>(next_s) : -1);
  }
  if (run.gradient_method) write_gradient(out, model, r, run.n_objectives);
  if (!r.objective_values.empty()) {
    out << "\nobjective,value\n";
    for (std::size_t k = 0; k < r.objective_values.size(); ++k)
      out << k + 1 << ',' << format_double(r.objective_values[k]) << '\n';
  }
  if (r.bounds.n_monomials > 0) write_hulls(out, model, r);
}

}  // namespace odesens::io
