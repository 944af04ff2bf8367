#include "cli/result_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace odesens::cli {
namespace {

using Json = nlohmann::ordered_json;  // fields in the documented order

// Index of output time k in s_times, or -1.
long s_index(const Result& r, std::size_t k) {
  auto it = std::find(r.s_times.begin(), r.s_times.end(), r.times[k]);
  return it == r.s_times.end() ? -1 : static_cast<long>(it - r.s_times.begin());
}

// nlohmann prints every double with a fraction ("2.0"); an integral value
// below 1e15 is exact as an integer and printed as the tool always has ("2");
// -0 stays a double, so that its sign survives. NaN and Inf become null
// (nlohmann's choice too).
Json number(double d) {
  if (!std::isfinite(d)) return nullptr;
  if (d == std::trunc(d) && std::fabs(d) < 1e15 && !(d == 0.0 && std::signbit(d)))
    return static_cast<std::int64_t>(d);
  return d;
}

Json numbers(const std::vector<double>& v) {
  Json array = Json::array();
  for (double d : v) array.push_back(number(d));
  return array;
}

// Streaming a document (operator<<) throws at a string that is not UTF-8,
// after part of it is written; such a string (a file name, say) goes in with
// its invalid bytes replaced by U+FFFD.
Json text(const std::string& s) {
  return Json::parse(Json(s).dump(-1, ' ', false, Json::error_handler_t::replace));
}

Json texts(const std::vector<std::string>& v) {
  Json array = Json::array();
  for (const auto& s : v) array.push_back(text(s));
  return array;
}

// A column-major n x M matrix: the flat list of its n values when M = 1 (as
// the gradient always was), a list of its M columns otherwise.
Json columns(const std::vector<double>& v, std::size_t m) {
  if (m <= 1) return numbers(v);
  const std::size_t n = v.size() / m;
  Json array = Json::array();
  for (std::size_t k = 0; k < m; ++k) {
    Json column = Json::array();
    for (std::size_t i = 0; i < n; ++i) column.push_back(number(v[i + k * n]));
    array.push_back(std::move(column));
  }
  return array;
}

// One axis of a flat array: its length and the distance between its
// neighbouring elements.
struct Axis {
  std::size_t count, stride;
};

// The values of v as nested lists, axes outermost first: element [a][b]...
// is v[offset + a * axes[0].stride + b * axes[1].stride + ...].
Json nested(const std::vector<double>& v, const std::vector<Axis>& axes, std::size_t level = 0,
            std::size_t offset = 0) {
  if (level == axes.size()) return number(v[offset]);
  Json array = Json::array();
  for (std::size_t a = 0; a < axes[level].count; ++a)
    array.push_back(nested(v, axes, level + 1, offset + a * axes[level].stride));
  return array;
}

// Models of x (per time and state), S (per time, state and parameter) or
// the gradient (per parameter), `inner` values each (coefficients or a
// (lower, upper) pair), in the order of the output's x, S and gradient.
std::vector<Axis> x_axes(const Result& r, std::size_t inner) {
  return {{r.times.size(), inner * r.nx}, {r.nx, inner}, {inner, 1}};
}
std::vector<Axis> s_axes(const Result& r, std::size_t inner) {
  return {{r.s_times.size(), inner * r.nx * r.np}, {r.nx, inner}, {r.np, inner * r.nx}, {inner, 1}};
}
std::vector<Axis> gradient_axes(const Result& r, std::size_t inner) {
  return {{r.np, inner}, {inner, 1}};
}

// Every field of BoundsResult, named as there: exponents[c][j],
// x_coef[k][i][c], x_rem and x_hull[k][i] = [lower, upper], x_shape[k][r][c]
// (empty for interval remainders), s_*[k][i][j], gradient_*[j].
Json bounds_json(const Result& r) {
  const BoundsResult& b = r.bounds;
  const std::size_t nm = b.n_monomials;
  Json exponents = Json::array();
  for (std::size_t c = 0; c < nm; ++c)
    exponents.push_back(Json(std::vector<std::int64_t>(
        b.exponents.begin() + static_cast<std::ptrdiff_t>(c * r.np),
        b.exponents.begin() + static_cast<std::ptrdiff_t>((c + 1) * r.np))));
  const std::size_t shapes = b.x_shape.empty() ? 0 : r.times.size();
  return {{"basis", text(b.basis)},
          {"remainder", text(b.remainder)},
          {"order", b.order},
          {"n_monomials", nm},
          {"box_lower", numbers(b.box_lower)},
          {"box_upper", numbers(b.box_upper)},
          {"box_mid", numbers(b.box_mid)},
          {"box_rad", numbers(b.box_rad)},
          {"exponents", std::move(exponents)},
          {"x_coef", nested(b.x_coef, x_axes(r, nm))},
          {"x_rem", nested(b.x_rem, x_axes(r, 2))},
          {"x_hull", nested(b.x_hull, x_axes(r, 2))},
          {"x_shape", nested(b.x_shape, {{shapes, r.nx * r.nx}, {r.nx, 1}, {r.nx, r.nx}})},
          {"s_coef", nested(b.s_coef, s_axes(r, nm))},
          {"s_rem", nested(b.s_rem, s_axes(r, 2))},
          {"s_hull", nested(b.s_hull, s_axes(r, 2))},
          {"gradient_coef", nested(b.gradient_coef, gradient_axes(r, nm))},
          {"gradient_rem", nested(b.gradient_rem, gradient_axes(r, 2))},
          {"gradient_hull", nested(b.gradient_hull, gradient_axes(r, 2))}};
}

// CSV: the hulls of x and S (bounds_fsa) at each output time, then of the
// gradient.
void write_hulls_csv(std::ostream& out, const Model& model, const Result& r) {
  const BoundsResult& b = r.bounds;
  const bool with_s = !b.s_hull.empty();
  out << "\nt";
  for (const auto& s : model.state_names()) out << ',' << s << "_lower," << s << "_upper";
  for (const auto& p : model.param_names())
    for (const auto& s : model.state_names())
      if (with_s) out << ",d" << s << "/d" << p << "_lower,d" << s << "/d" << p << "_upper";
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
    out << model.param_names()[j] << ',' << format_double(b.gradient_hull[2 * j]) << ','
        << format_double(b.gradient_hull[2 * j + 1]) << '\n';
}

}  // namespace

std::string format_double(double d) {
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

void write_json(std::ostream& out, const Model& model, const Result& r,
                const RunDescription& run) {
  Json x = Json::array();
  for (std::size_t k = 0; k < r.times.size(); ++k) {
    Json row = Json::array();
    for (std::size_t i = 0; i < r.nx; ++i) row.push_back(number(r.x_at(k, i)));
    x.push_back(std::move(row));
  }
  Json s = Json::array();
  for (std::size_t k = 0; k < r.s_times.size(); ++k) {
    Json at_k = Json::array();
    for (std::size_t i = 0; i < r.nx; ++i) {
      Json row = Json::array();
      for (std::size_t j = 0; j < r.np; ++j) row.push_back(number(r.s_at(k, i, j)));
      at_k.push_back(std::move(row));
    }
    s.push_back(std::move(at_k));
  }
  Json doc = {{"method", text(r.method)},
              {"model", text(run.model_spec)},
              {"nx", r.nx},
              {"np", r.np},
              {"states", texts(model.state_names())},
              {"parameters", texts(model.param_names())},
              {"times", numbers(r.times)},
              {"x", std::move(x)},
              {"S_times", numbers(r.s_times)},
              {"S", std::move(s)}};
  if (r.ns > 0) {
    Json sr = Json::array();
    for (std::size_t k = 0; k < r.times.size(); ++k) {
      Json at_k = Json::array();
      for (std::size_t i = 0; i < r.nx; ++i) {
        Json row = Json::array();
        for (std::size_t j = 0; j < r.ns; ++j) row.push_back(number(r.sr_at(k, i, j)));
        at_k.push_back(std::move(row));
      }
      sr.push_back(std::move(at_k));
    }
    doc["ns"] = r.ns;
    doc["SR"] = std::move(sr);
  }
  doc["stats"] = {{"steps", r.stats.steps},
                  {"rhs_evals", r.stats.rhs_evals},
                  {"jac_evals", r.stats.jac_evals},
                  {"wall_seconds", number(r.stats.wall_seconds)}};
  if (run.gradient_method) doc["gradient"] = columns(r.gradient, run.n_objectives);
  if (!r.gradient_x0.empty()) doc["gradient_x0"] = columns(r.gradient_x0, run.n_objectives);
  if (!r.objective_values.empty()) doc["objectives"] = numbers(r.objective_values);
  if (r.bounds.n_monomials > 0) doc["bounds"] = bounds_json(r);
  if (!r.warnings.empty()) doc["warnings"] = texts(r.warnings);
  // The memory the solve held (an estimate from the integrators' own counts).
  const auto bytes = r.stats.extra.find("workspace_bytes");
  if (bytes != r.stats.extra.end()) doc["stats"]["workspace_bytes"] = number(bytes->second);
  if (!run.observable_names.empty()) {
    Json& observables = doc["observables"] = Json::object();
    for (std::size_t n = 0; n < run.observable_names.size(); ++n)
      observables[text(run.observable_names[n]).get<std::string>()] =
          numbers(run.observable_values[n]);
  }
  out << doc << '\n';  // streamed: the document is not copied into a string
}

void write_csv(std::ostream& out, const Model& model, const Result& r,
               const RunDescription& run) {
  out << "t";
  for (const auto& s : model.state_names()) out << ',' << s;
  if (!r.s_times.empty())
    for (const auto& p : model.param_names())
      for (const auto& s : model.state_names()) out << ",d" << s << "/d" << p;
  for (std::size_t j = 1; j <= r.ns; ++j)
    for (const auto& s : model.state_names()) out << ",d" << s << "/dr" << j;
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
    for (std::size_t j = 0; j < r.ns; ++j)
      for (std::size_t i = 0; i < r.nx; ++i) out << ',' << format_double(r.sr_at(k, i, j));
    for (const auto& values : run.observable_values) out << ',' << format_double(values[k]);
    out << '\n';
  }
  if (run.gradient_method) {
    const std::size_t m = run.n_objectives;
    out << "\nparameter";
    if (m == 1) out << ",gradient";
    for (std::size_t k = 1; m > 1 && k <= m; ++k) out << ",gradient_" << k;
    out << '\n';
    for (std::size_t j = 0; j < r.np; ++j) {
      out << model.param_names()[j];
      for (std::size_t k = 0; k < m; ++k) out << ',' << format_double(r.gradient[j + k * r.np]);
      out << '\n';
    }
  }
  if (!r.objective_values.empty()) {
    out << "\nobjective,value\n";
    for (std::size_t k = 0; k < r.objective_values.size(); ++k)
      out << k + 1 << ',' << format_double(r.objective_values[k]) << '\n';
  }
  if (r.bounds.n_monomials > 0) write_hulls_csv(out, model, r);
}

}  // namespace odesens::cli
