// Consumer of the installed C++ API: forward sensitivities of Chua's circuit.
#include <odesens/odesens.hpp>

#include <cmath>
#include <cstdio>

int main() {
  try {
    odesens::Problem problem;
    problem.model = odesens::load_model("builtin:chua");
    problem.output_times = {1.0, 5.0, 10.0};
    const odesens::Result r = odesens::solve(problem, "cvodes_fsa");
    const std::size_t n_s = r.s_times.size();
    if (n_s != problem.output_times.size() || r.s.size() != r.nx * r.np * n_s || r.s.empty()) {
      std::fprintf(stderr, "consumer_cpp: unexpected sizes (nx %zu, np %zu, %zu S blocks)\n", r.nx,
                   r.np, n_s);
      return 1;
    }
    for (double v : r.s) {
      if (!std::isfinite(v)) {
        std::fprintf(stderr, "consumer_cpp: S is not finite\n");
        return 1;
      }
    }
    std::printf("odesens %s, builtin:chua, cvodes_fsa: nx = %zu, np = %zu, dx_0/dp_0(t=10) = %.10g\n",
                ODESENS_VERSION_STRING, r.nx, r.np, r.s_at(n_s - 1, 0, 0));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer_cpp: %s\n", e.what());
    return 1;
  }
}
