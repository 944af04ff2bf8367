// odesens_petab_fit and odesens_fit_result_*: multi-start fits of PEtab
// problems (odesens/fit.hpp) through the C ABI, and their documents: the
// HDF5 file, the best point's parameter table and the pictures.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "fit/fit_h5.hpp"
#include "fit/fit_plots.hpp"
#include "odesens.h"

namespace {

using namespace odesens;
using namespace odesens::capi;

const StartResult& start_at(const FitResultState& state, std::int64_t rank) {
  const auto& starts = state.fit.starts;
  return starts[require_index(rank, starts.size(), "rank")];
}

// The best start, for what only a successful fit has (the best point, its
// table, the pictures): Error(unsupported) when every start failed.
const StartResult& best_start(const FitResultState& state) {
  const auto& starts = state.fit.starts;
  if (starts.empty() || !std::isfinite(starts[0].nlpost))
    throw Error(Status::unsupported, "no start of the fit succeeded: there is no best point");
  return starts[0];
}

std::string require_path(const char* path, const char* name) {
  std::string p = require_string(path, name);
  if (p.empty()) throw Error(Status::invalid_argument, std::string(name) + " is empty");
  return p;
}

}  // namespace

extern "C" {

int odesens_petab_fit(const odesens_petab* petab, const odesens_fit_options* options,
                      odesens_fit_result** out) {
  return guarded(petab, __func__, [&] {
    if (out) *out = nullptr;
    require_pointer(out, "out");
    const PetabState& problem = petab_state(petab);
    const FitOptions fit_options = options ? fit_options_state(options).fit : FitOptions{};
    auto state = std::make_unique<FitResultState>();
    state->problem = problem.problem;
    state->fit = fit(*problem.problem, fit_options, {},
                     options ? &fit_options_state(options).stop : nullptr);
    *out = new odesens_fit_result{HandleHeader{HandleKind::fit_result, {}}, std::move(state)};
  });
}

void odesens_fit_result_free(odesens_fit_result* fit) {
  free_handle(fit, HandleKind::fit_result);
}

int odesens_fit_result_sizes(const odesens_fit_result* fit, int64_t* n_starts,
                             int64_t* n_parameters, int64_t* starts_planned) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    if (n_starts) *n_starts = static_cast<int64_t>(state.fit.starts.size());
    if (n_parameters) *n_parameters = static_cast<int64_t>(state.problem->parameter_ids().size());
    if (starts_planned) *starts_planned = static_cast<int64_t>(state.fit.starts_planned);
  });
}

int odesens_fit_result_optimizer(const odesens_fit_result* fit, const char** optimizer) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    require_pointer(optimizer, "optimizer");
    *optimizer = state.fit.optimizer.c_str();
  });
}

int odesens_fit_result_starts_at_best(const odesens_fit_result* fit, int64_t* count) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    require_pointer(count, "count");
    *count = static_cast<int64_t>(state.fit.starts_at_best);
  });
}

int odesens_fit_result_stopped(const odesens_fit_result* fit, int64_t* stopped) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    require_pointer(stopped, "stopped");
    *stopped = state.fit.stopped ? 1 : 0;
  });
}

int odesens_fit_result_start(const odesens_fit_result* fit, int64_t rank, double* nlpost,
                             double* nllh, double* gradient_norm, double* seconds, int64_t* index,
                             int64_t* iterations, int64_t* evaluations, int64_t* status) {
  return guarded(fit, __func__, [&] {
    const StartResult& s = start_at(fit_result_state(fit), rank);
    if (nlpost) *nlpost = s.nlpost;
    if (nllh) *nllh = s.nllh;
    if (gradient_norm) *gradient_norm = s.gradient_norm;
    if (seconds) *seconds = s.seconds;
    if (index) *index = static_cast<int64_t>(s.index);
    if (iterations) *iterations = s.iterations;
    if (evaluations) *evaluations = s.evaluations;
    if (status) *status = static_cast<int64_t>(s.status);
  });
}

int odesens_fit_result_start_round(const odesens_fit_result* fit, int64_t rank, int64_t* round) {
  return guarded(fit, __func__, [&] {
    const StartResult& s = start_at(fit_result_state(fit), rank);
    require_pointer(round, "round");
    *round = static_cast<int64_t>(s.round);
  });
}

int odesens_fit_result_start_redrawn(const odesens_fit_result* fit, int64_t rank,
                                     int64_t parameter, int64_t* redrawn) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    const StartResult& s = start_at(state, rank);
    const std::int64_t n = static_cast<std::int64_t>(state.problem->parameter_ids().size());
    const std::size_t i = require_count(parameter, 0, n - 1, "parameter");
    require_pointer(redrawn, "redrawn");
    *redrawn = std::binary_search(s.redrawn.begin(), s.redrawn.end(), i) ? 1 : 0;
  });
}

int odesens_fit_result_parameter_flat(const odesens_fit_result* fit, int64_t parameter,
                                      int64_t* flat) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    const std::int64_t n = static_cast<std::int64_t>(state.problem->parameter_ids().size());
    const std::size_t i = require_count(parameter, 0, n - 1, "parameter");
    require_pointer(flat, "flat");
    const auto& at_best = state.fit.flat_at_best;
    *flat = std::find(at_best.begin(), at_best.end(), i) != at_best.end() ? 1 : 0;
  });
}

int odesens_fit_result_hop_blocks(const odesens_fit_result* fit, int64_t* block_count) {
  return guarded(fit, __func__, [&] {
    require_pointer(block_count, "block_count");
    *block_count = static_cast<int64_t>(fit_result_state(fit).fit.hop_block_count);
  });
}

int odesens_fit_result_exit_reason(const odesens_fit_result* fit, int64_t rank,
                                   const char** reason) {
  return guarded(fit, __func__, [&] {
    const StartResult& s = start_at(fit_result_state(fit), rank);
    require_pointer(reason, "reason");
    *reason = s.exit_reason.c_str();
  });
}

int odesens_fit_result_start_point(const odesens_fit_result* fit, int64_t rank, double* out,
                                   int64_t len) {
  return guarded(fit, __func__, [&] {
    copy_to_buffer(start_at(fit_result_state(fit), rank).start, out, len, "out");
  });
}

int odesens_fit_result_end_point(const odesens_fit_result* fit, int64_t rank, double* out,
                                 int64_t len) {
  return guarded(fit, __func__, [&] {
    copy_to_buffer(start_at(fit_result_state(fit), rank).end, out, len, "out");
  });
}

int odesens_fit_result_best(const odesens_fit_result* fit, double* out, int64_t len,
                            double* nlpost) {
  return guarded(fit, __func__, [&] {
    const StartResult& best = best_start(fit_result_state(fit));
    copy_to_buffer(best.end, out, len, "out");
    if (nlpost) *nlpost = best.nlpost;
  });
}

int odesens_fit_result_write_h5(const odesens_fit_result* fit, const char* path) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    fitting::write_fit_h5(require_path(path, "path"), *state.problem, state.fit, "path");
  });
}

int odesens_fit_result_write_best(const odesens_fit_result* fit, const char* path) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    const std::string p = require_path(path, "path");
    state.problem->write_parameter_table(best_start(state).end, p);
  });
}

int odesens_fit_result_plot(const odesens_fit_result* fit, const char* folder) {
  return guarded(fit, __func__, [&] {
    const FitResultState& state = fit_result_state(fit);
    const std::string f = require_path(folder, "folder");
    static_cast<void>(best_start(state));
    fitting::plot_fit(*state.problem, state.fit, f);
  });
}

}  // extern "C"
