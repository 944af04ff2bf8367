#include <cstdio>
#include <odesens/odesens.hpp>

int main() {
  odesens::Problem problem;
  problem.model = odesens::load_model("builtin:chua");   // or "model.xml", "model.ode"
  problem.output_times = {1.0, 5.0, 10.0};
  odesens::Result r = odesens::solve(problem, "cvodes_fsa");   // throws odesens::Error
  std::printf("dx_1/dp_2 at t = 10: %g\n", r.s_at(2, 0, 1));
}
