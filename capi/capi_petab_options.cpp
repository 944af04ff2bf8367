#include "capi_petab_options.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "odesens/methods.hpp"
#include "odesens/status.hpp"

namespace odesens::capi {
namespace {

// A tolerance: <= 0 for the default, NaN or Inf refused.
std::optional<double> tolerance(double value, const char* name) {
  if (!std::isfinite(value))
    throw Error(Status::not_finite, std::string(name) + " is NaN or Inf");
  if (value <= 0) return std::nullopt;
  return value;
}

}  // namespace

std::string petab_method(const char* method) {
  const std::string id = method && *method ? method : "auto";
  if (id != "auto") static_cast<void>(method_info(id));  // throws for an unknown id
  return id;
}

void set_petab_tolerances(PetabOptions& options, double rtol, double atol) {
  const std::optional<double> r = tolerance(rtol, "rtol");
  if (r && *r >= 1)
    throw Error(Status::invalid_argument,
                "rtol must be below 1 (got " + std::to_string(*r) + ")");
  const std::optional<double> a = tolerance(atol, "atol");
  options.rtol = r;
  options.atol.clear();
  if (a) options.atol = {*a};
}

}  // namespace odesens::capi
