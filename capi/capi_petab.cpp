// odesens_petab_*: PEtab problems (odesens/petab.hpp) through the C ABI:
// loading, the estimated parameters, and evaluations of the likelihood,
// its gradient and the Fisher information.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "capi_petab_options.hpp"
#include "odesens.h"
#include "odesens/petab.hpp"

namespace {

using namespace odesens;
using namespace odesens::capi;

const PetabProblem& problem_of(const odesens_petab* petab) { return *petab_state(petab).problem; }

// The estimated parameters' values: NaN and Inf are the caller's error,
// except -inf (the value 0) on a log scale, which PEtab allows.
void require_point(const double* x, std::int64_t n, const std::vector<std::string>& scales) {
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    if (std::isfinite(v) || (v < 0 && std::isinf(v) && scales[static_cast<std::size_t>(i)] != "lin"))
      continue;
    throw Error(Status::not_finite,
                "x[" + std::to_string(i) + "] is NaN or Inf (only -inf, the value 0 on a log " +
                    "scale, is allowed; parameter " + std::to_string(i) + " has scale '" +
                    scales[static_cast<std::size_t>(i)] + "')");
  }
}

}  // namespace

extern "C" {

int odesens_petab_load(const char* yaml_path, odesens_petab** out) {
  return guarded(nullptr, __func__, [&] {
    if (out) *out = nullptr;
    require_pointer(out, "out");
    const std::string path = require_string(yaml_path, "yaml_path");
    auto state = std::make_unique<PetabState>();
    state->problem = PetabProblem::load(path);
    *out = new odesens_petab{HandleHeader{HandleKind::petab, {}}, std::move(state)};
  });
}

void odesens_petab_free(odesens_petab* petab) { free_handle(petab, HandleKind::petab); }

int odesens_petab_sizes(const odesens_petab* petab, int64_t* n_parameters,
                        int64_t* n_measurements, int64_t* n_experiments) {
  return guarded(petab, __func__, [&] {
    const PetabProblem& p = problem_of(petab);
    if (n_parameters) *n_parameters = static_cast<int64_t>(p.parameter_ids().size());
    if (n_measurements) *n_measurements = static_cast<int64_t>(p.n_measurements());
    if (n_experiments) *n_experiments = static_cast<int64_t>(p.n_experiments());
  });
}

int odesens_petab_parameter_id(const odesens_petab* petab, int64_t index, const char** id) {
  return guarded(petab, __func__, [&] {
    require_pointer(id, "id");
    const auto& ids = problem_of(petab).parameter_ids();
    *id = ids[require_index(index, ids.size(), "parameter index")].c_str();
  });
}

int odesens_petab_parameter_scale(const odesens_petab* petab, int64_t index,
                                  const char** scale) {
  return guarded(petab, __func__, [&] {
    require_pointer(scale, "scale");
    const auto& scales = problem_of(petab).parameter_scales();
    *scale = scales[require_index(index, scales.size(), "parameter index")].c_str();
  });
}

int odesens_petab_inner_parameter(const odesens_petab* petab, int64_t index, int64_t* inner) {
  return guarded(petab, __func__, [&] {
    require_pointer(inner, "inner");
    const PetabProblem& p = problem_of(petab);
    const std::size_t i = require_index(index, p.parameter_ids().size(), "parameter index");
    const auto& ids = p.inner_parameters();
    *inner = std::find(ids.begin(), ids.end(), i) != ids.end() ? 1 : 0;
  });
}

int odesens_petab_parameter_bounds(const odesens_petab* petab, double* lower, double* upper,
                                   double* nominal, int64_t len) {
  return guarded(petab, __func__, [&] {
    const PetabProblem& p = problem_of(petab);
    const std::size_t n = p.parameter_ids().size();
    if (len < 0)
      throw Error(Status::invalid_argument, "len is negative (" + std::to_string(len) + ")");
    if ((lower || upper || nominal) && len < static_cast<std::int64_t>(n))
      throw Error(Status::buffer_too_small, "the buffers have room for " + std::to_string(len) +
                                                " values, " + std::to_string(n) + " needed");
    if (lower) copy_to_buffer(p.lower_scaled(), lower, len, "lower");
    if (upper) copy_to_buffer(p.upper_scaled(), upper, len, "upper");
    if (nominal) copy_to_buffer(p.nominal_scaled(), nominal, len, "nominal");
  });
}

int odesens_petab_evaluate(odesens_petab* petab, const double* x, int64_t n, const char* method,
                           double rtol, double atol, int64_t threads, double* nllh,
                           double* nlpost, double* chi2, double* gradient, double* fim,
                           double* simulations, int64_t len) {
  return guarded(petab, __func__, [&] {
    PetabState& state = petab_state(petab);
    const PetabProblem& p = *state.problem;
    const std::size_t np = p.parameter_ids().size();
    require_array(x, n, "x");
    if (n != static_cast<std::int64_t>(np))
      throw Error(Status::invalid_argument,
                  "x has " + std::to_string(n) + " values, the problem estimates " +
                      std::to_string(np) + " parameters");
    require_point(x, n, p.parameter_scales());
    PetabOptions options;
    options.method = petab_method(method);
    set_petab_tolerances(options, rtol, atol);
    options.threads = static_cast<unsigned>(require_count(threads, 0, max_threads, "threads"));
    if (len < 0)
      throw Error(Status::invalid_argument, "len is negative (" + std::to_string(len) + ")");
    if (simulations && len < static_cast<std::int64_t>(p.n_measurements()))
      throw Error(Status::buffer_too_small,
                  "simulations has room for " + std::to_string(len) + " values, " +
                      std::to_string(p.n_measurements()) + " needed");
    options.gradient = gradient != nullptr;
    options.fim = fim != nullptr;

    if (!state.session) state.session = std::make_unique<PetabSession>(state.problem);
    PetabResult r = state.session->evaluate(std::vector<double>(x, x + n), options);
    std::vector<std::string> warnings = std::move(r.warnings);  // before anything is written
    if (nllh) *nllh = r.nllh;
    if (nlpost) *nlpost = r.nlpost;
    if (chi2) *chi2 = r.chi2;
    if (gradient) std::copy(r.gradient.begin(), r.gradient.end(), gradient);
    if (fim) std::copy(r.fim.begin(), r.fim.end(), fim);
    if (simulations) std::copy(r.simulations.begin(), r.simulations.end(), simulations);
    state.warnings.swap(warnings);
  });
}

int odesens_petab_warning_count(const odesens_petab* petab, int64_t* count) {
  return guarded(petab, __func__, [&] {
    require_pointer(count, "count");
    *count = static_cast<int64_t>(petab_state(petab).warnings.size());
  });
}

int odesens_petab_warning(const odesens_petab* petab, int64_t index, const char** text) {
  return guarded(petab, __func__, [&] {
    require_pointer(text, "text");
    const auto& w = petab_state(petab).warnings;
    *text = w[require_index(index, w.size(), "warning index")].c_str();
  });
}

}  // extern "C"
