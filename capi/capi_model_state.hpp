// What an odesens_model handle holds: either a finished model (a built-in)
// or the specification of a callback model that C code builds up one setter
// at a time.
//
// A callback model is turned into a C++ Model lazily, when a solver first
// asks for it, and the result is cached until the next setter. Building
// only once the caller has said everything keeps the setters independent of
// their order (except that a sparse Jacobian needs its pattern), and the
// cache lets many solvers share one immutable Model. Solvers keep their own
// shared_ptr, so changing or freeing the handle never affects them.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "odesens/callback_model.hpp"
#include "odesens/model.hpp"

namespace odesens::capi {

class ModelState {
 public:
  explicit ModelState(CallbackModelSpec spec);
  explicit ModelState(std::shared_ptr<const Model> builtin);

  // The spec to change; throws Error(unsupported) for a built-in model.
  // Drops the cached model, which no longer matches.
  CallbackModelSpec& spec_to_change(const char* what);
  const CallbackModelSpec* spec() const { return spec_ ? &*spec_ : nullptr; }

  // The C++ model, built on first use. Safe to call from several threads
  // (solver creation in parallel), not concurrently with spec_to_change.
  std::shared_ptr<const Model> model() const;

  std::size_t nx() const;
  std::size_t np() const;
  const std::string& state_name(std::size_t i) const;
  const std::string& param_name(std::size_t i) const;
  std::vector<double> nominal_params() const;

 private:
  std::optional<CallbackModelSpec> spec_;
  mutable std::shared_ptr<const Model> model_;
  mutable std::mutex build_mutex_;
};

}  // namespace odesens::capi
