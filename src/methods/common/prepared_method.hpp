// A method set up on a problem: what MethodSession (odesens/session.hpp)
// runs. Each method's folder gives a prepare function in the registry; one
// that keeps nothing between runs is wrapped by keeps_nothing().
#pragma once

#include <functional>
#include <memory>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::methods {

class PreparedMethod {
 public:
  virtual ~PreparedMethod() = default;
  // Solves `problem`: the prepared problem with this run's parameters,
  // initial state and output times, validated. Everything else (the model,
  // tolerances, options, weights) is as it was prepared.
  virtual Result run(const Problem& problem) = 0;
};

using SolveFunction = std::function<Result(const Problem&, const MethodOptions&)>;
using PrepareFunction =
    std::function<std::unique_ptr<PreparedMethod>(const Problem&, const MethodOptions&)>;

// The prepare function of a method that sets up everything inside each solve.
PrepareFunction keeps_nothing(SolveFunction solve);

}  // namespace odesens::methods
