// odesens_petab_profile and odesens_profile_result_*: profile likelihoods
// of PEtab problems (odesens/profile.hpp) through the C ABI.
#include <cmath>
#include <string>
#include <vector>

#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "fit/fit_plots.hpp"
#include "odesens.h"

namespace {

using namespace odesens;
using namespace odesens::capi;

// The C values of ProfileEnd: odesens_profile_end is part of the ABI and
// must not follow a reordering of the C++ enum.
int64_t end_code(ProfileEnd end) {
  switch (end) {
    case ProfileEnd::crossed: return ODESENS_PROFILE_CROSSED;
    case ProfileEnd::bound: return ODESENS_PROFILE_BOUND;
    case ProfileEnd::max_points: return ODESENS_PROFILE_MAX_POINTS;
    case ProfileEnd::failed: return ODESENS_PROFILE_FAILED;
    case ProfileEnd::stopped: return ODESENS_PROFILE_STOPPED;
  }
  throw Error(Status::internal_error, "a profile side ended in an unknown way");
}

// The caller's parameter indices: each an estimated parameter's, each once.
std::vector<std::size_t> parameter_indices(const int64_t* indices, int64_t n_indices,
                                           std::size_t np) {
  require_array(indices, n_indices, "indices");
  std::vector<std::size_t> out;
  std::vector<bool> seen(np, false);
  for (int64_t k = 0; k < n_indices; ++k) {
    const std::size_t i = require_index(indices[k], np, "parameter index");
    if (seen[i])
      throw Error(Status::invalid_argument,
                  "parameter index " + std::to_string(i) + " is listed twice");
    seen[i] = true;
    out.push_back(i);
  }
  return out;
}

const Profile& profile_at(const ProfileResultState& state, int64_t index) {
  return state.profiles[require_index(index, state.profiles.size(), "profile index")];
}

}  // namespace

extern "C" {

int odesens_petab_profile(const odesens_petab* petab, const odesens_fit_options* options,
                          const double* x, int64_t n, const int64_t* indices,
                          int64_t n_indices, double confidence,
                          odesens_profile_result** out) {
  return guarded(petab, __func__, [&] {
    if (out) *out = nullptr;
    require_pointer(out, "out");
    const PetabState& problem = petab_state(petab);
    const std::size_t np = problem.problem->parameter_ids().size();
    require_array(x, n, "x");
    require_length(n, np, "x");
    require_finite(x, n, "x");
    if (!std::isfinite(confidence)) throw Error(Status::not_finite, "confidence is NaN or Inf");
    if (!(confidence > 0 && confidence < 1))
      throw Error(Status::invalid_argument, "confidence must lie strictly between 0 and 1 (got " +
                                                std::to_string(confidence) + ")");
    ProfileOptions o;
    o.parameters = parameter_indices(indices, n_indices, np);
    o.confidence = confidence;
    if (options) {
      const FitOptionsState& settings = fit_options_state(options);
      o.optimizer = settings.fit.optimizer;
      o.threads = settings.fit.threads;
      o.max_points = settings.profile_max_points;
    }
    auto state = std::make_unique<ProfileResultState>();
    state->problem = problem.problem;
    state->confidence = confidence;
    state->profiles = profile(*problem.problem, std::vector<double>(x, x + n), o, {},
                              options ? &fit_options_state(options).stop : nullptr);
    *out = new odesens_profile_result{HandleHeader{HandleKind::profile_result, {}},
                                      std::move(state)};
  });
}

void odesens_profile_result_free(odesens_profile_result* profiles) {
  free_handle(profiles, HandleKind::profile_result);
}

int odesens_profile_result_count(const odesens_profile_result* profiles, int64_t* count,
                                 double* confidence) {
  return guarded(profiles, __func__, [&] {
    const ProfileResultState& state = profile_result_state(profiles);
    if (count) *count = static_cast<int64_t>(state.profiles.size());
    if (confidence) *confidence = state.confidence;
  });
}

int odesens_profile_result_interval(const odesens_profile_result* profiles, int64_t index,
                                    int64_t* parameter, double* lower, double* upper,
                                    int64_t* lower_end, int64_t* upper_end) {
  return guarded(profiles, __func__, [&] {
    const Profile& p = profile_at(profile_result_state(profiles), index);
    if (parameter) *parameter = static_cast<int64_t>(p.parameter);
    if (lower) *lower = p.lower;
    if (upper) *upper = p.upper;
    if (lower_end) *lower_end = end_code(p.lower_end);
    if (upper_end) *upper_end = end_code(p.upper_end);
  });
}

int odesens_profile_result_info(const odesens_profile_result* profiles, int64_t index,
                                double* start, double* best_nlpost, double* threshold,
                                int64_t* n_points, int64_t* found_better) {
  return guarded(profiles, __func__, [&] {
    const Profile& p = profile_at(profile_result_state(profiles), index);
    if (start) *start = p.start;
    if (best_nlpost) *best_nlpost = p.best_nlpost;
    if (threshold) *threshold = p.threshold;
    if (n_points) *n_points = static_cast<int64_t>(p.points.size());
    if (found_better) *found_better = p.found_better ? 1 : 0;
  });
}

int odesens_profile_result_failures(const odesens_profile_result* profiles, int64_t index,
                                    const char** lower, const char** upper) {
  return guarded(profiles, __func__, [&] {
    const Profile& p = profile_at(profile_result_state(profiles), index);
    if (lower) *lower = p.lower_failure.c_str();
    if (upper) *upper = p.upper_failure.c_str();
  });
}

int odesens_profile_result_points(const odesens_profile_result* profiles, int64_t index,
                                  double* values, double* nlpost, int64_t len) {
  return guarded(profiles, __func__, [&] {
    const Profile& p = profile_at(profile_result_state(profiles), index);
    std::vector<double> v, f;
    for (const ProfilePoint& q : p.points) {
      v.push_back(q.value);
      f.push_back(q.nlpost);
    }
    // Both buffers are checked before either is written.
    if (len < 0)
      throw Error(Status::invalid_argument, "len is negative (" + std::to_string(len) + ")");
    if ((values || nlpost) && len < static_cast<int64_t>(v.size()))
      throw Error(Status::buffer_too_small, "the buffers have room for " + std::to_string(len) +
                                                " values, " + std::to_string(v.size()) +
                                                " needed");
    if (values) copy_to_buffer(v, values, len, "values");
    if (nlpost) copy_to_buffer(f, nlpost, len, "nlpost");
  });
}

int odesens_profile_result_point(const odesens_profile_result* profiles, int64_t index,
                                 int64_t point, double* out, int64_t len) {
  return guarded(profiles, __func__, [&] {
    const Profile& p = profile_at(profile_result_state(profiles), index);
    copy_to_buffer(p.points[require_index(point, p.points.size(), "point index")].x, out, len,
                   "out");
  });
}

int odesens_profile_result_plot(const odesens_profile_result* profiles, const char* folder) {
  return guarded(profiles, __func__, [&] {
    const ProfileResultState& state = profile_result_state(profiles);
    const std::string f = require_string(folder, "folder");
    if (f.empty()) throw Error(Status::invalid_argument, "folder is empty");
    fitting::plot_profiles(*state.problem, state.profiles, f);
  });
}

}  // extern "C"
