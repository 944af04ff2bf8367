// The Problem a command line describes: the model loaded with its
// --sens-params, the parameters, times, tolerances and method options of
// the run flags.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "odesens/odesens.hpp"

namespace odesens::cli {

LoadOptions load_options(const std::optional<std::vector<std::string>>& sens_params);

// --option KEY=TEXT typed by the method's declaration of KEY (UsageError for
// a number option given text); an undeclared key is kept as text for the
// method's validation to name.
void set_option(Options& options, const MethodInfo& info, const std::string& key,
                const std::string& text);

// The problem of `a` on `model` for the method `info`: the model's nominal
// parameters with each --param set, --t0 (default the model's), --tout
// (default the model's span at 101 points), the tolerances, --max-steps and
// every --option typed by the method's declaration (only those the method
// declares with only_declared). UsageError on an unknown parameter or a
// malformed value.
Problem build_problem(const RunArguments& a, const std::shared_ptr<Model>& model,
                      const MethodInfo& info, bool only_declared = false);

}  // namespace odesens::cli
