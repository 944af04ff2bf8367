#include "capi_handles.hpp"

#include "odesens/status.hpp"

namespace odesens::capi {
namespace {

const char* kind_name(HandleKind kind) {
  switch (kind) {
    case HandleKind::model: return "a model";
    case HandleKind::solver: return "a solver";
    case HandleKind::result: return "a result";
    case HandleKind::ensemble: return "an ensemble";
    case HandleKind::petab: return "a PEtab problem";
    case HandleKind::fit_options: return "fit options";
    case HandleKind::fit_result: return "a fit result";
    case HandleKind::profile_result: return "a profile result";
    case HandleKind::freed: return "a freed handle";
  }
  return "not an odesens handle";
}

// Throws unless `header` is a live handle of `expected` kind.
void require_kind(const HandleHeader* header, HandleKind expected, const char* name) {
  if (!header) throw Error(Status::null_handle, std::string("the ") + name + " handle is NULL");
  if (header->kind != expected)
    throw Error(Status::null_handle, std::string("the ") + name + " handle is " +
                                         kind_name(header->kind) + ", not " +
                                         kind_name(expected));
}

// Valid for any handle type: every handle is standard-layout with the
// header first, so the two are pointer-interconvertible.
const HandleHeader* raw_header(const void* handle) {
  return static_cast<const HandleHeader*>(handle);
}

}  // namespace

const HandleHeader* header_of(const void* handle) noexcept {
  if (!handle) return nullptr;
  const HandleHeader* header = raw_header(handle);
  switch (header->kind) {
    case HandleKind::model:
    case HandleKind::solver:
    case HandleKind::result:
    case HandleKind::ensemble:
    case HandleKind::petab:
    case HandleKind::fit_options:
    case HandleKind::fit_result:
    case HandleKind::profile_result: return header;
    case HandleKind::freed: break;
  }
  return nullptr;
}

ModelState& model_state(odesens_model* model) {
  require_kind(raw_header(model), HandleKind::model, "model");
  return *model->state;
}

const ModelState& model_state(const odesens_model* model) {
  require_kind(raw_header(model), HandleKind::model, "model");
  return *model->state;
}

SolverState& solver_state(odesens_solver* solver) {
  require_kind(raw_header(solver), HandleKind::solver, "solver");
  return *solver->state;
}

// A solver changed or run again from inside its own solve (a model callback
// that calls back into it): refused, as the solve in progress reads it.
SolverState& idle_solver(odesens_solver* solver) {
  SolverState& s = solver_state(solver);
  if (s.solving)
    throw Error(Status::invalid_argument,
                "the solver is solving (called from a callback of its own solve?): a solver "
                "runs one solve at a time and is not changed during it; create another solver "
                "for a nested solve");
  return s;
}

const ResultState& result_state(const odesens_result* result) {
  require_kind(raw_header(result), HandleKind::result, "result");
  return *result->state;
}

const EnsembleState& ensemble_state(const odesens_ensemble* ensemble) {
  require_kind(raw_header(ensemble), HandleKind::ensemble, "ensemble");
  return *ensemble->state;
}

PetabState& petab_state(odesens_petab* petab) {
  require_kind(raw_header(petab), HandleKind::petab, "PEtab problem");
  return *petab->state;
}

const PetabState& petab_state(const odesens_petab* petab) {
  require_kind(raw_header(petab), HandleKind::petab, "PEtab problem");
  return *petab->state;
}

FitOptionsState& fit_options_state(odesens_fit_options* options) {
  require_kind(raw_header(options), HandleKind::fit_options, "fit options");
  return *options->state;
}

const FitOptionsState& fit_options_state(const odesens_fit_options* options) {
  require_kind(raw_header(options), HandleKind::fit_options, "fit options");
  return *options->state;
}

const FitResultState& fit_result_state(const odesens_fit_result* fit) {
  require_kind(raw_header(fit), HandleKind::fit_result, "fit result");
  return *fit->state;
}

const ProfileResultState& profile_result_state(const odesens_profile_result* profiles) {
  require_kind(raw_header(profiles), HandleKind::profile_result, "profile result");
  return *profiles->state;
}

}  // namespace odesens::capi
