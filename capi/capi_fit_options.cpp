// odesens_fit_options_*: the settings of fits and profiles through the C
// ABI. Each setter checks its value at once, so that a wrong one is
// reported by the call that gave it rather than by a fit much later.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "capi_petab_options.hpp"
#include "odesens.h"

namespace {

using namespace odesens;
using namespace odesens::capi;

constexpr std::int64_t max_starts = 1'000'000;
constexpr std::int64_t max_profile_points = 1'000'000;

}  // namespace

extern "C" {

int odesens_fit_options_create(odesens_fit_options** out) {
  return guarded(nullptr, __func__, [&] {
    if (out) *out = nullptr;
    require_pointer(out, "out");
    *out = new odesens_fit_options{HandleHeader{HandleKind::fit_options, {}},
                                   std::make_unique<FitOptionsState>()};
  });
}

void odesens_fit_options_free(odesens_fit_options* options) {
  free_handle(options, HandleKind::fit_options);
}

int odesens_fit_options_stop(const odesens_fit_options* options) {
  return guarded(options, __func__, [&] { fit_options_state(options).stop = true; });
}

int odesens_fit_options_clear_stop(odesens_fit_options* options) {
  return guarded(options, __func__, [&] { fit_options_state(options).stop = false; });
}

int odesens_fit_options_set_optimizer(odesens_fit_options* options, const char* optimizer) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    const std::string id = optimizer && *optimizer ? optimizer : "auto";
    const std::vector<std::string>& ids = optimizer_ids();
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      throw Error(Status::invalid_argument,
                  "unknown optimizer '" + id + "' (" + optimizer_id_list() + ")");
    state.fit.optimizer.optimizer = id;
  });
}

int odesens_fit_options_set_starts(odesens_fit_options* options, int64_t starts) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    state.fit.starts = require_count(starts, 1, max_starts, "starts");
  });
}

int odesens_fit_options_set_seed(odesens_fit_options* options, int64_t seed) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    state.fit.seed = require_count(seed, 0, std::numeric_limits<std::int64_t>::max(), "seed");
  });
}

int odesens_fit_options_set_hops(odesens_fit_options* options, int64_t rounds, int64_t starts,
                                 double sigma) {
  return guarded(options, __func__, [&] {
    require_finite(&sigma, 1, "sigma");
    FitOptions hops;
    hops.hop_rounds = require_count(rounds, 0, kMostHopRounds, "rounds");
    hops.hop_starts = require_count(starts, 1, kMostHopStarts, "starts");
    hops.hop_sigma = sigma;
    check_hop_options(hops);
    FitOptions& fit = fit_options_state(options).fit;
    fit.hop_rounds = hops.hop_rounds;
    fit.hop_starts = hops.hop_starts;
    fit.hop_sigma = hops.hop_sigma;
  });
}

int odesens_fit_options_set_hop_flat(odesens_fit_options* options, int from_box) {
  return guarded(options, __func__, [&] {
    if (from_box != 0 && from_box != 1)
      throw Error(Status::invalid_argument,
                  "from_box is " + std::to_string(from_box) + "; give 1 (box) or 0 (local)");
    fit_options_state(options).fit.hop_flat_from_box = from_box == 1;
  });
}

int odesens_fit_options_set_hop_blocks(odesens_fit_options* options, int on) {
  return guarded(options, __func__, [&] {
    if (on != 0 && on != 1)
      throw Error(Status::invalid_argument,
                  "on is " + std::to_string(on) + "; give 1 (blocks) or 0 (none)");
    fit_options_state(options).fit.hop_blocks = on == 1;
  });
}

int odesens_fit_options_set_resample_failed(odesens_fit_options* options, int64_t tries) {
  return guarded(options, __func__, [&] {
    fit_options_state(options).fit.resample_failed = require_count(tries, 0, kMostResamples, "tries");
  });
}

int odesens_fit_options_set_start_points(odesens_fit_options* options, const double* points,
                                         int64_t n_parameters, int64_t n_starts) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    const std::size_t k = require_count(n_starts, 0, max_starts, "n_starts");
    if (k == 0) {
      state.fit.start_points.clear();
      return;
    }
    // Sizes first: their product is the length read from `points`.
    const std::size_t n =
        require_count(n_parameters, 1, max_model_dimension, "n_parameters");
    if (n > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()) / k)
      throw Error(Status::invalid_argument, "n_parameters x n_starts is too large");
    const auto len = static_cast<std::int64_t>(n * k);
    require_array(points, len, "points");
    require_finite(points, len, "points");
    std::vector<std::vector<double>> starts(k);
    for (std::size_t s = 0; s < k; ++s) starts[s].assign(points + s * n, points + (s + 1) * n);
    state.fit.start_points = std::move(starts);
  });
}

int odesens_fit_options_set_threads(odesens_fit_options* options, int64_t threads) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    state.fit.threads = static_cast<unsigned>(require_count(threads, 0, max_threads, "threads"));
  });
}

int odesens_fit_options_set_max_iterations(odesens_fit_options* options,
                                           int64_t max_iterations) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    state.fit.optimizer.max_iterations = static_cast<std::int64_t>(require_count(
        max_iterations, 1, std::numeric_limits<std::int64_t>::max(), "max_iterations"));
  });
}

int odesens_fit_options_set_max_seconds(odesens_fit_options* options, double max_seconds) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    if (!std::isfinite(max_seconds))
      throw Error(Status::not_finite, "max_seconds is NaN or Inf (0: no limit)");
    if (max_seconds < 0)
      throw Error(Status::invalid_argument, "max_seconds must be >= 0 (got " +
                                                std::to_string(max_seconds) + "; 0: no limit)");
    state.fit.optimizer.max_seconds = max_seconds;
  });
}

int odesens_fit_options_set_method(odesens_fit_options* options, const char* method) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    state.fit.optimizer.evaluation.method = petab_method(method);
  });
}

int odesens_fit_options_set_hierarchical(odesens_fit_options* options, int64_t hierarchical) {
  return guarded(options, __func__, [&] {
    fit_options_state(options).fit.optimizer.evaluation.hierarchical = hierarchical != 0;
  });
}

int odesens_fit_options_set_tolerances(odesens_fit_options* options, double rtol, double atol) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    set_petab_tolerances(state.fit.optimizer.evaluation, rtol, atol);
  });
}

int odesens_fit_options_set_profile_max_points(odesens_fit_options* options,
                                               int64_t max_points) {
  return guarded(options, __func__, [&] {
    FitOptionsState& state = fit_options_state(options);
    state.profile_max_points = require_count(max_points, 1, max_profile_points, "max_points");
  });
}

}  // extern "C"
