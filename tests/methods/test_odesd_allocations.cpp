// odesd's step loop allocates nothing: every buffer is sized when the
// stepper is made, and the Newton matrix reuses its factorization storage
// (KLU allocates its numeric factorization once, on the first step).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "methods/odesd/odesd_options.hpp"
#include "methods/odesd/odesd_stepper.hpp"
#include "odesens/odesens.hpp"
#include "support/allocation_counter.hpp"

namespace odesens {
namespace {

void expect_steps_allocate_nothing(const std::string& spec, bool sensitivities,
                                   const std::string& solver) {
  auto model = make_builtin_model(spec);
  Problem problem;
  problem.model = model;
  problem.output_times = {model->default_t_end()};
  problem.rtol = 1e-6;
  problem.atol = {1e-8};
  Options given;
  given.set("linear_solver", solver);
  const MethodOptions options("odesd", odesd::option_specs(), given);
  const odesd::Settings settings = odesd::read_settings(problem, options);
  const std::vector<double> p = model->nominal_params();
  auto ws = model->make_workspace(1);
  std::vector<double> x0(model->nx()), S0(model->nx() * model->np(), 0.0);
  model->initial_state(p.data(), x0.data(), ws.get());
  odesd::OdesdStepper stepper(*model, p.data(), ws.get(), settings, 0.0, x0.data(),
                              sensitivities ? S0.data() : nullptr, problem.output_times[0]);
  const double t_end = problem.output_times[0];
  stepper.step(t_end);  // KLU's first numeric factorization allocates
  allocations = 0;
  counting = true;
  for (int k = 0; k < 20 && stepper.t() < t_end; ++k) stepper.step(t_end);
  counting = false;
  EXPECT_EQ(allocations, 0) << spec << " sensitivities " << sensitivities << " " << solver;
  EXPECT_GT(stepper.stats().steps, 5u) << spec;
}

TEST(OdesdAllocations, StepsAllocateNothing) {
  for (const bool s : {false, true}) {
    expect_steps_allocate_nothing("chua", s, "dense");
    expect_steps_allocate_nothing("glv:5", s, "dense");
    expect_steps_allocate_nothing("network:120", s, "klu");
  }
}

}  // namespace
}  // namespace odesens
