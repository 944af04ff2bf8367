// The handle types behind the opaque C typedefs, and how a handle is
// recognised from a bare pointer.
//
// Every handle starts with a HandleHeader: its kind and the message of its
// last failed call. odesens_errmsg() receives a `const void*`, so it must
// read the header without knowing the handle's type; that is well defined
// because each handle is standard-layout with the header as first member
// (asserted below), which makes the handle and its header
// pointer-interconvertible. The state proper lives behind an owning
// pointer, whose layout is standard where std::map's (in Result, Options)
// is not.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "capi_model_state.hpp"
#include "odesens.h"
#include "odesens/fit.hpp"
#include "odesens/methods.hpp"
#include "odesens/petab.hpp"
#include "odesens/profile.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"
#include "odesens/session.hpp"
#include "odesens/status.hpp"

namespace odesens::capi {

// Tags chosen to be unlikely in memory that is not a handle; `freed` is
// written on destruction so that use after free is recognised more often.
enum class HandleKind : std::uint32_t {
  model = 0x6f64736d,
  solver = 0x6f647373,
  result = 0x6f647372,
  ensemble = 0x6f647365,
  petab = 0x6f647370,
  fit_options = 0x6f64736f,
  fit_result = 0x6f647366,
  profile_result = 0x6f64736c,
  freed = 0x66726565,
};

struct HandleHeader {
  HandleKind kind;
  mutable std::string message;  // const handles record failures too
};

struct SolverState {
  std::string method;
  const MethodInfo* info = nullptr;  // points into the static method registry
  Problem problem;                   // holds the shared reference to the model
  std::vector<std::string> observables;  // evaluated at the output times after each solve
  // The session of the last solve and the problem it was prepared from:
  // reused while the problem differs from that one only in parameters,
  // initial state and output times.
  std::unique_ptr<MethodSession> session;
  Problem prepared_from;
  // odesens_solve is under way (a callback of the model may call back into
  // the solver: a nested solve on the same session broke the outer one).
  bool solving = false;
};

struct ResultState {
  Result result;
  // What the written documents name and give besides the result
  // (odesens_result_write): the model solved and its parameter vector.
  std::shared_ptr<const Model> model;
  std::vector<double> params;
  std::vector<std::string> stat_names;  // fixed statistics, then the method's own
  std::vector<std::string> observable_names;
  std::vector<std::vector<double>> observable_values;  // [observable][time]
  std::size_t n_objectives = 0;  // of the problem for gradient methods, 0 for the others
};

// Result state of one solved problem: what odesens_solve hands out, and
// what an ensemble keeps per member.
std::unique_ptr<ResultState> make_result_state(const SolverState& solver, const Problem& problem,
                                               Result result);

struct EnsembleMemberState {
  Status status = Status::ok;
  std::string message;
  std::unique_ptr<ResultState> result;  // null for a failed member
};

struct EnsembleState {
  std::vector<EnsembleMemberState> members;
  std::size_t failed = 0;
};

struct PetabState {
  std::shared_ptr<const PetabProblem> problem;
  // Made on the first evaluation and kept: later evaluations reuse the
  // method's set-up (the handle is used by one thread at a time).
  std::unique_ptr<PetabSession> session;
  // Of the last evaluation that succeeded (odesens_petab_warning).
  std::vector<std::string> warnings;
};

// Settings shared by fits and profiles: the C++ options of both, of which
// each call takes its part (fit: starts, seed, start points; profile:
// max_points).
struct FitOptionsState {
  FitOptions fit;
  std::size_t profile_max_points = ProfileOptions{}.max_points;
  // odesens_fit_options_stop: read by the fits and profiles running with
  // these options, set from another thread.
  mutable std::atomic<bool> stop{false};
};

// A result keeps its problem, so that it can be written and drawn (the
// documents name the parameters and the bounds) after the problem's handle
// is freed.
struct FitResultState {
  std::shared_ptr<const PetabProblem> problem;
  FitResult fit;
};

struct ProfileResultState {
  std::shared_ptr<const PetabProblem> problem;
  std::vector<Profile> profiles;
  double confidence = 0.0;
};

// The owner of a handle's state. Not std::unique_ptr: libstdc++'s is not
// standard-layout when compiled by clang, and the handles must be.
template <class T>
class OwnedState {
 public:
  OwnedState(std::unique_ptr<T> state) noexcept : state_(state.release()) {}  // NOLINT: implicit
  OwnedState(const OwnedState&) = delete;
  OwnedState& operator=(const OwnedState&) = delete;
  ~OwnedState() { delete state_; }
  T& operator*() const noexcept { return *state_; }

 private:
  T* state_;
};

}  // namespace odesens::capi

struct odesens_model {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::ModelState> state;
};

struct odesens_solver {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::SolverState> state;
};

struct odesens_result {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::ResultState> state;
};

struct odesens_ensemble {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::EnsembleState> state;
};

struct odesens_petab {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::PetabState> state;
};

struct odesens_fit_options {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::FitOptionsState> state;
};

struct odesens_fit_result {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::FitResultState> state;
};

struct odesens_profile_result {
  odesens::capi::HandleHeader header;
  odesens::capi::OwnedState<odesens::capi::ProfileResultState> state;
};

static_assert(std::is_standard_layout_v<odesens_model> &&
                  std::is_standard_layout_v<odesens_solver> &&
                  std::is_standard_layout_v<odesens_result> &&
                  std::is_standard_layout_v<odesens_ensemble> &&
                  std::is_standard_layout_v<odesens_petab> &&
                  std::is_standard_layout_v<odesens_fit_options> &&
                  std::is_standard_layout_v<odesens_fit_result> &&
                  std::is_standard_layout_v<odesens_profile_result>,
              "odesens_errmsg reads the header of any handle through a const void*");

namespace odesens::capi {

// The header of a live handle of any kind, or nullptr for NULL or memory
// that does not look like a handle.
const HandleHeader* header_of(const void* handle) noexcept;

// The state behind a handle, or Error(null_handle) naming what was expected
// when the handle is NULL or of another kind.
ModelState& model_state(odesens_model* model);
const ModelState& model_state(const odesens_model* model);
SolverState& solver_state(odesens_solver* solver);
// solver_state, refused (invalid_argument) while the solver solves.
SolverState& idle_solver(odesens_solver* solver);
const ResultState& result_state(const odesens_result* result);
const EnsembleState& ensemble_state(const odesens_ensemble* ensemble);
PetabState& petab_state(odesens_petab* petab);
const PetabState& petab_state(const odesens_petab* petab);
FitOptionsState& fit_options_state(odesens_fit_options* options);
const FitOptionsState& fit_options_state(const odesens_fit_options* options);
const FitResultState& fit_result_state(const odesens_fit_result* fit);
const ProfileResultState& profile_result_state(const odesens_profile_result* profiles);

// Deletes a handle of the expected kind; NULL and other kinds are ignored
// (freeing is the one call that cannot report an error).
template <class Handle>
void free_handle(Handle* handle, HandleKind kind) noexcept {
  const HandleHeader* header = header_of(handle);
  if (!header || header->kind != kind) return;
  handle->header.kind = HandleKind::freed;
  delete handle;
}

}  // namespace odesens::capi
