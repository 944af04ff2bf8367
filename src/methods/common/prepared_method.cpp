#include "methods/common/prepared_method.hpp"

#include <utility>

namespace odesens::methods {
namespace {

// Each run is one call of the method's solve function with the options
// read at prepare().
class StatelessMethod final : public PreparedMethod {
 public:
  StatelessMethod(SolveFunction solve, MethodOptions options)
      : solve_(std::move(solve)), options_(std::move(options)) {}
  Result run(const Problem& problem) override { return solve_(problem, options_); }

 private:
  SolveFunction solve_;
  MethodOptions options_;
};

}  // namespace

PrepareFunction keeps_nothing(SolveFunction solve) {
  return [solve = std::move(solve)](const Problem&, const MethodOptions& options) {
    return std::unique_ptr<PreparedMethod>(std::make_unique<StatelessMethod>(solve, options));
  };
}

}  // namespace odesens::methods
