// The parameter table: parameterId, parameterScale, lowerBound, upperBound,
// nominalValue, estimate, and the optional objective and initialization priors.
#include <cmath>
#include <limits>

#include "sources/petab/petab_cells.hpp"
#include "sources/petab/petab_problem.hpp"
#include "sources/petab/petab_readers.hpp"

namespace odesens::petab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Columns {
  std::size_t id, scale, lower, upper, nominal, estimate;
  std::optional<std::size_t> prior_type, prior_parameters;
  std::optional<std::size_t> init_type, init_parameters;
  explicit Columns(const Tsv& t)
      : id(t.required_column("parameterId")),
        scale(t.required_column("parameterScale")),
        lower(t.required_column("lowerBound")),
        upper(t.required_column("upperBound")),
        nominal(t.required_column("nominalValue")),
        estimate(t.required_column("estimate")),
        prior_type(t.column("objectivePriorType")),
        prior_parameters(t.column("objectivePriorParameters")),
        init_type(t.column("initializationPriorType")),
        init_parameters(t.column("initializationPriorParameters")) {}
};

Scale read_scale(const Tsv& t, std::size_t r, std::size_t c) {
  const std::string& s = t.cell(r, c);
  if (s == "lin") return Scale::lin;
  if (s == "log") return Scale::log;
  if (s == "log10") return Scale::log10;
  fail(t.place(r, c), "parameterScale " + shown(s) + " is not lin, log or log10");
}

bool read_estimate(const Tsv& t, std::size_t r, std::size_t c) {
  const std::string& s = t.cell(r, c);
  if (s == "0" || s == "1") return s == "1";
  fail(t.place(r, c), "estimate " + shown(s) + " is not 0 or 1");
}

// NaN for an empty cell; a number otherwise (NaN written out too).
double optional_number(const Tsv& t, std::size_t r, std::size_t c) {
  const std::string& s = t.cell(r, c);
  if (s.empty()) return kNaN;
  if (const auto v = number_of(s)) return *v;
  fail(t.place(r, c), t.header()[c] + " " + shown(s) + " " + not_a_number_reason(s));
}

// Estimated parameters need bounds an optimizer can start from; on a log
// scale both must be positive, as their logarithms are taken.
void check_bounds(const Tsv& t, std::size_t r, const Columns& c, ParameterRow& p) {
  p.lower = required_number(t, r, c.lower);
  p.upper = required_number(t, r, c.upper);
  if (p.lower > p.upper)
    fail(t.place(r, c.upper), "upperBound is below lowerBound (" + t.cell(r, c.lower) + ")");
  if (p.scale != Scale::lin && p.lower <= 0)
    fail(t.place(r, c.lower), "lowerBound must be positive on a log scale");
}

// `kind`: "objective" or "initialization", the columns' prefix.
PriorType prior_type(const Tsv& t, std::size_t r, std::size_t c, const std::string& kind) {
  static const std::pair<const char*, PriorType> names[] = {
      {"uniform", PriorType::uniform},
      {"normal", PriorType::normal},
      {"laplace", PriorType::laplace},
      {"logNormal", PriorType::log_normal},
      {"logLaplace", PriorType::log_laplace},
      {"parameterScaleUniform", PriorType::parameter_scale_uniform},
      {"parameterScaleNormal", PriorType::parameter_scale_normal},
      {"parameterScaleLaplace", PriorType::parameter_scale_laplace}};
  const std::string& s = t.cell(r, c);
  if (s.empty()) return PriorType::none;
  for (const auto& [name, type] : names)
    if (s == name) return type;
  fail(t.place(r, c), kind + "PriorType " + shown(s) +
                          " is not one of uniform, normal, laplace, logNormal, logLaplace, "
                          "parameterScaleUniform, parameterScaleNormal, parameterScaleLaplace");
}

Prior read_prior(const Tsv& t, std::size_t r, std::optional<std::size_t> type_column,
                 std::optional<std::size_t> parameters_column, const std::string& kind) {
  Prior prior;
  if (!type_column) return prior;
  prior.type = prior_type(t, r, *type_column, kind);
  if (prior.type == PriorType::none) return prior;
  if (!parameters_column)
    fail(t.place(r, *type_column),
         kind + "PriorType needs the " + kind + "PriorParameters column");
  const Place place = t.place(r, *parameters_column);
  const std::string& s = t.cell(r, *parameters_column);
  const std::size_t semicolon = s.find(';');
  const auto a = number_of(trimmed(s.substr(0, semicolon)));
  const auto b =
      semicolon == std::string::npos ? std::nullopt : number_of(trimmed(s.substr(semicolon + 1)));
  if (!a || !b || !std::isfinite(*a) || !std::isfinite(*b))
    fail(place, kind + "PriorParameters " + shown(s) + " is not two finite numbers 'a;b'");
  prior.a = *a;
  prior.b = *b;
  const bool uniform =
      prior.type == PriorType::uniform || prior.type == PriorType::parameter_scale_uniform;
  if (uniform && !(prior.a < prior.b))
    fail(place, "a uniform prior's lower bound must be below its upper bound");
  if (!uniform && !(prior.b > 0))
    fail(place, "the prior's standard deviation or scale (the second number) must be positive");
  return prior;
}

// A prior whose parameters may be left out of a uniform type, which then
// spans the bounds (the specification's default lowerBound;upperBound, on
// the parameter's scale for parameterScaleUniform); a normal or Laplace
// distribution has no such default. Objective priors, and the
// initialization priors a fit draws its starts from (docs/fit.md).
Prior read_prior_or_bounds(const Tsv& t, std::size_t r, std::optional<std::size_t> type_column,
                           std::optional<std::size_t> parameters_column, const std::string& kind,
                           const ParameterRow& p) {
  if (!type_column) return {};
  const PriorType type = prior_type(t, r, *type_column, kind);
  if (type == PriorType::none) return {};
  if (parameters_column && !t.cell(r, *parameters_column).empty())
    return read_prior(t, r, type_column, parameters_column, kind);
  if (type != PriorType::uniform && type != PriorType::parameter_scale_uniform)
    fail(t.place(r, *type_column),
         kind + "PriorType " + shown(t.cell(r, *type_column)) + " needs " + kind +
             "PriorParameters (only the uniform types default to the bounds)");
  if (!p.estimate) return {type, 0.0, 0.0};  // a fixed parameter has no prior
  if (type == PriorType::uniform) return {type, p.lower, p.upper};
  return {type, scale_value(p.lower, p.scale), scale_value(p.upper, p.scale)};
}

ParameterRow read_parameter(const Tsv& t, std::size_t r, const Columns& c) {
  ParameterRow p;
  p.place = t.row_place(r);
  p.id = read_id(t.cell(r, c.id), t.place(r, c.id), "parameterId");
  p.scale = read_scale(t, r, c.scale);
  p.estimate = read_estimate(t, r, c.estimate);
  if (p.estimate) {
    check_bounds(t, r, c, p);
    p.nominal = optional_number(t, r, c.nominal);
    // Its logarithm is the optimizers' value (0 gives -inf, which is said
    // where it is used; a negative value has none).
    if (p.scale != Scale::lin && p.nominal < 0)
      fail(t.place(r, c.nominal), "nominalValue " + t.cell(r, c.nominal) +
                                      " is negative on a log scale, which takes its logarithm");
  } else {
    // A fixed parameter's bounds are not used; they are kept as written.
    p.lower = optional_number(t, r, c.lower);
    p.upper = optional_number(t, r, c.upper);
    p.nominal = required_number(t, r, c.nominal);
  }
  p.prior = read_prior_or_bounds(t, r, c.prior_type, c.prior_parameters, "objective", p);
  p.initialization =
      read_prior_or_bounds(t, r, c.init_type, c.init_parameters, "initialization", p);
  return p;
}

}  // namespace

void read_parameter_table(const std::string& file, std::vector<ParameterRow>& into) {
  const Tsv t(file, read_petab_file(file, "parameter table"));
  const Columns c(t);
  IdSet ids("parameterId");
  for (const ParameterRow& p : into) ids.add(p.id, p.place);
  for (std::size_t r = 0; r < t.rows(); ++r) {
    into.push_back(read_parameter(t, r, c));
    ids.add(into.back().id, t.place(r, c.id));
  }
}

}  // namespace odesens::petab
