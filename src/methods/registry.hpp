// The registry's entries: what a method is (MethodInfo) and how it is set
// up on a problem (its prepare function). Internal to the methods layer.
#pragma once

#include <string>

#include "methods/common/prepared_method.hpp"
#include "odesens/methods.hpp"

namespace odesens {

struct MethodEntry {
  MethodInfo info;
  methods::PrepareFunction prepare;
};

// Throws Error(unknown_method) listing the known ids.
const MethodEntry& method_entry(const std::string& id);

// The checks of check_method_needs on what a run may change (RunInputs):
// a given dx0/dp, which the set-valued methods cannot take.
void check_run_inputs(const std::string& method_id, const MethodCapabilities& needs,
                      const Problem& problem);

}  // namespace odesens
