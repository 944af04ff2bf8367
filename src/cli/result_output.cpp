#include "cli/result_output.hpp"

#include <algorithm>

#include "cli/json_writer.hpp"

namespace odesens::cli {
namespace {

// Index of output time k in s_times, or -1.
long s_index(const Result& r, std::size_t k) {
  auto it = std::find(r.s_times.begin(), r.s_times.end(), r.times[k]);
  return it == r.s_times.end() ? -1 : static_cast<long>(it - r.s_times.begin());
}

}  // namespace

void write_json(std::ostream& out, const Model& model, const Result& r,
                const RunDescription& run) {
  JsonWriter w(out);
  w.begin_object();
  w.key("method"); w.value(r.method);
  w.key("model"); w.value(run.model_spec);
  w.key("nx"); w.value(r.nx);
  w.key("np"); w.value(r.np);
  w.key("states"); w.array(model.state_names());
  w.key("parameters"); w.array(model.param_names());
  w.key("times"); w.array(r.times);
  w.key("x");
  w.begin_array();
  for (std::size_t k = 0; k < r.times.size(); ++k) {
    w.begin_array();
    for (std::size_t i = 0; i < r.nx; ++i) w.value(r.x_at(k, i));
    w.end_array();
  }
  w.end_array();
  w.key("S_times"); w.array(r.s_times);
  w.key("S");
  w.begin_array();
  for (std::size_t k = 0; k < r.s_times.size(); ++k) {
    w.begin_array();
    for (std::size_t i = 0; i < r.nx; ++i) {
      w.begin_array();
      for (std::size_t j = 0; j < r.np; ++j) w.value(r.s_at(k, i, j));
      w.end_array();
    }
    w.end_array();
  }
  w.end_array();
  w.key("stats");
  w.begin_object();
  w.key("steps"); w.value(r.stats.steps);
  w.key("rhs_evals"); w.value(r.stats.rhs_evals);
  w.key("jac_evals"); w.value(r.stats.jac_evals);
  w.key("wall_seconds"); w.value(r.stats.wall_seconds);
  w.end_object();
  if (run.gradient_method) {
    w.key("gradient");
    w.array(r.gradient);
  }
  if (!run.observable_names.empty()) {
    w.key("observables");
    w.begin_object();
    for (std::size_t n = 0; n < run.observable_names.size(); ++n) {
      w.key(run.observable_names[n]);
      w.array(run.observable_values[n]);
    }
    w.end_object();
  }
  w.end_object();
  out << '\n';
}

void write_csv(std::ostream& out, const Model& model, const Result& r,
               const RunDescription& run) {
  out << "t";
  for (const auto& s : model.state_names()) out << ',' << s;
  if (!r.s_times.empty())
    for (const auto& p : model.param_names())
      for (const auto& s : model.state_names()) out << ",d" << s << "/d" << p;
  for (const auto& name : run.observable_names) out << ',' << name;
  out << '\n';
  for (std::size_t k = 0; k < r.times.size(); ++k) {
    out << format_double(r.times[k]);
    for (std::size_t i = 0; i < r.nx; ++i) out << ',' << format_double(r.x_at(k, i));
    if (!r.s_times.empty()) {
      const long ks = s_index(r, k);
      for (std::size_t j = 0; j < r.np; ++j)
        for (std::size_t i = 0; i < r.nx; ++i) {
          out << ',';
          if (ks >= 0) out << format_double(r.s_at(static_cast<std::size_t>(ks), i, j));
        }
    }
    for (const auto& values : run.observable_values) out << ',' << format_double(values[k]);
    out << '\n';
  }
  if (run.gradient_method) {
    out << "\nparameter,gradient\n";
    for (std::size_t j = 0; j < r.np; ++j)
      out << model.param_names()[j] << ',' << format_double(r.gradient[j]) << '\n';
  }
}

}  // namespace odesens::cli
